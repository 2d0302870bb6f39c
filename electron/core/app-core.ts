/**
 * Composition root: builds every service of the main process from what the host gives it, and answers the
 * IPC contract. Both hosts (Electron and the browser host) call this and nothing deeper.
 *
 *   site manager (auth, vault, sites.json)  ──fetchFor──▶  sync service (GraphQL → SQLite, outbox)
 *                 │                                                 │
 *                 └────────── events ──▶ AppCore.onEvent ◀── events ┘
 *
 * The demo branch (electron/core/demo) is the only place that starts the embedded server; everything else
 * reaches a site over HTTP.
 */
import { join } from 'node:path';
import type { EventName, IpcEvents, IpcHandlers } from '../common/ipc-contract';
import { CHANNELS } from '../common/ipc-contract';
import type { DemoFaultsView } from '../common/demo-faults';
import { NO_DEMO_FAULTS } from '../common/demo-faults';
import { ok } from '../common/result';
import type { AppInfo, Settings, SiteSummary, SyncRunSummary, TokenProtection } from '../common/view-models';
import {
  getBilling,
  getBillingSummary,
  getConsulting,
  getCourseDetail,
  getEntitlements,
  getLibrary,
  getLibraryPage,
  getNotifications,
  getNotificationsPage,
  getNotificationsSummary,
  getOrdersPage,
  getPayableInstructionsPage,
  getProfile,
  openReadConnection,
  search,
} from './db/index';
import { forgetViews } from './db/view-cache';
import { startWriterWorker } from './worker/writer';
import { createDemoServers, DEMO_CLIENT_ID, DEMO_SITE_KEYS, hasDemoSites, reconcileDemoSites, type DemoServers } from './demo/demo-servers';
import { runDoctor } from './doctor/run-doctor';
import { createDesktopServices, type DesktopServices, type DesktopUpdater } from './desktop/desktop-services';
import { createDownloadManager, type SavedFileAnswer } from './downloads/manager';
import { createDownloadHandlers } from './handlers/downloads';
import { CoreError } from './errors';
import { createExportHandlers, type FileDelivery } from './export/service';
import { createInviteInbox } from './invite/inbox';
import { parseInviteLink } from './invite/invite-link';
import type { Logger } from './log';
import { silentLogger } from './log';
import type { FetchLike } from './net/http';
import type { UpdatesOffReason } from './desktop/updates';
import type { SettingsStore } from './settings/settings-store';
import { createJsonSettingsStore } from './settings/settings-store';
import { createSiteManager, type SiteManager } from './sites/site-manager';
import { createSyncService, type SyncService } from './sync/service';
import type { Cipher } from './vault/cipher';
import { createNodeCipher } from './vault/cipher';
import type { DataDirLock } from './data-dir-lock';
import { acquireDataDirLock } from './data-dir-lock';

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
  /** The installed-app services (issue 12): updates, OS notifications, wake sync, tray's unread count. */
  readonly desktop: DesktopServices;
  /**
   * A request of the window for a saved product file (`/saved-files/...` on the app's own origin: app:// in Electron,
   * the browser host's loopback origin): the inline types only, with byte ranges. The hosts stream `body`.
   */
  serveSavedFile(pathname: string, method: string, range: string | undefined): Promise<SavedFileAnswer>;
  close(): Promise<void>;
}

/** Failures that mean "the network or the site is not there", as opposed to a refusal. */
const OFFLINE_CODES = new Set(['site-unreachable', 'server-unavailable', 'network-unavailable']);
const DEFAULT_OFFLINE_PROBE_MS = 30_000;

/**
 * Opens the core on `options.dataDir`, holding the data directory's lock (data-dir-lock.ts) until close():
 * a second process on the same folder gets DataDirInUseError naming the one that holds it (issue 11, item 2).
 */
export async function createAppCore(options: AppCoreOptions): Promise<AppCore> {
  const lock = options.dataDirLock ?? (await acquireDataDirLock(options.dataDir, { host: options.host }));
  let core: AppCore;
  try {
    core = await openAppCore(options);
  } catch (error) {
    await lock.release();
    throw error;
  }
  const closeCore = core.close;
  return {
    ...core,
    async close() {
      try {
        await closeCore();
      } finally {
        await lock.release();
      }
    },
  };
}

async function openAppCore(options: AppCoreOptions): Promise<AppCore> {
  const { dataDir } = options;
  const clock = options.clock ?? Date;
  const logger = options.logger ?? silentLogger;
  const log = logger.child('app');
  const listeners = new Set<AppEventListener>();
  const emit = <E extends EventName>(event: E, payload: IpcEvents[E]): void => {
    for (const l of listeners) {
      try {
        l(event, payload);
      } catch (error) {
        log.warn('event listener failed', { event, error });
      }
    }
  };

  const settingsStore = options.settingsStore ?? createJsonSettingsStore(join(dataDir, 'settings.json'));
  let settings: Settings = await settingsStore.load();
  /** The settings update in progress (updates run one after another). */
  let settingsUpdates: Promise<void> = Promise.resolve();
  const cipher = options.cipher ?? (await createNodeCipher(join(dataDir, 'vault.key')));
  const demoEnabled = options.demo?.enabled ?? true;
  const demo = demoEnabled ? createDemoServers({ dataDir, logger, ...(options.sqliteBinding === undefined ? {} : { sqliteBinding: options.sqliteBinding }) }) : null;

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

  // The writer worker owns the one write connection (it opens the file: migrations, recovery of a damaged file);
  // this thread reads through a read-only connection beside it (WAL), so a sync's commit never blocks an IPC call.
  const dbFile = join(dataDir, 'offline.db');
  const binding = options.sqliteBinding === undefined ? {} : { nativeBinding: options.sqliteBinding };
  // The integrity check reads the whole file (665 ms for eight times the large seed): after a clean exit it runs
  // once the window shows (checkStorage below); after a crash or a kill the writer runs it before anything is read.
  const writer = await startWriterWorker({ file: dbFile, logger: logger.child('db'), integrityCheck: 'unless-closed-cleanly', ...binding });
  if (writer.recovered) log.warn('the offline database was unreadable and was rebuilt', { salvagedOutbox: writer.salvagedOutbox });
  let db: ReturnType<typeof openReadConnection>;
  try {
    db = openReadConnection(dbFile, binding);
  } catch (error) {
    await writer.close();
    throw error;
  }
  writer.attachReader(db);

  // The sync service needs the site manager's fetch, and the site manager shows the sync's lastSyncedAt:
  // bound late through this variable.
  let sync: SyncService | null = null;
  const sites: SiteManager = await createSiteManager({
    dataDir,
    cipher,
    openExternal: options.openExternal,
    clock,
    logger,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.signInTimeoutMs !== undefined ? { signInTimeoutMs: options.signInTimeoutMs } : {}),
    lastSyncedAt: (siteId) => sync?.status(siteId).lastSyncedAt ?? null,
  });

  sync = createSyncService({
    db,
    writer,
    clock: () => clock.now(),
    logger: logger.child('sync'),
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
      if (OFFLINE_CODES.has(reason.code)) setOnline(false);
    },
  });
  const syncService = sync;

  // Purchased files kept offline: the product list (and each file's address) comes from the offline data; the
  // member's token only through the site manager's rules (own origin, one refresh on 401).
  const downloads = await createDownloadManager({
    dir: join(dataDir, 'downloads'),
    products: (siteId) => (sites.getSite(siteId) ? getEntitlements(db, siteId, new Date(clock.now())).digitalProducts : null),
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
    settings: () => settings,
    updater: options.updater ?? null,
    updatesOff: options.updatesOff ?? 'host',
    onUpdateState: (state) => emit('updates:changed', state),
    onNotification: (notification) => emit('desktop:notification', notification),
    readySites: () => readySites(),
    syncAll: (reason) => syncAll(reason),
    payable: (siteId) => getPayableInstructionsPage(db, siteId, new Date(clock.now()), { offset: 0, limit: 100 }).items,
    notices: (siteId) => getNotificationsPage(db, siteId, { offset: 0, limit: 100 }).items,
    unreadCount: (siteId) => getNotificationsSummary(db, siteId).unreadCount,
    log: (line, error) => (error === undefined ? log.info(line) : log.warn(line, { error })),
  });

  const unsubscribeSites = sites.onChange((list) => {
    emit('sites:changed', list);
    void desktop.notifier.sitesChanged(list);
  });
  const unsubscribeProgress = sites.onSignInProgress((progress) => emit('sign-in:progress', progress));

  // ------------------------------------------------------------------ network state and scheduling

  let online = true;
  let closed = false;
  let autoTimer: NodeJS.Timeout | null = null;
  let probeTimer: NodeJS.Timeout | null = null;

  function setOnline(next: boolean): void {
    if (next === online) return;
    online = next;
    emit('network:changed', { online });
    if (online) {
      stopProbing();
      // The network is back: send what was queued and refresh every site.
      void syncAll('network-back');
    } else {
      startProbing();
    }
  }

  function startProbing(): void {
    if (probeTimer || closed) return;
    probeTimer = setInterval(() => void probe(), options.offlineProbeMs ?? DEFAULT_OFFLINE_PROBE_MS);
    probeTimer.unref();
  }
  function stopProbing(): void {
    if (probeTimer) clearInterval(probeTimer);
    probeTimer = null;
  }
  const signOutPending = () => sites.list().some((s) => s.status === 'sign-out-pending');
  async function probe(): Promise<void> {
    // A sign-out queued while the site was unreachable is sent as soon as it answers (RFC 7009), even when no
    // signed-in site is left to probe with.
    if (signOutPending()) await sites.retryPendingRevocations().catch((error: unknown) => log.warn('retrying revocations failed', { error }));
    for (const site of readySites()) {
      if (await syncService.probe(site.id).catch(() => false)) return setOnline(true);
    }
    if (online && !signOutPending()) stopProbing();
  }

  function readySites(): SiteSummary[] {
    return sites.list().filter((s) => s.status === 'ready');
  }

  async function runSync(siteId: string): Promise<SyncRunSummary> {
    // Counted as work under way: an update never restarts the app in the middle of it.
    const summary = await desktop.track(syncService.syncNow(siteId));
    if (summary.outcome === 'completed' || summary.outcome === 'partial') {
      sites.setMissingScopes(siteId, summary.missingScopes);
      setOnline(true);
    } else if (summary.error && OFFLINE_CODES.has(summary.error.code)) {
      setOnline(false);
    }
    // lastSyncedAt is part of the site summary.
    emit('sites:changed', sites.list());
    const synced = sites.getSite(siteId);
    if (synced && (summary.outcome === 'completed' || summary.outcome === 'partial')) {
      // Changed product files are offered, and "keep every product offline" takes what is new.
      void downloads.afterSync(siteId).catch((error: unknown) => log.warn('checking saved product files failed', { siteId, error }));
      await desktop.notifier.afterSync(synced);
    }
    return summary;
  }

  async function syncAll(reason: string): Promise<SyncRunSummary[]> {
    if (closed) return [];
    log.info('syncing every signed-in site', { reason });
    // Queued sign-outs ride on the same beat (RFC 7009: revoke as soon as the site can be reached).
    void sites.retryPendingRevocations().catch((error: unknown) => log.warn('retrying revocations failed', { error }));
    const results = await Promise.allSettled(readySites().map((s) => runSync(s.id)));
    return results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  }

  function scheduleAutoSync(): void {
    if (autoTimer) clearInterval(autoTimer);
    autoTimer = null;
    if (closed || settings.autoSyncMinutes <= 0) return;
    autoTimer = setInterval(() => void syncAll('schedule'), settings.autoSyncMinutes * (options.minuteMs ?? 60_000));
    autoTimer.unref();
  }
  scheduleAutoSync();
  /**
   * The check left out of the start (open.ts integrityCheck): a file damaged while the app was away (a disk, another
   * program) is found here, kept aside as a copy and rebuilt empty; the screens are told their data changed, and
   * the sync that follows fills it again.
   */
  async function checkStorage(): Promise<void> {
    try {
      const checked = await writer.call('db:check', {});
      if (!checked.recovered) return;
      log.warn('the offline database was damaged and was rebuilt', { salvagedOutbox: checked.salvagedOutbox });
      forgetViews(db);
      for (const site of sites.list()) emit('data:changed', { siteId: site.id });
    } catch (error) {
      log.error('the offline database could not be checked', { error });
    }
  }

  // Shortly after start, once the window shows: the check, then a sync. The offline data is shown at once and
  // refreshed behind it.
  const startupSync = setTimeout(() => void checkStorage().then(() => syncAll('startup')), 1000);
  startupSync.unref();

  // ------------------------------------------------------------------ handlers

  const now = () => new Date(clock.now());
  function requireSite(siteId: string): SiteSummary {
    const site = sites.getSite(siteId);
    if (!site) throw new CoreError('not-found', 'That site is not in your list. It may have been removed.');
    return site;
  }
  async function dropOfflineData(siteId: string): Promise<void> {
    syncService.cancel(siteId);
    try {
      await downloads.removeSite(siteId, { forgetSetting: true });
    } catch (cause) {
      throw new CoreError('storage-error', 'The saved files of this site could not be deleted.', undefined, { cause });
    }
    try {
      await writer.call('site:remove', { siteId });
    } catch (cause) {
      throw new CoreError('storage-error', 'The offline data of this site could not be deleted.', undefined, { cause });
    }
    emit('data:changed', { siteId });
  }

  // ------------------------------------------------------------------ demo fault panel

  let signingKeyRotations = 0;
  function requireDemo(): NonNullable<typeof demo> {
    if (!demo) throw new CoreError('forbidden', 'The demo is not available in this version of the app.');
    return demo;
  }
  function demoFaultsView(): DemoFaultsView {
    return { running: demo?.running ?? false, faults: demo?.faults() ?? NO_DEMO_FAULTS, signingKeyRotations };
  }
  /** After a switch, the demo sites are synced at once so the student sees the effect now, not at the next interval. */
  function syncDemoSitesSoon(): void {
    for (const site of readySites().filter((s) => s.isDemo)) {
      void runSync(site.id).catch((error: unknown) => log.warn('sync after a demo fault change failed', { siteId: site.id, error }));
    }
  }

  const tokenProtection: TokenProtection = {
    backend: cipher.backend,
    persistent: cipher.persistent,
    weak: cipher.weak,
    description: cipher.description,
  };

  const info: AppInfo = {
    name: 'Learning Desktop',
    version: options.version,
    dataDir,
    host: options.host,
    platform: process.platform,
    demoAvailable: demo !== null,
  };

  const invites = createInviteInbox((outcome) => emit('invite:opened', outcome));
  const downloadHandlers = createDownloadHandlers({
    manager: downloads,
    requireSite,
    siteIds: () => sites.list().map((s) => s.id),
    showInFolder: options.showItemInFolder ?? null,
  });
  const exportHandlers = createExportHandlers({
    db,
    now,
    site: requireSite,
    ...(options.timeZone === undefined ? {} : { timeZone: () => options.timeZone! }),
    // Built on the writer's thread: the main process only receives the finished text.
    purchaseHistoryCsv: ({ now: at, ...input }) => writer.call('export:orders-csv', { ...input, now: at.toISOString() }),
    deliver:
      options.deliverFile ??
      (async () => {
        throw new CoreError('forbidden', 'This version of the app cannot save files.');
      }),
  });

  const handlers: IpcHandlers = {
    'app:get-info': async () => ok(info),

    'sites:list': async () => ok(sites.list()),
    'sites:add': async (input) =>
      ok(await sites.add({ baseUrl: input.baseUrl, clientId: input.clientId, ...(input.clientSecret !== undefined ? { clientSecret: input.clientSecret } : {}) })),
    'sites:add-demo': async () => {
      if (!demo) throw new CoreError('forbidden', 'Demo mode is not available in this version of the app.');
      let origins;
      try {
        origins = await demo.start();
      } catch (cause) {
        throw new CoreError('server-unavailable', 'The demo site could not be started. Restart the app and try again.', undefined, { cause });
      }
      const added: SiteSummary[] = [];
      for (const key of DEMO_SITE_KEYS) {
        added.push(await sites.add({ baseUrl: origins[key], clientId: DEMO_CLIENT_ID, isDemo: true, label: demo.label(key) }));
      }
      return ok(added);
    },
    'sites:sign-in': async ({ siteId }) => {
      requireSite(siteId);
      const site = await sites.signIn(siteId);
      setOnline(true);
      // First data right after the sign-in; sync:now called meanwhile joins this run.
      void runSync(siteId).catch((error: unknown) => log.warn('sync after sign-in failed', { siteId, error }));
      return ok(site);
    },
    'sites:cancel-sign-in': async ({ siteId }) => {
      requireSite(siteId);
      sites.cancelSignIn(siteId);
      return ok(undefined);
    },
    'sites:sign-out': async ({ siteId, removeData }) => {
      requireSite(siteId);
      syncService.cancel(siteId);
      const result = await desktop.track(sites.signOut(siteId));
      if (removeData) await dropOfflineData(siteId);
      // Queued: keep asking the site, not only at the next sync interval.
      if (result.pending) startProbing();
      return ok(result);
    },
    'sites:remove': async ({ siteId }) => {
      requireSite(siteId);
      syncService.cancel(siteId);
      await desktop.track(sites.remove(siteId));
      await dropOfflineData(siteId);
      await desktop.notifier.forget(siteId);
      // The last demo site is gone: its servers have nothing left to serve (add-demo starts them again).
      if (demo?.running && !sites.list().some((s) => s.isDemo)) await demo.stop();
      return ok(undefined);
    },

    'sync:now': async ({ siteId }) => {
      requireSite(siteId);
      return ok(await runSync(siteId));
    },
    'sync:cancel': async ({ siteId }) => {
      requireSite(siteId);
      syncService.cancel(siteId);
      return ok(undefined);
    },
    'sync:status': async ({ siteId }) => {
      requireSite(siteId);
      return ok(syncService.status(siteId));
    },

    'library:list': async ({ siteId }) => (requireSite(siteId), ok(getLibrary(db, siteId, now()))),
    'library:page': async ({ siteId, ...page }) => (requireSite(siteId), ok(getLibraryPage(db, siteId, now(), page))),
    'course:get': async ({ siteId, courseId }) => (requireSite(siteId), ok(getCourseDetail(db, siteId, courseId, now()))),
    'billing:get': async ({ siteId }) => (requireSite(siteId), ok(getBilling(db, siteId, now()))),
    'billing:summary': async ({ siteId }) => (requireSite(siteId), ok(getBillingSummary(db, siteId, now()))),
    'billing:orders': async ({ siteId, ...page }) => (requireSite(siteId), ok(getOrdersPage(db, siteId, now(), page))),
    'billing:instructions': async ({ siteId, ...page }) => (requireSite(siteId), ok(getPayableInstructionsPage(db, siteId, now(), page))),
    'entitlements:get': async ({ siteId }) => (requireSite(siteId), ok(getEntitlements(db, siteId, now()))),
    'consulting:list': async ({ siteId }) => (requireSite(siteId), ok(getConsulting(db, siteId))),
    'profile:get': async ({ siteId }) => (requireSite(siteId), ok(getProfile(db, siteId))),
    'search:query': async ({ siteId, query }) => (requireSite(siteId), ok(search(db, siteId, query))),

    'notifications:list': async ({ siteId }) => (requireSite(siteId), ok(getNotifications(db, siteId))),
    'notifications:summary': async ({ siteId }) => (requireSite(siteId), ok(getNotificationsSummary(db, siteId))),
    'notifications:page': async ({ siteId, ...page }) => (requireSite(siteId), ok(getNotificationsPage(db, siteId, page))),
    // Through the sync service's outbox: applied to the offline copy at once, sent now or when the site is back.
    'notifications:mark-read': async ({ siteId, notificationId }) => {
      requireSite(siteId);
      await syncService.markNotificationRead(siteId, notificationId);
      return ok(undefined);
    },
    'notifications:mark-all-read': async ({ siteId }) => {
      requireSite(siteId);
      await syncService.markAllNotificationsRead(siteId);
      return ok(undefined);
    },
    'notifications:update-subscription': async ({ siteId, topic, channel, enabled }) => {
      requireSite(siteId);
      return ok(await syncService.updateNotificationSubscription(siteId, topic, channel, enabled));
    },

    'settings:get': async () => ok(settings),
    'settings:update': (patch) => {
      // One update at a time: each starts from the settings the previous one saved. Two changes made in quick
      // succession (theme, then language) otherwise both start from the old settings and the later save drops
      // the earlier change.
      const run = settingsUpdates.then(async () => {
        const next: Settings = { ...settings, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) };
        await settingsStore.save(next);
        const intervalChanged = next.autoSyncMinutes !== settings.autoSyncMinutes;
        settings = await settingsStore.load();
        if (intervalChanged) scheduleAutoSync();
        emit('settings:changed', settings);
        return ok(settings);
      });
      settingsUpdates = run.then(
        () => undefined,
        () => undefined,
      );
      return run;
    },
    'security:get-token-protection': async () => ok(tokenProtection),
    ...desktop.handlers,

    'doctor:run': async (input) => {
      // A saved site, with its last attempt; or an address and client id the student could not add.
      const target =
        'siteId' in input
          ? ((site) => ({ site: { label: site.label, baseUrl: site.baseUrl, clientId: site.clientId }, attempt: sites.lastSignInAttempt(site.id) }))(requireSite(input.siteId))
          : { site: { label: input.baseUrl, baseUrl: input.baseUrl, clientId: input.clientId.trim() }, attempt: null };
      const report = await runDoctor(
        target,
        {
          fetch: options.fetch ?? ((url, init) => fetch(url, init)),
          clock,
          env: options.env ?? process.env,
          app: { version: info.version, host: info.host, platform: info.platform },
        },
      );
      log.info('sign-in doctor ran', { checks: report.checks.map((c) => `${c.id}:${c.status}`).join(' ') });
      return ok(report);
    },

    'demo:faults': async () => (requireDemo(), ok(demoFaultsView())),
    'demo:set-faults': async (patch) => {
      requireDemo().setFaults(patch);
      syncDemoSitesSoon();
      return ok(demoFaultsView());
    },
    'demo:rotate-signing-key': async () => {
      const rotated = await requireDemo().rotateSigningKeys();
      if (rotated === 0) throw new CoreError('forbidden', 'The demo sites are not running.');
      signingKeyRotations++;
      return ok(demoFaultsView());
    },

    ...exportHandlers,
    ...downloadHandlers,
    'invite:parse': async ({ link }) => ok(parseInviteLink(link)),
    'invite:take-pending': async () => ok(invites.take()),
  };

  // Every channel of the contract has a handler (the type says so; this guards a widened cast).
  for (const c of CHANNELS) if (typeof handlers[c] !== 'function') throw new Error(`no handler for ${c}`);

  return {
    handlers,
    info,
    demo,
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    syncAll: () => syncAll('menu'),
    openInviteLink: (link) => void invites.open(link),
    isOnline: () => online,
    desktop,
    serveSavedFile: (pathname, method, range) => downloads.serve(pathname, method, range),
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(startupSync);
      if (autoTimer) clearInterval(autoTimer);
      stopProbing();
      desktop.close();
      unsubscribeSites();
      unsubscribeProgress();
      await syncService.close();
      await downloads.close();
      await sites.close();
      await writer.close();
      db.close();
      await demo?.stop();
      listeners.clear();
    },
  };
}
