import { app, BrowserWindow, dialog, Menu, protocol, shell } from 'electron';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAppCore, type AppCore } from '../core/app-core';
import { APP_SCHEME, APP_SCHEME_PRIVILEGES } from '../core/desktop/app-protocol';
import { startHidden } from '../core/desktop/background';
import { isCoreError } from '../core/errors';
import { createLogger, describeUnexpected, installCrashGuards } from '../core/log';
import { createElectronSettingsStore } from './electron-settings-store';
import { registerIpcHandlers } from './ipc';
import { installDesktopLife } from './desktop-life';
import { buildApplicationMenu } from './menu';
import { createElectronUpdater } from './updater';
import { handleAppProtocol } from './app-protocol';
import { listenForInviteLinks, registerInviteScheme } from './invite-links';
import { createSaveDialogDelivery } from './save-file';
import { createSafeStorageCipher } from './safe-storage-cipher';
import { appUrlFor, createMainWindow, isTrustedSender } from './window';
import { externalUrl } from '../common/external-url';

/**
 * The Electron host: app lifecycle, the window, the menu and the IPC wiring. Thin on purpose: what the app does
 * lives in electron/core and is tested in plain Node.
 */

// Electron security checklist #4: every renderer sandboxed, whatever a window's options say.
app.enableSandbox();
// Checklist #18: the window loads app://learning-desktop/, not file://. A scheme's privileges must be declared
// before the app is ready.
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: APP_SCHEME_PRIVILEGES }]);

// The core's redacting logger: no token, code or secret reaches the console (ARCHITECTURE #14).
const logger = createLogger((line) => console.log(line), { level: process.env.LEARNING_DESKTOP_DEBUG ? 'debug' : 'info' });
const log = (line: string) => logger.info(line);
// Electron's default crash output (and its error dialog) prints messages, stacks and causes, any of which may
// quote a token: one plain line instead.
installCrashGuards(process, (line) => console.error(line));
const demoRequested = process.argv.includes('--demo');
const isDev = !app.isPackaged;
// Run from a checkout, node_modules holds better-sqlite3 built for Node; the launchers (npm run dev / demo, the
// Electron tests) name the build made for this Electron (scripts/electron-native.mjs). A packaged app ships its own.
const sqliteBinding = isDev ? process.env.LEARNING_DESKTOP_SQLITE_BINDING || undefined : undefined;

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  let core: AppCore | null = null;
  let win: BrowserWindow | null = null;
  let desktopLife: ReturnType<typeof installDesktopLife> | null = null;
  // The main bundle is ESM (no __dirname); the sandboxed preload must be CommonJS, hence .cjs.
  const here = dirname(fileURLToPath(import.meta.url));
  const preloadPath = join(here, '../preload/index.cjs');
  const rendererDir = join(here, '../renderer');
  // `npm run dev`: electron-vite serves the renderer with hot reload and names it here; never in a release.
  const devServerUrl = isDev ? process.env.ELECTRON_RENDERER_URL : undefined;
  const appUrl = appUrlFor(devServerUrl);
  // Started by the login item: the window is made hidden (tray or dock), shown when asked for.
  let hideFirstWindow = startHidden(process.argv, process.platform === 'darwin' && app.getLoginItemSettings().wasOpenedAsHidden);
  const openWindow = () => {
    const w = createMainWindow(preloadPath, appUrl, { show: !hideFirstWindow });
    hideFirstWindow = false;
    w.on('closed', () => {
      if (win === w) win = null;
    });
    return w;
  };

  app.on('second-instance', () => {
    if (win) {
      if (win.isMinimized()) win.restore();
      // It may be hidden (started at login, or closed to the tray).
      win.show();
      win.focus();
    }
  });

  // A school's invite link: held until the core exists, then read by it and shown in the page (never acted on alone).
  const earlyInvites: string[] = [];
  listenForInviteLinks((link) => {
    if (!core) return void earlyInvites.push(link);
    core.openInviteLink(link);
    win?.focus();
  });

  app.whenReady().then(async () => {
    handleAppProtocol(rendererDir, log, () => core);
    const settingsStore = createElectronSettingsStore();
    const settings = await settingsStore.load();
    const updates = await createElectronUpdater({ isPackaged: app.isPackaged, feedUrl: process.env.LEARNING_DESKTOP_UPDATE_URL, log });
    core = await createAppCore({
      dataDir: app.getPath('userData'),
      version: app.getVersion(),
      host: 'electron',
      // The system browser for sign-in (RFC 8252 §4.1, never an embedded web view): http and https URLs only.
      openExternal: async (url) => {
        const allowed = externalUrl(url);
        if (allowed === null) throw new Error('Only https addresses (http on this computer), without a user name or password, can be opened.');
        await shell.openExternal(allowed);
      },
      // safeStorage needs the app to be ready; basic_text keeps tokens in memory unless the user opted in.
      // A change of allowWeakTokenStorage takes effect at the next start (the vault is built once).
      cipher: createSafeStorageCipher({ allowWeakTokenStorage: settings.allowWeakTokenStorage }),
      settingsStore,
      logger,
      demo: { enabled: true },
      updater: updates.updater,
      updatesOff: updates.off,
      ...(sqliteBinding === undefined ? {} : { sqliteBinding }),
      // Files the student asks for (purchase CSV, receipt PDF, calendar reminder) go where a save dialog says.
      deliverFile: createSaveDialogDelivery(() => win),
      // A saved product file that does not open inside the app is shown in its folder, never opened or run.
      showItemInFolder: (path) => shell.showItemInFolder(path),
    });
    registerInviteScheme(log);
    for (const link of earlyInvites.splice(0)) core.openInviteLink(link);
    registerIpcHandlers(core, isTrustedSender(() => BrowserWindow.getAllWindows(), appUrl), log);
    const protection = await core.handlers['security:get-token-protection'](undefined);
    const cipherWeak = protection.ok && protection.value.weak;
    let restartOffered = false;
    core.onEvent((event, payload) => {
      for (const w of BrowserWindow.getAllWindows()) w.webContents.send(event, payload);
      // The vault's cipher is chosen once, at start: a change of the weak-storage opt-in applies after a restart.
      if (event === 'settings:changed' && cipherWeak && !restartOffered) {
        const next = payload as { allowWeakTokenStorage: boolean };
        if (next.allowWeakTokenStorage !== settings.allowWeakTokenStorage) {
          restartOffered = true;
          void offerRestart();
        }
      }
    });
    win = openWindow();
    const appCore = core;
    // The menu shows only whether updates are on and whether one is ready: rebuilt when either changes, not on
    // every updates:changed (download progress sends one per percent).
    let shownMenuKey = '';
    const setMenu = () => {
      const state = appCore.desktop.updates.state();
      const key = `${state.status !== 'off'} ${state.status === 'ready'}`;
      if (key === shownMenuKey) return;
      shownMenuKey = key;
      Menu.setApplicationMenu(
        buildApplicationMenu({
          core: appCore,
          window: () => win,
          isDev,
          log,
          updates: { available: state.status !== 'off', ready: state.status === 'ready', check: () => void appCore.desktop.updates.check(), restart: () => appCore.desktop.updates.restart() },
        }),
      );
    };
    setMenu();
    // Help > Check for Updates… becomes Restart to Update once one is downloaded.
    core.onEvent((event) => {
      if (event === 'updates:changed') setMenu();
    });
    const showWindow = () => {
      const w = win ?? (win = openWindow());
      if (w.isMinimized()) w.restore();
      w.show();
      w.focus();
      return w;
    };
    desktopLife = installDesktopLife({ core, window: () => win, showWindow, initialSettings: settings, log });

    if (demoRequested) {
      // `npm run demo` / `--demo`: the demo sites are started and listed, one click from signing in.
      const added = await core.handlers['sites:add-demo'](undefined);
      if (!added.ok) log(`demo: ${added.error.message}`);
    }
  }).catch((error: unknown) => {
    // e.g. an offline database written by a newer version (database-too-new): say so in plain words and quit.
    // A CoreError's message is plain words by contract; any other message may quote a secret.
    const message = isCoreError(error) ? error.message : `An unexpected error stopped the start (${describeUnexpected(error)}).`;
    logger.error('the app could not start', { error });
    dialog.showErrorBox('Learning Desktop could not start', message);
    app.exit(1);
  });

  async function offerRestart(): Promise<void> {
    const options = {
      type: 'question' as const,
      buttons: ['Restart Now', 'Later'],
      defaultId: 0,
      cancelId: 1,
      message: 'Restart Learning Desktop to change where your sign-ins are kept?',
      detail: 'The change applies the next time the app starts.',
    };
    const { response } = win ? await dialog.showMessageBox(win, options) : await dialog.showMessageBox(options);
    if (response === 0) {
      app.relaunch();
      app.quit();
    }
  }

  app.on('activate', () => {
    // macOS: clicking the dock icon with no window open shows the window again.
    if (core && BrowserWindow.getAllWindows().length === 0) win = openWindow();
  });

  app.on('window-all-closed', () => {
    // Windows/Linux quit with the last window unless the tray keeps the app; macOS keeps it in the dock
    // (electron/core/desktop/background.ts).
    if (desktopLife ? desktopLife.quitOnAllWindowsClosed() : process.platform !== 'darwin') app.quit();
  });

  let quitting = false;
  app.on('will-quit', (event) => {
    // Close the core (SQLite, the demo sites, pending syncs) before the process goes.
    if (quitting || !core) return;
    event.preventDefault();
    quitting = true;
    desktopLife?.close();
    void core.close().finally(() => app.quit());
  });
}
