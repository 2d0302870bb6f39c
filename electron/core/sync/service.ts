import type {
  NotificationChannel,
  NotificationSubscriptionView,
  NotificationTopic,
  SyncProgress,
  SyncRunSummary,
  SyncStatus,
} from '../../common/view-models';
import { CoreError, isCoreError, isTransient } from '../errors';
import { osHasNetwork } from '../net/reachability';
import {
  countPending,
  getSyncStatus,
  silentLogger,
  type Logger,
  type ReadableDB,
  type ReadWriteDB,
} from '../db/index';
import { createInProcessWriter, type DbWriter } from '../worker/writer';
import type { FetchedSnapshot } from './fetch-snapshot';
import { ProbeQuery } from '../graphql/documents';
import { NotificationChanges } from './notification-changes';
import { replayPending, type ReplayReport } from './outbox-replay';
import { SearchWarmer } from './search-warmer';
import { SiteLocks } from './site-locks';
import { SiteReach } from './site-reach';
import { SiteTransports } from './site-transports';
import { SyncPipeline } from './sync-run';
import {
  defaultSleep,
  type ClientFor,
  type RetryPolicy,
  type Sleep,
  type Transport,
} from './transport-contract';

/**
 * Where views and the sync read, and where every write goes (worker/writer.ts): in the app the main
 * process's read-only connection and the writer worker, so the main process never waits on a
 * commit. Without a writer, the same handlers run on `db` in this thread, so `db` must be one
 * connection that writes too (tests, tools).
 */
export type SyncServiceDeps = SyncServiceParts &
  (
    | { readonly db: ReadableDB; readonly writer: DbWriter }
    | { readonly db: ReadWriteDB; readonly writer?: undefined }
  );

interface SyncServiceParts {
  /** Requests in flight at once while fetching (fetch-snapshot.ts, default 4). */
  readonly fetchConcurrency?: number;
  readonly clientFor: ClientFor;
  /**
   * Milliseconds since the epoch (a function, or a `{ now() }` clock like the rest of the core);
   * tests pass a fixed one.
   */
  readonly clock?: (() => number) | { now(): number };
  readonly logger?: Logger;
  readonly onProgress?: (progress: SyncProgress) => void;
  /**
   * A site's offline data changed (snapshot committed, outbox change applied or accepted): views
   * refetch.
   */
  readonly onDataChanged?: (siteId: string) => void;
  /** A background replay of a change the user just made stopped early (e.g. the site is
   * unreachable): the host can start watching for the network to come back instead of waiting for
   * the next scheduled sync.
   */
  readonly onReplayStopped?: (siteId: string, reason: CoreError) => void;
  readonly sleep?: Sleep;
  readonly retry?: RetryPolicy;
  /**
   * How long one request may take, start to last byte (default net/site-data.ts
   * REQUEST_DEADLINE_MS).
   */
  readonly requestDeadlineMs?: number;
  /**
   * Whether the operating system lists a network (default net/reachability.ts osHasNetwork;
   * Electron: net.isOnline).
   */
  readonly networkUp?: () => boolean;
}

export interface SyncService {
  /** Runs a full sync of the site (outbox replay, then the whole viewer, committed at once). A
   * second call while one runs for the same site joins it. Resolves with the run's summary;
   * failures are in the summary.
   */
  syncNow(siteId: string, options?: { readonly signal?: AbortSignal }): Promise<SyncRunSummary>;
  cancel(siteId: string): void;
  /** The status without its view (handlers/sync.ts adds it with the site's sign-in state). */
  status(siteId: string): Omit<SyncStatus, 'view'>;
  /** Sends the site's queued changes now (also done at the start of every sync). */
  replayOutbox(siteId: string): Promise<ReplayReport>;
  /**
   * A cheap reachability check (the core probes this while offline). True when the site answered.
   */
  probe(siteId: string): Promise<boolean>;
  markNotificationRead(siteId: string, notificationId: string): Promise<void>;
  markAllNotificationsRead(siteId: string): Promise<void>;
  updateNotificationSubscription(
    siteId: string,
    topic: NotificationTopic,
    channel: NotificationChannel,
    enabled: boolean,
  ): Promise<NotificationSubscriptionView>;
  /**
   * Removing a site: cancels its sync, waits for it, then deletes all its offline data (outbox
   * included).
   */
  forgetSite(siteId: string): Promise<void>;
  /** Cancels running syncs and waits for them (and any replay) to settle. */
  close(): Promise<void>;
}

/** The dependencies under their old name (callers outside the sync name them so). */
export type SyncServiceOptions = SyncServiceDeps;

interface Running {
  readonly controller: AbortController;
  readonly promise: Promise<SyncRunSummary>;
}

const REPLAY_RETRY: RetryPolicy = { attempts: 2, baseDelayMs: 250, maxDelayMs: 1000 };
const PROBE_RETRY: RetryPolicy = { attempts: 1, baseDelayMs: 0, maxDelayMs: 0 };

/**
 * The sync of every site, made of parts with one job each: the run pipeline (sync-run.ts), per-site
 * locks (site-locks.ts), reachability (site-reach.ts), the search warm-up after a commit
 * (search-warmer.ts) and the student's notification changes (notification-changes.ts). This class
 * joins them: it starts and cancels runs, replays the outbox and answers the status.
 */
export class SyncEngine implements SyncService {
  readonly #db: ReadableDB;
  readonly #writer: DbWriter;
  /** Closed with the service only when this service made it. */
  readonly #ownsWriter: boolean;
  readonly #now: () => Date;
  readonly #logger: Logger;
  readonly #deps: SyncServiceDeps;
  readonly #running = new Map<string, Running>();
  readonly #locks = new SiteLocks();
  readonly #reach: SiteReach;
  readonly #transports: SiteTransports;
  readonly #warmer: SearchWarmer;
  readonly #pipeline: SyncPipeline;
  readonly #notifications: NotificationChanges;
  /**
   * Per site, the parts the last completed run kept to their newest items (in memory: each start
   * syncs again).
   */
  readonly #keptNewest = new Map<string, FetchedSnapshot['keptNewest']>();
  #closed = false;

  constructor(deps: SyncServiceDeps) {
    this.#deps = deps;
    this.#db = deps.db;
    this.#writer = deps.writer === undefined ? createInProcessWriter(deps.db) : deps.writer;
    this.#ownsWriter = deps.writer === undefined;
    this.#now = nowOf(deps.clock);
    this.#logger = deps.logger ?? silentLogger;
    const common = { db: this.#db, writer: this.#writer, now: this.#now, logger: this.#logger };
    this.#reach = new SiteReach({ networkUp: deps.networkUp ?? (() => osHasNetwork()) });
    this.#transports = new SiteTransports({
      clientFor: deps.clientFor,
      writer: this.#writer,
      sleep: deps.sleep ?? defaultSleep,
      logger: this.#logger,
      ...(deps.retry ? { retry: deps.retry } : {}),
      ...(deps.requestDeadlineMs === undefined
        ? {}
        : { requestDeadlineMs: deps.requestDeadlineMs }),
    });
    this.#warmer = new SearchWarmer(common);
    this.#pipeline = new SyncPipeline({
      ...common,
      transports: this.#transports,
      reach: this.#reach,
      warmer: this.#warmer,
      ...(deps.fetchConcurrency === undefined ? {} : { fetchConcurrency: deps.fetchConcurrency }),
      replay: (siteId, transport) => this.#replayWith(siteId, transport),
      progress: (p) => this.#progress(p),
      dataChanged: (siteId) => this.#dataChanged(siteId),
      keptNewest: (siteId, kept) => this.#keptNewest.set(siteId, kept),
    });
    this.#notifications = new NotificationChanges({
      ...common,
      dataChanged: (siteId) => this.#dataChanged(siteId),
      replay: (siteId) => this.replayOutbox(siteId),
      onReplayStopped: (siteId, reason) => deps.onReplayStopped?.(siteId, reason),
    });
  }

  syncNow(siteId: string, opts: { readonly signal?: AbortSignal } = {}): Promise<SyncRunSummary> {
    if (this.#closed)
      return Promise.reject(new CoreError('internal', 'The sync service is closed.'));
    const existing = this.#running.get(siteId);
    if (existing) return existing.promise;
    const controller = new AbortController();
    const onAbort = () => controller.abort(opts.signal?.reason);
    if (opts.signal?.aborted) controller.abort(opts.signal.reason);
    else opts.signal?.addEventListener('abort', onAbort, { once: true });
    const promise = this.#locks
      .run(siteId, () => this.#pipeline.run(siteId, controller.signal))
      .finally(() => {
        opts.signal?.removeEventListener('abort', onAbort);
        this.#running.delete(siteId);
      });
    this.#running.set(siteId, { controller, promise });
    return promise;
  }

  cancel(siteId: string): void {
    this.#running
      .get(siteId)
      ?.controller.abort(new CoreError('sync-cancelled', 'The sync was cancelled.'));
  }

  status(siteId: string): Omit<SyncStatus, 'view'> {
    const live = {
      running: this.#running.has(siteId),
      online: this.#reach.online(siteId),
      reach: this.#reach.of(siteId),
    };
    return {
      ...getSyncStatus(this.#db, siteId, live),
      keptNewest: this.#keptNewest.get(siteId) ?? [],
    };
  }

  replayOutbox(siteId: string): Promise<ReplayReport> {
    return this.#locks.run(siteId, async () => {
      if (countPending(this.#db, siteId) === 0)
        return { replayed: 0, failed: 0, pending: 0, missingScopes: [], stoppedBy: null };
      let transport: Transport;
      try {
        transport = await this.#transports.for(siteId, { retry: REPLAY_RETRY });
      } catch (error) {
        const failure = isCoreError(error)
          ? error
          : new CoreError('sync-failed', 'No client for this site.', undefined, { cause: error });
        const pending = countPending(this.#db, siteId);
        return { replayed: 0, failed: 0, pending, missingScopes: [], stoppedBy: failure };
      }
      return this.#replayWith(siteId, transport);
    });
  }

  async probe(siteId: string): Promise<boolean> {
    try {
      const transport = await this.#transports.for(siteId, {
        signal: AbortSignal.timeout(10_000),
        retry: PROBE_RETRY,
      });
      await transport.execute(ProbeQuery);
      this.#reach.answered(siteId);
      return true;
    } catch (error) {
      // Reached but refused (sign-in needed, scope): the site is online. A timeout is not an
      // answer.
      const reachable =
        isCoreError(error) && !isTransient(error) && error.code !== 'sync-cancelled';
      if (isCoreError(error) && error.code !== 'sync-cancelled')
        this.#reach.contactFailed(siteId, error);
      else if (!reachable) this.#reach.notAnswering(siteId);
      return reachable;
    }
  }

  markNotificationRead(siteId: string, notificationId: string): Promise<void> {
    return this.#notifications.markRead(siteId, notificationId);
  }

  markAllNotificationsRead(siteId: string): Promise<void> {
    return this.#notifications.markAllRead(siteId);
  }

  updateNotificationSubscription(
    siteId: string,
    topic: NotificationTopic,
    channel: NotificationChannel,
    enabled: boolean,
  ): Promise<NotificationSubscriptionView> {
    return this.#notifications.updateSubscription(siteId, topic, channel, enabled);
  }

  async forgetSite(siteId: string): Promise<void> {
    this.cancel(siteId);
    await this.#locks.run(siteId, async () => {
      await this.#writer.call('site:remove', { siteId });
      this.#reach.forget(siteId);
    });
    this.#dataChanged(siteId);
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#warmer.stop();
    const running = [...this.#running.values()];
    for (const r of running)
      r.controller.abort(new CoreError('sync-cancelled', 'The app is closing.'));
    await Promise.allSettled(running.map((r) => r.promise));
    await this.#locks.settled();
    // Writes still queued (a run's record, an index step) finish before the caller closes the
    // database.
    await this.#warmer.settled();
    if (this.#ownsWriter) await this.#writer.close();
  }

  async #replayWith(siteId: string, transport: Transport): Promise<ReplayReport> {
    const report = await replayPending(this.#db, this.#writer, siteId, transport, this.#now);
    if (report.replayed > 0 || report.failed > 0) this.#dataChanged(siteId);
    if (report.stoppedBy) this.#reach.contactFailed(siteId, report.stoppedBy);
    else if (report.replayed > 0) this.#reach.answered(siteId);
    return report;
  }

  #dataChanged(siteId: string): void {
    try {
      this.#deps.onDataChanged?.(siteId);
    } catch (error) {
      this.#logger.warn('onDataChanged listener failed', { siteId, error: String(error) });
    }
  }

  #progress(p: SyncProgress): void {
    try {
      this.#deps.onProgress?.(p);
    } catch (error) {
      this.#logger.warn('onProgress listener failed', { siteId: p.siteId, error: String(error) });
    }
  }
}

/** A clock as a function, or a `{ now() }` clock like the rest of the core. */
function nowOf(given: SyncServiceDeps['clock']): () => Date {
  const clock: () => number =
    given === undefined ? Date.now : typeof given === 'function' ? given : () => given.now();
  return () => new Date(clock());
}

export function createSyncService(deps: SyncServiceDeps): SyncService {
  return new SyncEngine(deps);
}
