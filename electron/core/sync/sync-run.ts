import type { SyncProgress, SyncRunSummary } from '../../common/view-models';
import { CoreError, isCoreError, isTransient } from '../errors';
import type { Logger, ReadableDB } from '../db/index';
import { storedPageCursors } from '../db/index';
import type { DbWriter } from '../worker/writer';
import { fetchSnapshot, type FetchedSnapshot } from './fetch-snapshot';
import type { ReplayReport } from './outbox-replay';
import type { SearchWarmer } from './search-warmer';
import type { SiteReach } from './site-reach';
import type { SiteTransports } from './site-transports';
import type { SnapshotSink } from './snapshot-sink';
import type { Transport } from './transport-contract';

export interface SyncRunDeps {
  /** The read connection (the stored page cursors). */
  readonly db: ReadableDB;
  readonly writer: DbWriter;
  readonly now: () => Date;
  readonly logger: Logger;
  readonly transports: SiteTransports;
  readonly reach: SiteReach;
  readonly warmer: SearchWarmer;
  /** Requests in flight at once while fetching (fetch-snapshot.ts). */
  readonly fetchConcurrency?: number;
  /**
   * Sends the site's queued changes over the run's transport (SyncEngine, which keeps the reach).
   */
  readonly replay: (siteId: string, transport: Transport) => Promise<ReplayReport>;
  readonly progress: (progress: SyncProgress) => void;
  readonly dataChanged: (siteId: string) => void;
  /** The parts a completed run kept to their newest items (SyncStatus.keptNewest). */
  readonly keptNewest: (siteId: string, kept: FetchedSnapshot['keptNewest']) => void;
}

/** What one run has fetched so far, as the progress events tell it. */
class RunMeter {
  phase: SyncProgress['phase'] = 'outbox';
  pages = 0;
  items = 0;
  readonly #siteId: string;
  readonly #progress: (progress: SyncProgress) => void;

  constructor(deps: { siteId: string; progress: (progress: SyncProgress) => void }) {
    this.#siteId = deps.siteId;
    this.#progress = deps.progress;
  }

  emit(running: boolean, fraction: number | null): void {
    this.#progress({
      siteId: this.#siteId,
      running,
      phase: running ? this.phase : 'idle',
      pagesFetched: this.pages,
      itemsFetched: this.items,
      fraction,
    });
  }
}

/**
 * One run's stage in the writer, where its pages go as they arrive and are committed in one
 * transaction.
 */
interface RunStage {
  readonly siteId: string;
  readonly stageId: string;
  readonly signal: AbortSignal;
  readonly meter: RunMeter;
  /** Begun and not yet committed: discarded if the run fails. */
  staged: boolean;
}

const cancelled = (cause?: unknown) =>
  new CoreError('sync-cancelled', 'The sync was cancelled.', undefined, { cause });

/**
 * The run pipeline: outbox replay, then the whole viewer fetched into the writer's stage, committed
 * at once. A run never throws: its failures are in the summary it resolves with, which is recorded.
 */
export class SyncPipeline {
  readonly #deps: SyncRunDeps;
  #stages = 0;

  constructor(deps: SyncRunDeps) {
    this.#deps = deps;
  }

  async run(siteId: string, signal: AbortSignal): Promise<SyncRunSummary> {
    const { writer, now } = this.#deps;
    const startedAt = now().toISOString();
    const meter = new RunMeter({ siteId, progress: this.#deps.progress });
    meter.emit(true, 0);
    const stage: RunStage = {
      siteId,
      stageId: `${siteId}\u0000${++this.#stages}`,
      signal,
      meter,
      staged: false,
    };
    // A cancel stops the pages the writer has on the network at once, not when they arrive.
    const stopRequests = () =>
      void writer.call('stage:cancel', { stageId: stage.stageId }).catch(() => undefined);
    try {
      return await this.#finish(
        meter,
        await this.#replayFetchCommit(stage, startedAt, stopRequests),
      );
    } catch (error) {
      if (stage.staged)
        void writer.call('stage:discard', { stageId: stage.stageId }).catch(() => undefined);
      return await this.#finish(meter, this.#failed(siteId, startedAt, signal, error));
    } finally {
      signal.removeEventListener('abort', stopRequests);
    }
  }

  async #replayFetchCommit(
    stage: RunStage,
    startedAt: string,
    stopRequests: () => void,
  ): Promise<SyncRunSummary> {
    const { writer, now, transports, reach } = this.#deps;
    const { siteId, stageId, signal, meter } = stage;
    await writer.call('site:ensure', { siteId, now: now().toISOString() });
    const transport = await transports.for(siteId, { signal, stageId });
    // Queued changes first, so the snapshot fetched next already reflects them.
    const replay = await this.#deps.replay(siteId, transport);
    if (replay.stoppedBy && !isTransient(replay.stoppedBy)) throw replay.stoppedBy;
    stage.staged = true;
    // A failure to begin shows on the first page.
    void writer.call('stage:begin', { stageId, siteId }).catch(() => undefined);
    signal.addEventListener('abort', stopRequests, { once: true });
    const fetched = await this.#fetch(stage, transport);
    if (signal.aborted) throw cancelled();
    meter.phase = 'committing';
    meter.emit(true, 1);
    stage.staged = false;
    const committed = await writer.call('stage:commit', {
      stageId,
      siteId,
      cursors: fetched.cursors,
    });
    reach.answered(siteId);
    // Nothing differed from what is stored: nothing was written, no view changed, no event.
    if (!committed.unchanged) {
      this.#deps.dataChanged(siteId);
      this.#deps.warmer.afterCommit(siteId);
    }
    const missingScopes = [...new Set([...fetched.missingScopes, ...replay.missingScopes])].sort();
    // A note beside the copy, not a failure: the rest is complete.
    this.#deps.keptNewest(siteId, fetched.keptNewest);
    return {
      siteId,
      startedAt,
      finishedAt: now().toISOString(),
      outcome: missingScopes.length > 0 ? 'partial' : 'completed',
      counts: { ...committed.counts },
      missingScopes,
      ...(fetched.keptNewest.length > 0 ? { keptNewest: fetched.keptNewest } : {}),
      error: null,
    };
  }

  #fetch(stage: RunStage, transport: Transport): Promise<FetchedSnapshot> {
    const { db, fetchConcurrency } = this.#deps;
    const { siteId, signal, meter } = stage;
    return fetchSnapshot(transport, {
      signal,
      ...(fetchConcurrency === undefined ? {} : { concurrency: fetchConcurrency }),
      // The pages the last committed fetch walked, asked for a few ahead at a time
      // (fetch-snapshot.ts `cursors`).
      cursors: storedPageCursors(db, siteId),
      sink: this.#stageSink(stage.stageId),
      onProgress: (p) => {
        meter.phase = p.phase;
        meter.pages = p.pagesFetched;
        meter.items = p.itemsFetched;
        meter.emit(true, p.fraction);
      },
    });
  }

  /** The writer's stage as fetch-snapshot.ts's sink. */
  #stageSink(stageId: string): SnapshotSink {
    const { writer } = this.#deps;
    return {
      page: (part, nodes) => writer.call('stage:page', { stageId, part, nodes }),
      whole: (part, value) => writer.call('stage:whole', { stageId, part, value }),
      restart: (part) => writer.call('stage:restart', { stageId, part }),
      drop: (part) => writer.call('stage:drop', { stageId, part }),
      text: (input) => writer.call('stage:text', { stageId, ...input }),
      adopt: (holdId) => writer.call('stage:adopt', { stageId, holdId }),
    };
  }

  #failed(siteId: string, startedAt: string, signal: AbortSignal, error: unknown): SyncRunSummary {
    const failure = signal.aborted
      ? cancelled(error)
      : isCoreError(error)
        ? error
        : new CoreError(
            'sync-failed',
            'The sync failed; your offline data is unchanged.',
            undefined,
            {
              cause: error,
            },
          );
    this.#deps.reach.contactFailed(siteId, failure);
    return {
      siteId,
      startedAt,
      finishedAt: this.#deps.now().toISOString(),
      outcome: failure.code === 'sync-cancelled' ? 'cancelled' : 'failed',
      counts: {},
      missingScopes: failure.code === 'insufficient-scope' ? ['account:read'] : [],
      error: { code: failure.code, message: failure.message },
    };
  }

  /** Records the run and tells its end (progress 1 when the copy is complete or partial). */
  async #finish(meter: RunMeter, summary: SyncRunSummary): Promise<SyncRunSummary> {
    const { writer, logger } = this.#deps;
    try {
      await writer.call('sync:record-run', { summary });
    } catch (error) {
      logger.error('could not record the sync run', {
        siteId: summary.siteId,
        error: String(error),
      });
    }
    meter.emit(false, summary.outcome === 'completed' || summary.outcome === 'partial' ? 1 : null);
    logger.info('sync finished', {
      siteId: summary.siteId,
      outcome: summary.outcome,
      counts: summary.counts,
      error: summary.error?.code ?? null,
    });
    return summary;
  }
}
