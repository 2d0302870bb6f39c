/**
 * Composition root: builds every service of the main process from what the host gives it, and composes the
 * handlers of the IPC contract (one module per area in handlers/, plus desktop/ and export/; each returns its
 * value and withResults wraps it). When sites sync is sync-scheduler.ts's. Both hosts (Electron and the browser
 * host) call this and nothing deeper.
 *
 *   site manager (auth, vault, sites.json)  ──fetchFor──▶  sync service (GraphQL → SQLite, outbox)
 *                 │                                                 │
 *                 └────────── events ──▶ AppCore.onEvent ◀── events ┘
 *
 * The demo branch (electron/core/demo) is the only place that starts the embedded server; everything else
 * reaches a site over HTTP.
 */
import { join } from 'node:path';
import { CHANNELS, type EventName, type IpcEvents, type IpcHandlers } from '../common/ipc-contract';
import { withResults } from '../common/result';
import type { AppInfo, SyncRunSummary } from '../common/view-models';
import {
  getEntitlements,
  getLastSyncedAt,
  getNotificationsPage,
  getNotificationsSummary,
  getPayableInstructionsPage,
} from './db/index';
import { checkOfflineStore, openOfflineStore } from './worker/offline-store';
import {
  createDemoServers,
  hasDemoSites,
  reconcileDemoSites,
  type DemoServers,
} from './demo/demo-servers';
import {
  createDesktopServices,
  type DesktopServices,
  type DesktopUpdater,
} from './desktop/desktop-services';
import { createDownloadManager, type SavedFileAnswer } from './downloads/manager';
import { CoreError } from './errors';
import { createExportHandlers, type FileDelivery } from './export/service';
import { createDemoHandlers } from './handlers/demo';
import { createDoctorHandlers } from './handlers/doctor';
import { createDownloadHandlers } from './handlers/downloads';
import { createInviteHandlers } from './handlers/invite';
import { createNotificationHandlers } from './handlers/notifications';
import { requireSite, type AppServices, type Emit } from './handlers/services';
import { createSettingsHandlers } from './handlers/settings';
import { createFirstScreenStore } from './desktop/first-screen';
import { createSiteHandlers } from './handlers/sites';
import { createSitePageHandlers } from './handlers/site-pages';
import { createTodayHandlers } from './handlers/today';
import { createSyncHandlers } from './handlers/sync';
import { createViewHandlers } from './handlers/views';
import { createMediaHandlers } from './handlers/media';
import { PlanServices } from './handlers/plan-services';
import { createInviteInbox } from './invite/inbox';
import { silentLogger, type Logger } from './log';
import { entitlementLinksForSite } from './net/external-url';
import type { FetchLike } from './net/http';
import type { UpdatesOffReason } from './desktop/updates';
import { loadLiveSettings } from './settings/live-settings';
import { createJsonSettingsStore, type SettingsStore } from './settings/settings-store';
import { createSiteManager, type SiteManager } from './sites/site-manager';
import { createSyncScheduler, OFFLINE_CODES, readySites } from './sync-scheduler';
import { createSyncService, type SyncService } from './sync/service';
import { createNodeCipher, type Cipher } from './vault/cipher';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock';

export interface AppCoreOptions {
  readonly dataDir: string;
  readonly version: string;
  readonly host: AppInfo['host'];
  /** Opens the system browser (Electron: shell.openExternal; browser host: a new tab). http/https only. */
  readonly openExternal: (url: string) => Promise<void>;
  /** How the vault encrypts tokens. Default: AES-256-GCM with a key file in dataDir (createNodeCipher). */
  readonly cipher?: Cipher;
  /** Where preferences live. Default: `dataDir/settings.json`. */
  readonly settingsStore?: SettingsStore;
  readonly clock?: { now(): number };
  readonly fetch?: FetchLike;
  /** The core's redacting logger (electron/core/log.ts). */
  readonly logger?: Logger;
  /** Demo mode: the embedded demo sites can be started in process (default: enabled). */
  readonly demo?: { readonly enabled: boolean };
  /**
   * better-sqlite3's compiled addon (a .node file) for the offline database and the demo sites, when the default
   * one does not fit this runtime (Electron run from a checkout built for Node; see scripts/electron-native.mjs).
   */
  readonly sqliteBinding?: string;
  /** How long a sign-in waits for the browser (default: the site manager's 5 minutes). */
  readonly signInTimeoutMs?: number;
  /** While offline, how often the sites are probed to notice the network is back (default 30 s). */
  readonly offlineProbeMs?: number;
  /** Length of the "minute" of settings.autoSyncMinutes (default 60 000; tests shorten it). */
  readonly minuteMs?: number;
  /** Whether the operating system lists a network (default: any non-loopback interface; Electron: net.isOnline). */
  readonly networkUp?: () => boolean;
  /** The data directory's lock when the host took it already (the core releases it at close). */
  readonly dataDirLock?: DataDirLock;
  /** Electron, packaged, with an update feed: electron-updater adapted (electron/main/updater.ts). */
  readonly updater?: DesktopUpdater | null;
  /** Why updates are off when there is no updater (default: 'host', the browser host). */
  readonly updatesOff?: UpdatesOffReason;
  /** The environment the sign-in doctor reads proxy variables from (default: process.env). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * How a file the student asked for (purchase CSV, receipt, calendar reminder) reaches them: Electron's save
   * dialog, the browser host's download. Without one, asking for a file is refused.
   */
  readonly deliverFile?: FileDelivery;
  /** Shows a saved product file selected in the file manager (Electron: shell.showItemInFolder). Never opens it. */
  readonly showItemInFolder?: (path: string) => void | Promise<void>;
  /** The zone exported dates are written in (default: this computer's). */
  readonly timeZone?: string;
}

export type AppEventListener = <E extends EventName>(event: E, payload: IpcEvents[E]) => void;

export interface AppCore {
  readonly handlers: IpcHandlers;
  readonly info: AppInfo;
  onEvent(listener: AppEventListener): () => void;
  /** Syncs every signed-in site (the application menu's File > Sync now). */
  syncAll(): Promise<SyncRunSummary[]>;
  /** Whether the signed-in sites were reachable at the last try (what `network:changed` last said). */
  isOnline(): boolean;
  /** Demo mode's servers (test hook: stop/start them to take the demo sites off the network), or null. */
  readonly demo: DemoServers | null;
  /** The app was opened with a link (Electron: the learning-desktop: scheme): read it and show it to the student. */
  openInviteLink(link: string): void;
  /** The installed-app services: updates, OS notifications, wake sync, tray's unread count. */
  readonly desktop: DesktopServices;
  /**
   * A request of the window for a saved product file (`/saved-files/...` on the app's own origin: app:// in Electron,
   * the browser host's loopback origin): the inline types only, with byte ranges. The hosts stream `body`.
   */
  serveSavedFile(
    pathname: string,
    method: string,
    range: string | undefined,
  ): Promise<SavedFileAnswer>;
  close(): Promise<void>;
}

/**
 * Opens the core on `options.dataDir`, holding the data directory's lock (data-dir-lock.ts) until close():
 * a second process on the same folder gets DataDirInUseError naming the one that holds it.
 */
export async function createAppCore(options: AppCoreOptions): Promise<AppCore> {
  const lock =
    options.dataDirLock ?? (await acquireDataDirLock(options.dataDir, { host: options.host }));
  let core: AppCore;
  try {
    core = await openAppCore(options);
  } catch (error) {
    await lock.release();
    throw error;
  }
  const opened = core;
  // The lock is released once the core is closed, even when closing failed.
  return { ...opened, close: () => opened.close().finally(() => lock.release()) };
}

async function openAppCore(options: AppCoreOptions): Promise<AppCore> {
  const { dataDir } = options;
  const clock = options.clock ?? Date;
  const logger = options.logger ?? silentLogger;
  const log = logger.child('app');
  const listeners = new Set<AppEventListener>();
  const emit: Emit = (event, payload) => {
    for (const l of listeners) {
      try {
        l(event, payload);
      } catch (error) {
        log.warn('event listener failed', { event, error });
      }
    }
  };

  const settingsStore =
    options.settingsStore ?? createJsonSettingsStore(join(dataDir, 'settings.json'));
  const settings = await loadLiveSettings(settingsStore, (next, { intervalChanged }) => {
    if (intervalChanged) scheduler.reschedule();
    emit('settings:changed', next);
  });
  const cipher = options.cipher ?? (await createNodeCipher(join(dataDir, 'vault.key')));
  const demoEnabled = options.demo?.enabled ?? true;
  const demo = demoEnabled
    ? createDemoServers({
        dataDir,
        logger,
        ...(options.sqliteBinding === undefined ? {} : { sqliteBinding: options.sqliteBinding }),
      })
    : null;

  // Demo sites saved by an earlier run need their servers before anything talks to them (a sync, a refresh).
  // Started before the site manager reads sites.json, so a changed port can be written into it first.
  if (demo && (await hasDemoSites(dataDir))) {
    try {
      const previous = await demo.previousOrigins();
      const current = await demo.start();
      const moved = await reconcileDemoSites(dataDir, previous, current);
      if (moved > 0) log.info('demo sites moved to new ports', { moved });
    } catch (error) {
      // The demo's offline data stays readable; the sites just look unreachable.
      log.error('the demo sites could not be started', { error });
    }
  }

  const store = await openOfflineStore({
    file: join(dataDir, 'offline.db'),
    logger,
    ...(options.sqliteBinding === undefined ? {} : { sqliteBinding: options.sqliteBinding }),
  });
  const { writer, db } = store;

  const sites: SiteManager = await createSiteManager({
    dataDir,
    cipher,
    openExternal: options.openExternal,
    clock,
    logger,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.signInTimeoutMs !== undefined ? { signInTimeoutMs: options.signInTimeoutMs } : {}),
    // The sync history in the offline database is the one source of a site's lastSyncedAt.
    lastSyncedAt: (siteId) => getLastSyncedAt(db, siteId),
  });
  const firstScreen = createFirstScreenStore(dataDir, sites);
  // The plan, the reminders by rule and the calendar feed (plan.json; the old reminder switches are defaults).
  const plan = new PlanServices({
    db,
    clock,
    sites,
    settings,
    dataDir,
    timeZone: options.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC',
    log: (line, error) => log.warn(line, { error }),
  });
  await plan.open();

  // The services below call one another back (a replay that finds the site gone marks the app offline; the
  // desktop's wake syncs every site; a run is work the desktop's updates wait for). The scheduler they call is
  // built after them, and is only reached from callbacks that run once everything is built.
  const sync: SyncService = createSyncService({
    db,
    writer,
    clock: () => clock.now(),
    logger: logger.child('sync'),
    ...(options.networkUp ? { networkUp: options.networkUp } : {}),
    clientFor(siteId) {
      const site = sites.getSite(siteId);
      if (!site) throw new CoreError('not-found', 'That site is not in your list.');
      // service-spec "Endpoints": the member API is {base_url}/member/graphql. fetchFor sends the site's token to
      // the site's own origin only and refreshes it single-flight.
      // With the runtime's own fetch (the app), the sync's pages are requested by the writer worker under the
      // same token rules (sendWith), so this thread carries none of them; a fetch the host injected is used as is.
      return {
        endpoint: `${site.baseUrl}/member/graphql`,
        fetch: sites.fetchFor(siteId) as typeof fetch,
        ...(options.fetch ? {} : { sendWith: sites.sendWith(siteId) }),
      };
    },
    onProgress: (progress) => emit('sync:progress', progress),
    onDataChanged: (siteId) => emit('data:changed', { siteId }),
    // A change made offline: probe until the site answers, then replay it (not only at the next interval).
    onReplayStopped: (_siteId, reason) => {
      if (OFFLINE_CODES.has(reason.code)) scheduler.setOnline(false);
    },
  });

  // Purchased files kept offline: the product list (and each file's address) comes from the offline data; the
  // member's token only through the site manager's rules (own origin, one refresh on 401).
  const downloads = await createDownloadManager({
    dir: join(dataDir, 'downloads'),
    products: (siteId) => {
      const site = sites.getSite(siteId);
      return site
        ? entitlementLinksForSite(getEntitlements(db, siteId, new Date(clock.now())), site.baseUrl)
            .digitalProducts
        : null;
    },
    siteOrigin: (siteId) => {
      const site = sites.getSite(siteId);
      return site ? new URL(site.baseUrl).origin : null;
    },
    sendWith: (siteId) => sites.sendWith(siteId),
    now: () => clock.now(),
    onChange: (view) => emit('downloads:changed', view),
    logger,
  });

  const desktop = await createDesktopServices({
    dataDir,
    now: () => clock.now(),
    settings: () => settings.current(),
    updater: options.updater ?? null,
    updatesOff: options.updatesOff ?? 'host',
    onUpdateState: (state) => emit('updates:changed', state),
    onNotification: (notification) => emit('desktop:notification', notification),
    readySites: () => readySites(sites),
    sites: () => sites.list(),
    syncAll: (reason) => scheduler.syncAll(reason),
    payable: (siteId) =>
      getPayableInstructionsPage(db, siteId, new Date(clock.now()), { offset: 0, limit: 100 })
        .items,
    notices: (siteId) => getNotificationsPage(db, siteId, { offset: 0, limit: 100 }).items,
    unreadCount: (siteId) => getNotificationsSummary(db, siteId).unreadCount,
    runReminders: ({ now, ...input }) =>
      writer.call('reminders:run', { ...input, now: new Date(now).toISOString() }),
    ruleReminders: plan.ruleReminders({ sites, writer }),
    siteLabel: (siteId) => sites.getSite(siteId)?.label ?? siteId,
    log: (line, error) => (error === undefined ? log.info(line) : log.warn(line, { error })),
  });

  // The site list the renderer sees: announced when the site manager changes it and when a sync run ends
  // (lastSyncedAt, missing scopes), and only when it differs from the list announced last.
  let announcedSites = '';
  function announceSites(): void {
    const list = sites.list();
    const key = JSON.stringify(list);
    if (key === announcedSites) return;
    announcedSites = key;
    emit('sites:changed', list);
  }
  const unsubscribeSites = sites.onChange((list) => {
    announceSites();
    void desktop.notifier.sitesChanged(list);
  });
  const unsubscribeProgress = sites.onSignInProgress((progress) =>
    emit('sign-in:progress', progress),
  );

  const scheduler = createSyncScheduler({
    sites,
    sync,
    desktop,
    autoSyncMinutes: () => settings.current().autoSyncMinutes,
    ...(options.offlineProbeMs === undefined ? {} : { offlineProbeMs: options.offlineProbeMs }),
    ...(options.minuteMs === undefined ? {} : { minuteMs: options.minuteMs }),
    log,
    onOnlineChange: (online) => {
      emit('network:changed', { online });
      // Transfers that stopped for the network start again from where they stopped.
      if (online) downloads.networkBack();
    },
    onRunEnded: () => announceSites(),
    afterSync: async (site) => {
      // Changed product files are offered, and "keep every product offline" takes what is new.
      void downloads
        .afterSync(site.id)
        .catch((error: unknown) =>
          log.warn('checking saved product files failed', { siteId: site.id, error }),
        );
      await desktop.notifier.afterSync(site);
      await desktop.remind(site.id);
      await plan.feed.refresh();
    },
    // Reminders whose moment came between syncs (an event an hour away, a lecture that opened), offline too.
    onTick: () => desktop.remind(null),
    beforeStartupSync: async () => {
      if (!(await checkOfflineStore(store, log))) return;
      // Rebuilt empty: the next start's first frame must not show what is gone.
      await firstScreen.forget();
      for (const site of sites.list()) emit('data:changed', { siteId: site.id });
    },
  });

  const info: AppInfo = {
    name: 'Learning Desktop',
    version: options.version,
    dataDir,
    host: options.host,
    platform: process.platform,
    demoAvailable: demo !== null,
  };

  const invites = createInviteInbox((outcome) => emit('invite:opened', outcome));
  const services: AppServices = {
    db,
    writer,
    sites,
    sync,
    scheduler,
    desktop,
    downloads,
    demo,
    settings,
    firstScreen,
    clock,
    log,
    emit,
  };
  const downloadHandlers = createDownloadHandlers({
    manager: downloads,
    requireSite: (siteId) => requireSite(services, siteId),
    siteIds: () => sites.list().map((s) => s.id),
    showInFolder: options.showItemInFolder ?? null,
  });
  const exportHandlers = createExportHandlers({
    db,
    now: () => new Date(clock.now()),
    site: (siteId) => requireSite(services, siteId),
    ...(options.timeZone === undefined ? {} : { timeZone: () => options.timeZone! }),
    // Built on the writer's thread: the main process only receives the finished text.
    purchaseHistoryCsv: ({ now: at, ...input }) =>
      writer.call('export:orders-csv', { ...input, now: at.toISOString() }),
    deliver:
      options.deliverFile ??
      (async () => {
        throw new CoreError('forbidden', 'This version of the app cannot save files.');
      }),
  });

  const handlers: IpcHandlers = {
    ...withResults({
      ...createSettingsHandlers(services, info, cipher),
      ...createSiteHandlers(services),
      ...createSyncHandlers(services),
      ...createViewHandlers(services),
      ...createMediaHandlers(services, options.fetch ?? ((input, init) => fetch(input, init))),
      ...createSitePageHandlers(services, options.openExternal),
      ...createTodayHandlers(services),
      ...plan.handlers({ sites, writer }),
      ...createNotificationHandlers(services),
      ...createDoctorHandlers(services, info, {
        ...(options.fetch ? { fetch: options.fetch } : {}),
        ...(options.env ? { env: options.env } : {}),
      }),
      ...createDemoHandlers(services),
      ...createInviteHandlers(invites),
      ...downloadHandlers,
    }),
    ...desktop.handlers,
    ...exportHandlers,
  };

  // Every channel of the contract has a handler (the type says so; this guards a widened cast).
  for (const c of CHANNELS)
    if (typeof handlers[c] !== 'function') throw new Error(`no handler for ${c}`);

  let closed = false;
  return {
    handlers,
    info,
    demo,
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    syncAll: () => scheduler.syncAll('menu'),
    openInviteLink: (link) => void invites.open(link),
    isOnline: () => scheduler.isOnline(),
    desktop,
    serveSavedFile: (pathname, method, range) => downloads.serve(pathname, method, range),
    async close() {
      if (closed) return;
      closed = true;
      scheduler.close();
      desktop.close();
      await plan.feed.close();
      unsubscribeSites();
      unsubscribeProgress();
      await sync.close();
      await downloads.close();
      await sites.close();
      await writer.close();
      db.close();
      await demo?.stop();
      listeners.clear();
    },
  };
}
