/**
 * Composition root: builds every service of the main process from what the host gives it, and
 * composes the handlers of the IPC contract (one module per area in handlers/, plus desktop/ and
 * export/; each returns its value and withResults wraps it). When sites sync is
 * sync-scheduler.ts's. Both hosts (Electron and the browser host) call this and nothing deeper.
 *
 *   site manager (auth, vault, sites.json)  ──fetchFor──▶  sync service (GraphQL → SQLite, outbox)
 *                 │                                                 │
 *                 └────────── events ──▶ AppCore.onEvent ◀── events ┘
 *
 * The demo branch (electron/core/demo) is the only place that starts the embedded server;
 * everything else reaches a site over HTTP.
 */
import { join } from 'node:path';
import { type IpcHandlers } from '../common/ipc-contract';
import type { AppInfo, SyncRunSummary } from '../common/view-models';
import { type DemoServers } from './demo/demo-servers';
import { type DesktopServices } from './desktop/desktop-services';
import { ImageDiskCache } from './downloads/image-cache';
import { type SavedFileAnswer } from './downloads/manager';
import { type AppServices } from './handlers/services';
import { createInviteInbox } from './invite/inbox';
import { silentLogger } from './log';
import { ScheduleLink } from './sync-scheduler';
import { acquireDataDirLock } from './data-dir-lock';
import { composeHandlers } from './app-handlers';
import {
  appInfo,
  CoreEvents,
  openDesktop,
  openDownloads,
  openFoundation,
  openPlan,
  openScheduler,
  openSync,
  SiteAnnouncer,
  type AppCoreOptions,
  type AppEventListener,
  type Context,
} from './app-parts';

export type { AppCoreOptions, AppEventListener } from './app-parts';

export interface AppCore {
  readonly handlers: IpcHandlers;
  readonly info: AppInfo;
  onEvent(listener: AppEventListener): () => void;
  /** Syncs every signed-in site (the application menu's File > Sync now). */
  syncAll(): Promise<SyncRunSummary[]>;
  /**
   * Whether the signed-in sites were reachable at the last try (what `network:changed` last said).
   */
  isOnline(): boolean;
  /**
   * Demo mode's servers (test hook: stop/start them to take the demo sites off the network), or
   * null.
   */
  readonly demo: DemoServers | null;
  /**
   * The app was opened with a link (Electron: the learning-desktop: scheme): read it and show it to
   * the student.
   */
  openInviteLink(link: string): void;
  /** The installed-app services: updates, OS notifications, wake sync, tray's unread count. */
  readonly desktop: DesktopServices;
  /**
   * A request of the window for a saved product file (`/saved-files/...` on the app's own origin:
   * app:// in Electron, the browser host's loopback origin): the inline types only, with byte
   * ranges. The hosts stream `body`.
   */
  serveSavedFile(
    pathname: string,
    method: string,
    range: string | undefined,
  ): Promise<SavedFileAnswer>;
  close(): Promise<void>;
}

/**
 * Opens the core on `options.dataDir`, holding the data directory's lock (data-dir-lock.ts) until
 * close():
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

/**
 * Builds the core in the order its parts need one another; each is made from those made before it.
 * The one edge back is the schedule: settings, the sync and the desktop call it, and it is made
 * from them, so they are given `schedule` (ScheduleLink), connected to the scheduler as soon as it
 * is made.
 */
async function openAppCore(options: AppCoreOptions): Promise<AppCore> {
  const clock = options.clock ?? Date;
  const logger = options.logger ?? silentLogger;
  const log = logger.child('app');
  const events = new CoreEvents({ log });
  const { emit } = events;
  const context: Context = { options, clock, logger, log, emit };
  const schedule = new ScheduleLink();

  const foundation = await openFoundation(context, schedule);
  const { settings, cipher, demo, store, sites, firstScreen } = foundation;
  const { writer, db } = store;
  const plan = await openPlan(context, { store, sites, settings });
  const sync = openSync(context, { store, sites, schedule, emit });
  const downloads = await openDownloads(context, { store, sites });
  const desktop = await openDesktop(context, { store, sites, settings, schedule, plan });
  const announcer = new SiteAnnouncer({ sites, emit });
  // Covers and avatars of https schools, kept on disk beside the offline copy and removed with
  // their site.
  const imageCache = new ImageDiskCache({ dir: join(options.dataDir, 'image-cache') });
  const unsubscribeSites = sites.onChange((list) => {
    announcer.announce();
    void imageCache.keepOnly(list.map((s) => s.id)).catch(() => undefined);
    void desktop.notifier.sitesChanged(list);
  });
  const unsubscribeProgress = sites.onSignInProgress((progress) =>
    emit('sign-in:progress', progress),
  );
  const made = { store, sites, sync, settings, downloads, desktop, firstScreen, announcer, plan };
  const scheduler = openScheduler(context, made);
  schedule.connect(scheduler);

  const info = appInfo(options, demo);
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
  const handlerParts = { services, info, cipher, invites, imageCache, plan };
  const handlers = composeHandlers(context, handlerParts);

  let closed = false;
  return {
    handlers,
    info,
    demo,
    onEvent: (listener) => events.listen(listener),
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
      events.clear();
    },
  };
}
