/**
 * The transfers: at most `concurrency` at once, each on the transfer thread; a finished one is
 * placed atomically (fsynced, renamed into its own version folder, then named by the manifest), a
 * failed one retried with a growing wait when it is worth another try.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { CoreError } from '../errors';
import type { createKeyedQueue } from '../fs/keyed-queue';
import type { DownloadManagerOptions } from './api';
import { markFromInternet } from './mark-of-the-web';
import {
  keyOf,
  Stopped,
  toAppError,
  type DownloadsState,
  type Limits,
  type Running,
} from './state';
import type { JobRecord, ProductRecord } from './store';
import {
  formatMiB,
  NeedsConfirmation,
  TransientError,
  type TransferInput,
  type TransferResult,
} from './transfer';
import type { TransferThread } from './transfer-thread';

export interface QueueDeps {
  readonly state: DownloadsState;
  readonly thread: TransferThread;
  /** One step at a time per product (shared with the manager's operations). */
  readonly serial: ReturnType<typeof createKeyedQueue>;
  readonly limits: Limits;
  readonly options: Pick<
    DownloadManagerOptions,
    | 'siteOrigin'
    | 'sendWith'
    | 'now'
    | 'progressEveryMs'
    | 'idleTimeoutMs'
    | 'durableEveryMs'
    | 'markFile'
  >;
}

export class Queue {
  readonly #state: DownloadsState;
  readonly #thread: TransferThread;
  readonly #serial: QueueDeps['serial'];
  readonly #limits: Limits;
  readonly #options: QueueDeps['options'];

  constructor(deps: QueueDeps) {
    this.#state = deps.state;
    this.#thread = deps.thread;
    this.#serial = deps.serial;
    this.#limits = deps.limits;
    this.#options = deps.options;
  }

  /** Starts what is queued, up to the bound. */
  pump(): void {
    const state = this.#state;
    if (state.closed) return;
    for (const record of state.records()) {
      if (state.runningCount >= this.#limits.concurrency) return;
      const key = keyOf(record.siteId, record.productId);
      if (record.job?.state !== 'queued' || state.runOf(key) || state.hasRetry(key)) continue;
      this.#start(record);
    }
  }

  /** Stops a transfer (and its retry timer); resolves once the transfer itself has stopped. */
  stopRunning(key: string, why: Stopped['why']): Promise<void> {
    this.#state.cancelRetry(key);
    const run = this.#state.runOf(key);
    if (!run) return Promise.resolve();
    run.controller.abort(new Stopped(why));
    return run.transfer;
  }

  #start(record: ProductRecord): void {
    const state = this.#state;
    const job = record.job!;
    const key = keyOf(record.siteId, record.productId);
    const run: Running = {
      controller: new AbortController(),
      bytes: job.bytes,
      total: job.total,
      samples: [],
      lastEmit: 0,
      transfer: Promise.resolve(),
      settled: Promise.resolve(),
    };
    state.beginRun(key, run);
    state.emit(record, record.siteId, record.productId);
    const origin = this.#options.siteOrigin(record.siteId);
    const transferred = (async () => {
      if (!origin) throw new CoreError('not-found', 'That site is not in your list.');
      return this.#thread.transfer(this.#inputOf(record, job, run, origin));
    })();
    run.transfer = transferred.then(
      () => undefined,
      () => undefined,
    );
    run.settled = transferred
      .then(
        (result) => this.#serial(key, () => this.#finish(record, job, result)),
        (error: unknown) => this.#serial(key, () => this.#failed(record, job, error)),
      )
      .catch((error: unknown) => state.log.error('a download could not be finished', { error }))
      .finally(() => {
        state.endRun(key, run);
        state.emit(
          state.find(record.siteId, record.productId) ?? null,
          record.siteId,
          record.productId,
        );
        this.pump();
      });
  }

  /**
   * What the transfer thread is asked, with the callbacks that keep the job and its run up to date.
   */
  #inputOf(record: ProductRecord, job: JobRecord, run: Running, origin: string): TransferInput {
    const state = this.#state;
    const options = this.#options;
    const key = keyOf(record.siteId, record.productId);
    return {
      url: job.url,
      siteOrigin: origin,
      send: options.sendWith(record.siteId),
      title: record.title,
      partFile: state.partFile(job),
      resume:
        job.bytes > 0 ? { bytes: job.bytes, etag: job.etag, lastModified: job.lastModified } : null,
      signal: run.controller.signal,
      idleTimeoutMs: options.idleTimeoutMs ?? 60_000,
      maxBytes: this.#limits.maxBytes,
      askAboveBytes: job.confirmedLarge ? null : this.#limits.askAbove,
      durableEveryMs: options.durableEveryMs ?? 2000,
      onStart: async (info) => {
        job.etag = info.etag;
        job.lastModified = info.lastModified;
        job.total = info.total;
        job.bytes = info.offset;
        run.total = info.total;
        run.bytes = info.offset;
        await state.persist();
      },
      onBytes: (bytes) => this.#progress(record, run, bytes),
      onDurable: (bytes) => {
        if (state.runOf(key) !== run) return;
        job.bytes = bytes;
        void state.persist();
      },
    };
  }

  /**
   * Progress: a sample for the rate every 200 ms (the last 3 s kept), an
   * announcement every `progressEveryMs`.
   */
  #progress(record: ProductRecord, run: Running, bytes: number): void {
    run.bytes = bytes;
    const t = this.#options.now();
    if (run.samples.length === 0 || t - run.samples[run.samples.length - 1]!.t >= 200) {
      run.samples.push({ t, bytes });
      while (run.samples.length > 2 && t - run.samples[0]!.t > 3000) run.samples.shift();
    }
    if (t - run.lastEmit >= (this.#options.progressEveryMs ?? 250)) {
      run.lastEmit = t;
      this.#state.emit(record, record.siteId, record.productId);
    }
  }

  async #finish(record: ProductRecord, job: JobRecord, result: TransferResult): Promise<void> {
    if (record.job !== job) return; // cancelled meanwhile
    const state = this.#state;
    state.resetAttempts(keyOf(record.siteId, record.productId));
    const version = randomBytes(8).toString('hex');
    const target = join(state.productDir(record), version);
    await mkdir(target, { recursive: true, mode: 0o700 });
    // rename(2) within one file system: the complete, fsynced file appears under its name at once.
    await rename(state.partFile(job), join(target, result.name));
    await this.#markSaved(join(target, result.name), record, job);
    await fsyncDir(target);
    const old = record.saved;
    record.saved = {
      version,
      name: result.name,
      size: result.bytes,
      sha256: result.sha256,
      url: job.url,
      etag: result.etag,
      lastModified: result.lastModified,
      savedAt: new Date(this.#options.now()).toISOString(),
      viewAs: result.viewAs,
    };
    record.job = null;
    record.updateAvailable = false;
    await state.persist();
    // The old version goes only once the manifest names the new one.
    if (old)
      await rm(join(state.productDir(record), old.version), { recursive: true, force: true });
    state.log.info('a product file was saved', {
      productId: record.productId,
      bytes: result.bytes,
    });
  }

  /**
   * The Internet's mark on the file (Windows, macOS), best effort: a file system without one
   * keeps the file.
   */
  async #markSaved(path: string, record: ProductRecord, job: JobRecord): Promise<void> {
    const siteOrigin = this.#options.siteOrigin(record.siteId) ?? '';
    try {
      await (this.#options.markFile ?? markFromInternet)(path, { url: job.url, siteOrigin });
    } catch (error) {
      this.#state.log.warn('a saved file could not be marked as from the Internet', {
        productId: record.productId,
        error,
      });
    }
  }

  async #failed(record: ProductRecord, job: JobRecord, error: unknown): Promise<void> {
    if (record.job !== job) return;
    if (error instanceof Stopped) return; // pause / cancel / close already wrote the state
    if (error instanceof NeedsConfirmation) {
      job.state = 'needs-confirmation';
      job.total = error.size;
      job.error = {
        code: 'invalid-input',
        message: `This file is ${formatMiB(error.size)}. Save it anyway?`,
        detail: { size: error.size },
      };
      await this.#state.persist();
      return;
    }
    if (error instanceof TransientError) return this.#retryLater(record, job, error);
    job.state = 'failed';
    job.error = toAppError(error);
    await this.#state.persist();
    this.#state.log.info('a download failed', {
      productId: record.productId,
      code: job.error.code,
    });
  }

  /**
   * A transient failure: queued again after the next of the growing waits, failed once they
   * are used up.
   */
  async #retryLater(record: ProductRecord, job: JobRecord, error: TransientError): Promise<void> {
    const state = this.#state;
    const { delays } = this.#limits;
    const key = keyOf(record.siteId, record.productId);
    if (error.restart) {
      await rm(state.partFile(job), { force: true });
      job.bytes = 0;
      job.etag = null;
      job.lastModified = null;
    }
    const n = state.countAttempt(key);
    job.error = error.toAppError();
    if (n <= delays.length) {
      job.state = 'queued';
      state.scheduleRetry(key, delays[n - 1]!, () => this.pump());
    } else {
      job.state = 'failed';
    }
    await state.persist();
    state.log.info('a download stopped; it is retried', {
      productId: record.productId,
      attempt: n,
      code: error.code,
    });
  }
}

async function fsyncDir(path: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } catch {
    // Some file systems refuse fsync on a directory; the rename is still atomic.
  } finally {
    await handle.close();
  }
}
