import type { Logger, ReadableDB } from '../db/index';
import { indexShortTermsInSteps, warmSummaries } from '../db/index';
import type { DbWriter } from '../worker/writer';

export interface SearchWarmerDeps {
  /** The read connection the memoised views are computed on. */
  readonly db: ReadableDB;
  readonly writer: DbWriter;
  readonly now: () => Date;
  readonly logger: Logger;
}

/**
 * After a commit, off the sync's critical path: the small memoised views are computed on the read
 * connection so they are ready before the renderer asks (warm.ts), and the writer indexes the short
 * search terms of the rows the commit wrote, a step per call so a change the student makes
 * meanwhile waits for one step at most.
 */
export class SearchWarmer {
  readonly #deps: SearchWarmerDeps;
  /** The warm-up after the last commit (close() waits for it). */
  #warmth: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(deps: SearchWarmerDeps) {
    this.#deps = deps;
  }

  afterCommit(siteId: string): void {
    const previous = this.#warmth;
    this.#warmth = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      if (this.#closed || !this.#deps.db.open) return;
      this.#warmViews(siteId);
      await previous;
      await this.#indexTerms(siteId);
    });
  }

  /** No warm-up starts from now on, and the one under way stops at its next step. */
  stop(): void {
    this.#closed = true;
  }

  /** Settles once the warm-up under way (its queued writes) has. */
  settled(): Promise<void> {
    return this.#warmth;
  }

  #warmViews(siteId: string): void {
    const { db, now, logger } = this.#deps;
    try {
      warmSummaries(db, siteId, now());
    } catch (error) {
      logger.warn('warming the views failed', { siteId, error: String(error) });
    }
  }

  async #indexTerms(siteId: string): Promise<void> {
    const { writer, logger } = this.#deps;
    await indexShortTermsInSteps(
      (maxRows) => writer.call('search:index-step', { maxRows }),
      () => this.#closed,
    ).catch((error: unknown) =>
      // Best effort: rows left unindexed are scanned by searches and indexed after the next commit.
      logger.info('short-term search indexing stopped', { siteId, error: String(error) }),
    );
  }
}
