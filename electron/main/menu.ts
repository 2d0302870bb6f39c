import { app, dialog, Menu, type BrowserWindow, type MenuItemConstructorOptions } from 'electron';
import type { Settings } from '../common/view-models';
import type { AppCore } from '../core/app-core';

/**
 * The application menu. Every action goes through the core (sync, settings) or an event the page listens to
 * (`app:command`); the menu never touches the page's DOM.
 */
export function buildApplicationMenu(options: {
  readonly core: AppCore;
  readonly window: () => BrowserWindow | null;
  readonly isDev: boolean;
  readonly log: (line: string) => void;
}): Menu {
  const { core } = options;
  const send = (command: 'open-settings') => {
    const win = options.window();
    if (win) win.webContents.send('app:command', { command });
  };
  const toggleTheme = async () => {
    const current = await core.handlers['settings:get'](undefined);
    if (!current.ok) return;
    // 'system' resolves to what the page shows now; the toggle makes the choice explicit.
    const next: Settings['theme'] = current.value.theme === 'dark' ? 'light' : 'dark';
    await core.handlers['settings:update']({ theme: next });
  };
  const about = () => {
    const win = options.window();
    const text = { type: 'info' as const, title: 'About Learning Desktop', message: `Learning Desktop ${app.getVersion()}`, detail: 'Your courses, progress, purchases and notices, available offline.' };
    void (win ? dialog.showMessageBox(win, text) : dialog.showMessageBox(text));
  };

  const isMac = process.platform === 'darwin';
  const template: MenuItemConstructorOptions[] = [
    ...(isMac ? [{ role: 'appMenu' as const }] : []),
    {
      label: 'File',
      submenu: [
        {
          label: 'Sync Now',
          // Not Ctrl+R: that is Reload in development.
          accelerator: 'CmdOrCtrl+Shift+S',
          click: () => void core.syncAll().catch(() => options.log('menu: sync failed')),
        },
        { label: 'Settings…', accelerator: 'CmdOrCtrl+,', click: () => send('open-settings') },
        { type: 'separator' },
        isMac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        // Reloading the page is a developer tool: in a release it would only drop the page's state.
        ...(options.isDev ? ([{ role: 'reload' }, { role: 'toggleDevTools' }, { type: 'separator' }] as MenuItemConstructorOptions[]) : []),
        { label: 'Toggle Theme', accelerator: 'CmdOrCtrl+Shift+L', click: () => void toggleTheme() },
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'help', submenu: [{ label: 'About Learning Desktop', click: about }] },
  ];
  return Menu.buildFromTemplate(template);
}
