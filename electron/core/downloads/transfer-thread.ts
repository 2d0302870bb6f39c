/**
 * The main thread's side of the transfer thread (transfer-worker.ts): `transfer(input)` as in transfer.ts, run over
 * there. Started at the first download and kept while the app runs; a thread that dies fails its transfers as a cut
 * connection (they resume from the bytes made durable) and is started again for the next one.
 */
import { Worker } from 'node:worker_threads';
import type { Logger } from '../log';
import { findWorkerEntry, type WorkerEntry } from '../worker/worker-entry';
import { TransientError, type TransferInput, type TransferResult } from './transfer';
import { fromWireFailure, toWireFailure } from './transfer-failure';
import type { FromThread, ToThread } from './transfer-protocol';

export interface TransferThread {
  transfer(input: TransferInput): Promise<TransferResult>;
  /** The SHA-256 of a file (hex), or null when it cannot be read. */
  sha256(file: string): Promise<string | null>;
  /**
   * Starts the thread ahead of a first download (its start is ~50-170 ms of a download otherwise); resolves once it
   * runs (or has stopped).
   */
  warm(): Promise<void>;
  /** The running thread's id (worker_threads), or null when none runs. */
  threadId(): number | null;
  close(): Promise<void>;
}

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

export function createTransferThread(options: {
  readonly logger: Logger;
  readonly progressEveryMs: number;
  /** The thread's script; by default the bundled one beside this module, else the source through tsx. */
  readonly script?: string;
}): TransferThread {
  let worker: Worker | null = null;
  /** Settles once the current thread runs its script (or has exited). */
  let online: Promise<void> = Promise.resolve();
  let ids = 0;
  const pending = new Map<number, Pending>();

  function thread(): Worker {
    if (worker) return worker;
    const { script, eval: isCode } = entry(options.script);
    const w = new Worker(script, { eval: isCode, stdout: false, stderr: false });
    online = new Promise<void>((resolve) => {
      w.once('online', resolve);
      w.once('exit', () => resolve());
    });
    // The app's exit is not held back by an idle download thread.
    w.unref();
    w.on('message', (message: FromThread) => onMessage(w, message));
    w.on('error', (error) =>
      options.logger.warn('the download thread failed', { error: error.name }),
    );
    w.on('exit', () => {
      if (worker === w) worker = null;
      // What it had under way stops as a cut connection: each resumes from its durable bytes at the next try.
      for (const [id, job] of pending) {
        pending.delete(id);
        job.reject(
          new TransientError(
            'The download stopped unexpectedly; it resumes where it stopped.',
            false,
            undefined,
            'cut',
          ),
        );
      }
    });
    worker = w;
    return w;
  }

  const post = (w: Worker, message: ToThread) => w.postMessage(message);

  function onMessage(w: Worker, message: FromThread): void {
    const job = pending.get(message.id);
    if (!job) return;
    const input = job.input;
    switch (message.type) {
      case 'send': {
        if (!input) return;
        // The token manager's rules on this thread; the request itself is the thread's.
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
        return;
      }
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
      case 'done':
        pending.delete(message.id);
        input?.onBytes(message.result.bytes);
        job.resolve(message.result as never);
        return;
      case 'hashed':
        pending.delete(message.id);
        job.resolve(message.sha256 as never);
        return;
      case 'failed':
        pending.delete(message.id);
        // A stop is the caller's own reason (its AbortSignal's), as transfer() rethrows it.
        job.reject(fromWireFailure(message.failure, () => input?.signal.reason));
        return;
    }
  }

  return {
    transfer(input) {
      const w = thread();
      const id = ++ids;
      if (input.signal.aborted) return Promise.reject(input.signal.reason);
      return new Promise<TransferResult>((resolve, reject) => {
        pending.set(id, {
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
          job: { ...job, progressEveryMs: options.progressEveryMs },
        });
      });
    },
    sha256(file) {
      const w = thread();
      const id = ++ids;
      return new Promise<string | null>((resolve, reject) => {
        pending.set(id, { answers: new Map(), resolve: resolve as (value: never) => void, reject });
        post(w, { type: 'hash', id, file });
      });
    },
    warm() {
      thread();
      return online;
    },
    threadId: () => worker?.threadId ?? null,
    async close() {
      const w = worker;
      worker = null;
      if (w) await w.terminate();
    },
  };
}
