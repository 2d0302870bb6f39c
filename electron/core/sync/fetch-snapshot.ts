import type { TadaDocumentNode } from 'gql.tada';
import type { SyncPhase } from '../../common/view-models';
import { CoreError } from '../errors';
import {
  idsOf,
  MAX_CURSOR_LENGTH,
  MAX_PAGES_PER_PART,
  siteDataChanging,
  siteDataInvalid,
} from '../net/site-data';
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
import {
  missingScopesOf,
  type ExecuteResult,
  type GraphQLErrorLike,
  type StageTarget,
  type Transport,
} from './transport-contract';

export type { PageCursors } from '../worker/worker-contract';

export interface FetchProgress {
  readonly phase: SyncPhase;
  readonly pagesFetched: number;
  readonly itemsFetched: number;
  readonly fraction: number | null;
}

export interface FetchedSnapshot {
  /** The parts fetched, when no sink was given (they went to a memory sink); empty with a sink, which holds them. */
  readonly snapshot: SiteSnapshot;
  /** Scopes the site refused; the parts that needed them were left out (their stored rows are kept). */
  readonly missingScopes: readonly string[];
  readonly pagesFetched: number;
  readonly itemsFetched: number;
  /** Each part's page cursors, for the parts fetched to their end (a later fetch's `cursors`). */
  readonly cursors: PageCursors;
  /** Parts longer than the page bound of which only the newest pages were kept (PagedQuery `keepsNewest`), and how many items. */
  readonly keptNewest: readonly { readonly part: PagedPart; readonly kept: number }[];
}

export interface FetchOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (p: FetchProgress) => void;
  /** Where the pages go (default: a memory sink, returned as `FetchedSnapshot.snapshot`). */
  readonly sink?: SnapshotSink;
  /** Requests in flight at once, over all connections (default 4): enough to hide the round trip, kind to the site. */
  readonly concurrency?: number;
  /**
   * The last completed fetch's page cursors (`FetchedSnapshot.cursors`). With a sink that can `adopt`, a part's
   * pages are then asked for at those cursors a few at a time ahead instead of one round trip after another, and
   * each is staged only once the page before it is seen to end where it begins (its `endCursor` is the next
   * cursor). From the first page that does not, the part is paged as without them. A hint can cost a few pages
   * asked for in vain, never a wrong page: the staged pages are exactly those of paging from the start.
   */
  readonly cursors?: PageCursors;
}

const DEFAULT_FETCH_CONCURRENCY = 4;

interface Connection {
  readonly totalCount: number;
  readonly pageInfo: { readonly hasNextPage: boolean; readonly endCursor: string | null };
  readonly nodes: readonly unknown[];
}

/** The part in a parsed answer's `data`, at its query's path. */
const at = (data: unknown, path: readonly string[]): unknown =>
  path.reduce<unknown>(
    (value, key) =>
      value !== null && typeof value === 'object'
        ? (value as Record<string, unknown>)[key]
        : undefined,
    data,
  );

/** A part refused for missing scopes: HTTP 200 with `errors` naming them (service-spec "Protected resources"). */
class MissingScopes {
  constructor(readonly scopes: readonly string[]) {}
}

/** How many times one connection is walked in a sync before a walk that does not add up fails the run. */
export const MAX_WALKS = 3;

interface WalkTally {
  /** The cursor each page was asked for at, in order (the part's `PageCursors`). */
  readonly afters: (string | null)[];
  readonly totalCount: number | null;
  /** The page bound ended a part that keeps its newest pages (PagedQuery `keepsNewest`). */
  readonly atBound: boolean;
  page(
    after: string | null,
    count: number,
    ids: readonly string[],
    totalCount: number | null,
  ): void;
  /** The next page's cursor, refused if it cannot end the connection (see below); null when the page bound ends it. */
  onward(next: string | null): string | null;
  pages(): number;
  /** Rows met once each (a node without an id counts as met once). */
  walked(): number;
  fraction(): number;
  /**
   * No id met twice, and as many rows as the last page's totalCount (when the site sent one; a part ended at the page
   * bound holds fewer by design, its newest).
   */
  addsUp(): boolean;
}

/** What one walk through a connection met: its pages, cursors, ids and the site's count. */
function walkTally(keepsNewest: boolean): WalkTally {
  const afters: (string | null)[] = [];
  let atBound = false;
  const ids = new Set<string>();
  let rows = 0;
  let duplicates = 0;
  let totalCount: number | null = null;
  /**
   * Relay cursor connections end: a page whose next cursor was seen before in this walk (two cursors taking turns,
   * or the same one) would page for ever, and so would a site handing out fresh cursors without end. Both are
   * refused as the site's data, and the part's pages so far go with the run (the stored rows stay).
   */
  const seen = new Set<string | null>([null]);
  return {
    afters,
    get totalCount() {
      return totalCount;
    },
    get atBound() {
      return atBound;
    },
    page(after, count, pageIds, total) {
      afters.push(after);
      rows += count - pageIds.length;
      for (const id of pageIds) {
        if (ids.has(id)) duplicates += 1;
        else ids.add(id);
      }
      totalCount = total;
    },
    onward(next) {
      if (next === null || seen.has(next))
        throw siteDataInvalid(next === null ? 'no-cursor' : 'cursor-cycle');
      if (next.length > MAX_CURSOR_LENGTH) throw siteDataInvalid('cursor-too-long');
      if (afters.length >= MAX_PAGES_PER_PART) {
        // A part that comes newest first ends at the bound with the pages it has (when they held anything).
        if (!keepsNewest || rows + ids.size === 0) throw siteDataInvalid('too-many-pages');
        atBound = true;
        return null;
      }
      seen.add(next);
      return next;
    },
    pages: () => afters.length,
    walked: () => rows + ids.size,
    fraction: () =>
      totalCount !== null && totalCount > 0
        ? Math.min(1, (rows + ids.size + duplicates) / totalCount)
        : 1,
    addsUp: () =>
      duplicates === 0 && (atBound || totalCount === null || totalCount === rows + ids.size),
  };
}

/** A part stopped because another part failed; never the error the run reports. */
class SiblingFailed extends Error {}

/**
 * Fetches one site's whole `viewer`, every connection paged to its end, into memory (the staging area). Nothing
 * is written here: the caller commits the result in one transaction, so a failed or cancelled fetch leaves the
 * stored snapshot as it was.
 */
export async function fetchSnapshot(
  given: Transport,
  options: FetchOptions,
): Promise<FetchedSnapshot> {
  const transport = boundedTransport(given, options.concurrency ?? DEFAULT_FETCH_CONCURRENCY);
  const memory = options.sink ? null : memorySink();
  const sink = options.sink ?? memory!;
  // Sink calls in flight: awaited before the fetch answers, so a failed write fails the fetch.
  const writes: Promise<void>[] = [];
  const toSink = (write: Promise<void>) => {
    write.catch(() => {
      failed = true;
    });
    writes.push(write);
  };
  let pagesFetched = 0;
  let itemsFetched = 0;
  const missing = new Set<string>();
  const cursors: { -readonly [P in PagedPart]?: readonly (string | null)[] } = {};
  const keptNewest: { part: PagedPart; kept: number }[] = [];
  const lookahead = options.concurrency ?? DEFAULT_FETCH_CONCURRENCY;

  const done = new Map<SyncPhase, number>();
  const report = (phase: SyncPhase, phaseFraction: number) => {
    done.set(phase, Math.max(done.get(phase) ?? 0, phaseFraction));
    let sum = 0;
    for (const f of done.values()) sum += f;
    options.onProgress?.({
      phase,
      pagesFetched,
      itemsFetched,
      fraction: Math.min(1, sum / FETCH_PHASES.length),
    });
  };
  // Set when one part fails, so the parts running beside it stop at their next page.
  let failed = false;
  const checkAborted = () => {
    if (options.signal?.aborted) throw new CoreError('sync-cancelled', 'The sync was cancelled.');
    if (failed) throw new SiblingFailed();
  };

  /**
   * How an answer reaches the sink's stage without being parsed here: sent and staged by the writer worker itself
   * (executeStaged), or its body fetched here and handed over (executeBody, when the client brings its own fetch).
   * Null: the answers are parsed here and handed to `sink.page`/`sink.whole`.
   */
  const staged:
    | ((
        document: TadaDocumentNode<unknown, never>,
        variables: Record<string, unknown> | undefined,
        into: StageTarget,
      ) => Promise<StagedText>)
    | null =
    options.sink && transport.executeStaged
      ? (document, variables, into) => transport.executeStaged!(document, variables as never, into)
      : sink.text && transport.executeBody
        ? async (document, variables, into) =>
            sink.text!({
              ...into,
              body: await transport.executeBody!(document, variables as never),
            })
        : null;

  /** Errors of one response: scope refusals become MissingScopes, anything else fails the run. */
  const judge = (errors: readonly GraphQLErrorLike[]): MissingScopes | null => {
    if (errors.length === 0) return null;
    const scopes = errors.map(missingScopesOf);
    if (scopes.every((s) => s.length > 0)) return new MissingScopes([...new Set(scopes.flat())]);
    throw new CoreError('server-error', 'The site answered the sync with an error.', {
      message: errors[0]!.message.slice(0, 200),
    });
  };

  async function single(part: WholePart, query: WholeQuery): Promise<MissingScopes | null> {
    const { phase, path, document } = query;
    checkAborted();
    if (staged) {
      const answer = await staged(document, undefined, { part, shape: 'whole', path });
      const refused = judge(answer.errors);
      if (refused) return refused;
      if (!answer.found) throw siteDataInvalid('no-data');
      pagesFetched += 1;
      report(phase, 1);
      return null; // staged in the sink
    }
    const { data, errors } = await transport.execute(document);
    // A refusal anywhere in the part means the part is incomplete: keep the stored rows, report the scope.
    const refused = judge(errors);
    if (refused) return refused;
    const value = at(data, path);
    if (value === null || value === undefined) throw siteDataInvalid('no-data');
    pagesFetched += 1;
    report(phase, 1);
    toSink(sink.whole(part, value));
    return null;
  }

  /**
   * A connection paged to its end, and checked before it is believed: a connection ordered by a time that can
   * change (a course's enrolment time, a product's delivery, an event's registration) moves a row across its pages
   * when that time changes while they are read. With keyset cursors a row moved to the front of pages already read
   * is skipped, and one moved behind the cursor comes twice. So the walk is compared with itself (an id met twice)
   * and with the site's `totalCount` (rows met, on the last page), and walked again from the start, with its pages so
   * far dropped, until it adds up; after MAX_WALKS the run fails with `site-data-changing` and nothing of it is
   * committed (the stored copy stays, and the student is told why).
   */
  async function connection(part: PagedPart, query: PagedQuery): Promise<MissingScopes | null> {
    for (let walk = 1; ; walk++) {
      const tally = walkTally(query.keepsNewest === true);
      // A walk again starts from the beginning: the last sync's cursors are the layout that just failed to hold.
      const hint = walk === 1 ? options.cursors?.[part] : undefined;
      const refused = await (staged
        ? stagedWalk(part, query, tally, hint)
        : plainWalk(part, query, tally));
      if (refused) return refused;
      if (tally.addsUp()) {
        cursors[part] = tally.afters;
        if (tally.atBound) keptNewest.push({ part, kept: tally.walked() });
        return null;
      }
      if (walk >= MAX_WALKS)
        throw siteDataChanging(part, {
          walks: walk,
          walked: tally.walked(),
          totalCount: tally.totalCount,
        });
      toSink(sink.restart(part));
    }
  }

  /** The pages of one walk through a part, staged by the writer (see `staged`); null when it reached the end. */
  async function stagedWalk(
    part: PagedPart,
    query: PagedQuery,
    tally: WalkTally,
    hint: readonly (string | null)[] | undefined,
  ) {
    const { phase, path, document, pageSize: first } = query;
    let after: string | null = null;
    const ask = (cursor: string | null, hold: boolean) =>
      staged!(
        document,
        { first, after: cursor },
        { part, shape: 'page', path, ...(hold ? { hold } : {}) },
      );
    /** Counts one staged page of the part; a refusal ends the part (its pages so far are dropped). */
    const accept = (answer: StagedText, cursor: string | null): MissingScopes | null => {
      const refused = judge(answer.errors);
      if (refused) {
        if (tally.pages() > 0) toSink(sink.drop(part));
        return refused;
      }
      if (!answer.found) throw siteDataInvalid('no-data');
      tally.page(cursor, answer.count, answer.ids, answer.totalCount);
      pagesFetched += 1;
      itemsFetched += answer.count;
      report(phase, tally.fraction());
      if (answer.hasNextPage) tally.onward(answer.endCursor);
      return null;
    };
    /** The part's last page: the site has no next one, or the page bound ended a part that keeps its newest. */
    const last = (answer: StagedText): boolean => !answer.hasNextPage || tally.atBound;
    if (sink.adopt && hint && hint.length > 1 && hint[0] === null) {
      // The pages at the last fetch's cursors, `lookahead` at a time. Page k is kept aside until page k-1 is seen to
      // end at hint[k]; the first page is always page 1 of the part, so it is staged as it comes.
      const ahead = new Map<number, Promise<StagedText>>();
      const askAhead = (k: number) => {
        if (k >= hint.length || ahead.has(k)) return;
        const answer = ask(hint[k] ?? null, k > 0);
        answer.catch(() => undefined); // seen when its turn comes, or never if the part leaves the hint first
        ahead.set(k, answer);
      };
      for (let k = 0; k < lookahead; k++) askAhead(k);
      for (let k = 0; k < hint.length; k++) {
        checkAborted();
        let answer: StagedText;
        try {
          answer = await ahead.get(k)!;
        } catch (error) {
          // A page asked for ahead that failed is asked for again in its turn below, and judged then.
          if (k === 0) throw error;
          break;
        }
        if (k > 0 && answer.errors.length > 0) break;
        const refused = accept(answer, hint[k] ?? null);
        if (refused) return refused;
        if (answer.holdId !== undefined) toSink(sink.adopt(answer.holdId));
        if (last(answer)) return null;
        after = answer.endCursor;
        if (k + 1 >= hint.length || after !== hint[k + 1]) break;
        askAhead(k + lookahead);
      }
      // The part left the hint (a page added, removed or changed its place since): paged on from here.
    }
    for (;;) {
      checkAborted();
      // The next cursor is known once the writer parsed the page; the page is staged there meanwhile.
      const cursor = after;
      const answer = await ask(cursor, false);
      const refused = accept(answer, cursor);
      if (refused) return refused;
      if (last(answer)) return null;
      after = answer.endCursor;
    }
  }

  /** The pages of one walk through a part, parsed here and handed to `sink.page`; null when it reached the end. */
  async function plainWalk(
    part: PagedPart,
    query: PagedQuery,
    tally: WalkTally,
  ): Promise<MissingScopes | null> {
    const { phase, path, document, pageSize: first } = query;
    const request = (cursor: string | null): Promise<ExecuteResult<unknown>> => {
      checkAborted();
      return transport.execute(document, { first, after: cursor } as never);
    };
    let after: string | null = null;
    let next = request(after);
    for (;;) {
      const result: ExecuteResult<unknown> = await next;
      const refused = judge(result.errors);
      if (refused) {
        if (tally.pages() > 0) toSink(sink.drop(part));
        return refused;
      }
      const page = at(result.data, path) as Connection | null | undefined;
      if (!page) throw siteDataInvalid('no-data');
      tally.page(
        after,
        page.nodes.length,
        idsOf(page.nodes),
        typeof page.totalCount === 'number' ? page.totalCount : null,
      );
      // A cursor that does not move, or comes back, would page forever (see `onward`); null: the page bound ended it.
      const onward = page.pageInfo.hasNextPage
        ? tally.onward(typeof page.pageInfo.endCursor === 'string' ? page.pageInfo.endCursor : null)
        : null;
      const more = onward !== null;
      if (more) {
        after = onward;
        // Pipelined: the next page is asked for as soon as its cursor is known, before this one is handed on.
        next = request(after);
        next.catch(() => undefined); // a failure is seen when it is awaited above
      }
      toSink(sink.page(part, page.nodes));
      pagesFetched += 1;
      itemsFetched += page.nodes.length;
      report(phase, tally.fraction());
      if (!more) return null;
    }
  }

  // The connections are independent: fetch them side by side (each one page after page on its own cursor), so
  // the server's work and ours overlap. The first failure stops the others at their next page.
  const guard = <T>(p: Promise<T>): Promise<T> =>
    p.catch((error: unknown) => {
      failed = true;
      throw error;
    });
  const settled = await Promise.allSettled(
    FETCH_ORDER.map((part) => {
      const query = PART_QUERIES[part];
      return guard(
        query.paged ? connection(part as PagedPart, query) : single(part as WholePart, query),
      );
    }),
  );
  const written = await Promise.allSettled(writes);
  // The first real failure wins over the "another part failed" errors it caused.
  const rejected = settled
    .filter((r): r is PromiseRejectedResult => r.status === 'rejected')
    .map((r) => r.reason as unknown);
  for (const w of written) if (w.status === 'rejected') rejected.unshift(w.reason as unknown);
  if (rejected.length > 0) {
    throw rejected.find((e) => !(e instanceof SiblingFailed)) ?? rejected[0];
  }
  // A part refused for missing scopes is left out of the sink (dropped above); its scopes are reported.
  for (const r of settled)
    if (r.status === 'fulfilled' && r.value) r.value.scopes.forEach((s) => missing.add(s));
  checkAborted();
  return {
    snapshot: memory ? memory.snapshot() : {},
    missingScopes: [...missing].sort(),
    pagesFetched,
    itemsFetched,
    cursors,
    keptNewest,
  };
}

/** Rows per part (moved beside the commit, which the writer worker runs; kept here for the sync's callers). */
export { countSnapshot } from '../db/index';
