import { createHash, type Hash } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import { CoreError } from '../errors';
import { purchaseHistoryCsv } from '../export/csv';
import { postGraphQL } from '../net/graphql-post';
import { markCourseSeen } from '../db/course-news';
import {
  acceptAllNotificationsRead,
  acceptNotificationRead,
  acceptSubscription,
} from '../db/notifications';
import { checkOfflineDatabase } from '../db/open';
import { dismissFailed, enqueueChange, markFailed, recordAttempt, removeEntry } from '../db/outbox';
import type { SiteSnapshot } from '../db/records';
import { decideReminders } from '../db/reminders';
import { decideRuleReminders, snoozeReminder } from '../db/reminder-decide';
import { indexShortTerms } from '../db/search';
import { ensureSite, removeSiteData } from '../db/sites';
import { commitSnapshotIfChanged, digestOf } from '../db/snapshot';
import { recordSyncRun } from '../db/sync-runs';
import { changingViews } from '../db/view-cache';
import {
  idsOf,
  MAX_SYNC_BYTES,
  nestsDeeperThan,
  parseSiteJson,
  siteDataInvalid,
} from '../net/site-data';
import type {
  OutboxAnswer,
  PartName,
  SiteGraphQLError,
  StagedText,
  StageTextInput,
  WriterHandlers,
} from './worker-contract';

/**
 * A paged part's digest, hashed page by page as the pages arrive: the bytes of JSON.stringify(list) are "[", the
 * nodes' own JSON joined by ",", and "]", so the result is snapshot.ts digestOf of the whole list (the stored
 * digests stay comparable), but the work is done while the next pages are on the network, not in the commit.
 */
interface PagedDigest {
  readonly hash: Hash;
  nodes: number;
  /** Pages appended but not hashed yet (hashPending runs them, scheduled when the first one arrives; the commit runs what is left first). */
  readonly pending: (readonly unknown[])[];
  /** Hashing a page failed (a value JSON.stringify cannot write): the commit refuses the stage instead of crashing the thread. */
  failed?: unknown;
}

interface Stage {
  readonly siteId: string;
  readonly parts: Map<PartName, unknown>;
  readonly dropped: Set<PartName>;
  /** Paged parts only; a whole part (the profile, the subscriptions) is small and digested at the commit. */
  readonly digests: Map<PartName, PagedDigest>;
  /** Aborts the stage's requests still on the network (`stage:fetch`). */
  readonly requests: AbortController;
  /** Pages asked for ahead of their turn (`hold`), by hold id, until `stage:adopt` stages them; the rest go with the stage. */
  readonly held: Map<number, { readonly part: PartName; readonly nodes: readonly unknown[] }>;
  nextHold: number;
  /** Bytes of the site's answers staged so far (site-data.ts MAX_SYNC_BYTES). */
  bytes: number;
}

/**
 * The writes of the contract (worker-contract.ts), run on one connection: the worker runs them on its own, and
 * the in-process writer (tests, tools) on the connection it was given. They are the plain db functions; nothing
 * here knows which thread it is on.
 */
export function createWriterHandlers(db: Database): WriterHandlers {
  const stages = new Map<string, Stage>();
  const forget = (stageId: string) => {
    stages.get(stageId)?.requests.abort();
    stages.delete(stageId);
  };
  const stage = (stageId: string): Stage => {
    const found = stages.get(stageId);
    // A writer restarted since the stage began has lost its pages: the run fails, the stored snapshot stays.
    if (!found)
      throw new CoreError(
        'sync-failed',
        'The pages this sync fetched are gone (the site was removed, or the database writer restarted); sync again.',
      );
    return found;
  };
  return {
    'site:ensure': ({ siteId, now }) => ensureSite(db, siteId, new Date(now)),
    'site:remove': ({ siteId }) => {
      for (const [id, s] of stages) if (s.siteId === siteId) forget(id);
      removeSiteData(db, siteId);
    },
    'snapshot:commit': ({ siteId, snapshot }) => commitSnapshotIfChanged(db, siteId, snapshot),
    'stage:begin': ({ stageId, siteId }) => {
      stages.set(stageId, {
        siteId,
        parts: new Map(),
        dropped: new Set(),
        digests: new Map(),
        requests: new AbortController(),
        held: new Map(),
        nextHold: 0,
        bytes: 0,
      });
    },
    'stage:page': ({ stageId, part, nodes }) => {
      const s = stage(stageId);
      // Parsed on the main thread (a host's own fetch): the same depth limit as an answer parsed here.
      if (nestsDeeperThan(nodes, MAX_ANSWER_DEPTH_OF_NODES)) throw siteDataInvalid('too-deep');
      if (!s.dropped.has(part)) append(s, part, nodes);
    },
    'stage:text': ({ stageId, part, shape, path, body, hold }) =>
      stageAnswer(stage(stageId), { part, shape, path, body, hold: hold === true }),
    'stage:fetch': async ({
      stageId,
      part,
      shape,
      path,
      url,
      token,
      query,
      variables,
      hold,
      deadlineMs,
    }) => {
      const answer = await postGraphQL({
        url,
        token,
        query,
        ...(variables ? { variables } : {}),
        ...(deadlineMs === undefined ? {} : { deadlineMs }),
        signal: stage(stageId).requests.signal,
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
        staged: stageAnswer(stage(stageId), {
          part,
          shape,
          path,
          body: answer.body,
          hold: hold === true,
        }),
      };
    },
    'stage:cancel': ({ stageId }) => {
      stages.get(stageId)?.requests.abort();
    },
    'stage:adopt': ({ stageId, holdId }) => {
      const s = stage(stageId);
      const page = s.held.get(holdId);
      if (!page)
        throw new CoreError('sync-failed', 'A page this sync fetched ahead is gone; sync again.');
      s.held.delete(holdId);
      if (!s.dropped.has(page.part)) append(s, page.part, page.nodes);
    },
    'stage:whole': ({ stageId, part, value }) => {
      const s = stage(stageId);
      if (nestsDeeperThan(value, MAX_ANSWER_DEPTH_OF_NODES)) throw siteDataInvalid('too-deep');
      if (!s.dropped.has(part)) s.parts.set(part, value);
    },
    'stage:restart': ({ stageId, part }) => {
      const s = stage(stageId);
      s.parts.delete(part);
      s.digests.delete(part);
      for (const [holdId, page] of s.held) if (page.part === part) s.held.delete(holdId);
    },
    'stage:drop': ({ stageId, part }) => {
      const s = stage(stageId);
      s.parts.delete(part);
      s.digests.delete(part);
      s.dropped.add(part);
    },
    'stage:commit': ({ stageId, siteId, cursors }) => {
      const s = stage(stageId);
      if (s.siteId !== siteId)
        throw new CoreError('invalid-input', 'These fetched pages belong to another site.');
      stages.delete(stageId);
      const digests = finishDigests(s);
      try {
        return commitSnapshotIfChanged(
          db,
          s.siteId,
          Object.fromEntries(s.parts) as SiteSnapshot,
          digests,
          cursors,
        );
      } catch (error) {
        throw siteDataOrStorage(error);
      }
    },
    'stage:discard': ({ stageId }) => forget(stageId),
    'outbox:enqueue': ({ siteId, change, now }) => enqueueChange(db, siteId, change, new Date(now)),
    'outbox:accept': ({ siteId, entry, answer }) =>
      db.transaction(() => {
        applyAnswer(db, siteId, answer);
        removeEntry(db, entry);
      })(),
    'outbox:attempt': ({ entry, error, now }) => recordAttempt(db, entry, error, new Date(now)),
    'outbox:fail': ({ entry, error, now }) => markFailed(db, entry, error, new Date(now)),
    'outbox:dismiss': ({ siteId, id }) => dismissFailed(db, siteId, id),
    'course:mark-seen': ({ siteId, courseId }) => markCourseSeen(db, siteId, courseId),
    'sync:record-run': ({ summary }) => recordSyncRun(db, summary),
    // No view reads the search tables: the memo is kept. The last step of the pass after a commit (fewer rows than
    // asked) ends that commit's writes: the WAL is folded into the file and truncated then (truncateWal).
    'search:index-step': ({ maxRows }) => {
      const indexed = changingViews(db, '', [], () => indexShortTerms(db, maxRows));
      if (indexed < maxRows) truncateWal(db);
      return indexed;
    },
    'reminders:run': ({ now, syncedSiteId, enabled }) =>
      decideReminders(db, { now: Date.parse(now), syncedSiteId, enabled }),
    'reminders:rules-run': (input) => decideRuleReminders(db, input),
    'reminders:snooze': (input) => snoozeReminder(db, input),
    'export:orders-csv': ({ siteId, now, language, timeZone }) =>
      purchaseHistoryCsv(db, siteId, new Date(now), { language, timeZone }),
    'db:check': () => checkOfflineDatabase(db),
    // The worker closes its own connection (writer-worker.ts); in process the connection belongs to the caller.
    'writer:close': () => {
      for (const id of [...stages.keys()]) forget(id);
    },
  };
}

/**
 * A sync's commit and its search index pass leave a WAL as large as what they wrote (the first sync: as large as the
 * database), and SQLite's automatic checkpoints copy it back but never shrink the file
 * (https://sqlite.org/wal.html#avoiding_excessively_large_wal_files). TRUNCATE copies every frame into the database
 * and truncates the WAL to zero bytes (https://sqlite.org/pragma.html#pragma_wal_checkpoint); it waits (busy_timeout)
 * for readers still on an older snapshot, and the main thread's reads are short. Best effort: a checkpoint that
 * cannot finish leaves the WAL for the next one, and SQLite's own.
 */
function truncateWal(db: Database): void {
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
  } catch {
    // Busy or an I/O error: nothing is lost, the frames stay in the WAL.
  }
}

/** Decodes and parses one answer of the site, stages the part at `path`, and says what the fetch needs next. */
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
  // push(...nodes) would overflow the stack on a very large page; pages are small, but a loop costs nothing.
  for (const node of nodes) list.push(node);
  s.parts.set(part, list);
  const digest = s.digests.get(part) ?? { hash: createHash('sha256'), nodes: 0, pending: [] };
  s.digests.set(part, digest);
  if (nodes.length === 0) return;
  // After this call's answer is posted (setImmediate runs after the handler and its reply, a page the worker fetched
  // itself included), so the hashing is not on the page chain: the main thread already has the next cursor. The
  // commit hashes whatever is still pending first (finishDigests), so the order of the two never matters.
  if (digest.pending.push(nodes) === 1) setImmediate(() => hashPending(digest));
}

/**
 * Hashes the pages appended since the last call: one update per page, its nodes' JSON joined by "," (see PagedDigest).
 * It runs from setImmediate, outside any call's error boundary: a throw here would end the thread and every site's
 * writes with it, so a failure is kept and refused at the commit (finishDigests) instead.
 */
function hashPending(digest: PagedDigest): void {
  if (digest.failed !== undefined) return;
  try {
    for (const page of digest.pending.splice(0)) {
      digest.hash.update(digest.nodes === 0 ? '[' : ',');
      // JSON.stringify of the array is its nodes' JSON joined by "," inside "[...]": the same bytes, in one call.
      digest.hash.update(JSON.stringify(page).slice(1, -1));
      digest.nodes += page.length;
    }
  } catch (error) {
    digest.failed = error;
  }
}

/** Each staged part's digest (see PagedDigest), as commitSnapshotIfChanged compares and stores them. */
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

/** GraphQL errors as the spec shapes them (an object with a string message); anything else in `errors` is not one. */
function isSiteError(value: unknown): value is SiteGraphQLError {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}

/** A depth limit for nodes handed over already parsed: the answer's own envelope (data.viewer.x.nodes[i]) is not around them. */
const MAX_ANSWER_DEPTH_OF_NODES = 28;

/**
 * A commit that failed on the site's values is the site's data, not the disk: a field of the wrong type SQLite
 * cannot bind or a list that is not one (a TypeError), a value a column's constraint refuses (a missing id, an
 * amount that is not a number), a value too big for SQLite. The disk's own failures (SQLITE_FULL, SQLITE_IOERR,
 * SQLITE_BUSY...) stay storage errors.
 */
const SITE_DATA_SQLITE = /^SQLITE_(CONSTRAINT|MISMATCH|TOOBIG|RANGE)/;
function siteDataOrStorage(error: unknown): unknown {
  if (error instanceof CoreError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.startsWith('SQLITE_') && !SITE_DATA_SQLITE.test(code))
    return error;
  return siteDataInvalid(typeof code === 'string' ? code : 'unwritable', error);
}

function applyAnswer(db: Database, siteId: string, answer: OutboxAnswer): void {
  switch (answer.kind) {
    case 'notification-read':
      return acceptNotificationRead(db, siteId, answer.id, answer.readAt);
    case 'all-notifications-read':
      return acceptAllNotificationsRead(db, siteId);
    case 'subscription':
      return acceptSubscription(db, siteId, answer.record);
  }
}
