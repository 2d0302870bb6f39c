import type { ResultOf, TadaDocumentNode, VariablesOf } from 'gql.tada';
import type { SyncPhase } from '../../common/view-models';
import { CoreError } from '../errors';
import { MAX_CURSOR_LENGTH, MAX_PAGES_PER_PART, siteDataInvalid } from '../net/site-data';
import type { SiteSnapshot } from '../db/records';
import type { PageCursors, PagedPart, PartName, StagedText, StageTextInput, WholePart } from '../worker/worker-contract';
import {
  ConsultingServicesQuery,
  CoursesQuery,
  DigitalProductsQuery,
  EventRegistrationsQuery,
  NotificationSubscriptionsQuery,
  NotificationsQuery,
  PAGE_SIZE,
  PaymentsQuery,
  ProfileQuery,
} from './graphql/documents';
import { missingScopesOf, type ExecuteResult, type GraphQLErrorLike, type StageTarget, type Transport } from './transport-contract';

export type { PageCursors } from '../worker/worker-contract';

export interface FetchProgress {
  readonly phase: SyncPhase;
  readonly pagesFetched: number;
  readonly itemsFetched: number;
  readonly fraction: number | null;
}

export interface FetchedSnapshot {
  readonly snapshot: SiteSnapshot;
  /** Scopes the site refused; the parts that needed them were left out (their stored rows are kept). */
  readonly missingScopes: readonly string[];
  readonly pagesFetched: number;
  readonly itemsFetched: number;
  /** Each part's page cursors, for the parts fetched to their end (a later fetch's `cursors`). */
  readonly cursors: PageCursors;
}

/**
 * Where fetched pages go as they arrive (the writer worker's stage, see worker/worker-contract.ts). With a sink the
 * snapshot is not also kept here: `FetchedSnapshot.snapshot` is then empty and the sink holds the data.
 * A call's promise is not awaited before the next page is asked for (the pages are pipelined); a rejection fails
 * the fetch.
 */
export interface SnapshotSink {
  page(part: PagedPart, nodes: readonly unknown[]): Promise<void>;
  whole(part: WholePart, value: unknown): Promise<void>;
  /** The part was refused for a missing scope: its pages so far are dropped and its stored rows kept. */
  drop(part: PartName): Promise<void>;
  /**
   * The answer's body, decoded, parsed and staged by the sink (the writer worker): used instead of `page`/`whole`
   * when the transport can answer with the body (`executeBody`), so this thread neither parses nor copies the pages.
   */
  text?(input: Omit<StageTextInput, 'stageId'>): Promise<StagedText>;
  /** Stages a page asked for ahead of its turn and kept aside (`hold`), after the pages staged before it. */
  adopt?(holdId: number): Promise<void>;
}

export interface FetchOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (p: FetchProgress) => void;
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

interface Connection<N> {
  readonly totalCount: number;
  readonly pageInfo: { readonly hasNextPage: boolean; readonly endCursor: string | null };
  readonly nodes: readonly N[];
}

/** A part refused for missing scopes: HTTP 200 with `errors` naming them (service-spec "Protected resources"). */
class MissingScopes {
  constructor(readonly scopes: readonly string[]) {}
}

/** A part stopped because another part failed; never the error the run reports. */
class SiblingFailed extends Error {}

const PHASES: readonly SyncPhase[] = ['profile', 'courses', 'digital-products', 'consulting', 'events', 'payments', 'notifications'];

/**
 * Fetches one site's whole `viewer`, every connection paged to its end, into memory (the staging area). Nothing
 * is written here: the caller commits the result in one transaction, so a failed or cancelled fetch leaves the
 * stored snapshot as it was.
 */
export async function fetchSnapshot(given: Transport, options: FetchOptions): Promise<FetchedSnapshot> {
  const transport = bounded(given, options.concurrency ?? DEFAULT_FETCH_CONCURRENCY);
  const sink = options.sink;
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
  const lookahead = options.concurrency ?? DEFAULT_FETCH_CONCURRENCY;

  const done = new Map<SyncPhase, number>();
  const report = (phase: SyncPhase, phaseFraction: number) => {
    done.set(phase, Math.max(done.get(phase) ?? 0, phaseFraction));
    let sum = 0;
    for (const f of done.values()) sum += f;
    options.onProgress?.({ phase, pagesFetched, itemsFetched, fraction: Math.min(1, sum / PHASES.length) });
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
   * Null: the answers are parsed here and handed to `sink.page`/`sink.whole` (or kept, without a sink).
   */
  const staged:
    ((document: TadaDocumentNode<unknown, never>, variables: Record<string, unknown> | undefined, into: StageTarget) => Promise<StagedText>) | null =
    sink && transport.executeStaged
      ? (document, variables, into) => transport.executeStaged!(document, variables as never, into)
      : sink?.text && transport.executeBody
        ? async (document, variables, into) => sink.text!({ ...into, body: await transport.executeBody!(document, variables as never) })
        : null;

  /** Errors of one response: scope refusals become MissingScopes, anything else fails the run. */
  const judge = (errors: readonly GraphQLErrorLike[]): MissingScopes | null => {
    if (errors.length === 0) return null;
    const scopes = errors.map(missingScopesOf);
    if (scopes.every((s) => s.length > 0)) return new MissingScopes([...new Set(scopes.flat())]);
    throw new CoreError('server-error', 'The site answered the sync with an error.', { message: errors[0]!.message.slice(0, 200) });
  };

  async function single<D extends TadaDocumentNode<unknown, never>, T>(
    phase: SyncPhase,
    part: WholePart,
    path: readonly string[],
    document: D,
    pick: (data: ResultOf<D>) => T | null | undefined,
  ): Promise<T | MissingScopes | null> {
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
    const value = data === null ? null : pick(data);
    if (value === null || value === undefined) throw siteDataInvalid('no-data');
    pagesFetched += 1;
    report(phase, 1);
    if (sink) toSink(sink.whole(part, value));
    return value;
  }

  async function connection<D extends TadaDocumentNode<unknown, never>, N>(
    phase: SyncPhase,
    part: PagedPart,
    path: readonly string[],
    document: D,
    first: number,
    pick: (data: ResultOf<D>) => Connection<N> | null | undefined,
  ): Promise<N[] | MissingScopes> {
    const nodes: N[] = [];
    let count = 0;
    let after: string | null = null;
    const afters: (string | null)[] = [];
    /**
     * Relay cursor connections end: a page whose next cursor was seen before in this part (two cursors taking
     * turns, or the same one) would page for ever, and so would a site handing out fresh cursors without end. Both
     * are refused as the site's data, and the part's pages so far go with the run (the stored rows stay).
     */
    const seen = new Set<string | null>([null]);
    const onward = (next: string | null): string => {
      if (next === null || seen.has(next)) throw siteDataInvalid(next === null ? 'no-cursor' : 'cursor-cycle');
      if (next.length > MAX_CURSOR_LENGTH) throw siteDataInvalid('cursor-too-long');
      if (afters.length >= MAX_PAGES_PER_PART) throw siteDataInvalid('too-many-pages');
      seen.add(next);
      return next;
    };
    const ended = (): N[] => {
      cursors[part] = afters;
      return nodes;
    };
    if (staged && sink) {
      const ask = (cursor: string | null, hold: boolean) =>
        staged(document, { first, after: cursor }, { part, shape: 'page', path, ...(hold ? { hold } : {}) });
      /** Counts one staged page of the part; a refusal ends the part (its pages so far are dropped). */
      const accept = (answer: StagedText, cursor: string | null): MissingScopes | null => {
        const refused = judge(answer.errors);
        if (refused) {
          if (count > 0) toSink(sink.drop(part));
          return refused;
        }
        if (!answer.found) throw siteDataInvalid('no-data');
        afters.push(cursor);
        count += answer.count;
        pagesFetched += 1;
        itemsFetched += answer.count;
        report(phase, answer.totalCount > 0 ? Math.min(1, count / answer.totalCount) : 1);
        if (answer.hasNextPage) onward(answer.endCursor);
        return null;
      };
      const hint = options.cursors?.[part];
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
          if (!answer.hasNextPage) return ended();
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
        if (!answer.hasNextPage) return ended();
        after = answer.endCursor;
      }
    }
    const request = (cursor: string | null): Promise<ExecuteResult<ResultOf<D>>> => {
      checkAborted();
      return transport.execute(document, { first, after: cursor } as VariablesOf<D>);
    };
    let next = request(after);
    for (;;) {
      afters.push(after);
      const result: ExecuteResult<ResultOf<D>> = await next;
      const refused = judge(result.errors);
      if (refused) {
        if (sink && count > 0) toSink(sink.drop(part));
        return refused;
      }
      const page: Connection<N> | null | undefined = result.data === null ? null : pick(result.data);
      if (!page) throw siteDataInvalid('no-data');
      const more = page.pageInfo.hasNextPage;
      if (more) {
        // A cursor that does not move, or comes back, would page forever (see `onward`).
        after = onward(typeof page.pageInfo.endCursor === 'string' ? page.pageInfo.endCursor : null);
        // Pipelined: the next page is asked for as soon as its cursor is known, before this one is handed on.
        next = request(after);
        next.catch(() => undefined); // a failure is seen when it is awaited above
      }
      count += page.nodes.length;
      if (sink) toSink(sink.page(part, page.nodes));
      else for (const node of page.nodes) nodes.push(node);
      pagesFetched += 1;
      itemsFetched += page.nodes.length;
      report(phase, page.totalCount > 0 ? Math.min(1, count / page.totalCount) : 1);
      if (!more) return ended();
    }
  }

  const take = <T>(value: T | MissingScopes | null): T | undefined => {
    if (value === null) return undefined;
    if (value instanceof MissingScopes) {
      value.scopes.forEach((s) => missing.add(s));
      return undefined;
    }
    return value;
  };

  // The connections are independent: fetch them side by side (each one page after page on its own cursor), so
  // the server's work and ours overlap. The first failure stops the others at their next page.
  const guard = <T>(p: Promise<T>): Promise<T> =>
    p.catch((error: unknown) => {
      failed = true;
      throw error;
    });
  const settled = await Promise.allSettled([
    // The longest chains of pages first, so they take the first slots of the bound.
    guard(connection('payments', 'payments', ['viewer', 'payments'], PaymentsQuery, PAGE_SIZE.payments, (d) => d.viewer?.payments)),
    guard(connection('courses', 'courses', ['viewer', 'enrolledCourses'], CoursesQuery, PAGE_SIZE.courses, (d) => d.viewer?.enrolledCourses)),
    guard(
      connection(
        'notifications',
        'notifications',
        ['viewer', 'notifications'],
        NotificationsQuery,
        PAGE_SIZE.notifications,
        (d) => d.viewer?.notifications,
      ),
    ),
    guard(single('profile', 'profile', ['viewer'], ProfileQuery, (d) => d.viewer)),
    guard(
      connection(
        'digital-products',
        'digitalProducts',
        ['viewer', 'digitalProducts'],
        DigitalProductsQuery,
        PAGE_SIZE.digitalProducts,
        (d) => d.viewer?.digitalProducts,
      ),
    ),
    guard(
      connection(
        'consulting',
        'consultingServices',
        ['viewer', 'consultingServices'],
        ConsultingServicesQuery,
        PAGE_SIZE.consultingServices,
        (d) => d.viewer?.consultingServices,
      ),
    ),
    guard(
      connection(
        'events',
        'eventRegistrations',
        ['viewer', 'eventRegistrations'],
        EventRegistrationsQuery,
        PAGE_SIZE.eventRegistrations,
        (d) => d.viewer?.eventRegistrations,
      ),
    ),
    guard(
      single(
        'notifications',
        'subscriptions',
        ['viewer', 'notificationSubscriptions'],
        NotificationSubscriptionsQuery,
        (d) => d.viewer?.notificationSubscriptions,
      ),
    ),
  ] as const);
  const written = await Promise.allSettled(writes);
  // The first real failure wins over the "another part failed" errors it caused.
  const rejected = settled.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => r.reason as unknown);
  for (const w of written) if (w.status === 'rejected') rejected.unshift(w.reason as unknown);
  if (rejected.length > 0) {
    throw rejected.find((e) => !(e instanceof SiblingFailed)) ?? rejected[0];
  }
  const value = <T>(r: PromiseSettledResult<T>): T => (r as PromiseFulfilledResult<T>).value;
  const payments = take(value(settled[0]));
  const courses = take(value(settled[1]));
  const notifications = take(value(settled[2]));
  const profile = take(value(settled[3]));
  const digitalProducts = take(value(settled[4]));
  const consultingServices = take(value(settled[5]));
  const eventRegistrations = take(value(settled[6]));
  const subscriptions = take(value(settled[7]));
  checkAborted();

  // With a sink, the parts are in its stage; `take` above still gathered the refused scopes.
  const snapshot: SiteSnapshot = sink
    ? {}
    : {
        ...(profile ? { profile } : {}),
        ...(courses ? { courses } : {}),
        ...(digitalProducts ? { digitalProducts } : {}),
        ...(consultingServices ? { consultingServices } : {}),
        ...(eventRegistrations ? { eventRegistrations } : {}),
        ...(payments ? { payments } : {}),
        ...(notifications ? { notifications } : {}),
        ...(subscriptions ? { subscriptions } : {}),
      };
  return { snapshot, missingScopes: [...missing].sort(), pagesFetched, itemsFetched, cursors };
}

/**
 * At most `limit` requests in flight; the others wait their turn in order. The connections still page side by side,
 * each on its own cursor, but a site is never asked for more than a handful of pages at once.
 */
function bounded(transport: Transport, limit: number): Transport {
  let active = 0;
  const waiting: (() => void)[] = [];
  const slot = async <T>(request: () => Promise<T>): Promise<T> => {
    if (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else active += 1;
    try {
      return await request();
    } finally {
      const next = waiting.shift();
      if (next)
        next(); // the slot passes on
      else active -= 1;
    }
  };
  const body = transport.executeBody?.bind(transport);
  const remote = transport.executeStaged?.bind(transport);
  return {
    execute: (document, variables) => slot(() => transport.execute(document, variables)),
    ...(body ? { executeBody: (document, variables) => slot(() => body(document, variables)) } : {}),
    ...(remote ? { executeStaged: (document, variables, into) => slot(() => remote(document, variables, into)) } : {}),
  };
}

/** Rows per part (moved beside the commit, which the writer worker runs; kept here for the sync's callers). */
export { countSnapshot } from '../db/snapshot';
