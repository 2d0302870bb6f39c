import {
  app,
  dialog,
  Menu,
  shell,
  type BrowserWindow,
  type MenuItemConstructorOptions,
} from 'electron';
import { assertNever } from '../common/result';
import type { Settings } from '../common/view-models';
import type { AppCore } from '../core/app-core';
import {
  buildMenuModel,
  isExternalHelpUrl,
  type MenuAction,
  type MenuNode,
} from '../core/desktop/menu-model';

export interface ApplicationMenuDeps {
  readonly core: AppCore;
  readonly window: () => BrowserWindow | null;
  readonly isDev: boolean;
  readonly log: (line: string) => void;
  readonly updates?: {
    readonly available: boolean;
    readonly ready: boolean;
    check(): void;
    restart(): void;
  };
}

/**
 * The application menu: electron/core/desktop/menu-model.ts decides what it holds; this turns
 * the model into Electron's Menu and runs each action. Every action goes through the core
 * (sync, settings, updates) or the `app:command` event the page listens to; the menu never
 * touches the page's DOM.
 */
export function buildApplicationMenu(options: ApplicationMenuDeps): Menu {
  const model = buildMenuModel({
    isMac: process.platform === 'darwin',
    isDev: options.isDev,
    appName: app.getName(),
    updatesAvailable: options.updates?.available ?? false,
    updateReady: options.updates?.ready ?? false,
  });
  const run = (action: MenuAction) => runMenuAction(options, action);
  return Menu.buildFromTemplate(model.map((node) => toElectron(node, run)));
}

function runMenuAction(options: ApplicationMenuDeps, action: MenuAction): void {
  const { core } = options;
  switch (action.kind) {
    case 'page': {
      const win = options.window();
      if (!win) return;
      if (win.isMinimized()) win.restore();
      win.show();
      win.webContents.send('app:command', action.command);
      return;
    }
    case 'sync-all':
      void core.syncAll().catch(() => options.log('menu: sync failed'));
      return;
    case 'toggle-theme':
      void toggleTheme(core);
      return;
    case 'about':
      showAbout(options.window());
      return;
    case 'check-updates':
      options.updates?.check();
      return;
    case 'restart-to-update':
      options.updates?.restart();
      return;
    case 'open-external':
      // The system browser, https only (Electron security checklist #15: never navigate the
      // app's window away).
      if (isExternalHelpUrl(action.url)) void shell.openExternal(action.url);
      return;
    default:
      assertNever(action);
  }
}

async function toggleTheme(core: AppCore): Promise<void> {
  const current = await core.handlers['settings:get'](undefined);
  if (!current.ok) return;
  // 'system' resolves to what the page shows now; the toggle makes the choice explicit.
  const next: Settings['theme'] = current.value.theme === 'dark' ? 'light' : 'dark';
  await core.handlers['settings:update']({ theme: next });
}

function showAbout(win: BrowserWindow | null): void {
  const text = {
    type: 'info' as const,
    title: 'About Learning Desktop',
    message: `Learning Desktop ${app.getVersion()}`,
    detail: 'Your courses, progress, purchases and notices, available offline.',
  };
  void (win ? dialog.showMessageBox(win, text) : dialog.showMessageBox(text));
}

function toElectron(node: MenuNode, run: (action: MenuAction) => void): MenuItemConstructorOptions {
  switch (node.type) {
    case 'separator':
      return { type: 'separator' };
    case 'role':
      return node.accelerator
        ? { role: node.role, accelerator: node.accelerator }
        : { role: node.role };
    case 'command':
      return {
        label: node.label,
        ...(node.accelerator ? { accelerator: node.accelerator } : {}),
        ...(node.enabled === undefined ? {} : { enabled: node.enabled }),
        click: () => run(node.action),
      };
    case 'submenu':
      return {
        label: node.label,
        ...(node.role ? { role: node.role } : {}),
        submenu: node.items.map((item) => toElectron(item, run)),
      };
    default:
      return assertNever(node);
  }
}
