import { BrowserWindow, shell, type WebContents } from 'electron';
import { APP_INDEX_URL } from '../core/desktop/app-protocol';
import { allowPermission } from '../core/desktop/permissions';
import { externalUrl } from '../common/external-url';

/**
 * The app window, hardened per the Electron security checklist: context isolation, sandbox, no Node
 * integration, no navigation away from the app, no new windows (http/https links go to the system
 * browser), and every permission denied but the two the app's own page uses.
 */

/**
 * The page the window shows: the built renderer from app://learning-desktop/
 * (electron/core/desktop/app-protocol.ts, never file://), or electron-vite's dev server in
 * development.
 */
export function appUrlFor(devServerUrl?: string): string {
  return devServerUrl ? new URL(devServerUrl).toString() : APP_INDEX_URL;
}

export function createMainWindow(
  preloadPath: string,
  appUrl: string,
  options: { readonly show: boolean } = { show: true },
): BrowserWindow {
  const win = new BrowserWindow({
    width: 1200,
    height: 800,
    minWidth: 760,
    minHeight: 520,
    show: false,
    title: 'Learning Desktop',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
      // Chromium's PDF viewer, for a saved product's PDF opened inside the app (served on app://,
      // same origin).
      plugins: true,
    },
  });
  // Electron security checklist #7: the app:// handler sends the Content-Security-Policy header
  // with every answer (electron/core/desktop/app-protocol.ts); electron-vite's dev server, whose
  // hot reload needs an inline preamble and a websocket, has the page's meta tag only.
  // Checklist #5: every permission refused but full screen and the clipboard write, for the app's
  // own page only (electron/core/desktop/permissions.ts).
  win.webContents.session.setPermissionRequestHandler((_wc, permission, callback, details) =>
    callback(allowPermission(permission, details.requestingUrl)),
  );
  win.webContents.session.setPermissionCheckHandler((_wc, permission, requestingOrigin) =>
    allowPermission(permission, requestingOrigin),
  );
  win.webContents.on('will-navigate', (event, url) => {
    if (url !== appUrl) event.preventDefault();
  });
  // A link the page opens (a site's download or join link) goes to the system browser only when it
  // may leave the app at all: https, or http on loopback, without user name or password
  // (common/external-url.ts).
  win.webContents.setWindowOpenHandler(({ url }) => {
    const allowed = externalUrl(url);
    if (allowed !== null) void shell.openExternal(allowed);
    return { action: 'deny' };
  });
  // Started at login minimized (background.ts): the window is made but stays hidden until asked
  // for.
  win.once('ready-to-show', () => {
    if (options.show) win.show();
  });
  void win.loadURL(appUrl);
  return win;
}

/** True when the message comes from a window we created, from its top frame showing our page. */
export function isTrustedSender(windows: () => readonly BrowserWindow[], appUrl: string) {
  return (sender: WebContents, frameUrl: string | undefined) =>
    windows().some((w) => w.webContents.id === sender.id) &&
    frameUrl !== undefined &&
    frameUrl.split('#')[0] === appUrl;
}
