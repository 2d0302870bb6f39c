/**
 * A sync's staged snapshot on the writer's connection: the pages of each part as they arrive
 * (fetched here or handed over), their digests hashed page by page, pages asked for ahead kept
 * aside until adopted, and the whole snapshot committed in one transaction or dropped. SyncStages
 * owns the stages; the handlers only call it.
 */
import { createHash, type Hash } from 'node:crypto';
import { CoreError } from '../errors';
import { postGraphQL } from '../net/graphql-post';
import { commitSnapshotIfChanged, digestOf, type SiteSnapshot, type WritableDB } from '../db/index';
import {
  idsOf,
  MAX_SYNC_BYTES,
  nestsDeeperThan,
  parseSiteJson,
  siteDataInvalid,
} from '../net/site-data';
import type {
  PartName,
  SiteGraphQLError,
  StagedText,
  StageFetchInput,
  StageFetchReply,
  StageTextInput,
  WriterInput,
  WriterOutput,
} from './worker-contract';

/**
 * A paged part's digest, hashed page by page as the pages arrive: the bytes of JSON.stringify(list)
 * are "[", the nodes' own JSON joined by ",", and "]", so the result is snapshot.ts digestOf of the
 * whole list (the stored digests stay comparable), but the work is done while the next pages are on
 * the network, not in the commit.
 */
interface PagedDigest {
  readonly hash: Hash;
  nodes: number;
  /**
   * Pages appended but not hashed yet (hashPending runs them, scheduled when the first one arrives;
   * the commit runs what is left first).
   */
  readonly pending: (readonly unknown[])[];
  /**
   * Hashing a page failed (a value JSON.stringify cannot write): the commit refuses the stage
   * instead of crashing the thread.
   */
  failed?: unknown;
}

interface Stage {
  readonly siteId: string;
  readonly parts: Map<PartName, unknown>;
  readonly dropped: Set<PartName>;
  /**
   * Paged parts only; a whole part (the profile, the subscriptions) is small and digested
   * at the commit.
   */
  readonly digests: Map<PartName, PagedDigest>;
  /** Aborts the stage's requests still on the network (`stage:fetch`). */
  readonly requests: AbortController;
  /**
   * Pages asked for ahead of their turn (`hold`), by hold id, until `stage:adopt` stages them; the
   * rest go with the stage.
   */
  readonly held: Map<number, { readonly part: PartName; readonly nodes: readonly unknown[] }>;
  nextHold: number;
  /** Bytes of the site's answers staged so far (site-data.ts MAX_SYNC_BYTES). */
  bytes: number;
}

export interface SyncStagesDeps {
  /** The writer's connection: a stage is committed on it. */
  readonly db: WritableDB;
}

export class SyncStages {
  readonly #db: WritableDB;
  readonly #stages = new Map<string, Stage>();

  constructor(deps: SyncStagesDeps) {
    this.#db = deps.db;
  }

  begin({ stageId, siteId }: WriterInput<'stage:begin'>): void {
    this.#stages.set(stageId, {
      siteId,
      parts: new Map(),
      dropped: new Set(),
      digests: new Map(),
      requests: new AbortController(),
      held: new Map(),
      nextHold: 0,
      bytes: 0,
    });
  }

  page({ stageId, part, nodes }: WriterInput<'stage:page'>): void {
    const s = this.#stage(stageId);
    // Parsed on the main thread (a host's own fetch): the same depth limit as an
    // answer parsed here.
    if (nestsDeeperThan(nodes, MAX_ANSWER_DEPTH_OF_NODES)) throw siteDataInvalid('too-deep');
    if (!s.dropped.has(part)) append(s, part, nodes);
  }

  text({ stageId, part, shape, path, body, hold }: StageTextInput): StagedText {
    return stageAnswer(this.#stage(stageId), { part, shape, path, body, hold: hold === true });
  }

  /**
   * A page fetched from this thread: a 2xx answer is staged, anything else goes back to be judged.
   */
  async fetch(input: StageFetchInput): Promise<StageFetchReply> {
    const { stageId, part, shape, path, url, token, query, variables, hold, deadlineMs } = input;
    const answer = await postGraphQL({
      url,
      token,
      query,
      ...(variables ? { variables } : {}),
      ...(deadlineMs === undefined ? {} : { deadlineMs }),
      signal: this.#stage(stageId).requests.signal,
    });
    if (answer.status < 200 || answer.status > 299) {
      return {
        kind: 'refused',
        status: answer.status,
        wwwAuthenticate: answer.wwwAuthenticate,
        body: typeof answer.body === 'string' ? answer.body : '',
      };
    }
    // Looked up again: the stage may have been discarded while the request was out.
    return {
      kind: 'staged',
      status: answer.status,
      wwwAuthenticate: null,
      staged: stageAnswer(this.#stage(stageId), {
        part,
        shape,
        path,
        body: answer.body,
        hold: hold === true,
      }),
    };
  }

  /** Aborts the stage's requests still on the network; the stage stays until discarded. */
  cancel(stageId: string): void {
    this.#stages.get(stageId)?.requests.abort();
  }

  adopt({ stageId, holdId }: WriterInput<'stage:adopt'>): void {
    const s = this.#stage(stageId);
    const page = s.held.get(holdId);
    if (!page)
      throw new CoreError('sync-failed', 'A page this sync fetched ahead is gone; sync again.');
    s.held.delete(holdId);
    if (!s.dropped.has(page.part)) append(s, page.part, page.nodes);
  }

  whole({ stageId, part, value }: WriterInput<'stage:whole'>): void {
    const s = this.#stage(stageId);
    if (nestsDeeperThan(value, MAX_ANSWER_DEPTH_OF_NODES)) throw siteDataInvalid('too-deep');
    if (!s.dropped.has(part)) s.parts.set(part, value);
  }

  restart({ stageId, part }: WriterInput<'stage:restart'>): void {
    const s = this.#stage(stageId);
    s.parts.delete(part);
    s.digests.delete(part);
    for (const [holdId, page] of s.held) if (page.part === part) s.held.delete(holdId);
  }

  drop({ stageId, part }: WriterInput<'stage:drop'>): void {
    const s = this.#stage(stageId);
    s.parts.delete(part);
    s.digests.delete(part);
    s.dropped.add(part);
  }

  commit({ stageId, siteId, cursors }: WriterInput<'stage:commit'>): WriterOutput<'stage:commit'> {
    const s = this.#stage(stageId);
    if (s.siteId !== siteId)
      throw new CoreError('invalid-input', 'These fetched pages belong to another site.');
    this.#stages.delete(stageId);
    const digests = finishDigests(s);
    try {
      return commitSnapshotIfChanged(
        this.#db,
        s.siteId,
        Object.fromEntries(s.parts) as SiteSnapshot,
        digests,
        cursors,
      );
    } catch (error) {
      throw siteDataOrStorage(error);
    }
  }

  /** Drops a stage and aborts its requests. */
  discard(stageId: string): void {
    this.#stages.get(stageId)?.requests.abort();
    this.#stages.delete(stageId);
  }

  /** Every stage of a site that is being removed. */
  discardSite(siteId: string): void {
    for (const [id, s] of this.#stages) if (s.siteId === siteId) this.discard(id);
  }

  discardAll(): void {
    for (const id of [...this.#stages.keys()]) this.discard(id);
  }

  #stage(stageId: string): Stage {
    const found = this.#stages.get(stageId);
    // A writer restarted since the stage began has lost its pages: the run fails, the
    // stored snapshot stays.
    if (!found)
      throw new CoreError(
        'sync-failed',
        'The pages this sync fetched are gone (the site was removed, or the database writer restarted); sync again.',
      );
    return found;
  }
}

/**
 * Decodes and parses one answer of the site, stages the part at `path`, and says what the
 * fetch needs next.
 */
function stageAnswer(
  s: Stage,
  {
    part,
    shape,
    path,
    body,
    hold,
  }: Omit<StageTextInput, 'stageId' | 'body' | 'hold'> & {
    readonly body: ArrayBuffer | Uint8Array | string;
    readonly hold: boolean;
  },
): StagedText {
  // One sync's answers together are bounded too: a site paging without end cannot fill the memory.
  s.bytes += typeof body === 'string' ? body.length : body.byteLength;
  if (s.bytes > MAX_SYNC_BYTES) throw siteDataInvalid('sync-too-large');
  // Refused as a whole when too large, not JSON or nested too deep: nothing of it is staged.
  const answer = parseSiteJson(body) as { data?: unknown; errors?: SiteGraphQLError[] } | null;
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer))
    throw siteDataInvalid('not-an-object');
  const errors = Array.isArray(answer.errors) ? answer.errors.filter(isSiteError) : [];
  let value: unknown = answer.data;
  for (const key of path)
    value =
      value === null || typeof value !== 'object'
        ? undefined
        : (value as Record<string, unknown>)[key];
  const none: StagedText = {
    errors,
    found: false,
    count: 0,
    totalCount: null,
    ids: [],
    hasNextPage: false,
    endCursor: null,
  };
  if (errors.length > 0 || value === null || value === undefined) return none;
  if (s.dropped.has(part)) return { ...none, found: true };
  if (shape === 'whole') {
    s.parts.set(part, value);
    return { ...none, found: true };
  }
  const page = value as {
    nodes?: unknown;
    totalCount?: unknown;
    pageInfo?: { hasNextPage?: unknown; endCursor?: unknown };
  };
  if (!Array.isArray(page.nodes) || typeof page.pageInfo !== 'object' || page.pageInfo === null)
    throw siteDataInvalid('not-a-page');
  let holdId: number | undefined;
  if (hold) {
    holdId = ++s.nextHold;
    s.held.set(holdId, { part, nodes: page.nodes as unknown[] });
  } else append(s, part, page.nodes as unknown[]);
  return {
    errors,
    found: true,
    count: page.nodes.length,
    totalCount: typeof page.totalCount === 'number' ? page.totalCount : null,
    ids: idsOf(page.nodes),
    hasNextPage: page.pageInfo.hasNextPage === true,
    endCursor: typeof page.pageInfo.endCursor === 'string' ? page.pageInfo.endCursor : null,
    ...(holdId === undefined ? {} : { holdId }),
  };
}

function append(s: Stage, part: PartName, nodes: readonly unknown[]): void {
  const list = (s.parts.get(part) as unknown[] | undefined) ?? [];
  // push(...nodes) would overflow the stack on a very large page; pages are small, but a
  // loop costs nothing.
  for (const node of nodes) list.push(node);
  s.parts.set(part, list);
  const digest = s.digests.get(part) ?? { hash: createHash('sha256'), nodes: 0, pending: [] };
  s.digests.set(part, digest);
  if (nodes.length === 0) return;
  // After this call's answer is posted (setImmediate runs after the handler and its reply, a page
  // the worker fetched itself included), so the hashing is not on the page chain: the main thread
  // already has the next cursor. The commit hashes whatever is still pending first (finishDigests),
  // so the order of the two never matters.
  if (digest.pending.push(nodes) === 1) setImmediate(() => hashPending(digest));
}

/**
 * Hashes the pages appended since the last call: one update per page, its nodes' JSON joined by ","
 * (see PagedDigest). It runs from setImmediate, outside any call's error boundary: a throw here
 * would end the thread and every site's writes with it, so a failure is kept and refused at the
 * commit (finishDigests) instead.
 */
function hashPending(digest: PagedDigest): void {
  if (digest.failed !== undefined) return;
  try {
    for (const page of digest.pending.splice(0)) {
      digest.hash.update(digest.nodes === 0 ? '[' : ',');
      // JSON.stringify of the array is its nodes' JSON joined by "," inside "[...]": the same
      // bytes, in one call.
      digest.hash.update(JSON.stringify(page).slice(1, -1));
      digest.nodes += page.length;
    }
  } catch (error) {
    digest.failed = error;
  }
}

/**
 * Each staged part's digest (see PagedDigest), as commitSnapshotIfChanged compares and stores them.
 */
function finishDigests(s: Stage): Map<PartName, string> {
  const out = new Map<PartName, string>();
  for (const [part, value] of s.parts) {
    const paged = s.digests.get(part);
    if (paged) hashPending(paged);
    if (paged?.failed !== undefined) throw siteDataInvalid('unwritable', paged.failed);
    out.set(
      part,
      !paged
        ? digestOf(value)
        : paged.nodes === 0
          ? digestOf([])
          : paged.hash.update(']').digest('base64'),
    );
  }
  return out;
}

/**
 * GraphQL errors as the spec shapes them (an object with a string message); anything else in
 * `errors` is not one.
 */
function isSiteError(value: unknown): value is SiteGraphQLError {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}

/**
 * A depth limit for nodes handed over already parsed: the answer's own envelope
 * (data.viewer.x.nodes[i]) is not around them.
 */
const MAX_ANSWER_DEPTH_OF_NODES = 28;

/**
 * A commit that failed on the site's values is the site's data, not the disk: a field of the wrong
 * type SQLite cannot bind or a list that is not one (a TypeError), a value a column's constraint
 * refuses (a missing id, an amount that is not a number), a value too big for SQLite. The disk's
 * own failures (SQLITE_FULL, SQLITE_IOERR, SQLITE_BUSY...) stay storage errors.
 */
const SITE_DATA_SQLITE = /^SQLITE_(CONSTRAINT|MISMATCH|TOOBIG|RANGE)/;
function siteDataOrStorage(error: unknown): unknown {
  if (error instanceof CoreError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.startsWith('SQLITE_') && !SITE_DATA_SQLITE.test(code))
    return error;
  return siteDataInvalid(typeof code === 'string' ? code : 'unwritable', error);
}
