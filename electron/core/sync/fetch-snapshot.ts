import type { SyncPhase } from '../../common/view-models';
import { CoreError } from '../errors';
import { idsOf, siteDataChanging, siteDataInvalid } from '../net/site-data';
import type { SiteSnapshot } from '../db/index';
import type { PageCursors, PagedPart, StagedText, WholePart } from '../worker/worker-contract';
import { boundedTransport } from './bounded-transport';
import {
  FETCH_ORDER,
  FETCH_PHASES,
  PART_QUERIES,
  type PagedQuery,
  type WholeQuery,
} from './part-queries';
import { memorySink, type SnapshotSink } from './snapshot-sink';
import { type ExecuteResult, type Transport } from './transport-contract';
import { WalkTally } from './walk-tally';

import type { MissingScopes } from './answers';
import { at, judge, stagedAskOf, type StagedAsk } from './answers';

export type { PageCursors } from '../worker/worker-contract';

export interface FetchProgress {
  readonly phase: SyncPhase;
  readonly pagesFetched: number;
  readonly itemsFetched: number;
  readonly fraction: number | null;
}

export interface FetchedSnapshot {
  /**
   * The parts fetched, when no sink was given (they went to a memory sink); empty with a sink,
   * which holds them.
   */
  readonly snapshot: SiteSnapshot;
  /**
   * Scopes the site refused; the parts that needed them were left out (their stored rows are kept).
   */
  readonly missingScopes: readonly string[];
  readonly pagesFetched: number;
  readonly itemsFetched: number;
  /** Each part's page cursors, for the parts fetched to their end (a later fetch's `cursors`). */
  readonly cursors: PageCursors;
  /**
   * Parts longer than the page bound of which only the newest pages were kept (PagedQuery
   * `keepsNewest`), and how many items.
   */
  readonly keptNewest: readonly { readonly part: PagedPart; readonly kept: number }[];
}

export interface FetchOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (p: FetchProgress) => void;
  /** Where the pages go (default: a memory sink, returned as `FetchedSnapshot.snapshot`). */
  readonly sink?: SnapshotSink;
  /**
   * Requests in flight at once, over all connections (default 4): enough to hide the round trip,
   * kind to the site.
   */
  readonly concurrency?: number;
  /**
   * The last completed fetch's page cursors (`FetchedSnapshot.cursors`). With a sink that can
   * `adopt`, a part's pages are then asked for at those cursors a few at a time ahead instead of
   * one round trip after another, and each is staged only once the page before it is seen to end
   * where it begins (its `endCursor` is the next cursor). From the first page that does not, the
   * part is paged as without them. A hint can cost a few pages asked for in vain, never a wrong
   * page: the staged pages are exactly those of paging from the start.
   */
  readonly cursors?: PageCursors;
}

const DEFAULT_FETCH_CONCURRENCY = 4;

interface Connection {
  readonly totalCount: number;
  readonly pageInfo: { readonly hasNextPage: boolean; readonly endCursor: string | null };
  readonly nodes: readonly unknown[];
}

/**
 * How many times one connection is walked in a sync before a walk that does not add up fails the
 * run.
 */
export const MAX_WALKS = 3;

/** A part stopped because another part failed; never the error the run reports. */
class SiblingFailed extends Error {}

/** One walk through a paged part. */
interface Walk {
  readonly part: PagedPart;
  readonly query: PagedQuery;
  readonly tally: WalkTally;
}

/** Where the pages asked for at the last fetch's cursors left the walk. */
type HintedEnd =
  | { readonly refused: MissingScopes }
  | { readonly ended: true }
  | { readonly after: string | null };

export interface SnapshotFetchDeps extends FetchOptions {
  readonly transport: Transport;
}

/**
 * One fetch of a site's `viewer` (see fetchSnapshot): its counters, the sink's writes, the parts'
 * cursors.
 */
class SnapshotFetch {
  readonly #options: FetchOptions;
  readonly #transport: Transport;
  readonly #memory: ReturnType<typeof memorySink> | null;
  readonly #sink: SnapshotSink;
  readonly #staged: StagedAsk | null;
  readonly #lookahead: number;
  /** Sink calls in flight: awaited before the fetch answers, so a failed write fails the fetch. */
  readonly #writes: Promise<void>[] = [];
  #pagesFetched = 0;
  #itemsFetched = 0;
  readonly #cursors: { -readonly [P in PagedPart]?: readonly (string | null)[] } = {};
  readonly #keptNewest: { part: PagedPart; kept: number }[] = [];
  readonly #done = new Map<SyncPhase, number>();
  /** Set when one part fails, so the parts running beside it stop at their next page. */
  #failed = false;

  constructor(deps: SnapshotFetchDeps) {
    const { transport, ...options } = deps;
    this.#options = options;
    const concurrency = options.concurrency ?? DEFAULT_FETCH_CONCURRENCY;
    this.#transport = boundedTransport(transport, concurrency);
    this.#lookahead = concurrency;
    this.#memory = options.sink ? null : memorySink();
    this.#sink = options.sink ?? this.#memory!;
    this.#staged = stagedAskOf(this.#transport, this.#sink, options.sink !== undefined);
  }

  async run(): Promise<FetchedSnapshot> {
    // The connections are independent: fetch them side by side (each one page after page on its own
    // cursor), so the server's work and ours overlap. The first failure stops the others at their
    // next page.
    const settled = await Promise.allSettled(
      FETCH_ORDER.map((part) => {
        const query = PART_QUERIES[part];
        return this.#guard(
          query.paged
            ? this.#connection(part as PagedPart, query)
            : this.#single(part as WholePart, query),
        );
      }),
    );
    const written = await Promise.allSettled(this.#writes);
    // The first real failure wins over the "another part failed" errors it caused.
    const rejected = settled
      .filter((r): r is PromiseRejectedResult => r.status === 'rejected')
      .map((r) => r.reason as unknown);
    for (const w of written) if (w.status === 'rejected') rejected.unshift(w.reason as unknown);
    if (rejected.length > 0) {
      throw rejected.find((e) => !(e instanceof SiblingFailed)) ?? rejected[0];
    }
    // A part refused for missing scopes is left out of the sink (dropped above); its scopes are
    // reported.
    const missing = new Set<string>();
    for (const r of settled)
      if (r.status === 'fulfilled' && r.value) r.value.scopes.forEach((s) => missing.add(s));
    this.#checkAborted();
    return {
      snapshot: this.#memory ? this.#memory.snapshot() : {},
      missingScopes: [...missing].sort(),
      pagesFetched: this.#pagesFetched,
      itemsFetched: this.#itemsFetched,
      cursors: this.#cursors,
      keptNewest: this.#keptNewest,
    };
  }

  #guard<T>(p: Promise<T>): Promise<T> {
    return p.catch((error: unknown) => {
      this.#failed = true;
      throw error;
    });
  }

  #toSink(write: Promise<void>): void {
    write.catch(() => {
      this.#failed = true;
    });
    this.#writes.push(write);
  }

  #report(phase: SyncPhase, phaseFraction: number): void {
    this.#done.set(phase, Math.max(this.#done.get(phase) ?? 0, phaseFraction));
    let sum = 0;
    for (const f of this.#done.values()) sum += f;
    this.#options.onProgress?.({
      phase,
      pagesFetched: this.#pagesFetched,
      itemsFetched: this.#itemsFetched,
      fraction: Math.min(1, sum / FETCH_PHASES.length),
    });
  }

  #checkAborted(): void {
    if (this.#options.signal?.aborted)
      throw new CoreError('sync-cancelled', 'The sync was cancelled.');
    if (this.#failed) throw new SiblingFailed();
  }

  async #single(part: WholePart, query: WholeQuery): Promise<MissingScopes | null> {
    const { phase, path, document } = query;
    this.#checkAborted();
    if (this.#staged) {
      const answer = await this.#staged(document, undefined, { part, shape: 'whole', path });
      const refused = judge(answer.errors);
      if (refused) return refused;
      if (!answer.found) throw siteDataInvalid('no-data');
      this.#pagesFetched += 1;
      this.#report(phase, 1);
      return null; // staged in the sink
    }
    const { data, errors } = await this.#transport.execute(document);
    // A refusal anywhere in the part means the part is incomplete: keep the stored rows, report the
    // scope.
    const refused = judge(errors);
    if (refused) return refused;
    const value = at(data, path);
    if (value === null || value === undefined) throw siteDataInvalid('no-data');
    this.#pagesFetched += 1;
    this.#report(phase, 1);
    this.#toSink(this.#sink.whole(part, value));
    return null;
  }

  /**
   * A connection paged to its end, and checked before it is believed: a connection ordered by a
   * time that can change (a course's enrolment time, a product's delivery, an event's registration)
   * moves a row across its pages when that time changes while they are read. With keyset cursors a
   * row moved to the front of pages already read is skipped, and one moved behind the cursor comes
   * twice. So the walk is compared with itself (an id met twice) and with the site's `totalCount`
   * (rows met, on the last page), and walked again from the start, with its pages so far dropped,
   * until it adds up; after MAX_WALKS the run fails with `site-data-changing` and nothing of it is
   * committed (the stored copy stays, and the student is told why).
   */
  async #connection(part: PagedPart, query: PagedQuery): Promise<MissingScopes | null> {
    for (let attempt = 1; ; attempt++) {
      const walk: Walk = {
        part,
        query,
        tally: new WalkTally({ keepsNewest: query.keepsNewest === true }),
      };
      // A walk again starts from the beginning: the last sync's cursors are the layout that just
      // failed to hold.
      const hint = attempt === 1 ? this.#options.cursors?.[part] : undefined;
      const refused = await (this.#staged ? this.#stagedWalk(walk, hint) : this.#plainWalk(walk));
      if (refused) return refused;
      const { tally } = walk;
      if (tally.addsUp()) {
        this.#cursors[part] = tally.afters;
        if (tally.atBound) this.#keptNewest.push({ part, kept: tally.walked() });
        return null;
      }
      if (attempt >= MAX_WALKS)
        throw siteDataChanging(part, {
          walks: attempt,
          walked: tally.walked(),
          totalCount: tally.totalCount,
        });
      this.#toSink(this.#sink.restart(part));
    }
  }

  /**
   * The pages of one walk through a part, staged by the writer (see StagedAsk); null when it
   * reached the end.
   */
  async #stagedWalk(
    walk: Walk,
    hint: readonly (string | null)[] | undefined,
  ): Promise<MissingScopes | null> {
    let after: string | null = null;
    if (this.#sink.adopt && hint && hint.length > 1 && hint[0] === null) {
      const end = await this.#hintedPages(walk, hint);
      if ('refused' in end) return end.refused;
      if ('ended' in end) return null;
      after = end.after;
      // The part left the hint (a page added, removed or changed its place since): paged on from here.
    }
    for (;;) {
      this.#checkAborted();
      // The next cursor is known once the writer parsed the page; the page is staged there
      // meanwhile.
      const cursor = after;
      const answer = await this.#ask(walk, cursor, false);
      const refused = this.#accept(walk, answer, cursor);
      if (refused) return refused;
      if (this.#last(walk, answer)) return null;
      after = answer.endCursor;
    }
  }

  /**
   * The pages at the last fetch's cursors, `lookahead` at a time. Page k is kept aside until page
   * k-1 is seen to end at hint[k]; the first page is always page 1 of the part, so it is staged as
   * it comes.
   */
  async #hintedPages(walk: Walk, hint: readonly (string | null)[]): Promise<HintedEnd> {
    const ahead = new Map<number, Promise<StagedText>>();
    const askAhead = (k: number) => {
      if (k >= hint.length || ahead.has(k)) return;
      const answer = this.#ask(walk, hint[k] ?? null, k > 0);
      // seen when its turn comes, or never if the part leaves the hint first
      answer.catch(() => undefined);
      ahead.set(k, answer);
    };
    for (let k = 0; k < this.#lookahead; k++) askAhead(k);
    let after: string | null = null;
    for (let k = 0; k < hint.length; k++) {
      this.#checkAborted();
      let answer: StagedText;
      try {
        answer = await ahead.get(k)!;
      } catch (error) {
        // A page asked for ahead that failed is asked for again in its turn after the hint, and
        // judged then.
        if (k === 0) throw error;
        break;
      }
      if (k > 0 && answer.errors.length > 0) break;
      const refused = this.#accept(walk, answer, hint[k] ?? null);
      if (refused) return { refused };
      if (answer.holdId !== undefined) this.#toSink(this.#sink.adopt!(answer.holdId));
      if (this.#last(walk, answer)) return { ended: true };
      after = answer.endCursor;
      if (k + 1 >= hint.length || after !== hint[k + 1]) break;
      askAhead(k + this.#lookahead);
    }
    return { after };
  }

  #ask(walk: Walk, cursor: string | null, hold: boolean): Promise<StagedText> {
    const { part, query } = walk;
    const { path, document, pageSize: first } = query;
    return this.#staged!(
      document,
      { first, after: cursor },
      { part, shape: 'page', path, ...(hold ? { hold } : {}) },
    );
  }

  /** Counts one staged page of the part; a refusal ends the part (its pages so far are dropped). */
  #accept(walk: Walk, answer: StagedText, cursor: string | null): MissingScopes | null {
    const { part, query, tally } = walk;
    const refused = judge(answer.errors);
    if (refused) {
      if (tally.pages() > 0) this.#toSink(this.#sink.drop(part));
      return refused;
    }
    if (!answer.found) throw siteDataInvalid('no-data');
    tally.page(cursor, answer.count, answer.ids, answer.totalCount);
    this.#pagesFetched += 1;
    this.#itemsFetched += answer.count;
    this.#report(query.phase, tally.fraction());
    if (answer.hasNextPage) tally.onward(answer.endCursor);
    return null;
  }

  /**
   * The part's last page: the site has no next one, or the page bound ended a part that keeps its
   * newest.
   */
  #last(walk: Walk, answer: StagedText): boolean {
    return !answer.hasNextPage || walk.tally.atBound;
  }

  /**
   * The pages of one walk through a part, parsed here and handed to `sink.page`; null when it
   * reached the end.
   */
  async #plainWalk(walk: Walk): Promise<MissingScopes | null> {
    const { part, query, tally } = walk;
    const { phase, path, document, pageSize: first } = query;
    const request = (cursor: string | null): Promise<ExecuteResult<unknown>> => {
      this.#checkAborted();
      return this.#transport.execute(document, { first, after: cursor } as never);
    };
    let after: string | null = null;
    let next = request(after);
    for (;;) {
      const result: ExecuteResult<unknown> = await next;
      const refused = judge(result.errors);
      if (refused) {
        if (tally.pages() > 0) this.#toSink(this.#sink.drop(part));
        return refused;
      }
      const page = at(result.data, path) as Connection | null | undefined;
      if (!page) throw siteDataInvalid('no-data');
      const onward = tallyPage(tally, after, page);
      const more = onward !== null;
      if (more) {
        after = onward;
        // Pipelined: the next page is asked for as soon as its cursor is known, before this one is
        // handed on.
        next = request(after);
        next.catch(() => undefined); // a failure is seen when it is awaited above
      }
      this.#toSink(this.#sink.page(part, page.nodes));
      this.#pagesFetched += 1;
      this.#itemsFetched += page.nodes.length;
      this.#report(phase, tally.fraction());
      if (!more) return null;
    }
  }
}

/**
 * Counts a parsed page into its walk; the next page's cursor, or null at the end. A cursor that
 * does not move, or comes back, would page forever (see WalkTally.onward); null also when the page
 * bound ended the part.
 */
function tallyPage(tally: WalkTally, after: string | null, page: Connection): string | null {
  tally.page(
    after,
    page.nodes.length,
    idsOf(page.nodes),
    typeof page.totalCount === 'number' ? page.totalCount : null,
  );
  if (!page.pageInfo.hasNextPage) return null;
  return tally.onward(typeof page.pageInfo.endCursor === 'string' ? page.pageInfo.endCursor : null);
}

/**
 * Fetches one site's whole `viewer`, every connection paged to its end, into memory (the staging
 * area). Nothing is written here: the caller commits the result in one transaction, so a failed or
 * cancelled fetch leaves the stored snapshot as it was.
 */
export async function fetchSnapshot(
  transport: Transport,
  options: FetchOptions,
): Promise<FetchedSnapshot> {
  return new SnapshotFetch({ ...options, transport }).run();
}

/**
 * Rows per part (moved beside the commit, which the writer worker runs; kept here for the sync's
 * callers).
 */
export { countSnapshot } from '../db/index';
