import type {
  NotificationChannel,
  NotificationSubscriptionView,
  NotificationTopic,
  SyncProgress,
  SyncRunSummary,
  SyncStatus,
} from '../../common/view-models';
import { CoreError, isCoreError, isTransient } from '../errors';
import { failedBeforeConnecting, osHasNetwork, type Reach } from '../net/reachability';
import {
  type Logger,
  type OutboxChange,
  type ReadableDB,
  type ReadWriteDB,
  countPending,
  getSubscription,
  getSyncStatus,
  indexShortTermsInSteps,
  silentLogger,
  storedPageCursors,
  warmSummaries,
} from '../db/index';
import type { StageFetchInput } from '../worker/worker-contract';
import { createInProcessWriter, type DbWriter } from '../worker/writer';
import { fetchSnapshot, type FetchedSnapshot } from './fetch-snapshot';
import { ProbeQuery } from '../graphql/documents';
import { replayPending, type ReplayReport } from './outbox-replay';
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
export type SyncServiceOptions = SyncServiceParts &
  (
    | { readonly db: ReadableDB; readonly writer: DbWriter }
    | { readonly db: ReadWriteDB; readonly writer?: undefined }
  );

interface SyncServiceParts {
  /** Requests in flight at once while fetching (fetch-snapshot.ts, default 4). */
  readonly fetchConcurrency?: number;
  readonly clientFor: ClientFor;
  /** Milliseconds since the epoch (a function, or a `{ now() }` clock like the rest of the core); tests pass a fixed one. */
  readonly clock?: (() => number) | { now(): number };
  readonly logger?: Logger;
  readonly onProgress?: (progress: SyncProgress) => void;
  /** A site's offline data changed (snapshot committed, outbox change applied or accepted): views refetch. */
  readonly onDataChanged?: (siteId: string) => void;
  /** A background replay of a change the user just made stopped early (e.g. the site is unreachable): the host
   * can start watching for the network to come back instead of waiting for the next scheduled sync. */
  readonly onReplayStopped?: (siteId: string, reason: CoreError) => void;
  readonly sleep?: Sleep;
  readonly retry?: RetryPolicy;
  /** How long one request may take, start to last byte (default net/site-data.ts REQUEST_DEADLINE_MS). */
  readonly requestDeadlineMs?: number;
  /** Whether the operating system lists a network (default net/reachability.ts osHasNetwork; Electron: net.isOnline). */
  readonly networkUp?: () => boolean;
}

export interface SyncService {
  /** Runs a full sync of the site (outbox replay, then the whole viewer, committed at once). A second call while
   * one runs for the same site joins it. Resolves with the run's summary; failures are in the summary. */
  syncNow(siteId: string, options?: { readonly signal?: AbortSignal }): Promise<SyncRunSummary>;
  cancel(siteId: string): void;
  /** The status without its view (handlers/sync.ts adds it with the site's sign-in state). */
  status(siteId: string): Omit<SyncStatus, 'view'>;
  /** Sends the site's queued changes now (also done at the start of every sync). */
  replayOutbox(siteId: string): Promise<ReplayReport>;
  /** A cheap reachability check (the core probes this while offline). True when the site answered. */
  probe(siteId: string): Promise<boolean>;
  markNotificationRead(siteId: string, notificationId: string): Promise<void>;
  markAllNotificationsRead(siteId: string): Promise<void>;
  updateNotificationSubscription(
    siteId: string,
    topic: NotificationTopic,
    channel: NotificationChannel,
    enabled: boolean,
  ): Promise<NotificationSubscriptionView>;
  /** Removing a site: cancels its sync, waits for it, then deletes all its offline data (outbox included). */
  forgetSite(siteId: string): Promise<void>;
  /** Cancels running syncs and waits for them (and any replay) to settle. */
  close(): Promise<void>;
}

interface Running {
  readonly controller: AbortController;
  readonly promise: Promise<SyncRunSummary>;
}

export function createSyncService(options: SyncServiceOptions): SyncService {
  const { db, clientFor } = options;
  const writer = options.writer === undefined ? createInProcessWriter(options.db) : options.writer;
  let stages = 0;
  /** The warm-up after the last commit (close() waits for it). */
  let warmth: Promise<void> = Promise.resolve();
  const given = options.clock;
  const clock: () => number =
    given === undefined ? Date.now : typeof given === 'function' ? given : () => given.now();
  const now = () => new Date(clock());
  const logger = options.logger ?? silentLogger;
  const sleep = options.sleep ?? defaultSleep;
  const running = new Map<string, Running>();
  /**
   * Per site: the tail of a lock chain. A sync run and outbox replays take turns, so replays never overlap (the
   * queue's order holds) and a replay never lands between a run's fetch and its commit (where the fresh snapshot,
   * fetched before the change was accepted, would hide it until the next sync).
   */
  const siteLocks = new Map<string, Promise<unknown>>();
  /** How each site answered at its last contact (net/reachability.ts). */
  const reach = new Map<string, Reach>();
  /** Per site, the parts the last completed run kept to their newest items (in memory: each start syncs again). */
  const keptNewestOf = new Map<string, FetchedSnapshot['keptNewest']>();
  const networkUp = options.networkUp ?? (() => osHasNetwork());
  /** A contact that failed: the network or the school (net/reachability.ts rule 2); the site answered otherwise. */
  const contactFailed = (siteId: string, error: CoreError) => {
    if (isTransient(error))
      reach.set(siteId, failedBeforeConnecting(error) ? 'no-network' : 'not-answering');
    else if (error.code !== 'sync-cancelled') reach.set(siteId, 'answering');
  };
  /** net/reachability.ts: offline when the OS lists no network, or the failure came before connecting and no other school answers. */
  function reachOf(siteId: string): SyncStatus['reach'] {
    const last = reach.get(siteId);
    if (last === undefined) return 'unknown';
    if (last === 'answering') return 'answering';
    if (!networkUp()) return 'offline';
    if (last === 'no-network' && ![...reach].some(([id, r]) => id !== siteId && r === 'answering'))
      return 'offline';
    return 'not-answering';
  }
  let closed = false;

  const dataChanged = (siteId: string) => {
    try {
      options.onDataChanged?.(siteId);
    } catch (error) {
      logger.warn('onDataChanged listener failed', { siteId, error: String(error) });
    }
  };
  const progress = (p: SyncProgress) => {
    try {
      options.onProgress?.(p);
    } catch (error) {
      logger.warn('onProgress listener failed', { siteId: p.siteId, error: String(error) });
    }
  };

  async function transportFor(
    siteId: string,
    signal?: AbortSignal,
    retry?: RetryPolicy,
    stageId?: string,
  ): Promise<Transport> {
    const client = await clientFor(siteId);
    // Loaded at the first sync, not at the app's start: the transport brings graphql-request and graphql-js.
    const { createTransport } = await import('./transport');
    return createTransport(client, {
      sleep,
      ...(signal ? { signal } : {}),
      // The run's pages are requested by the writer and staged where they arrive (client.sendWith keeps the token rules).
      ...(stageId === undefined
        ? {}
        : {
            stage: (request: Omit<StageFetchInput, 'stageId'>) =>
              writer.call('stage:fetch', { stageId, ...request }),
          }),
      ...((retry ?? options.retry) ? { retry: retry ?? options.retry } : {}),
      ...(options.requestDeadlineMs === undefined ? {} : { deadlineMs: options.requestDeadlineMs }),
      onRetry: (error, attempt, delayMs) =>
        logger.info('sync request retrying', { siteId, code: error.code, attempt, delayMs }),
    });
  }

  function withSiteLock<T>(siteId: string, task: () => Promise<T>): Promise<T> {
    const previous = siteLocks.get(siteId) ?? Promise.resolve();
    const next = previous.then(task, task);
    const tail = next.catch(() => undefined);
    siteLocks.set(siteId, tail);
    void tail.then(() => {
      if (siteLocks.get(siteId) === tail) siteLocks.delete(siteId);
    });
    return next;
  }

  async function replayWith(siteId: string, transport: Transport): Promise<ReplayReport> {
    const report = await replayPending(db, writer, siteId, transport, now);
    if (report.replayed > 0 || report.failed > 0) dataChanged(siteId);
    if (report.stoppedBy) contactFailed(siteId, report.stoppedBy);
    else if (report.replayed > 0) reach.set(siteId, 'answering');
    return report;
  }

  async function run(siteId: string, signal: AbortSignal): Promise<SyncRunSummary> {
    const startedAt = now().toISOString();
    let phase: SyncProgress['phase'] = 'outbox';
    let pages = 0;
    let items = 0;
    const emit = (running: boolean, fraction: number | null) =>
      progress({
        siteId,
        running,
        phase: running ? phase : 'idle',
        pagesFetched: pages,
        itemsFetched: items,
        fraction,
      });
    const finish = async (summary: SyncRunSummary): Promise<SyncRunSummary> => {
      try {
        await writer.call('sync:record-run', { summary });
      } catch (error) {
        logger.error('could not record the sync run', { siteId, error: String(error) });
      }
      emit(false, summary.outcome === 'completed' || summary.outcome === 'partial' ? 1 : null);
      logger.info('sync finished', {
        siteId,
        outcome: summary.outcome,
        counts: summary.counts,
        error: summary.error?.code ?? null,
      });
      return summary;
    };

    emit(true, 0);
    // The pages go to the writer as they arrive (its stage) and are committed there in one transaction.
    const stageId = `${siteId}\u0000${++stages}`;
    let staged = false;
    // A cancel stops the pages the writer has on the network at once, not when they arrive.
    const stopRequests = () => void writer.call('stage:cancel', { stageId }).catch(() => undefined);
    try {
      await writer.call('site:ensure', { siteId, now: now().toISOString() });
      const transport = await transportFor(siteId, signal, undefined, stageId);
      // Queued changes first, so the snapshot fetched next already reflects them.
      const replay = await replayWith(siteId, transport);
      if (replay.stoppedBy && !isTransient(replay.stoppedBy)) throw replay.stoppedBy;
      staged = true;
      void writer.call('stage:begin', { stageId, siteId }).catch(() => undefined); // a failure shows on the first page
      signal.addEventListener('abort', stopRequests, { once: true });
      const fetched = await fetchSnapshot(transport, {
        signal,
        ...(options.fetchConcurrency === undefined
          ? {}
          : { concurrency: options.fetchConcurrency }),
        // The pages the last committed fetch walked, asked for a few ahead at a time (fetch-snapshot.ts `cursors`).
        cursors: storedPageCursors(db, siteId),
        sink: {
          page: (part, nodes) => writer.call('stage:page', { stageId, part, nodes }),
          whole: (part, value) => writer.call('stage:whole', { stageId, part, value }),
          restart: (part) => writer.call('stage:restart', { stageId, part }),
          drop: (part) => writer.call('stage:drop', { stageId, part }),
          text: (input) => writer.call('stage:text', { stageId, ...input }),
          adopt: (holdId) => writer.call('stage:adopt', { stageId, holdId }),
        },
        onProgress: (p) => {
          phase = p.phase;
          pages = p.pagesFetched;
          items = p.itemsFetched;
          emit(true, p.fraction);
        },
      });
      if (signal.aborted) throw new CoreError('sync-cancelled', 'The sync was cancelled.');
      phase = 'committing';
      emit(true, 1);
      staged = false;
      const committed = await writer.call('stage:commit', {
        stageId,
        siteId,
        cursors: fetched.cursors,
      });
      reach.set(siteId, 'answering');
      // Nothing differed from what is stored: nothing was written, no view changed, no event.
      if (!committed.unchanged) {
        dataChanged(siteId);
        warmAfterCommit(siteId);
      }
      const missingScopes = [
        ...new Set([...fetched.missingScopes, ...replay.missingScopes]),
      ].sort();
      keptNewestOf.set(siteId, fetched.keptNewest); // a note beside the copy, not a failure: the rest is complete
      return await finish({
        siteId,
        startedAt,
        finishedAt: now().toISOString(),
        outcome: missingScopes.length > 0 ? 'partial' : 'completed',
        counts: { ...committed.counts },
        missingScopes,
        ...(fetched.keptNewest.length > 0 ? { keptNewest: fetched.keptNewest } : {}),
        error: null,
      });
    } catch (error) {
      if (staged) void writer.call('stage:discard', { stageId }).catch(() => undefined);
      const failure = signal.aborted
        ? new CoreError('sync-cancelled', 'The sync was cancelled.', undefined, { cause: error })
        : isCoreError(error)
          ? error
          : new CoreError(
              'sync-failed',
              'The sync failed; your offline data is unchanged.',
              undefined,
              { cause: error },
            );
      contactFailed(siteId, failure);
      return await finish({
        siteId,
        startedAt,
        finishedAt: now().toISOString(),
        outcome: failure.code === 'sync-cancelled' ? 'cancelled' : 'failed',
        counts: {},
        missingScopes: failure.code === 'insufficient-scope' ? ['account:read'] : [],
        error: { code: failure.code, message: failure.message },
      });
    } finally {
      signal.removeEventListener('abort', stopRequests);
    }
  }

  /**
   * After a commit, off the sync's critical path: the small memoised views are computed on the read connection so
   * they are ready before the renderer asks (warm.ts), and the writer indexes the short search terms of the rows the
   * commit wrote, a step per call so a change the student makes meanwhile waits for one step at most.
   */
  function warmAfterCommit(siteId: string): void {
    const previous = warmth;
    warmth = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      if (closed || !db.open) return;
      try {
        warmSummaries(db, siteId, now());
      } catch (error) {
        logger.warn('warming the views failed', { siteId, error: String(error) });
      }
      await previous;
      await indexShortTermsInSteps(
        (maxRows) => writer.call('search:index-step', { maxRows }),
        () => closed,
      ).catch((error: unknown) =>
        // Best effort: rows left unindexed are scanned by searches and indexed after the next commit.
        logger.info('short-term search indexing stopped', { siteId, error: String(error) }),
      );
    });
  }

  async function enqueue(siteId: string, change: OutboxChange): Promise<void> {
    await writer.call('outbox:enqueue', { siteId, change, now: now().toISOString() });
    dataChanged(siteId);
    // Sent in the background; a failure keeps it queued for the next sync.
    void service
      .replayOutbox(siteId)
      .then((report) => {
        if (report.stoppedBy) options.onReplayStopped?.(siteId, report.stoppedBy);
      })
      .catch((error: unknown) =>
        logger.warn('outbox replay failed', { siteId, error: String(error) }),
      );
  }

  const service: SyncService = {
    syncNow(siteId, opts = {}) {
      if (closed) return Promise.reject(new CoreError('internal', 'The sync service is closed.'));
      const existing = running.get(siteId);
      if (existing) return existing.promise;
      const controller = new AbortController();
      const onAbort = () => controller.abort(opts.signal?.reason);
      if (opts.signal?.aborted) controller.abort(opts.signal.reason);
      else opts.signal?.addEventListener('abort', onAbort, { once: true });
      const promise = withSiteLock(siteId, () => run(siteId, controller.signal)).finally(() => {
        opts.signal?.removeEventListener('abort', onAbort);
        running.delete(siteId);
      });
      running.set(siteId, { controller, promise });
      return promise;
    },

    cancel(siteId) {
      running
        .get(siteId)
        ?.controller.abort(new CoreError('sync-cancelled', 'The sync was cancelled.'));
    },

    status(siteId) {
      const last = reach.get(siteId);
      const live = {
        running: running.has(siteId),
        online: last === undefined || last === 'answering',
        reach: reachOf(siteId),
      };
      return { ...getSyncStatus(db, siteId, live), keptNewest: keptNewestOf.get(siteId) ?? [] };
    },

    replayOutbox(siteId) {
      return withSiteLock(siteId, async () => {
        if (countPending(db, siteId) === 0)
          return { replayed: 0, failed: 0, pending: 0, missingScopes: [], stoppedBy: null };
        let transport: Transport;
        try {
          transport = await transportFor(siteId, undefined, {
            attempts: 2,
            baseDelayMs: 250,
            maxDelayMs: 1000,
          });
        } catch (error) {
          const failure = isCoreError(error)
            ? error
            : new CoreError('sync-failed', 'No client for this site.', undefined, { cause: error });
          return {
            replayed: 0,
            failed: 0,
            pending: countPending(db, siteId),
            missingScopes: [],
            stoppedBy: failure,
          };
        }
        return replayWith(siteId, transport);
      });
    },

    async probe(siteId) {
      try {
        const transport = await transportFor(siteId, AbortSignal.timeout(10_000), {
          attempts: 1,
          baseDelayMs: 0,
          maxDelayMs: 0,
        });
        await transport.execute(ProbeQuery);
        reach.set(siteId, 'answering');
        return true;
      } catch (error) {
        // Reached but refused (sign-in needed, scope): the site is online. A timeout is not an answer.
        const reachable =
          isCoreError(error) && !isTransient(error) && error.code !== 'sync-cancelled';
        if (isCoreError(error) && error.code !== 'sync-cancelled') contactFailed(siteId, error);
        else if (!reachable) reach.set(siteId, 'not-answering');
        return reachable;
      }
    },

    markNotificationRead(siteId, notificationId) {
      return enqueue(siteId, { kind: 'mark-notification-read', notificationId });
    },
    markAllNotificationsRead(siteId) {
      return enqueue(siteId, { kind: 'mark-all-notifications-read' });
    },
    async updateNotificationSubscription(siteId, topic, channel, enabled) {
      await enqueue(siteId, { kind: 'update-notification-subscription', topic, channel, enabled });
      return (
        getSubscription(db, siteId, topic, channel) ?? {
          topic,
          channel,
          enabled,
          pendingSync: true,
        }
      );
    },

    async forgetSite(siteId) {
      service.cancel(siteId);
      await withSiteLock(siteId, async () => {
        await writer.call('site:remove', { siteId });
        reach.delete(siteId);
      });
      dataChanged(siteId);
    },

    async close() {
      closed = true;
      for (const r of running.values())
        r.controller.abort(new CoreError('sync-cancelled', 'The app is closing.'));
      await Promise.allSettled([...running.values()].map((r) => r.promise));
      await Promise.allSettled([...siteLocks.values()]);
      // Writes still queued (a run's record, an index step) finish before the caller closes the database.
      await warmth;
      if (!options.writer) await writer.close();
    },
  };
  return service;
}
