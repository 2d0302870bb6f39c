/**
 * The database writer, as the main process sees it: `call(channel, input)` of the contract in worker-contract.ts.
 * - `startWriterWorker`: a worker_threads worker owns the one write connection (Signal Desktop's SQL worker is the
 *   model), so a commit of tens of thousands of rows, the search index and the outbox writes never block the main
 *   process, which carries every IPC call and window event. Screens read through a read-only connection beside it
 *   (WAL: https://sqlite.org/wal.html). Calls run one at a time, in the order sent (the outbox's order holds); a sync
 *   page the worker requests itself (`stage:fetch`) waits on the network without holding the others back.
 * - `createInProcessWriter`: the same handlers on a connection of this thread (unit tests, tools).
 * A worker that dies (a crash in the addon, out of memory) fails the calls it had with a clear storage-error and is
 * started again for the next call; what it had committed is on disk, what it had not is rolled back by SQLite, so a
 * crash mid-commit leaves the previous snapshot and every queued outbox change is still queued.
 */
import { Worker } from 'node:worker_threads';
import type { Database } from 'better-sqlite3';
import { CoreError, isCoreError } from '../errors';
import { fromWireError, toWireError } from './writer-errors';
import { findWorkerEntry, type WorkerEntry } from './worker-entry';
import { silentLogger, type Logger } from '../db/logger';
import { viewsOfCommit } from '../db/snapshot';
import { writtenElsewhere, type ViewArea } from '../db/view-cache';
import { createWriterHandlers } from './writer-handlers';
import {
  DETACHED,
  TRANSFERRED,
  type CommitResult,
  type WireResult,
  type WriterCall,
  type WriterInit,
  type WriterInput,
  type WriterMessage,
  type WriterOutput,
  type WriterRequest,
} from './worker-contract';

export interface DbWriter {
  /** Runs one write; rejects with a CoreError (never another Error). */
  call<K extends WriterCall>(call: K, input: WriterInput<K>): Promise<WriterOutput<K>>;
  /** Stops the writer (waits for the calls sent before). */
  close(): Promise<void>;
}

// ------------------------------------------------------------------ in process

/** The handlers on `db` itself, through the same error boundary as the worker. */
export function createInProcessWriter(db: Database): DbWriter {
  const handlers = createWriterHandlers(db);
  let tail: Promise<unknown> = Promise.resolve();
  return {
    call(call, input) {
      // Asynchronous like the worker (callers cannot come to depend on a write having run synchronously), and in order.
      const run = tail
        .then(() =>
          (
            handlers[call] as (
              i: typeof input,
            ) => WriterOutput<typeof call> | Promise<WriterOutput<typeof call>>
          )(input),
        )
        .catch((error: unknown) => {
          throw isCoreError(error) ? error : fromWireError(toWireError(error), error);
        });
      // A DETACHED call (a page on the network) starts in order but does not hold back the calls after it.
      if (!DETACHED.has(call)) tail = run.catch(() => undefined);
      return run;
    },
    async close() {
      await tail;
    },
  };
}

// ------------------------------------------------------------------ the worker

export interface WriterWorkerOptions extends WriterInit {
  readonly logger?: Logger;
  /** The worker's script; by default found beside this module (sources run through tsx) or the main bundle. */
  readonly workerScript?: string;
  /** Restarts allowed within `restartWindowMs` before the writer gives up and every call fails. Default 3 in 60 s. */
  readonly maxRestarts?: number;
  readonly restartWindowMs?: number;
}

export interface OpenedWriter extends DbWriter {
  /** What opening found (the worker opens the file, runs migrations, moves a damaged file aside). */
  readonly recovered: boolean;
  readonly movedTo: string | null;
  readonly salvagedOutbox: number;
  /** The read connection of this thread whose memoised views the writes change (view-cache.ts). */
  attachReader(db: Database): void;
  /** How many times the worker was started again after it died (for tests and diagnostics). */
  readonly restarts: number;
  /**
   * Ends the worker at once, wherever it is (inside a transaction too), the way a crash would; the writer then
   * restarts it as after any crash. For the crash tests and the soak; the app never calls it.
   */
  crash(): Promise<void>;
}

interface Pending {
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: CoreError) => void;
}

/** How the writer's worker is started: the script, and whether it is a TypeScript source that needs tsx. */
function workerEntry(explicit: string | undefined): WorkerEntry {
  if (explicit !== undefined) return { script: explicit, eval: false };
  // electron-vite bundles the worker beside the main bundle as CommonJS (electron.vite.config.ts); a chunk that
  // holds this module may sit one folder below it. A test's own bundle (test/soak) may carry an ESM db-writer.js.
  return findWorkerEntry({
    from: import.meta.url,
    names: ['db-writer.cjs', 'db-writer.js'],
    source: 'writer-worker.ts',
    missing: 'This copy of the app is missing its database writer. Reinstall the app.',
  });
}

const STOPPED = (): CoreError =>
  new CoreError(
    'storage-error',
    'The offline database writer stopped unexpectedly; the last change may not have been saved. Try again.',
  );

/** Starts the writer worker and waits until it has opened the database (migrations, recovery). */
export async function startWriterWorker(options: WriterWorkerOptions): Promise<OpenedWriter> {
  const logger = options.logger ?? silentLogger;
  const entry = workerEntry(options.workerScript);
  const init: WriterInit = {
    file: options.file,
    ...(options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding }),
    ...(options.integrityCheck === undefined ? {} : { integrityCheck: options.integrityCheck }),
  };
  const maxRestarts = options.maxRestarts ?? 3;
  const windowMs = options.restartWindowMs ?? 60_000;
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let worker: Worker;
  let ready!: Promise<WriterMessage & { type: 'opened' }>;
  let closing = false;
  let closed: Promise<void> | null = null;
  let gaveUp: CoreError | null = null;
  const restartTimes: number[] = [];
  let restarts = 0;
  let reader: Database | null = null;

  function spawn(): void {
    const w = new Worker(entry.script, {
      eval: entry.eval,
      workerData: init,
      stdout: false,
      stderr: false,
    });
    worker = w;
    ready = new Promise((resolve, reject) => {
      const onMessage = (message: WriterMessage) => {
        if (message.type === 'opened') resolve(message);
        else if (message.type === 'open-failed') reject(fromWireError(message.error));
        else settle(message.id, message.result);
      };
      w.on('message', onMessage);
      w.once('error', (error) => {
        logger.error('database writer failed', { error: String(error) });
        reject(STOPPED());
      });
      w.once('exit', (code) => {
        reject(STOPPED());
        if (worker !== w) return;
        const lost = [...pending.values()];
        pending.clear();
        for (const p of lost) p.reject(STOPPED());
        if (closing) return;
        logger.error('database writer stopped; starting it again', {
          exitCode: code,
          callsLost: lost.length,
        });
        const now = Date.now();
        while (restartTimes.length > 0 && now - restartTimes[0]! > windowMs) restartTimes.shift();
        if (restartTimes.length >= maxRestarts) {
          gaveUp = new CoreError(
            'storage-error',
            'The offline database writer keeps stopping; restart the app. Your saved data is kept.',
          );
          return;
        }
        restartTimes.push(now);
        restarts += 1;
        spawn();
        ready.catch(() => undefined);
      });
    });
  }

  function settle(id: number, result: WireResult): void {
    const p = pending.get(id);
    if (!p) return;
    pending.delete(id);
    if (result.ok) p.resolve(result.value);
    else p.reject(fromWireError(result.error));
  }

  function send<K extends WriterCall>(call: K, input: WriterInput<K>): Promise<WriterOutput<K>> {
    if (gaveUp) return Promise.reject(gaveUp);
    if (closing)
      return Promise.reject(new CoreError('storage-error', 'The offline database is closed.'));
    const id = nextId++;
    return new Promise<WriterOutput<K>>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      const request: WriterRequest = { id, call, input };
      const body = TRANSFERRED.has(call) ? (input as { body?: unknown }).body : undefined;
      try {
        worker.postMessage(request, body instanceof ArrayBuffer ? [body] : []);
      } catch (error) {
        pending.delete(id);
        reject(
          new CoreError(
            'invalid-input',
            'This change cannot be saved (it is not plain data).',
            undefined,
            { cause: error },
          ),
        );
      }
    });
  }

  spawn();
  let opened: WriterMessage & { type: 'opened' };
  try {
    opened = await ready;
  } catch (error) {
    closing = true;
    await worker!.terminate();
    throw error;
  }

  return {
    recovered: opened.recovered,
    movedTo: opened.movedTo,
    salvagedOutbox: opened.salvagedOutbox,
    get restarts() {
      return restarts;
    },
    async crash() {
      await worker.terminate();
    },
    attachReader(db) {
      reader = db;
    },
    call(call, input) {
      const declared = VIEWS_OF_CALL[call];
      if (reader === null || declared === null) return send(call, input);
      const siteId = siteOf(input);
      return writtenElsewhere(
        reader,
        siteId,
        declared,
        () => send(call, input),
        AFTER[call] as ((result: unknown) => readonly ViewArea[]) | undefined,
      );
    },
    close() {
      closed ??= (async () => {
        // Calls already sent finish first (the worker answers in order); then it closes its connection and ends.
        const ended = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
        const last = gaveUp ? Promise.reject(gaveUp) : send('writer:close', {});
        closing = true;
        try {
          await last;
          await ended;
        } catch (error) {
          logger.warn('database writer did not close cleanly', { error: String(error) });
        } finally {
          await worker.terminate();
        }
      })();
      return closed;
    },
  };
}

/** The views of the call's site each write may change; null: the call writes nothing. */
const VIEWS_OF_CALL: { readonly [K in WriterCall]: readonly ViewArea[] | 'all' | null } = {
  'site:ensure': [], // inserts a missing site only: no stored row changes
  'site:remove': 'all',
  'snapshot:commit': 'all',
  'stage:begin': null,
  'stage:page': null,
  'stage:text': null,
  'stage:fetch': null,
  'stage:cancel': null,
  'stage:adopt': null,
  'stage:whole': null,
  'stage:restart': null,
  'stage:drop': null,
  'stage:commit': 'all',
  'stage:discard': null,
  'outbox:enqueue': ['notifications'],
  'outbox:accept': ['notifications'],
  'outbox:attempt': [],
  'outbox:fail': ['notifications'],
  'outbox:dismiss': ['notifications'],
  'course:mark-seen': ['library'],
  'sync:record-run': [],
  'search:index-step': [],
  'reminders:run': [], // its marks are read by no view
  'reminders:rules-run': [],
  'reminders:snooze': [],
  'export:orders-csv': null,
  'db:check': null, // a rebuild is a commit nobody announced: the reader drops every memoised view (view-cache.ts)
  'writer:close': null,
};

/** What a commit did change, once it answered (snapshot.ts `viewsOfCommit`); nothing when it wrote nothing. */
const commitViews = (result: CommitResult): readonly ViewArea[] =>
  result.unchanged ? [] : viewsOfCommit(result.rewritten);
const AFTER: { readonly [K in WriterCall]?: (result: WriterOutput<K>) => readonly ViewArea[] } = {
  'snapshot:commit': commitViews,
  'stage:commit': commitViews,
};

function siteOf(input: unknown): string {
  const i = input as { siteId?: string; entry?: { siteId: string }; summary?: { siteId: string } };
  return i.siteId ?? i.entry?.siteId ?? i.summary?.siteId ?? '';
}
