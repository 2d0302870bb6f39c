/**
 * The application menu as plain data (File, Edit, View, Go, Window, Help, and the macOS app menu).
 * electron/main/menu.ts turns it into Electron's Menu and runs each item's action; what the menu
 * holds, its accelerators and where its links go are decided here and tested in plain Node.
 * Accelerators come from the one shortcut table (electron/common/shortcuts.ts) that the browser
 * host's page uses too.
 */
import { acceleratorOf, SHORTCUTS, type AppCommand, type Shortcut } from '../../common/shortcuts';

/** What clicking an item does. Page commands go to the window as an `app:command` event. */
export type MenuAction =
  | { readonly kind: 'page'; readonly command: AppCommand }
  | { readonly kind: 'sync-all' }
  | { readonly kind: 'toggle-theme' }
  | { readonly kind: 'about' }
  | { readonly kind: 'check-updates' }
  | { readonly kind: 'restart-to-update' }
  /** Opened in the system browser, never in an app window. */
  | { readonly kind: 'open-external'; readonly url: string };

/**
 * Electron's built-in roles the menu uses (a subset of electron.d.ts
 * MenuItemConstructorOptions['role']).
 */
export type MenuRole =
  | 'undo'
  | 'redo'
  | 'cut'
  | 'copy'
  | 'paste'
  | 'pasteAndMatchStyle'
  | 'delete'
  | 'selectAll'
  | 'reload'
  | 'toggleDevTools'
  | 'resetZoom'
  | 'zoomIn'
  | 'zoomOut'
  | 'togglefullscreen'
  | 'minimize'
  | 'zoom'
  | 'close'
  | 'front'
  | 'quit'
  | 'services'
  | 'hide'
  | 'hideOthers'
  | 'unhide';

export type MenuNode =
  | {
      readonly type: 'command';
      readonly label: string;
      readonly action: MenuAction;
      readonly accelerator?: string;
      readonly enabled?: boolean;
    }
  | { readonly type: 'role'; readonly role: MenuRole; readonly accelerator?: string }
  | { readonly type: 'separator' }
  | {
      readonly type: 'submenu';
      readonly label: string;
      readonly role?: 'window' | 'help';
      readonly items: readonly MenuNode[];
    };

/**
 * The project's help pages. https only: they open in the system browser (Electron security
 * checklist #14/#15).
 */
export const HELP_LINKS = {
  help: 'https://learningdesktop.app/help',
  reportProblem: 'https://learningdesktop.app/help/report-a-problem',
} as const;

/** Menu labels of the Go items, in the order of Ctrl/Cmd+1..6. */
const SCREEN_LABELS: Readonly<Record<string, string>> = {
  library: 'Library',
  notifications: 'Notices',
  billing: 'Purchases',
  entitlements: 'Access',
  consulting: 'Consulting',
  profile: 'Profile',
};

export interface MenuModelOptions {
  readonly isMac: boolean;
  /** Run from a checkout: Reload and the developer tools are offered. */
  readonly isDev: boolean;
  readonly appName: string;
  /**
   * An update has been downloaded: Help offers "Restart to Update" instead of "Check for Updates…".
   */
  readonly updateReady?: boolean;
  /** No update feed is configured (or this build cannot update): the check is shown disabled. */
  readonly updatesAvailable?: boolean;
}

const shortcut = (id: string): Shortcut => {
  const s = SHORTCUTS.find((x) => x.id === id);
  if (!s) throw new Error(`no shortcut ${id}`);
  return s;
};
const page = (label: string, id: string): MenuNode => {
  const s = shortcut(id);
  return {
    type: 'command',
    label,
    action: { kind: 'page', command: s.command },
    accelerator: acceleratorOf(s),
  };
};
const separator: MenuNode = { type: 'separator' };

const role = (r: MenuRole): MenuNode => ({ type: 'role', role: r });

function aboutItem(options: MenuModelOptions): MenuNode {
  return { type: 'command', label: `About ${options.appName}`, action: { kind: 'about' } };
}

/** macOS only: the app menu (Apple HIG), with About, Settings and Quit. */
function appMenu(options: MenuModelOptions): MenuNode | null {
  if (!options.isMac) return null;
  return {
    type: 'submenu',
    label: options.appName,
    items: [
      aboutItem(options),
      separator,
      page('Settings…', 'settings'),
      separator,
      role('services'),
      separator,
      role('hide'),
      role('hideOthers'),
      role('unhide'),
      separator,
      role('quit'),
    ],
  };
}

function fileMenu({ isMac }: MenuModelOptions): MenuNode {
  return {
    type: 'submenu',
    label: 'File',
    items: [
      {
        type: 'command',
        label: 'Sync Now',
        action: { kind: 'sync-all' },
        accelerator: acceleratorOf(shortcut('sync-now')),
      },
      // On macOS, Settings lives in the app menu (Apple HIG); elsewhere in File.
      ...(isMac ? [] : [page('Settings…', 'settings')]),
      separator,
      // macOS: closing the window keeps the app in the dock; Quit is in the app menu.
      isMac ? role('close') : role('quit'),
    ],
  };
}

function editMenu({ isMac }: MenuModelOptions): MenuNode {
  return {
    type: 'submenu',
    label: 'Edit',
    items: [
      role('undo'),
      role('redo'),
      separator,
      role('cut'),
      role('copy'),
      role('paste'),
      ...(isMac ? [role('pasteAndMatchStyle')] : []),
      role('selectAll'),
      separator,
      page('Find…', 'search'),
    ],
  };
}

function viewMenu({ isDev }: MenuModelOptions): MenuNode {
  return {
    type: 'submenu',
    label: 'View',
    items: [
      // Reloading is a developer tool (it only drops the page's state in a release); Ctrl/Cmd+R is
      // Sync Now, so Reload moves to Shift.
      ...(isDev
        ? [
            { type: 'role', role: 'reload', accelerator: 'CmdOrCtrl+Shift+R' } as const,
            role('toggleDevTools'),
            separator,
          ]
        : []),
      {
        type: 'command',
        label: 'Toggle Theme',
        action: { kind: 'toggle-theme' },
        accelerator: 'CmdOrCtrl+Shift+L',
      },
      separator,
      role('resetZoom'),
      role('zoomIn'),
      role('zoomOut'),
      separator,
      role('togglefullscreen'),
    ],
  };
}

function goMenu({ isMac }: MenuModelOptions): MenuNode {
  return {
    type: 'submenu',
    label: 'Go',
    items: [
      // The platform's own keys for Back and Forward (Apple HIG: Cmd+[ and Cmd+]; Windows and
      // Linux: Alt+arrows).
      {
        type: 'command',
        label: 'Back',
        action: { kind: 'page', command: { command: 'history', direction: 'back' } },
        accelerator: isMac ? 'Cmd+[' : 'Alt+Left',
      },
      {
        type: 'command',
        label: 'Forward',
        action: { kind: 'page', command: { command: 'history', direction: 'forward' } },
        accelerator: isMac ? 'Cmd+]' : 'Alt+Right',
      },
      separator,
      page('Command Palette…', 'palette'),
      separator,
      ...SHORTCUTS.filter((s) => s.command.command === 'go').map((s) =>
        page(SCREEN_LABELS[(s.command as { screen: string }).screen] ?? s.id, s.id),
      ),
    ],
  };
}

function windowMenu({ isMac }: MenuModelOptions): MenuNode {
  return {
    type: 'submenu',
    label: 'Window',
    role: 'window',
    items: [
      role('minimize'),
      role('zoom'),
      ...(isMac ? [separator, role('front')] : [role('close')]),
    ],
  };
}

function helpMenu(options: MenuModelOptions): MenuNode {
  const updateItem: MenuNode = options.updateReady
    ? { type: 'command', label: 'Restart to Update', action: { kind: 'restart-to-update' } }
    : {
        type: 'command',
        label: 'Check for Updates…',
        action: { kind: 'check-updates' },
        enabled: options.updatesAvailable ?? false,
      };
  return {
    type: 'submenu',
    label: 'Help',
    role: 'help',
    items: [
      {
        type: 'command',
        label: 'Keyboard Shortcuts',
        action: { kind: 'page', command: { command: 'show-shortcuts' } },
      },
      separator,
      {
        type: 'command',
        label: `${options.appName} Help`,
        action: { kind: 'open-external', url: HELP_LINKS.help },
      },
      {
        type: 'command',
        label: 'Report a Problem',
        action: { kind: 'open-external', url: HELP_LINKS.reportProblem },
      },
      separator,
      updateItem,
      ...(options.isMac ? [] : [separator, aboutItem(options)]),
    ],
  };
}

/** The menu bar, left to right: each menu made from the options (null: not on this platform). */
const MENUS: readonly ((options: MenuModelOptions) => MenuNode | null)[] = [
  appMenu,
  fileMenu,
  editMenu,
  viewMenu,
  goMenu,
  windowMenu,
  helpMenu,
];

export function buildMenuModel(options: MenuModelOptions): readonly MenuNode[] {
  return MENUS.map((menu) => menu(options)).filter((menu): menu is MenuNode => menu !== null);
}

/** Every command item of a model, depth first (tests, and the host's accelerator check). */
export function commandItems(model: readonly MenuNode[]): Extract<MenuNode, { type: 'command' }>[] {
  return model.flatMap((n) =>
    n.type === 'submenu' ? commandItems(n.items) : n.type === 'command' ? [n] : [],
  );
}

/** Help links open in the system browser only, and only https ones. */
export function isExternalHelpUrl(url: string): boolean {
  try {
    return new URL(url).protocol === 'https:';
  } catch {
    return false;
  }
}
