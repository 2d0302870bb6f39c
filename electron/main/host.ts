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
import { createFolderDialog } from './folder-dialog';
import { createSaveDialogDelivery } from './save-file';
import { createSafeStorageCipher } from './safe-storage-cipher';
import { appUrlFor, createMainWindow, isTrustedSender } from './window';
import { externalUrl } from '../common/external-url';
import { mcpIcon, mcpLaunch } from './mcp-mode';

/**
 * What the host is started with: where its bundles are, its log and the log file named
 * to the student.
 */
export interface ElectronHostDeps {
  readonly mainDir: string;
  readonly logger: Logger;
  readonly logFile: string;
}

/**
 * The Electron host: app lifecycle, the window, the menu and the IPC wiring. Thin on purpose: what
 * the app does lives in electron/core and is tested in plain Node. Loaded by index.ts, which has
 * already done what must happen before anything heavy is read (the single-instance lock, sandbox,
 * the app:// scheme, invite links held, the log file and crash guards).
 */
export function startHost(options: ElectronHostDeps): void {
  new ElectronHost(options).start();
}

/**
 * The system browser for sign-in (RFC 8252 §4.1, never an embedded web view): http and
 * https URLs only.
 */
async function openInSystemBrowser(url: string): Promise<void> {
  const allowed = externalUrl(url);
  if (allowed === null)
    throw new Error(
      'Only https addresses (http on this computer), without a user name or password, can be opened.',
    );
  await shell.openExternal(allowed);
}

class ElectronHost {
  readonly #deps: ElectronHostDeps;
  readonly #log: (line: string) => void;
  readonly #isDev = !app.isPackaged;
  readonly #preloadPath: string;
  readonly #rendererDir: string;
  /**
   * `npm run dev`: electron-vite serves the renderer with hot reload and names it here; never
   * in a release.
   */
  readonly #devServerUrl: string | undefined;
  readonly #appUrl: string;
  /** A school's invite links that came before the core. */
  readonly #earlyInvites: string[] = [];
  #core: AppCore | null = null;
  #win: BrowserWindow | null = null;
  #desktopLife: ReturnType<typeof installDesktopLife> | null = null;
  #hideFirstWindow: boolean;
  #quitting = false;

  constructor(deps: ElectronHostDeps) {
    this.#deps = deps;
    this.#log = (line) => deps.logger.info(line);
    // The main bundle's folder (this module may be a chunk below it); the sandboxed preload
    // must be CommonJS.
    this.#preloadPath = join(deps.mainDir, '../preload/index.cjs');
    this.#rendererDir = join(deps.mainDir, '../renderer');
    this.#devServerUrl = this.#isDev ? process.env.ELECTRON_RENDERER_URL : undefined;
    this.#appUrl = appUrlFor(this.#devServerUrl);
    // Started by the login item: the window is made hidden (tray or dock), shown when asked for.
    // macOS 13+ ignores openAsHidden (SMAppService has no such option), so a start at login is told
    // by wasOpenedAtLogin there.
    const loginStart = process.platform === 'darwin' ? app.getLoginItemSettings() : null;
    this.#hideFirstWindow = startHidden(
      process.argv,
      loginStart !== null && (loginStart.wasOpenedAtLogin || loginStart.wasOpenedAsHidden),
    );
  }

  start(): void {
    // A second launch shows the window, even one closed to the tray; before the core is ready the
    // first window is still to come.
    app.on('second-instance', () => {
      if (this.#core) this.#showWindow();
    });
    // A school's invite link: held until the core exists, then read by it and shown in the page
    // (never acted on alone), in a window brought to the front.
    listenForInviteLinks((link) => {
      if (!this.#core) return void this.#earlyInvites.push(link);
      this.#core.openInviteLink(link);
      this.#showWindow();
    });
    app
      .whenReady()
      .then(() => this.#ready())
      .catch((error: unknown) => this.#failedToStart(error));
    this.#onLifecycle();
  }

  #openWindow(): BrowserWindow {
    const w = createMainWindow(this.#preloadPath, this.#appUrl, { show: !this.#hideFirstWindow });
    this.#hideFirstWindow = false;
    w.on('closed', () => {
      if (this.#win === w) this.#win = null;
    });
    return w;
  }

  /**
   * Shows the window, making it again when it was closed (to the tray, or on macOS with the app
   * kept in the Dock).
   */
  #showWindow(): BrowserWindow {
    const w = this.#win ?? (this.#win = this.#openWindow());
    if (w.isMinimized()) w.restore();
    w.show();
    w.focus();
    return w;
  }

  async #ready(): Promise<void> {
    const userData = app.getPath('userData');
    // Read before the core opens: the window's first page paints the last session's Today.
    handleAppProtocol(
      this.#rendererDir,
      this.#log,
      () => this.#core,
      this.#devServerUrl ? null : readFirstScreen(userData),
    );
    const settingsStore = createElectronSettingsStore();
    const settings = await settingsStore.load();
    const core = await this.#openCore(settingsStore, settings);
    this.#core = core;
    registerInviteScheme(this.#log);
    for (const link of this.#earlyInvites.splice(0)) core.openInviteLink(link);
    registerIpcHandlers(
      core,
      isTrustedSender(() => BrowserWindow.getAllWindows(), this.#appUrl),
      this.#log,
    );
    await this.#forwardEvents(core, settings);
    this.#win = this.#openWindow();
    this.#installMenu(core);
    this.#desktopLife = installDesktopLife({
      core,
      window: () => this.#win,
      showWindow: () => this.#showWindow(),
      initialSettings: settings,
      log: this.#log,
    });
    if (process.argv.includes('--demo')) {
      // `npm run demo` / `--demo`: the demo sites are started and listed, one click
      // from signing in.
      const added = await core.handlers['sites:add-demo'](undefined);
      if (!added.ok) this.#log(`demo: ${added.error.message}`);
    }
  }

  async #openCore(
    settingsStore: ReturnType<typeof createElectronSettingsStore>,
    settings: Awaited<ReturnType<ReturnType<typeof createElectronSettingsStore>['load']>>,
  ): Promise<AppCore> {
    // Run from a checkout, node_modules holds better-sqlite3 built for Node; the launchers (npm run
    // dev / demo, the Electron tests) name the build made for this Electron
    // (scripts/electron-native.mjs). A packaged app ships its own.
    const sqliteBinding = this.#isDev
      ? process.env.LEARNING_DESKTOP_SQLITE_BINDING || undefined
      : undefined;
    const updates = await createElectronUpdater({
      isPackaged: app.isPackaged,
      feedUrl: process.env.LEARNING_DESKTOP_UPDATE_URL,
      dataDir: app.getPath('userData'),
      log: this.#log,
    });
    return createAppCore({
      dataDir: app.getPath('userData'),
      version: app.getVersion(),
      host: 'electron',
      openExternal: openInSystemBrowser,
      // safeStorage needs the app to be ready; basic_text keeps tokens in memory unless the
      // user opted in. A change of allowWeakTokenStorage takes effect at the next start (the
      // vault is built once).
      cipher: createSafeStorageCipher({ allowWeakTokenStorage: settings.allowWeakTokenStorage }),
      settingsStore,
      logger: this.#deps.logger,
      demo: { enabled: true },
      // The OS's own view of the network: "You're offline" only when it has none
      // (core/net/reachability.ts).
      networkUp: () => net.isOnline(),
      updater: updates.updater,
      updatesOff: updates.off,
      ...(sqliteBinding === undefined ? {} : { sqliteBinding }),
      // Files the student asks for (purchase CSV, receipt PDF, calendar reminder) go where a
      // save dialog says.
      deliverFile: createSaveDialogDelivery(() => this.#win),
      // The calendar file's folder is chosen in the system's dialog (the browser host types it).
      chooseFolder: createFolderDialog(() => this.#win),
      // A saved product file that does not open inside the app is shown in its folder, never
      // opened or run.
      showItemInFolder: (path) => shell.showItemInFolder(path),
      mcpLaunch: mcpLaunch(sqliteBinding),
      mcpIcon,
    });
  }

  /** The core's events go to every window; a change of the weak-storage opt-in offers a restart. */
  async #forwardEvents(
    core: AppCore,
    settings: { readonly allowWeakTokenStorage: boolean },
  ): Promise<void> {
    const protection = await core.handlers['security:get-token-protection'](undefined);
    const cipherWeak = protection.ok && protection.value.weak;
    let restartOffered = false;
    core.onEvent((event, payload) => {
      for (const w of BrowserWindow.getAllWindows()) w.webContents.send(event, payload);
      // The vault's cipher is chosen once, at start: a change of the weak-storage opt-in applies
      // after a restart.
      if (event === 'settings:changed' && cipherWeak && !restartOffered) {
        const next = payload as { allowWeakTokenStorage: boolean };
        if (next.allowWeakTokenStorage !== settings.allowWeakTokenStorage) {
          restartOffered = true;
          void this.#offerRestart();
        }
      }
    });
  }

  /**
   * The menu shows only whether updates are on and whether one is ready: rebuilt when either
   * changes, not on every updates:changed (download progress sends one per percent). Help > Check
   * for Updates… becomes Restart to Update once one is downloaded.
   */
  #installMenu(core: AppCore): void {
    let shownMenuKey = '';
    const setMenu = () => {
      const state = core.desktop.updates.state();
      const key = `${state.status !== 'off'} ${state.status === 'ready'}`;
      if (key === shownMenuKey) return;
      shownMenuKey = key;
      Menu.setApplicationMenu(
        buildApplicationMenu({
          core,
          window: () => this.#win,
          isDev: this.#isDev,
          log: this.#log,
          updates: {
            available: state.status !== 'off',
            ready: state.status === 'ready',
            check: () => void core.desktop.updates.check(),
            restart: () => core.desktop.updates.restart(),
          },
        }),
      );
    };
    setMenu();
    core.onEvent((event) => {
      if (event === 'updates:changed') setMenu();
    });
  }

  /**
   * e.g. an offline database written by a newer version (database-too-new): said in plain
   * words, then quit.
   */
  #failedToStart(error: unknown): void {
    // A CoreError's message is plain words by contract; any other message may quote a secret.
    const message = isCoreError(error)
      ? error.message
      : `An unexpected error stopped the start (${describeUnexpected(error)}).`;
    this.#deps.logger.error('the app could not start', { error });
    dialog.showErrorBox(
      'Learning Desktop could not start',
      `${message}\n\nWhat happened is written in ${this.#deps.logFile}.`,
    );
    app.exit(1);
  }

  async #offerRestart(): Promise<void> {
    const options = {
      type: 'question' as const,
      buttons: ['Restart Now', 'Later'],
      defaultId: 0,
      cancelId: 1,
      message: 'Restart Learning Desktop to change where your sign-ins are kept?',
      detail: 'The change applies the next time the app starts.',
    };
    const { response } = this.#win
      ? await dialog.showMessageBox(this.#win, options)
      : await dialog.showMessageBox(options);
    if (response === 0) {
      app.relaunch();
      app.quit();
    }
  }

  #onLifecycle(): void {
    app.on('activate', () => {
      // macOS: clicking the dock icon with no window open shows the window again.
      if (this.#core && BrowserWindow.getAllWindows().length === 0) this.#win = this.#openWindow();
    });
    app.on('window-all-closed', () => {
      // Windows/Linux quit with the last window unless the tray keeps the app; macOS keeps it in
      // the dock (electron/core/desktop/background.ts).
      const life = this.#desktopLife;
      if (life ? life.quitOnAllWindowsClosed() : process.platform !== 'darwin') app.quit();
    });
    app.on('will-quit', (event) => {
      // Close the core (SQLite, the demo sites, pending syncs) before the process goes.
      const core = this.#core;
      if (this.#quitting || !core) return;
      event.preventDefault();
      this.#quitting = true;
      this.#desktopLife?.close();
      void core.close().finally(() => app.quit());
    });
  }
}
