/**
 * Purchased files kept on this computer: a small queue of transfers (at most `concurrency` at once), each
 * resumable (a partial file and its validator survive a pause, a lost network, a restart or a kill), retried with
 * a growing wait, and placed atomically: a file becomes "saved" only once it is complete, checked, fsynced and
 * renamed into its own version folder, and the manifest names it. Everything else in the folder is removed at start.
 *
 *   downloads/downloads.json                    the manifest (store.ts)
 *   downloads/.partial/<16 hex>.part            transfers under way
 *   downloads/s-<hash>/p-<hash>/<version>/name  saved copies (a new version beside the old one until it is complete)
 *
 * Folder names are hashes of the site and product ids (never the site's text); the file's own name is sanitised.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { CoreError } from '../errors';
import { silentLogger } from '../log';
import { createKeyedQueue } from '../fs/keyed-queue';
import {
  ASK_ABOVE_BYTES,
  MAX_DOWNLOAD_BYTES,
  type ProductOfflineView,
} from '../../common/downloads';
import type { DigitalProductView } from '../../common/view-models';
import type { DownloadManager, DownloadManagerOptions } from './api';
import { cleanDownloads } from './clean';
import {
  createContext,
  findRecord,
  hashKey,
  keyOf,
  MANIFEST,
  PARTIAL,
  productDirOf,
  toAppError,
  type Running,
} from './context';
import { createQueue } from './queue';
import { checkFileUrl } from './safety';
import { createSavedFiles } from './saved-files';
import { loadManifest, type ProductRecord } from './store';
import { fileChanged } from './transfer';
import { createTransferThread } from './transfer-thread';

export type { DownloadManager, DownloadManagerOptions, SavedFileAnswer } from './api';

export async function createDownloadManager(
  options: DownloadManagerOptions,
): Promise<DownloadManager> {
  const { dir } = options;
  const log = (options.logger ?? silentLogger).child('downloads');
  const progressEvery = options.progressEveryMs ?? 250;
  const partialDir = join(dir, PARTIAL);
  await mkdir(partialDir, { recursive: true, mode: 0o700 });

  const manifestFile = join(dir, MANIFEST);
  const loaded = await loadManifest(manifestFile);
  if (loaded.damaged)
    log.warn('the downloads manifest was unreadable; its files are removed and can be saved again');
  const ctx = createContext({
    options,
    dir,
    partialDir,
    manifestFile,
    log,
    limits: {
      concurrency: options.concurrency ?? 2,
      delays: options.retryDelaysMs ?? [1000, 4000, 15_000, 60_000],
      askAbove: options.askAboveBytes ?? ASK_ABOVE_BYTES,
      maxBytes: options.maxBytes ?? MAX_DOWNLOAD_BYTES,
    },
    manifest: loaded.manifest,
    running: new Map<string, Running>(),
    retryTimers: new Map(),
    attempts: new Map(),
    serial: createKeyedQueue(),
    // The transfers run on their own thread: this one only gets their progress (at most every 100 ms).
    thread: createTransferThread({
      logger: log,
      progressEveryMs: Math.min(100, progressEvery),
      ...(options.transferWorkerScript === undefined
        ? {}
        : { script: options.transferWorkerScript }),
    }),
    closed: false,
  });
  const {
    manifest,
    running,
    retryTimers,
    attempts,
    serial,
    persist,
    emit,
    viewOf,
    productOf,
    accessEnded,
    thread,
  } = ctx;
  const find = (siteId: string, productId: string) => findRecord(ctx, siteId, productId);
  const productDir = (r: { siteId: string; productId: string }) => productDirOf(ctx, r);

  // Only what the manifest vouches for stays.
  await cleanDownloads(ctx);
  const { pump, stopRunning } = createQueue(ctx);

  // ------------------------------------------------------------------ operations

  function requireRecord(siteId: string, productId: string): ProductRecord {
    const record = find(siteId, productId);
    if (!record) throw new CoreError('not-found', 'This product is not saved on this computer.');
    return record;
  }

  async function save(
    siteId: string,
    productId: string,
    opts: { readonly confirmLarge?: boolean } = {},
  ): Promise<ProductOfflineView> {
    const product = productOf(siteId, productId);
    if (!product)
      throw new CoreError(
        'not-found',
        'This product is not in your purchases on this site (sync to refresh the list).',
      );
    if (accessEnded(product))
      throw new CoreError(
        'forbidden',
        'Your access to this product has ended, so its file is not downloaded.',
        { reason: 'access-ended' },
      );
    if (!product.downloadUrl)
      throw new CoreError('not-found', 'This product has no file to download.', {
        reason: 'no-file',
      });
    const url = product.downloadUrl;
    checkFileUrl(url, options.siteOrigin(siteId) ?? '');
    const key = keyOf(siteId, productId);
    return serial(key, async () => {
      let record = find(siteId, productId);
      if (!record) {
        record = {
          siteId,
          productId,
          title: product.title,
          saved: null,
          job: null,
          updateAvailable: false,
        };
        manifest.products.push(record);
      }
      record.title = product.title;
      if (record.saved && !record.updateAvailable && record.saved.url === url && !record.job)
        return viewOf(record);
      if (record.job) {
        if (opts.confirmLarge) record.job.confirmedLarge = true;
        if (record.job.url !== url)
          Object.assign(record.job, {
            url: product.downloadUrl,
            bytes: 0,
            etag: null,
            lastModified: null,
            total: null,
          });
        if (record.job.state !== 'queued') {
          record.job.state = 'queued';
          record.job.error = null;
          attempts.delete(key);
        }
      } else {
        record.job = {
          state: 'queued',
          url,
          part: `${randomBytes(8).toString('hex')}.part`,
          bytes: 0,
          total: null,
          etag: null,
          lastModified: null,
          confirmedLarge: opts.confirmLarge === true,
          isUpdate: record.saved !== null,
          error: null,
        };
      }
      await persist();
      emit(record, siteId, productId);
      pump();
      return viewOf(record);
    });
  }

  async function pause(siteId: string, productId: string): Promise<ProductOfflineView> {
    const key = keyOf(siteId, productId);
    const record = requireRecord(siteId, productId);
    if (record.job && (record.job.state === 'queued' || running.has(key))) {
      record.job.state = 'paused';
      record.job.error = null;
      await stopRunning(key, 'pause');
      await persist();
    }
    emit(record, siteId, productId);
    return viewOf(record);
  }

  async function resume(siteId: string, productId: string): Promise<ProductOfflineView> {
    const record = requireRecord(siteId, productId);
    if (!record.job) return viewOf(record);
    return save(siteId, productId, {
      confirmLarge: record.job.state === 'needs-confirmation' || record.job.confirmedLarge,
    });
  }

  async function dropJob(record: ProductRecord): Promise<void> {
    const key = keyOf(record.siteId, record.productId);
    const job = record.job;
    if (!job) return;
    record.job = null;
    await stopRunning(key, 'cancel');
    attempts.delete(key);
    await rm(join(partialDir, job.part), { force: true });
  }

  async function cancel(siteId: string, productId: string): Promise<void> {
    const record = requireRecord(siteId, productId);
    await serial(keyOf(siteId, productId), async () => {
      await dropJob(record);
      if (!record.saved) manifest.products = manifest.products.filter((r) => r !== record);
      await persist();
    });
    emit(find(siteId, productId) ?? null, siteId, productId);
  }

  async function removeRecord(record: ProductRecord): Promise<void> {
    await dropJob(record);
    manifest.products = manifest.products.filter((r) => r !== record);
    // The manifest first: a crash between the two leaves an unnamed folder, removed at the next start.
    await persist();
    await rm(productDir(record), { recursive: true, force: true });
  }

  async function remove(siteId: string, productId: string): Promise<void> {
    const record = requireRecord(siteId, productId);
    await serial(keyOf(siteId, productId), () => removeRecord(record));
    emit(null, siteId, productId);
  }

  async function removeSite(
    siteId: string,
    opts: { readonly forgetSetting?: boolean } = {},
  ): Promise<void> {
    const records = manifest.products.filter((r) => r.siteId === siteId);
    for (const record of records) {
      await serial(keyOf(siteId, record.productId), () => removeRecord(record));
      emit(null, siteId, record.productId);
    }
    if (opts.forgetSetting) delete manifest.keepAll[siteId];
    await persist();
    await rm(join(dir, hashKey('s', siteId)), { recursive: true, force: true });
  }

  async function setKeepAll(siteId: string, keepAll: boolean): Promise<void> {
    if (keepAll) manifest.keepAll[siteId] = true;
    else delete manifest.keepAll[siteId];
    await persist();
    if (keepAll) await afterSync(siteId);
  }

  async function afterSync(siteId: string): Promise<void> {
    const products = options.products(siteId);
    if (!products) return;
    for (const record of manifest.products.filter((r) => r.siteId === siteId)) {
      const product = products.find((p) => p.id === record.productId);
      if (!product?.downloadUrl || !record.saved) continue;
      // A new address is a new file; the saved copy stays until the new one is complete.
      if (product.downloadUrl !== record.saved.url && !record.updateAvailable) {
        record.updateAvailable = true;
        emit(record, siteId, record.productId);
      }
    }
    await persist();
    await checkValidators(siteId, products);
    if (manifest.keepAll[siteId]) {
      for (const product of products) {
        if (!product.downloadUrl || accessEnded(product)) continue;
        const record = find(siteId, product.id);
        if (record && (record.job || (record.saved && !record.updateAvailable))) continue;
        await save(siteId, product.id).catch((error: unknown) =>
          log.info('a product could not be kept offline', {
            productId: product.id,
            code: toAppError(error).code,
          }),
        );
      }
    }
  }

  /**
   * The same address may serve a new file: each saved copy is asked about with a conditional HEAD (a few at a
   * time); another ETag, size or date offers the new version. No answer changes nothing.
   */
  async function checkValidators(
    siteId: string,
    products: readonly DigitalProductView[],
  ): Promise<void> {
    const origin = options.siteOrigin(siteId);
    if (!origin) return;
    const due = manifest.products.filter((r) => {
      const product = products.find((p) => p.id === r.productId);
      return (
        r.siteId === siteId &&
        r.saved &&
        !r.updateAvailable &&
        !r.job &&
        product?.downloadUrl === r.saved.url &&
        !accessEnded(product)
      );
    });
    const send = options.sendWith(siteId);
    let changed = false;
    for (let i = 0; i < due.length; i += 4) {
      await Promise.all(
        due.slice(i, i + 4).map(async (record) => {
          const saved = record.saved!;
          const answer = await fileChanged({
            url: saved.url,
            siteOrigin: origin,
            send,
            signal: AbortSignal.timeout(15_000),
            idleTimeoutMs: 15_000,
            saved,
          }).catch(() => null);
          if (answer === true && record.saved === saved) {
            record.updateAvailable = true;
            changed = true;
            emit(record, siteId, record.productId);
          }
        }),
      );
    }
    if (changed) await persist();
  }

  const saved = createSavedFiles(ctx, requireRecord);

  // Transfers that were under way when the app stopped resume now.
  pump();

  return {
    list: (siteId) => manifest.products.filter((r) => r.siteId === siteId).map(viewOf),
    async prepare(siteId) {
      // After the listing's answer is sent: the thread's start never delays the screen.
      await new Promise((resolve) => setImmediate(resolve));
      if (ctx.closed || !options.products(siteId)?.some((p) => p.downloadUrl !== null))
        return false;
      await thread.warm();
      return true;
    },
    storage: (siteIds) =>
      siteIds.map((siteId) => {
        const records = manifest.products.filter((r) => r.siteId === siteId);
        return {
          siteId,
          keepAll: manifest.keepAll[siteId] === true,
          bytes: records.reduce((n, r) => n + (r.saved?.size ?? 0), 0),
          products: records.map(viewOf),
        };
      }),
    save,
    pause,
    resume,
    cancel,
    remove,
    removeSite,
    setKeepAll,
    afterSync,
    locate: saved.locate,
    serve: saved.serve,
    networkBack() {
      for (const record of manifest.products) {
        const job = record.job;
        if (job?.state === 'failed' && job.error?.code === 'site-unreachable') {
          job.state = 'queued';
          attempts.delete(keyOf(record.siteId, record.productId));
          emit(record, record.siteId, record.productId);
        }
      }
      void persist();
      pump();
    },
    async idle() {
      for (;;) {
        // Each run settles once its file is placed and the next queued one has started: no sleep after the last.
        if (running.size > 0) await Promise.all([...running.values()].map((r) => r.settled));
        // Only a retry's timer (or a transfer waiting for a free place) is polled.
        else if (retryTimers.size > 0 || manifest.products.some((r) => r.job?.state === 'queued'))
          await new Promise((resolve) => setTimeout(resolve, 20));
        else break;
      }
      await ctx.written();
    },
    async close() {
      ctx.closed = true;
      for (const key of [...running.keys(), ...retryTimers.keys()]) await stopRunning(key, 'close');
      await persist();
      await ctx.written();
      await thread.close();
    },
  };
}
