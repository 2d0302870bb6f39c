/**
 * The transfers: at most `concurrency` at once, each on the transfer thread; a finished one is placed atomically
 * (fsynced, renamed into its own version folder, then named by the manifest), a failed one retried with a growing
 * wait when it is worth another try.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { CoreError } from '../errors';
import {
  findRecord,
  keyOf,
  productDirOf,
  Stopped,
  toAppError,
  type DownloadsContext,
  type Running,
} from './context';
import { markFromInternet } from './mark-of-the-web';
import type { JobRecord, ProductRecord } from './store';
import { formatMiB, NeedsConfirmation, TransientError, type TransferResult } from './transfer';

export interface Queue {
  /** Starts what is queued, up to the bound. */
  pump(): void;
  /** Stops a transfer (and its retry timer); resolves once the transfer itself has stopped. */
  stopRunning(key: string, why: Stopped['why']): Promise<void>;
}

export function createQueue(ctx: DownloadsContext): Queue {
  const {
    options,
    manifest,
    running,
    retryTimers,
    attempts,
    serial,
    log,
    persist,
    emit,
    thread,
    partialDir,
  } = ctx;
  const { concurrency, delays, askAbove, maxBytes } = ctx.limits;
  const progressEvery = options.progressEveryMs ?? 250;
  const find = (siteId: string, productId: string) => findRecord(ctx, siteId, productId);
  const productDir = (r: { siteId: string; productId: string }) => productDirOf(ctx, r);

  function pump(): void {
    if (ctx.closed) return;
    for (const record of manifest.products) {
      if (running.size >= concurrency) return;
      const key = keyOf(record.siteId, record.productId);
      if (record.job?.state !== 'queued' || running.has(key) || retryTimers.has(key)) continue;
      start(record);
    }
  }

  function start(record: ProductRecord): void {
    const job = record.job!;
    const key = keyOf(record.siteId, record.productId);
    const controller = new AbortController();
    const run: Running = {
      controller,
      bytes: job.bytes,
      total: job.total,
      samples: [],
      lastEmit: 0,
      transfer: Promise.resolve(),
      settled: Promise.resolve(),
    };
    running.set(key, run);
    emit(record, record.siteId, record.productId);
    const partFile = join(partialDir, job.part);
    const origin = options.siteOrigin(record.siteId);
    const transferred = (async () => {
      if (!origin) throw new CoreError('not-found', 'That site is not in your list.');
      return thread.transfer({
        url: job.url,
        siteOrigin: origin,
        send: options.sendWith(record.siteId),
        title: record.title,
        partFile,
        resume:
          job.bytes > 0
            ? {
                bytes: job.bytes,
                etag: job.etag,
                lastModified: job.lastModified,
              }
            : null,
        signal: controller.signal,
        idleTimeoutMs: options.idleTimeoutMs ?? 60_000,
        maxBytes,
        askAboveBytes: job.confirmedLarge ? null : askAbove,
        durableEveryMs: options.durableEveryMs ?? 2000,
        onStart: async (info) => {
          job.etag = info.etag;
          job.lastModified = info.lastModified;
          job.total = info.total;
          job.bytes = info.offset;
          run.total = info.total;
          run.bytes = info.offset;
          await persist();
        },
        onBytes: (bytes) => {
          run.bytes = bytes;
          const t = options.now();
          if (run.samples.length === 0 || t - run.samples[run.samples.length - 1]!.t >= 200) {
            run.samples.push({ t, bytes });
            while (run.samples.length > 2 && t - run.samples[0]!.t > 3000) run.samples.shift();
          }
          if (t - run.lastEmit >= progressEvery) {
            run.lastEmit = t;
            emit(record, record.siteId, record.productId);
          }
        },
        onDurable: (bytes) => {
          if (running.get(key) !== run) return;
          job.bytes = bytes;
          void persist();
        },
      });
    })();
    run.transfer = transferred.then(
      () => undefined,
      () => undefined,
    );
    run.settled = transferred
      .then(
        (result) => serial(key, () => finish(record, job, result)),
        (error: unknown) => serial(key, () => failed(record, job, error)),
      )
      .catch((error: unknown) => log.error('a download could not be finished', { error }))
      .finally(() => {
        if (running.get(key) === run) running.delete(key);
        emit(find(record.siteId, record.productId) ?? null, record.siteId, record.productId);
        pump();
      });
  }

  async function finish(
    record: ProductRecord,
    job: JobRecord,
    result: TransferResult,
  ): Promise<void> {
    if (record.job !== job) return; // cancelled meanwhile
    attempts.delete(keyOf(record.siteId, record.productId));
    const version = randomBytes(8).toString('hex');
    const target = join(productDir(record), version);
    await mkdir(target, { recursive: true, mode: 0o700 });
    // rename(2) within one file system: the complete, fsynced file appears under its name at once.
    await rename(join(partialDir, job.part), join(target, result.name));
    await markSaved(join(target, result.name), record, job);
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
      savedAt: new Date(options.now()).toISOString(),
      viewAs: result.viewAs,
    };
    record.job = null;
    record.updateAvailable = false;
    await persist();
    // The old version goes only once the manifest names the new one.
    if (old)
      await rm(join(productDir(record), old.version), {
        recursive: true,
        force: true,
      });
    log.info('a product file was saved', {
      productId: record.productId,
      bytes: result.bytes,
    });
  }

  /** The Internet's mark on the file (Windows, macOS), best effort: a file system without one keeps the file. */
  async function markSaved(path: string, record: ProductRecord, job: JobRecord): Promise<void> {
    const siteOrigin = options.siteOrigin(record.siteId) ?? '';
    try {
      await (options.markFile ?? markFromInternet)(path, { url: job.url, siteOrigin });
    } catch (error) {
      log.warn('a saved file could not be marked as from the Internet', {
        productId: record.productId,
        error,
      });
    }
  }

  async function failed(record: ProductRecord, job: JobRecord, error: unknown): Promise<void> {
    if (record.job !== job) return;
    const key = keyOf(record.siteId, record.productId);
    if (error instanceof Stopped) return; // pause / cancel / close already wrote the state
    if (error instanceof NeedsConfirmation) {
      job.state = 'needs-confirmation';
      job.total = error.size;
      job.error = {
        code: 'invalid-input',
        message: `This file is ${formatMiB(error.size)}. Save it anyway?`,
        detail: { size: error.size },
      };
      await persist();
      return;
    }
    if (error instanceof TransientError) {
      if (error.restart) {
        await rm(join(partialDir, job.part), { force: true });
        job.bytes = 0;
        job.etag = null;
        job.lastModified = null;
      }
      const n = (attempts.get(key) ?? 0) + 1;
      attempts.set(key, n);
      job.error = error.toAppError();
      if (n <= delays.length) {
        job.state = 'queued';
        const at = options.now() + delays[n - 1]!;
        const timer = setTimeout(
          () => {
            retryTimers.delete(key);
            pump();
          },
          delays[n - 1]!,
        );
        timer.unref();
        retryTimers.set(key, { timer, at });
      } else {
        job.state = 'failed';
      }
      await persist();
      log.info('a download stopped; it is retried', {
        productId: record.productId,
        attempt: n,
        code: error.code,
      });
      return;
    }
    job.state = 'failed';
    job.error = toAppError(error);
    await persist();
    log.info('a download failed', {
      productId: record.productId,
      code: job.error.code,
    });
  }

  function stopRunning(key: string, why: Stopped['why']): Promise<void> {
    const timer = retryTimers.get(key);
    if (timer) clearTimeout(timer.timer);
    retryTimers.delete(key);
    const run = running.get(key);
    if (!run) return Promise.resolve();
    run.controller.abort(new Stopped(why));
    return run.transfer;
  }

  return { pump, stopRunning };
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
