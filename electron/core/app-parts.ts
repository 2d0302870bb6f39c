/**
 * The parts of the composition root (app-core.ts), each made from what is made before it: the
 * core's events, the foundation (settings, vault key, demo servers, offline store, site list), the
 * sync service, saved product files, the desktop services, the scheduler, and the handlers of the
 * IPC contract.
 */
import { join } from 'node:path';
import { type EventName, type IpcEvents } from '../common/ipc-contract';
import { isTransientErrorCode } from '../common/errors';
import type { AppInfo } from '../common/view-models';
import {
  getEntitlements,
  getLastSyncedAt,
  getNotificationsPage,
  getNotificationsSummary,
  getChangesSince,
  getPayableInstructionsPage,
} from './db/index';
import { checkOfflineStore, openOfflineStore, type OfflineStore } from './worker/offline-store';
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
import { createDownloadManager, type DownloadManager } from './downloads/manager';
import { CoreError } from './errors';
import { type FileDelivery } from './export/service';
import { type Emit } from './handlers/services';
import { createFirstScreenStore, type FirstScreenStore } from './desktop/first-screen';
import type { ChooseFolder } from './handlers/calendar-feed';
import { PlanServices } from './handlers/plan-services';
import type { ClientPlaces, McpLaunch } from './mcp-local/clients';
import { type Logger } from './log';
import { entitlementLinksForSite } from './net/external-url';
import type { FetchLike } from './net/http';
import type { UpdatesOffReason } from './desktop/updates';
import { loadLiveSettings, type LiveSettings } from './settings/live-settings';
import { createJsonSettingsStore, type SettingsStore } from './settings/settings-store';
import { createSiteManager, type SiteManager } from './sites/site-manager';
import type { ScheduleLink } from './sync-scheduler';
import { createSyncScheduler, readySites, type SyncScheduler } from './sync-scheduler';
import { createSyncService, type SyncService } from './sync/service';
import { createNodeCipher, type Cipher } from './vault/cipher';
import { type DataDirLock } from './data-dir-lock';

export interface AppCoreOptions {
  readonly dataDir: string;
  readonly version: string;
  readonly host: AppInfo['host'];
  /**
   * Opens the system browser (Electron: shell.openExternal; browser host: a new tab). http/https
   * only.
   */
  readonly openExternal: (url: string) => Promise<void>;
  /**
   * How the vault encrypts tokens. Default: AES-256-GCM with a key file in dataDir
   * (createNodeCipher).
   */
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
   * better-sqlite3's compiled addon (a .node file) for the offline database and the demo sites,
   * when the default one does not fit this runtime (Electron run from a checkout built for Node;
   * see scripts/electron-native.mjs).
   */
  readonly sqliteBinding?: string;
  /** How long a sign-in waits for the browser (default: the site manager's 5 minutes). */
  readonly signInTimeoutMs?: number;
  /** While offline, how often the sites are probed to notice the network is back (default 30 s). */
  readonly offlineProbeMs?: number;
  /** Length of the "minute" of settings.autoSyncMinutes (default 60 000; tests shorten it). */
  readonly minuteMs?: number;
  /**
   * Whether the operating system lists a network (default: any non-loopback interface; Electron:
   * net.isOnline).
   */
  readonly networkUp?: () => boolean;
  /** The data directory's lock when the host took it already (the core releases it at close). */
  readonly dataDirLock?: DataDirLock;
  /**
   * Electron, packaged, with an update feed: electron-updater adapted (electron/main/updater.ts).
   */
  readonly updater?: DesktopUpdater | null;
  /** Why updates are off when there is no updater (default: 'host', the browser host). */
  readonly updatesOff?: UpdatesOffReason;
  /** The environment the sign-in doctor reads proxy variables from (default: process.env). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * How a file the student asked for (purchase CSV, receipt, calendar reminder) reaches them:
   * Electron's save dialog, the browser host's download. Without one, asking for a file is refused.
   */
  readonly deliverFile?: FileDelivery;
  /**
   * Shows a saved product file selected in the file manager (Electron: shell.showItemInFolder).
   * Never opens it.
   */
  readonly showItemInFolder?: (path: string) => void | Promise<void>;
  /**
   * The system's folder dialog (Electron: dialog.showOpenDialog) for where the calendar file is
   * kept; absent in the browser host, where the folder is typed.
   */
  readonly chooseFolder?: ChooseFolder;
  /** The zone exported dates are written in (default: this computer's). */
  readonly timeZone?: string;
  /**
   * How an assistant's client starts the local MCP server (default: this checkout's tsx on cli.ts).
   */
  readonly mcpLaunch?: McpLaunch;
  /**
   * Where the icon the Claude Desktop bundle carries is (default: this checkout's build/icon.png),
   * asked when a bundle is made: the packaged app's resources path is not read at the start.
   */
  readonly mcpIcon?: () => string;
  /** Where the assistants keep their config files (default: this user's home). */
  readonly assistantPlaces?: ClientPlaces;
}

export type AppEventListener = <E extends EventName>(event: E, payload: IpcEvents[E]) => void;

/**
 * The core's events, to every listener; a listener that throws is logged and the others still hear
 * it.
 */
export class CoreEvents {
  readonly #listeners = new Set<AppEventListener>();
  readonly #log: Logger;
  readonly emit: Emit = (event, payload) => {
    for (const l of this.#listeners) {
      try {
        l(event, payload);
      } catch (error) {
        this.#log.warn('event listener failed', { event, error });
      }
    }
  };

  constructor(deps: { readonly log: Logger }) {
    this.#log = deps.log;
  }

  listen(listener: AppEventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  clear(): void {
    this.#listeners.clear();
  }
}

/** What every builder below reads: the host's options and the core's clock, loggers and events. */
export interface Context {
  readonly options: AppCoreOptions;
  readonly clock: { now(): number };
  readonly logger: Logger;
  readonly log: Logger;
  readonly emit: Emit;
}

/**
 * The demo's servers, when demo mode is on. Demo sites saved by an earlier run need their servers
 * before anything talks to them (a sync, a refresh): started before the site manager reads
 * sites.json, so a changed port can be written into it first.
 */
export async function openDemo({ options, logger, log }: Context): Promise<DemoServers | null> {
  const { dataDir } = options;
  if (!(options.demo?.enabled ?? true)) return null;
  const demo = createDemoServers({
    dataDir,
    logger,
    ...(options.sqliteBinding === undefined ? {} : { sqliteBinding: options.sqliteBinding }),
  });
  if (await hasDemoSites(dataDir)) {
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
  return demo;
}

export function openSync(
  { options, clock, logger }: Context,
  parts: { store: OfflineStore; sites: SiteManager; schedule: ScheduleLink; emit: Emit },
): SyncService {
  const { store, sites, schedule, emit } = parts;
  return createSyncService({
    db: store.db,
    writer: store.writer,
    clock: () => clock.now(),
    logger: logger.child('sync'),
    ...(options.networkUp ? { networkUp: options.networkUp } : {}),
    clientFor(siteId) {
      const site = sites.getSite(siteId);
      if (!site) throw new CoreError('not-found', 'That site is not in your list.');
      // service-spec "Endpoints": the member API is {base_url}/member/graphql. fetchFor sends the
      // site's token to the site's own origin only and refreshes it single-flight. With the
      // runtime's own fetch (the app), the sync's pages are requested by the writer worker under
      // the same token rules (sendWith), so this thread carries none of them; a fetch the host
      // injected is used as is.
      return {
        endpoint: `${site.baseUrl}/member/graphql`,
        fetch: sites.fetchFor(siteId) as typeof fetch,
        ...(options.fetch ? {} : { sendWith: sites.sendWith(siteId) }),
      };
    },
    onProgress: (progress) => emit('sync:progress', progress),
    onDataChanged: (siteId) => emit('data:changed', { siteId }),
    // A change made offline: probe until the site answers, then replay it (not only at the next
    // interval).
    onReplayStopped: (_siteId, reason) => {
      if (isTransientErrorCode(reason.code)) schedule.setOnline(false);
    },
  });
}

/**
 * Purchased files kept offline: the product list (and each file's address) comes from the offline
 * data; the member's token only through the site manager's rules (own origin, one refresh on 401).
 */
export function openDownloads(
  { options, clock, logger, emit }: Context,
  { store, sites }: { store: OfflineStore; sites: SiteManager },
): Promise<DownloadManager> {
  return createDownloadManager({
    dir: join(options.dataDir, 'downloads'),
    products: (siteId) => {
      const site = sites.getSite(siteId);
      return site
        ? entitlementLinksForSite(
            getEntitlements(store.db, siteId, new Date(clock.now())),
            site.baseUrl,
          ).digitalProducts
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
}

export function openDesktop(
  { options, clock, log, emit }: Context,
  parts: {
    store: OfflineStore;
    sites: SiteManager;
    settings: LiveSettings;
    schedule: ScheduleLink;
    plan: PlanServices;
  },
): Promise<DesktopServices> {
  const { store, sites, settings, schedule, plan } = parts;
  const { db, writer } = store;
  return createDesktopServices({
    dataDir: options.dataDir,
    now: () => clock.now(),
    settings: () => settings.current(),
    updater: options.updater ?? null,
    updatesOff: options.updatesOff ?? 'host',
    onUpdateState: (state) => emit('updates:changed', state),
    onNotification: (notification) => emit('desktop:notification', notification),
    readySites: () => readySites(sites),
    sites: () => sites.list(),
    syncAll: (reason) => schedule.syncAll(reason),
    payable: (siteId) =>
      getPayableInstructionsPage(db, siteId, new Date(clock.now()), { offset: 0, limit: 100 })
        .items,
    notices: (siteId) => getNotificationsPage(db, siteId, { offset: 0, limit: 100 }).items,
    unreadCount: (siteId) => getNotificationsSummary(db, siteId).unreadCount,
    runReminders: ({ now, ...input }) =>
      writer.call('reminders:run', { ...input, now: new Date(now).toISOString() }),
    ruleReminders: plan.ruleReminders({ sites, writer }),
    changesSince: (since) => getChangesSince(db, since),
    siteLabel: (siteId) => sites.getSite(siteId)?.label ?? siteId,
    log: (line, error) => (error === undefined ? log.info(line) : log.warn(line, { error })),
  });
}

/**
 * The site list the renderer sees: announced when the site manager changes it and when a sync run
 * ends (lastSyncedAt, missing scopes), and only when it differs from the list announced last.
 */
export class SiteAnnouncer {
  readonly #sites: SiteManager;
  readonly #emit: Emit;
  #announced = '';

  constructor(deps: { readonly sites: SiteManager; readonly emit: Emit }) {
    this.#sites = deps.sites;
    this.#emit = deps.emit;
  }

  announce(): void {
    const list = this.#sites.list();
    const key = JSON.stringify(list);
    if (key === this.#announced) return;
    this.#announced = key;
    this.#emit('sites:changed', list);
  }
}

export interface SchedulerParts {
  readonly store: OfflineStore;
  readonly sites: SiteManager;
  readonly sync: SyncService;
  readonly settings: LiveSettings;
  readonly downloads: DownloadManager;
  readonly desktop: DesktopServices;
  readonly firstScreen: FirstScreenStore;
  readonly announcer: SiteAnnouncer;
  readonly plan: PlanServices;
}

export function openScheduler(
  { options, log, emit }: Context,
  parts: SchedulerParts,
): SyncScheduler {
  const { store, sites, sync, settings, downloads, desktop, firstScreen, announcer, plan } = parts;
  return createSyncScheduler({
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
    onRunEnded: () => announcer.announce(),
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
    // Reminders whose moment came between syncs (an event an hour away, a lecture that opened),
    // offline too.
    onTick: () => desktop.remind(null),
    beforeStartupSync: async () => {
      if (!(await checkOfflineStore(store, log))) return;
      // Rebuilt empty: the next start's first frame must not show what is gone.
      await firstScreen.forget();
      for (const site of sites.list()) emit('data:changed', { siteId: site.id });
    },
  });
}

/**
 * The plan, the reminders by rule and the calendar feed (plan.json; the old reminder switches are
 * defaults).
 */
export async function openPlan(
  { options, clock, log }: Context,
  parts: { store: OfflineStore; sites: SiteManager; settings: LiveSettings },
): Promise<PlanServices> {
  const plan = new PlanServices({
    db: parts.store.db,
    clock,
    sites: parts.sites,
    settings: parts.settings,
    dataDir: options.dataDir,
    timeZone: options.timeZone ?? (Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'),
    log: (line, error) => log.warn(line, { error }),
    ...(options.chooseFolder ? { chooseFolder: options.chooseFolder } : {}),
  });
  await plan.open();
  return plan;
}

/** What the app says of itself (Settings > About, the doctor). */
export function appInfo(options: AppCoreOptions, demo: DemoServers | null): AppInfo {
  return {
    name: 'Learning Desktop',
    version: options.version,
    dataDir: options.dataDir,
    host: options.host,
    platform: process.platform,
    demoAvailable: demo !== null,
  };
}

/** What the core keeps on disk and the site list, made first: everything else reads them. */
export interface Foundation {
  readonly settings: LiveSettings;
  readonly cipher: Cipher;
  readonly demo: DemoServers | null;
  readonly store: OfflineStore;
  readonly sites: SiteManager;
  readonly firstScreen: FirstScreenStore;
}

export async function openFoundation(
  context: Context,
  schedule: ScheduleLink,
): Promise<Foundation> {
  const { options, clock, logger, emit } = context;
  const { dataDir } = options;
  const settingsStore =
    options.settingsStore ?? createJsonSettingsStore(join(dataDir, 'settings.json'));
  const settings = await loadLiveSettings(settingsStore, (next, { intervalChanged }) => {
    if (intervalChanged) schedule.reschedule();
    emit('settings:changed', next);
  });
  const cipher = options.cipher ?? (await createNodeCipher(join(dataDir, 'vault.key')));
  const demo = await openDemo(context);
  const store = await openOfflineStore({
    file: join(dataDir, 'offline.db'),
    logger,
    ...(options.sqliteBinding === undefined ? {} : { sqliteBinding: options.sqliteBinding }),
  });
  const sites: SiteManager = await createSiteManager({
    dataDir,
    cipher,
    openExternal: options.openExternal,
    clock,
    logger,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.signInTimeoutMs !== undefined ? { signInTimeoutMs: options.signInTimeoutMs } : {}),
    // The sync history in the offline database is the one source of a site's lastSyncedAt.
    lastSyncedAt: (siteId) => getLastSyncedAt(store.db, siteId),
  });
  const firstScreen = createFirstScreenStore(dataDir, sites);
  return { settings, cipher, demo, store, sites, firstScreen };
}
