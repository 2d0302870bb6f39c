/**
 * The main thread's side of the transfer thread (transfer-worker.ts): `transfer(input)` as in
 * transfer.ts, run over there. Started at the first download and kept while the app runs; a thread
 * that dies fails its transfers as a cut connection (they resume from the bytes made durable) and
 * is started again for the next one.
 */
import { Worker } from 'node:worker_threads';
import type { Logger } from '../log';
import { findWorkerEntry, type WorkerEntry } from '../worker/worker-entry';
import { TransientError, type TransferInput, type TransferResult } from './transfer';
import { fromWireFailure, toWireFailure } from './transfer-failure';
import type { FromThread, ToThread } from './transfer-protocol';

interface Pending {
  readonly input?: TransferInput;
  /** Token requests on their way to the thread, by ask id: resolved by its answer. */
  readonly answers: Map<
    number,
    {
      resolve(answer: { status: number; wwwAuthenticate: string | null }): void;
      reject(error: unknown): void;
    }
  >;
  readonly resolve: (value: never) => void;
  readonly reject: (error: unknown) => void;
}

function entry(explicit: string | undefined): WorkerEntry {
  if (explicit !== undefined) return { script: explicit, eval: false };
  return findWorkerEntry({
    from: import.meta.url,
    names: ['file-transfer.cjs', 'file-transfer.js'],
    source: 'transfer-worker.ts',
    missing: 'This copy of the app is missing its download thread. Reinstall the app.',
  });
}

export interface TransferThreadDeps {
  readonly logger: Logger;
  readonly progressEveryMs: number;
  /**
   * The thread's script; by default the bundled one beside this module, else the
   * source through tsx.
   */
  readonly script?: string;
}

type Message<T extends FromThread['type']> = Extract<FromThread, { type: T }>;

export class TransferThread {
  readonly #deps: TransferThreadDeps;
  #worker: Worker | null = null;
  /** Settles once the current thread runs its script (or has exited). */
  #online: Promise<void> = Promise.resolve();
  #ids = 0;
  readonly #pending = new Map<number, Pending>();

  constructor(deps: TransferThreadDeps) {
    this.#deps = deps;
  }

  transfer(input: TransferInput): Promise<TransferResult> {
    const w = this.#thread();
    const id = ++this.#ids;
    if (input.signal.aborted) return Promise.reject(input.signal.reason);
    return new Promise<TransferResult>((resolve, reject) => {
      this.#pending.set(id, {
        input,
        answers: new Map(),
        resolve: resolve as (value: never) => void,
        reject,
      });
      input.signal.addEventListener('abort', () => post(w, { type: 'abort', id }), {
        once: true,
      });
      const {
        send: _send,
        signal: _signal,
        onStart: _onStart,
        onBytes: _onBytes,
        onDurable: _onDurable,
        ...job
      } = input;
      post(w, {
        type: 'transfer',
        id,
        job: { ...job, progressEveryMs: this.#deps.progressEveryMs },
      });
    });
  }

  /** The SHA-256 of a file (hex), or null when it cannot be read. */
  sha256(file: string): Promise<string | null> {
    const w = this.#thread();
    const id = ++this.#ids;
    return new Promise<string | null>((resolve, reject) => {
      this.#pending.set(id, {
        answers: new Map(),
        resolve: resolve as (value: never) => void,
        reject,
      });
      post(w, { type: 'hash', id, file });
    });
  }

  /**
   * Starts the thread ahead of a first download (its start is ~50-170 ms of a download otherwise);
   * resolves once it runs (or has stopped).
   */
  warm(): Promise<void> {
    this.#thread();
    return this.#online;
  }

  /** The running thread's id (worker_threads), or null when none runs. */
  threadId(): number | null {
    return this.#worker?.threadId ?? null;
  }

  async close(): Promise<void> {
    const w = this.#worker;
    this.#worker = null;
    if (w) await w.terminate();
  }

  #thread(): Worker {
    if (this.#worker) return this.#worker;
    const { script, eval: isCode } = entry(this.#deps.script);
    const w = new Worker(script, { eval: isCode, stdout: false, stderr: false });
    this.#online = new Promise<void>((resolve) => {
      w.once('online', resolve);
      w.once('exit', () => resolve());
    });
    // The app's exit is not held back by an idle download thread.
    w.unref();
    w.on('message', (message: FromThread) => this.#onMessage(w, message));
    w.on('error', (error) =>
      this.#deps.logger.warn('the download thread failed', { error: error.name }),
    );
    w.on('exit', () => this.#exited(w));
    this.#worker = w;
    return w;
  }

  /**
   * What it had under way stops as a cut connection: each resumes from its durable bytes at
   * the next try.
   */
  #exited(w: Worker): void {
    if (this.#worker === w) this.#worker = null;
    for (const [id, job] of this.#pending) {
      this.#pending.delete(id);
      job.reject(
        new TransientError(
          'The download stopped unexpectedly; it resumes where it stopped.',
          false,
          undefined,
          'cut',
        ),
      );
    }
  }

  #onMessage(w: Worker, message: FromThread): void {
    const job = this.#pending.get(message.id);
    if (!job) return;
    const input = job.input;
    switch (message.type) {
      case 'send':
        if (input) this.#send(w, job, input, message);
        return;
      case 'answered':
        job.answers
          .get(message.askId)
          ?.resolve({ status: message.status, wwwAuthenticate: message.wwwAuthenticate });
        job.answers.delete(message.askId);
        return;
      case 'answer-failed':
        job.answers
          .get(message.askId)
          ?.reject(fromWireFailure(message.failure, () => input?.signal.reason));
        job.answers.delete(message.askId);
        return;
      case 'start':
        input?.onStart(message.info).then(
          () => post(w, { type: 'started', id: message.id, failure: null }),
          (error: unknown) =>
            post(w, { type: 'started', id: message.id, failure: toWireFailure(error) }),
        );
        return;
      case 'bytes':
        input?.onBytes(message.bytes);
        return;
      case 'durable':
        input?.onDurable(message.bytes);
        return;
      default:
        this.#settle(job, message);
    }
  }

  /**
   * The thread's request goes to the site's origin: the token manager's rules on this thread,
   * the request its.
   */
  #send(w: Worker, job: Pending, input: TransferInput, message: Message<'send'>): void {
    input
      .send(
        message.url,
        (token, url) =>
          new Promise<{ status: number; wwwAuthenticate: string | null }>((resolve, reject) => {
            job.answers.set(message.askId, { resolve, reject });
            post(w, { type: 'token', id: message.id, askId: message.askId, token, url });
          }),
      )
      .then(
        () => post(w, { type: 'sent', id: message.id, askId: message.askId, failure: null }),
        (error: unknown) =>
          post(w, {
            type: 'sent',
            id: message.id,
            askId: message.askId,
            failure: toWireFailure(error),
          }),
      );
  }

  #settle(job: Pending, message: Message<'done' | 'hashed' | 'failed'>): void {
    this.#pending.delete(message.id);
    switch (message.type) {
      case 'done':
        job.input?.onBytes(message.result.bytes);
        job.resolve(message.result as never);
        return;
      case 'hashed':
        job.resolve(message.sha256 as never);
        return;
      case 'failed':
        // A stop is the caller's own reason (its AbortSignal's), as transfer() rethrows it.
        job.reject(fromWireFailure(message.failure, () => job.input?.signal.reason));
        return;
    }
  }
}

const post = (w: Worker, message: ToThread) => w.postMessage(message);
