/**
 * The one message contract between the main process and the database writer (a worker_threads worker that owns
 * the only write connection; Signal Desktop's `ts/sql/channels.ts` is the model). Every write the sync engine
 * makes is one call in this map; the screens read through their own read-only connection (WAL).
 *
 * Across the thread boundary everything is structured-cloned, so Error subclasses do not survive: a failure
 * travels as the core's `{ code, message, detail }` and is turned back into a CoreError on the caller's side
 * (ARCHITECTURE "Examples" 3).
 */
import type { AppError } from '../../common/result';
import type { SyncRunSummary } from '../../common/view-models';
import type { OutboxChange, OutboxEntry } from './outbox';
import type { SiteSnapshot, SubscriptionRecord } from './records';

export type PartName = keyof SiteSnapshot;
/** Parts that arrive a page at a time (Relay connections). */
export type PagedPart = 'courses' | 'digitalProducts' | 'eventRegistrations' | 'consultingServices' | 'payments' | 'notifications';
/** Parts that arrive whole in one answer. */
export type WholePart = 'profile' | 'subscriptions';

export interface CommitResult {
  /** Parts whose rows were replaced (their digest differed from the stored one). */
  readonly rewritten: readonly PartName[];
  /** Nothing differed from what is stored: no transaction was run, nothing was written, no view changed. */
  readonly unchanged: boolean;
  /** Rows per part of the committed snapshot (what the run's summary reports). */
  readonly counts: Readonly<Record<string, number>>;
}

/** What the site answered to a replayed outbox change (applied with the entry's removal, in one transaction). */
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

/** One answer of the site, as sent: the writer decodes and parses it, stages the part, and says what the fetch needs next. */
export interface StageTextInput {
  readonly stageId: string;
  readonly part: PartName;
  /** 'page': a Relay connection (its `nodes` are staged); 'whole': the value itself. */
  readonly shape: 'page' | 'whole';
  /** Where the part sits in `data`, e.g. ['viewer', 'payments']. */
  readonly path: readonly string[];
  /** The response body: UTF-8 bytes (moved to the worker, see TRANSFERRED) or the text. */
  readonly body: ArrayBuffer | string;
}

export interface StagedText {
  /** The answer's `errors`; when there are any nothing was staged (the fetch judges them). */
  readonly errors: readonly SiteGraphQLError[];
  /** The value at `path` was there (not null). */
  readonly found: boolean;
  readonly count: number;
  readonly totalCount: number;
  readonly hasNextPage: boolean;
  readonly endCursor: string | null;
}

/**
 * Channel -> (input) => output. Inputs and outputs are plain data (dates as ISO strings).
 * A staged snapshot: `stage:begin`, then pages as they arrive, then `stage:commit` (one transaction) or
 * `stage:discard`. A worker that dies loses only the staged pages: the stored snapshot is the previous one.
 */
export interface WriterCalls {
  'site:ensure': (input: { readonly siteId: string; readonly now: string }) => void;
  'site:remove': (input: { readonly siteId: string }) => void;
  'snapshot:commit': (input: { readonly siteId: string; readonly snapshot: SiteSnapshot }) => CommitResult;
  'stage:begin': (input: { readonly stageId: string; readonly siteId: string }) => void;
  'stage:page': (input: { readonly stageId: string; readonly part: PagedPart; readonly nodes: readonly unknown[] }) => void;
  'stage:text': (input: StageTextInput) => StagedText;
  'stage:whole': (input: { readonly stageId: string; readonly part: WholePart; readonly value: unknown }) => void;
  /** The part was refused (missing scope): it is left out and its stored rows kept. */
  'stage:drop': (input: { readonly stageId: string; readonly part: PartName }) => void;
  'stage:commit': (input: { readonly stageId: string; readonly siteId: string }) => CommitResult;
  'stage:discard': (input: { readonly stageId: string }) => void;
  'outbox:enqueue': (input: { readonly siteId: string; readonly change: OutboxChange; readonly now: string }) => OutboxEntry;
  'outbox:accept': (input: { readonly siteId: string; readonly entry: EntryRef; readonly answer: OutboxAnswer }) => void;
  'outbox:attempt': (input: { readonly entry: EntryRef; readonly error: string; readonly now: string }) => void;
  'outbox:fail': (input: { readonly entry: EntryRef; readonly error: string; readonly now: string }) => void;
  'outbox:dismiss': (input: { readonly siteId: string; readonly id: number }) => void;
  'sync:record-run': (input: { readonly summary: SyncRunSummary }) => void;
  /** One step of the short-term search index (search.ts): returns the rows indexed, < maxRows when done. */
  'search:index-step': (input: { readonly maxRows: number }) => number;
  /** The last call: the connection is closed (SQLite checkpoints the WAL into the file) and the worker ends. */
  'writer:close': (input: Record<string, never>) => void;
}

export type WriterCall = keyof WriterCalls;
export type WriterInput<K extends WriterCall> = Parameters<WriterCalls[K]>[0];
export type WriterOutput<K extends WriterCall> = ReturnType<WriterCalls[K]>;
export type WriterHandlers = { readonly [K in WriterCall]: (input: WriterInput<K>) => WriterOutput<K> };

/** Calls whose `body` is moved to the worker rather than copied (postMessage transfer list); the caller loses it. */
export const TRANSFERRED: ReadonlySet<WriterCall> = new Set(['stage:text']);

// ------------------------------------------------------------------ the wire

/** What the worker is started with (workerData). */
export interface WriterInit {
  readonly file: string;
  /** better-sqlite3's compiled addon for this runtime (the host's sqliteBinding), when the default does not fit. */
  readonly nativeBinding?: string;
}

export type WireResult<T = unknown> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: AppError };

/** main -> worker */
export interface WriterRequest {
  readonly id: number;
  readonly call: WriterCall;
  readonly input: unknown;
}

/** worker -> main: first one `opened` (or `open-failed`), then one `result` per request, in order. */
export type WriterMessage =
  | { readonly type: 'opened'; readonly recovered: boolean; readonly movedTo: string | null; readonly salvagedOutbox: number }
  | { readonly type: 'open-failed'; readonly error: AppError }
  | { readonly type: 'result'; readonly id: number; readonly result: WireResult };
