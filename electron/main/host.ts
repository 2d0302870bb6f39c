import { app, BrowserWindow, dialog, Menu, net, shell } from 'electron';
import { join } from 'node:path';
import { createAppCore, type AppCore } from '../core/app-core';
import { startHidden } from '../core/desktop/background';
import { readFirstScreen } from '../core/desktop/first-screen';
import { isCoreError } from '../core/errors';
import { describeUnexpected, type Logger } from '../core/log';
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
import { mcpLaunch } from './mcp-mode';

/**
 * The Electron host: app lifecycle, the window, the menu and the IPC wiring. Thin on purpose: what the app does
 * lives in electron/core and is tested in plain Node. Loaded by index.ts, which has already done what must happen
 * before anything heavy is read (the single-instance lock, sandbox, the app:// scheme, invite links held, the log
 * file and crash guards).
 */
export function startHost(options: {
  readonly mainDir: string;
  readonly logger: Logger;
  readonly logFile: string;
}): void {
  const { logger } = options;
  const log = (line: string) => logger.info(line);
  const demoRequested = process.argv.includes('--demo');
  const isDev = !app.isPackaged;
  // Run from a checkout, node_modules holds better-sqlite3 built for Node; the launchers (npm run dev / demo, the
  // Electron tests) name the build made for this Electron (scripts/electron-native.mjs). A packaged app ships its own.
  const sqliteBinding = isDev
    ? process.env.LEARNING_DESKTOP_SQLITE_BINDING || undefined
    : undefined;

  let core: AppCore | null = null;
  let win: BrowserWindow | null = null;
  let desktopLife: ReturnType<typeof installDesktopLife> | null = null;
  // The main bundle's folder (this module may be a chunk below it); the sandboxed preload must be CommonJS, hence .cjs.
  const preloadPath = join(options.mainDir, '../preload/index.cjs');
  const rendererDir = join(options.mainDir, '../renderer');
  // `npm run dev`: electron-vite serves the renderer with hot reload and names it here; never in a release.
  const devServerUrl = isDev ? process.env.ELECTRON_RENDERER_URL : undefined;
  const appUrl = appUrlFor(devServerUrl);
  // Started by the login item: the window is made hidden (tray or dock), shown when asked for. macOS 13+ ignores
  // openAsHidden (SMAppService has no such option), so a start at login is told by wasOpenedAtLogin there.
  const loginStart = process.platform === 'darwin' ? app.getLoginItemSettings() : null;
  let hideFirstWindow = startHidden(
    process.argv,
    loginStart !== null && (loginStart.wasOpenedAtLogin || loginStart.wasOpenedAsHidden),
  );
  const openWindow = () => {
    const w = createMainWindow(preloadPath, appUrl, { show: !hideFirstWindow });
    hideFirstWindow = false;
    w.on('closed', () => {
      if (win === w) win = null;
    });
    return w;
  };

  // Shows the window, making it again when it was closed (to the tray, or on macOS with the app kept in the Dock).
  const showWindow = () => {
    const w = win ?? (win = openWindow());
    if (w.isMinimized()) w.restore();
    w.show();
    w.focus();
    return w;
  };

  // A second launch shows the window, even one closed to the tray; before the core is ready the first window is
  // still to come.
  app.on('second-instance', () => {
    if (core) showWindow();
  });

  // A school's invite link: held until the core exists, then read by it and shown in the page (never acted on
  // alone), in a window brought to the front.
  const earlyInvites: string[] = [];
  listenForInviteLinks((link) => {
    if (!core) return void earlyInvites.push(link);
    core.openInviteLink(link);
    showWindow();
  });

  app
    .whenReady()
    .then(async () => {
      // Read before the core opens: the window's first page paints the last session's Today.
      handleAppProtocol(
        rendererDir,
        log,
        () => core,
        devServerUrl ? null : readFirstScreen(app.getPath('userData')),
      );
      const settingsStore = createElectronSettingsStore();
      const settings = await settingsStore.load();
      const updates = await createElectronUpdater({
        isPackaged: app.isPackaged,
        feedUrl: process.env.LEARNING_DESKTOP_UPDATE_URL,
        dataDir: app.getPath('userData'),
        log,
      });
      core = await createAppCore({
        dataDir: app.getPath('userData'),
        version: app.getVersion(),
        host: 'electron',
        // The system browser for sign-in (RFC 8252 §4.1, never an embedded web view): http and https URLs only.
        openExternal: async (url) => {
          const allowed = externalUrl(url);
          if (allowed === null)
            throw new Error(
              'Only https addresses (http on this computer), without a user name or password, can be opened.',
            );
          await shell.openExternal(allowed);
        },
        // safeStorage needs the app to be ready; basic_text keeps tokens in memory unless the user opted in.
        // A change of allowWeakTokenStorage takes effect at the next start (the vault is built once).
        cipher: createSafeStorageCipher({ allowWeakTokenStorage: settings.allowWeakTokenStorage }),
        settingsStore,
        logger,
        demo: { enabled: true },
        // The OS's own view of the network: "You're offline" only when it has none (core/net/reachability.ts).
        networkUp: () => net.isOnline(),
        updater: updates.updater,
        updatesOff: updates.off,
        ...(sqliteBinding === undefined ? {} : { sqliteBinding }),
        // Files the student asks for (purchase CSV, receipt PDF, calendar reminder) go where a save dialog says.
        deliverFile: createSaveDialogDelivery(() => win),
        // A saved product file that does not open inside the app is shown in its folder, never opened or run.
        showItemInFolder: (path) => shell.showItemInFolder(path),
        mcpLaunch: mcpLaunch(sqliteBinding),
      });
      registerInviteScheme(log);
      for (const link of earlyInvites.splice(0)) core.openInviteLink(link);
      registerIpcHandlers(
        core,
        isTrustedSender(() => BrowserWindow.getAllWindows(), appUrl),
        log,
      );
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
            updates: {
              available: state.status !== 'off',
              ready: state.status === 'ready',
              check: () => void appCore.desktop.updates.check(),
              restart: () => appCore.desktop.updates.restart(),
            },
          }),
        );
      };
      setMenu();
      // Help > Check for Updates… becomes Restart to Update once one is downloaded.
      core.onEvent((event) => {
        if (event === 'updates:changed') setMenu();
      });
      desktopLife = installDesktopLife({
        core,
        window: () => win,
        showWindow,
        initialSettings: settings,
        log,
      });

      if (demoRequested) {
        // `npm run demo` / `--demo`: the demo sites are started and listed, one click from signing in.
        const added = await core.handlers['sites:add-demo'](undefined);
        if (!added.ok) log(`demo: ${added.error.message}`);
      }
    })
    .catch((error: unknown) => {
      // e.g. an offline database written by a newer version (database-too-new): say so in plain words and quit.
      // A CoreError's message is plain words by contract; any other message may quote a secret.
      const message = isCoreError(error)
        ? error.message
        : `An unexpected error stopped the start (${describeUnexpected(error)}).`;
      logger.error('the app could not start', { error });
      dialog.showErrorBox(
        'Learning Desktop could not start',
        `${message}\n\nWhat happened is written in ${options.logFile}.`,
      );
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
    const { response } = win
      ? await dialog.showMessageBox(win, options)
      : await dialog.showMessageBox(options);
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
    if (desktopLife ? desktopLife.quitOnAllWindowsClosed() : process.platform !== 'darwin')
      app.quit();
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
