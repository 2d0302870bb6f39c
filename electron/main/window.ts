import { BrowserWindow, shell, type WebContents } from 'electron';
import { join } from 'node:path';

/** Same policy as renderer/index.html, plus what only a header can say (frame-ancestors, form-action). */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: http://127.0.0.1:* https:",
  "connect-src 'self'",
  "font-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The app window, hardened per the Electron security checklist: context isolation, sandbox, no Node
 * integration, no navigation away from the app, no new windows (http/https links go to the system browser),
 * and every permission request denied.
 */
/** The page the window shows: the built renderer (file://), or electron-vite's dev server in development. */
export function appUrlFor(rendererIndex: string, devServerUrl?: string): string {
  return devServerUrl ? new URL(devServerUrl).toString() : new URL(`file://${join(rendererIndex)}`).toString();
}

export function createMainWindow(preloadPath: string, appUrl: string, options: { readonly cspHeader: boolean } = { cspHeader: true }): BrowserWindow {
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
    },
  });
  // Electron security checklist #7: a Content-Security-Policy as a response header as well as the page's meta tag.
  // Not on electron-vite's dev server, whose hot reload needs an inline preamble and a websocket.
  if (options.cspHeader) {
    win.webContents.session.webRequest.onHeadersReceived((details, callback) => {
      callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
    });
  }
  win.webContents.session.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  win.webContents.session.setPermissionCheckHandler(() => false);
  win.webContents.on('will-navigate', (event, url) => {
    if (url !== appUrl) event.preventDefault();
  });
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  win.once('ready-to-show', () => win.show());
  void win.loadURL(appUrl);
  return win;
}

/** True when the message comes from a window we created, from its top frame showing our page. */
export function isTrustedSender(windows: () => readonly BrowserWindow[], appUrl: string) {
  return (sender: WebContents, frameUrl: string | undefined) =>
    windows().some((w) => w.webContents.id === sender.id) && frameUrl !== undefined && frameUrl.split('#')[0] === appUrl;
}
