/**
 * The database writer, as the main process sees it: `call(channel, input)` of the
 * contract in worker-contract.ts.
 * - `startWriterWorker`: a worker_threads worker owns the one write connection (Signal Desktop's
 *   SQL worker is the model), so a commit of tens of thousands of rows, the search index and the
 *   outbox writes never block the main process, which carries every IPC call and window event.
 *   Screens read through a read-only connection beside it (WAL: https://sqlite.org/wal.html). Calls
 *   run one at a time, in the order sent (the outbox's order holds); a sync page the worker
 *   requests itself (`stage:fetch`) waits on the network without holding the others back.
 * - `createInProcessWriter`: the same handlers on a connection of this thread (unit tests, tools).
 *   A worker that dies (a crash in the addon, out of memory) fails the calls it had with a clear
 *   storage-error and is started again for the next call; what it had committed is on disk, what it
 *   had not is rolled back by SQLite, so a crash mid-commit leaves the previous snapshot and every
 *   queued outbox change is still queued.
 */
import { Worker } from 'node:worker_threads';
import { CoreError, isCoreError } from '../errors';
import { fromWireError, toWireError } from './writer-errors';
import { findWorkerEntry, type WorkerEntry } from './worker-entry';
import {
  type Logger,
  type ReadableDB,
  type ViewArea,
  type WritableDB,
  silentLogger,
  viewsOfCommit,
  writtenElsewhere,
} from '../db/index';
import { createWriterHandlers } from './writer-handlers';
import { CHANGE_CALL_VIEWS } from './changes-calls';
import { NOTE_CALL_VIEWS } from './notes-calls';
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
export function createInProcessWriter(db: WritableDB): DbWriter {
  const handlers = createWriterHandlers(db);
  let tail: Promise<unknown> = Promise.resolve();
  return {
    call(call, input) {
      // Asynchronous like the worker (callers cannot come to depend on a write having run
      // synchronously), and in order.
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
      // A DETACHED call (a page on the network) starts in order but does not hold back the
      // calls after it.
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
  /**
   * The worker's script; by default found beside this module (sources run through tsx) or
   * the main bundle.
   */
  readonly workerScript?: string;
  /**
   * Restarts allowed within `restartWindowMs` before the writer gives up and every call fails.
   * Default 3 in 60 s.
   */
  readonly maxRestarts?: number;
  readonly restartWindowMs?: number;
}

export interface OpenedWriter extends DbWriter {
  /**
   * What opening found (the worker opens the file, runs migrations, moves a damaged file aside).
   */
  readonly recovered: boolean;
  readonly movedTo: string | null;
  readonly salvagedOutbox: number;
  /** The read connection of this thread whose memoised views the writes change (view-cache.ts). */
  attachReader(db: ReadableDB): void;
  /** How many times the worker was started again after it died (for tests and diagnostics). */
  readonly restarts: number;
  /**
   * Ends the worker at once, wherever it is (inside a transaction too), the way a crash would;
   * the writer then restarts it as after any crash. For the crash tests and the soak; the app
   * never calls it.
   */
  crash(): Promise<void>;
}

interface Pending {
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: CoreError) => void;
}

/**
 * How the writer's worker is started: the script, and whether it is a TypeScript source
 * that needs tsx.
 */
function workerEntry(explicit: string | undefined): WorkerEntry {
  if (explicit !== undefined) return { script: explicit, eval: false };
  // electron-vite bundles the worker beside the main bundle as CommonJS (electron.vite.config.ts);
  // a chunk that holds this module may sit one folder below it. A test's own bundle (test/soak) may
  // carry an ESM db-writer.js.
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
  const writer = new WriterWorker(options);
  await writer.open();
  return writer;
}

/** What the writer worker is made with (the database file, the script, the restart budget). */
export type WriterWorkerDeps = WriterWorkerOptions;

type Opened = WriterMessage & { type: 'opened' };

class WriterWorker implements OpenedWriter {
  readonly #logger: Logger;
  readonly #entry: WorkerEntry;
  readonly #init: WriterInit;
  readonly #maxRestarts: number;
  readonly #windowMs: number;
  readonly #pending = new Map<number, Pending>();
  readonly #restartTimes: number[] = [];
  #nextId = 1;
  #worker!: Worker;
  #ready!: Promise<Opened>;
  #opened: Opened | null = null;
  #closing = false;
  #closed: Promise<void> | null = null;
  #gaveUp: CoreError | null = null;
  #restarts = 0;
  #reader: ReadableDB | null = null;

  constructor(options: WriterWorkerDeps) {
    this.#logger = options.logger ?? silentLogger;
    this.#entry = workerEntry(options.workerScript);
    this.#init = {
      file: options.file,
      ...(options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding }),
      ...(options.integrityCheck === undefined ? {} : { integrityCheck: options.integrityCheck }),
    };
    this.#maxRestarts = options.maxRestarts ?? 3;
    this.#windowMs = options.restartWindowMs ?? 60_000;
  }

  /** Starts the worker; resolves once it has opened the database, else ends it and rejects. */
  async open(): Promise<void> {
    this.#spawn();
    try {
      this.#opened = await this.#ready;
    } catch (error) {
      this.#closing = true;
      await this.#worker.terminate();
      throw error;
    }
  }

  get recovered(): boolean {
    return this.#opened!.recovered;
  }
  get movedTo(): string | null {
    return this.#opened!.movedTo;
  }
  get salvagedOutbox(): number {
    return this.#opened!.salvagedOutbox;
  }
  get restarts(): number {
    return this.#restarts;
  }

  async crash(): Promise<void> {
    await this.#worker.terminate();
  }

  attachReader(db: ReadableDB): void {
    this.#reader = db;
  }

  call<K extends WriterCall>(call: K, input: WriterInput<K>): Promise<WriterOutput<K>> {
    const declared = VIEWS_OF_CALL[call];
    if (this.#reader === null || declared === null) return this.#send(call, input);
    const siteId = siteOf(input);
    return writtenElsewhere(
      this.#reader,
      siteId,
      declared,
      () => this.#send(call, input),
      AFTER[call] as ((result: unknown) => readonly ViewArea[]) | undefined,
    );
  }

  close(): Promise<void> {
    this.#closed ??= (async () => {
      const worker = this.#worker;
      // Calls already sent finish first (the worker answers in order); then it closes its
      // connection and ends.
      const ended = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      const last = this.#gaveUp ? Promise.reject(this.#gaveUp) : this.#send('writer:close', {});
      this.#closing = true;
      try {
        await last;
        await ended;
      } catch (error) {
        this.#logger.warn('database writer did not close cleanly', { error: String(error) });
      } finally {
        await worker.terminate();
      }
    })();
    return this.#closed;
  }

  #spawn(): void {
    const w = new Worker(this.#entry.script, {
      eval: this.#entry.eval,
      workerData: this.#init,
      stdout: false,
      stderr: false,
    });
    this.#worker = w;
    this.#ready = new Promise((resolve, reject) => {
      w.on('message', (message: WriterMessage) => {
        if (message.type === 'opened') resolve(message);
        else if (message.type === 'open-failed') reject(fromWireError(message.error));
        else this.#settle(message.id, message.result);
      });
      w.once('error', (error) => {
        this.#logger.error('database writer failed', { error: String(error) });
        reject(STOPPED());
      });
      w.once('exit', (code) => {
        reject(STOPPED());
        this.#exited(w, code);
      });
    });
  }

  /**
   * The worker ended: its calls fail, and it is started again unless closing or over
   * the restart budget.
   */
  #exited(w: Worker, code: number): void {
    if (this.#worker !== w) return;
    const lost = [...this.#pending.values()];
    this.#pending.clear();
    for (const p of lost) p.reject(STOPPED());
    if (this.#closing) return;
    this.#logger.error('database writer stopped; starting it again', {
      exitCode: code,
      callsLost: lost.length,
    });
    const now = Date.now();
    const times = this.#restartTimes;
    while (times.length > 0 && now - times[0]! > this.#windowMs) times.shift();
    if (times.length >= this.#maxRestarts) {
      this.#gaveUp = new CoreError(
        'storage-error',
        'The offline database writer keeps stopping; restart the app. Your saved data is kept.',
      );
      return;
    }
    times.push(now);
    this.#restarts += 1;
    this.#spawn();
    this.#ready.catch(() => undefined);
  }

  #settle(id: number, result: WireResult): void {
    const p = this.#pending.get(id);
    if (!p) return;
    this.#pending.delete(id);
    if (result.ok) p.resolve(result.value);
    else p.reject(fromWireError(result.error));
  }

  #send<K extends WriterCall>(call: K, input: WriterInput<K>): Promise<WriterOutput<K>> {
    if (this.#gaveUp) return Promise.reject(this.#gaveUp);
    if (this.#closing)
      return Promise.reject(new CoreError('storage-error', 'The offline database is closed.'));
    const id = this.#nextId++;
    return new Promise<WriterOutput<K>>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      const request: WriterRequest = { id, call, input };
      const body = TRANSFERRED.has(call) ? (input as { body?: unknown }).body : undefined;
      try {
        this.#worker.postMessage(request, body instanceof ArrayBuffer ? [body] : []);
      } catch (error) {
        this.#pending.delete(id);
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
  ...NOTE_CALL_VIEWS,
  ...CHANGE_CALL_VIEWS,
  'sync:record-run': [],
  'search:index-step': [],
  'reminders:run': [], // its marks are read by no view
  'reminders:rules-run': [],
  'reminders:snooze': [],
  'export:orders-csv': null,
  'db:check': null, // a rebuild is a commit nobody announced: the reader drops every memoised view (view-cache.ts)
  'writer:close': null,
};

/**
 * What a commit did change, once it answered (snapshot.ts `viewsOfCommit`); nothing when
 * it wrote nothing.
 */
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
