import { describe, expect, it } from 'vitest';
import {
  acceleratorOf,
  matchShortcut,
  SHORTCUT_SCREENS,
  SHORTCUTS,
  shortcutLabel,
  type KeyPress,
} from '../../../electron/common/shortcuts';
import {
  buildMenuModel,
  commandItems,
  HELP_LINKS,
  isExternalHelpUrl,
  type MenuNode,
} from '../../../electron/core/desktop/menu-model';

const labels = (model: readonly MenuNode[]) =>
  model.map((n) => (n.type === 'submenu' ? n.label : n.type));
const submenu = (model: readonly MenuNode[], label: string) => {
  const node = model.find((n) => n.type === 'submenu' && n.label === label);
  if (!node || node.type !== 'submenu') throw new Error(`no ${label} menu`);
  return node.items;
};
const roles = (items: readonly MenuNode[]) =>
  items.flatMap((n) => (n.type === 'role' ? [n.role] : []));

describe('application menu model', () => {
  const mac = buildMenuModel({
    isMac: true,
    isDev: false,
    appName: 'Learning Desktop',
    updatesAvailable: true,
  });
  const win = buildMenuModel({
    isMac: false,
    isDev: false,
    appName: 'Learning Desktop',
    updatesAvailable: true,
  });

  it('has File, Edit, View, Go, Window and Help, and on macOS the app menu first', () => {
    expect(labels(win)).toEqual(['File', 'Edit', 'View', 'Go', 'Window', 'Help']);
    expect(labels(mac)).toEqual([
      'Learning Desktop',
      'File',
      'Edit',
      'View',
      'Go',
      'Window',
      'Help',
    ]);
    expect(roles(submenu(mac, 'Learning Desktop'))).toEqual([
      'services',
      'hide',
      'hideOthers',
      'unhide',
      'quit',
    ]);
  });

  it('puts every shortcut of the shared table on a menu item with its accelerator, once', () => {
    for (const model of [mac, win]) {
      const accelerators = commandItems(model).flatMap((c) =>
        c.accelerator ? [c.accelerator] : [],
      );
      for (const s of SHORTCUTS)
        expect(
          accelerators.filter((a) => a === acceleratorOf(s)),
          s.id,
        ).toHaveLength(1);
      // No two items share an accelerator.
      expect(new Set(accelerators).size).toBe(accelerators.length);
    }
  });

  it('Ctrl/Cmd+1..6 open the six screens from Go, in the navigation order', () => {
    const go = commandItems(submenu(win, 'Go')).filter(
      (c) => c.action.kind === 'page' && c.action.command.command === 'go',
    );
    expect(go.map((c) => c.accelerator)).toEqual([
      'CmdOrCtrl+1',
      'CmdOrCtrl+2',
      'CmdOrCtrl+3',
      'CmdOrCtrl+4',
      'CmdOrCtrl+5',
      'CmdOrCtrl+6',
    ]);
    expect(
      go.map((c) =>
        c.action.kind === 'page' && c.action.command.command === 'go'
          ? c.action.command.screen
          : null,
      ),
    ).toEqual([...SHORTCUT_SCREENS]);
  });

  it('Go starts with Back and Forward on the keys of the platform, then the command palette on Ctrl/Cmd+K', () => {
    const page = (model: typeof win) =>
      commandItems(submenu(model, 'Go'))
        .slice(0, 3)
        .map((c) => [c.label, c.accelerator, c.action.kind === 'page' ? c.action.command : null]);
    expect(page(win)).toEqual([
      ['Back', 'Alt+Left', { command: 'history', direction: 'back' }],
      ['Forward', 'Alt+Right', { command: 'history', direction: 'forward' }],
      ['Command Palette…', 'CmdOrCtrl+K', { command: 'open-palette' }],
    ]);
    expect(page(mac).map((p) => p[1])).toEqual(['Cmd+[', 'Cmd+]', 'CmdOrCtrl+K']);
  });

  it('Ctrl/Cmd+R syncs every site, Ctrl/Cmd+F searches, Ctrl/Cmd+, opens Settings (in the app menu on macOS)', () => {
    expect(
      commandItems(submenu(win, 'File')).find((c) => c.accelerator === 'CmdOrCtrl+R')?.action,
    ).toEqual({ kind: 'sync-all' });
    expect(
      commandItems(submenu(win, 'Edit')).find((c) => c.accelerator === 'CmdOrCtrl+F')?.action,
    ).toEqual({
      kind: 'page',
      command: { command: 'focus-search' },
    });
    expect(
      commandItems(submenu(win, 'File')).find((c) => c.accelerator === 'CmdOrCtrl+,')?.action,
    ).toEqual({
      kind: 'page',
      command: { command: 'open-settings' },
    });
    expect(
      commandItems(submenu(mac, 'Learning Desktop')).find((c) => c.accelerator === 'CmdOrCtrl+,'),
    ).toBeDefined();
    expect(
      commandItems(submenu(mac, 'File')).find((c) => c.accelerator === 'CmdOrCtrl+,'),
    ).toBeUndefined();
  });

  it('macOS closes the window from File (the app stays in the dock); elsewhere File quits', () => {
    expect(roles(submenu(mac, 'File'))).toEqual(['close']);
    expect(roles(submenu(win, 'File'))).toEqual(['quit']);
  });

  it('offers Reload and the developer tools only from a checkout, with Reload off Ctrl/Cmd+R', () => {
    expect(roles(submenu(win, 'View'))).not.toContain('reload');
    expect(roles(submenu(win, 'View'))).not.toContain('toggleDevTools');
    const dev = submenu(buildMenuModel({ isMac: false, isDev: true, appName: 'X' }), 'View');
    expect(dev.find((n) => n.type === 'role' && n.role === 'reload')).toEqual({
      type: 'role',
      role: 'reload',
      accelerator: 'CmdOrCtrl+Shift+R',
    });
  });

  it('Help lists the keyboard shortcuts and links that open in the system browser, https only', () => {
    const help = commandItems(submenu(win, 'Help'));
    expect(help[0]).toMatchObject({
      label: 'Keyboard Shortcuts',
      action: { kind: 'page', command: { command: 'show-shortcuts' } },
    });
    const links = help.flatMap((c) => (c.action.kind === 'open-external' ? [c.action.url] : []));
    expect(links).toEqual([HELP_LINKS.help, HELP_LINKS.reportProblem]);
    for (const url of links) expect(isExternalHelpUrl(url)).toBe(true);
    for (const url of [
      'http://learningdesktop.app/help',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'app://learning-desktop/index.html',
      'nonsense',
    ])
      expect(isExternalHelpUrl(url)).toBe(false);
  });

  it('Help: the update check is disabled without a feed, and becomes "Restart to Update" once one is downloaded', () => {
    const none = commandItems(
      submenu(buildMenuModel({ isMac: false, isDev: false, appName: 'X' }), 'Help'),
    );
    expect(none.find((c) => c.action.kind === 'check-updates')?.enabled).toBe(false);
    expect(
      commandItems(submenu(win, 'Help')).find((c) => c.action.kind === 'check-updates')?.enabled,
    ).toBe(true);
    const ready = commandItems(
      submenu(
        buildMenuModel({ isMac: false, isDev: false, appName: 'X', updateReady: true }),
        'Help',
      ),
    );
    expect(ready.find((c) => c.action.kind === 'restart-to-update')?.label).toBe(
      'Restart to Update',
    );
    expect(ready.find((c) => c.action.kind === 'check-updates')).toBeUndefined();
  });
});

describe('shortcut table: matching key presses (browser host)', () => {
  const press = (key: string, mods: Partial<KeyPress> = {}): KeyPress => ({
    key,
    ctrlKey: false,
    metaKey: false,
    altKey: false,
    shiftKey: false,
    ...mods,
  });

  it('Ctrl elsewhere, Cmd on macOS', () => {
    expect(matchShortcut(press('1', { ctrlKey: true }), false)?.command).toEqual({
      command: 'go',
      screen: 'library',
    });
    expect(matchShortcut(press('6', { metaKey: true }), true)?.command).toEqual({
      command: 'go',
      screen: 'profile',
    });
    expect(matchShortcut(press('1', { metaKey: true }), false)).toBeNull();
    expect(matchShortcut(press('1', { ctrlKey: true }), true)).toBeNull();
  });

  it('letters match either case; "," opens Settings', () => {
    expect(matchShortcut(press('f', { ctrlKey: true }), false)?.id).toBe('search');
    expect(matchShortcut(press('F', { ctrlKey: true }), false)?.id).toBe('search');
    expect(matchShortcut(press('r', { ctrlKey: true }), false)?.id).toBe('sync-now');
    expect(matchShortcut(press(',', { ctrlKey: true }), false)?.id).toBe('settings');
  });

  it('no modifier, Shift or Alt (AltGr) is not a shortcut, and unknown keys are not either', () => {
    expect(matchShortcut(press('1'), false)).toBeNull();
    expect(matchShortcut(press('R', { ctrlKey: true, shiftKey: true }), false)).toBeNull();
    expect(matchShortcut(press('2', { ctrlKey: true, altKey: true }), false)).toBeNull();
    expect(matchShortcut(press('7', { ctrlKey: true }), false)).toBeNull();
    expect(matchShortcut(press('Enter', { ctrlKey: true }), false)).toBeNull();
  });

  it('labels say Ctrl+ or ⌘', () => {
    expect(shortcutLabel(SHORTCUTS[0]!, false)).toBe('Ctrl+1');
    expect(shortcutLabel(SHORTCUTS[0]!, true)).toBe('⌘1');
  });
});
