/**
 * The one message contract between the main process and the database writer (a worker_threads
 * worker that owns the only write connection; Signal Desktop's `ts/sql/channels.ts` is the model).
 * Every write the sync engine makes is one call in this map; the screens read through their own
 * read-only connection (WAL).
 *
 * Across the thread boundary everything is structured-cloned, so Error subclasses do not survive: a
 * failure travels as the core's `{ code, message, detail }` and is turned back into a CoreError on
 * the caller's side (ARCHITECTURE "Examples" 3).
 */
import type { AppError } from '../../common/result';
import type { ExportLanguage } from '../export/strings';
import type { SyncRunSummary } from '../../common/view-models';
import type {
  CheckedDatabase,
  CommitResult,
  OutboxChange,
  OutboxEntry,
  PageCursors,
  PagedPart,
  PartName,
  ReminderGroup,
  ReminderKind,
  RuleKind,
  RuleReminderGroup,
  RuleRunInput,
  SiteSnapshot,
  SubscriptionRecord,
  WholePart,
} from '../db/index';
import type { ChangeWriterCalls } from './changes-calls';
import type { NoteWriterCalls } from './notes-calls';

export type { CommitResult, PagedPart, PageCursors, PartName, WholePart } from '../db/index';

/**
 * What the site answered to a replayed outbox change (applied with the entry's removal, in one
 * transaction).
 */
export type OutboxAnswer =
  | { readonly kind: 'notification-read'; readonly id: string; readonly readAt: string | null }
  | { readonly kind: 'all-notifications-read' }
  | { readonly kind: 'subscription'; readonly record: SubscriptionRecord };

type EntryRef = Pick<OutboxEntry, 'id' | 'siteId'>;

/** A GraphQL error as the site sent it (GraphQL over HTTP `errors[]`). */
export interface SiteGraphQLError {
  readonly message: string;
  readonly path?: readonly (string | number)[];
  readonly extensions?: Readonly<Record<string, unknown>>;
}

/**
 * One answer of the site, as sent: the writer decodes and parses it, stages the part, and says what
 * the fetch needs next.
 */
export interface StageTextInput {
  readonly stageId: string;
  readonly part: PartName;
  /** 'page': a Relay connection (its `nodes` are staged); 'whole': the value itself. */
  readonly shape: 'page' | 'whole';
  /** Where the part sits in `data`, e.g. ['viewer', 'payments']. */
  readonly path: readonly string[];
  /** The response body: UTF-8 bytes (moved to the worker, see TRANSFERRED) or the text. */
  readonly body: ArrayBuffer | string;
  /** A page kept aside instead of staged (see StageFetchInput.hold). */
  readonly hold?: boolean;
}

/**
 * A page the writer fetches itself (the sync's pages in the app): the request goes out from the
 * worker's thread and its answer is parsed and staged there, so the main process neither sends,
 * reads, parses nor copies any of it. The main process keeps the token's rules (token-manager.ts
 * `sendWith`): it picks the token, and a 401 or 403 in the reply is judged there exactly as for its
 * own requests.
 */
export interface StageFetchInput {
  readonly stageId: string;
  readonly part: PartName;
  readonly shape: 'page' | 'whole';
  readonly path: readonly string[];
  /**
   * The site's member endpoint; the token manager checked it is the site's own origin (RFC 6750
   * §5.3, RFC 8707).
   */
  readonly url: string;
  /**
   * The access token for this one request: held in memory for it, never logged, stored or sent
   * back.
   */
  readonly token: string;
  readonly query: string;
  readonly variables?: Readonly<Record<string, unknown>>;
  /**
   * A page asked for ahead of its turn (a re-sync asks for the pages at the last sync's cursors
   * side by side): it is parsed and kept aside under `StagedText.holdId`, not staged, until
   * `stage:adopt` says it belongs, in order. A page never adopted is dropped with its stage.
   */
  readonly hold?: boolean;
  /**
   * How long the request may take, start to last byte (default net/site-data.ts
   * REQUEST_DEADLINE_MS).
   */
  readonly deadlineMs?: number;
}

/**
 * How the site answered a StageFetchInput: a 2xx answer is staged; anything else comes back for the
 * main process to judge.
 */
export type StageFetchReply =
  | {
      readonly kind: 'staged';
      readonly status: number;
      readonly wwwAuthenticate: null;
      readonly staged: StagedText;
    }
  | {
      readonly kind: 'refused';
      readonly status: number;
      /** RFC 6750 §3: the challenge of a 401 or 403 (the scope a 403 insufficient_scope names). */
      readonly wwwAuthenticate: string | null;
      /** The start of the answer's body (a 503 names temporarily_unavailable there). */
      readonly body: string;
    };

export interface StagedText {
  /** The answer's `errors`; when there are any nothing was staged (the fetch judges them). */
  readonly errors: readonly SiteGraphQLError[];
  /** The value at `path` was there (not null). */
  readonly found: boolean;
  readonly count: number;
  /**
   * The connection's `totalCount` on this page; null when the site left it out or sent something
   * else.
   */
  readonly totalCount: number | null;
  /**
   * The page's nodes' ids (those that have a string one), in order: the fetch checks a walk for
   * nodes met twice.
   */
  readonly ids: readonly string[];
  readonly hasNextPage: boolean;
  readonly endCursor: string | null;
  /**
   * A held page's id for `stage:adopt` (a page asked for with `hold`; absent when nothing was
   * kept).
   */
  readonly holdId?: number;
}

/**
 * Channel -> (input) => output. Inputs and outputs are plain data (dates as ISO strings). A staged
 * snapshot: `stage:begin`, then pages as they arrive (a page asked for ahead of its turn is held
 * until `stage:adopt` stages it in order), then `stage:commit` (one transaction) or
 * `stage:discard`. A worker that dies loses only the staged pages: the stored snapshot is the
 * previous one.
 */
export interface WriterCalls extends NoteWriterCalls, ChangeWriterCalls {
  'site:ensure': (input: { readonly siteId: string; readonly now: string }) => void;
  'site:remove': (input: { readonly siteId: string }) => void;
  'snapshot:commit': (input: {
    readonly siteId: string;
    readonly snapshot: SiteSnapshot;
  }) => CommitResult;
  'stage:begin': (input: { readonly stageId: string; readonly siteId: string }) => void;
  'stage:page': (input: {
    readonly stageId: string;
    readonly part: PagedPart;
    readonly nodes: readonly unknown[];
  }) => void;
  'stage:text': (input: StageTextInput) => StagedText;
  /**
   * The one call that does not hold the queue while it waits: its request is on the network while
   * later calls run, and the answer is staged when it arrives (in memory; the database is written
   * only by the commit).
   */
  'stage:fetch': (input: StageFetchInput) => Promise<StageFetchReply>;
  /**
   * Stops the stage's requests still on the network (the sync was cancelled); `stage:discard` drops
   * its pages.
   */
  'stage:cancel': (input: { readonly stageId: string }) => void;
  /** Stages a held page (StageFetchInput.hold) after the pages staged before this call. */
  'stage:adopt': (input: { readonly stageId: string; readonly holdId: number }) => void;
  'stage:whole': (input: {
    readonly stageId: string;
    readonly part: WholePart;
    readonly value: unknown;
  }) => void;
  /**
   * The part's pages so far are dropped and it is paged again from the start: its walk did not add
   * up (a row moved across pages while they were read, fetch-snapshot.ts `connection`).
   */
  'stage:restart': (input: { readonly stageId: string; readonly part: PagedPart }) => void;
  /** The part was refused (missing scope): it is left out and its stored rows kept. */
  'stage:drop': (input: { readonly stageId: string; readonly part: PartName }) => void;
  /**
   * `cursors`: the fetch's page cursors, stored with the digests of the parts the commit rewrites
   * (migration 008).
   */
  'stage:commit': (input: {
    readonly stageId: string;
    readonly siteId: string;
    readonly cursors?: PageCursors;
  }) => CommitResult;
  'stage:discard': (input: { readonly stageId: string }) => void;
  'outbox:enqueue': (input: {
    readonly siteId: string;
    readonly change: OutboxChange;
    readonly now: string;
  }) => OutboxEntry;
  'outbox:accept': (input: {
    readonly siteId: string;
    readonly entry: EntryRef;
    readonly answer: OutboxAnswer;
  }) => void;
  'outbox:attempt': (input: {
    readonly entry: EntryRef;
    readonly error: string;
    readonly now: string;
  }) => void;
  'outbox:fail': (input: {
    readonly entry: EntryRef;
    readonly error: string;
    readonly now: string;
  }) => void;
  'outbox:dismiss': (input: { readonly siteId: string; readonly id: number }) => void;
  /**
   * The student opened the course: its "new since last sync" count is cleared (course-news.ts);
   * true if there was one.
   */
  'course:mark-seen': (input: { readonly siteId: string; readonly courseId: string }) => boolean;
  'sync:record-run': (input: { readonly summary: SyncRunSummary }) => void;
  /**
   * Decides the reminders due at `now` and marks them, in one transaction (db/reminders.ts): after
   * a sync of `syncedSiteId` (its first one sets its baseline) or on the timer (null).
   */
  'reminders:run': (input: {
    readonly now: string;
    readonly syncedSiteId: string | null;
    readonly enabled: Readonly<Record<ReminderKind, boolean>>;
  }) => readonly ReminderGroup[];
  /**
   * The reminders by the student's rules (db/reminder-decide.ts): lead times, quiet hours, snoozes.
   */
  'reminders:rules-run': (input: RuleRunInput) => readonly RuleReminderGroup[];
  /** Puts off one item's reminders until `untilMs`. */
  'reminders:snooze': (input: {
    readonly siteId: string;
    readonly kind: RuleKind;
    readonly subjectId: string;
    readonly untilMs: number;
    readonly now: number;
  }) => void;
  /**
   * One step of the short-term search index (search.ts): returns the rows indexed, < maxRows when
   * done.
   */
  'search:index-step': (input: { readonly maxRows: number }) => number;
  /**
   * Reads, no write: the site's purchase history as CSV (export/csv.ts purchaseHistoryCsv), or null
   * when it has none. Built here so the main process only receives the finished text. `now` judges
   * expired payment codes.
   */
  'export:orders-csv': (input: {
    readonly siteId: string;
    readonly now: string;
    readonly language: ExportLanguage;
    readonly timeZone: string;
  }) => string | null;
  /**
   * PRAGMA quick_check, left out of the open after a clean exit (open.ts integrityCheck) and run
   * once the window shows; a damaged database is kept aside as a copy and rebuilt empty in place,
   * its outbox carried over.
   */
  'db:check': (input: Record<string, never>) => CheckedDatabase;
  /**
   * The last call: the connection is closed (SQLite checkpoints the WAL into the file) and the
   * worker ends.
   */
  'writer:close': (input: Record<string, never>) => void;
}

export type WriterCall = keyof WriterCalls;
export type WriterInput<K extends WriterCall> = Parameters<WriterCalls[K]>[0];
export type WriterOutput<K extends WriterCall> = Awaited<ReturnType<WriterCalls[K]>>;
export type WriterHandlers = {
  readonly [K in WriterCall]: (input: WriterInput<K>) => ReturnType<WriterCalls[K]>;
};

/** Calls whose handler answers later (a promise): they do not hold the queue while they wait. */
export const DETACHED: ReadonlySet<WriterCall> = new Set(['stage:fetch']);

/**
 * Calls whose `body` is moved to the worker rather than copied (postMessage transfer list); the
 * caller loses it.
 */
export const TRANSFERRED: ReadonlySet<WriterCall> = new Set(['stage:text']);

// ------------------------------------------------------------------ the wire

/** What the worker is started with (workerData). */
export interface WriterInit {
  readonly file: string;
  /**
   * better-sqlite3's compiled addon for this runtime (the host's sqliteBinding), when the default
   * does not fit.
   */
  readonly nativeBinding?: string;
  /**
   * open.ts OpenOptions.integrityCheck (default 'at-open'); the app defers it and calls `db:check`.
   */
  readonly integrityCheck?: 'at-open' | 'unless-closed-cleanly';
}

export type WireResult<T = unknown> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: AppError };

/** main -> worker */
export interface WriterRequest {
  readonly id: number;
  readonly call: WriterCall;
  readonly input: unknown;
}

/** worker -> main: first one `opened` (or `open-failed`), then one `result` per request, in order
 * (a DETACHED call's result comes when its answer is ready, after the results of calls sent later).
 */
export type WriterMessage =
  | {
      readonly type: 'opened';
      readonly recovered: boolean;
      readonly movedTo: string | null;
      readonly salvagedOutbox: number;
    }
  | { readonly type: 'open-failed'; readonly error: AppError }
  | { readonly type: 'result'; readonly id: number; readonly result: WireResult };
