/**
 * Purchased files kept on this computer: a small queue of transfers (at most `concurrency` at
 * once), each resumable (a partial file and its validator survive a pause, a lost network, a
 * restart or a kill), retried with a growing wait, and placed atomically: a file becomes "saved"
 * only once it is complete, checked, fsynced and renamed into its own version folder, and the
 * manifest names it. Everything else in the folder is removed at start.
 *
 *   downloads/downloads.json                    the manifest (store.ts)
 *   downloads/.partial/<16 hex>.part            transfers under way
 *   downloads/s-<hash>/p-<hash>/<version>/name  saved copies (a new version beside the old until done)
 *
 * Folder names are hashes of the site and product ids (never the site's text); the file's own
 * name is sanitised.
 *
 * The parts: DownloadsState (state.ts) owns the manifest and what is under way; Queue (queue.ts)
 * runs the transfers on the TransferThread (transfer-thread.ts); SavedFiles (saved-files.ts) opens
 * and serves saved copies; Downloads (here) is the student's operations over them.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { CoreError } from '../errors';
import { silentLogger, type Logger } from '../log';
import { createKeyedQueue } from '../fs/keyed-queue';
import {
  ASK_ABOVE_BYTES,
  MAX_DOWNLOAD_BYTES,
  type ProductOfflineView,
  type SiteStorageView,
} from '../../common/downloads';
import type { DigitalProductView } from '../../common/view-models';
import type { DownloadManager, DownloadManagerOptions, SavedFileAnswer } from './api';
import { cleanDownloads } from './clean';
import { Queue } from './queue';
import { checkFileUrl } from './safety';
import { SavedFiles, type LocatedFile } from './saved-files';
import { DownloadsState, hashKey, keyOf, MANIFEST, PARTIAL, toAppError } from './state';
import { loadManifest, type ProductRecord } from './store';
import { TransferThread } from './transfer-thread';
import { checkValidators, noteNewAddresses } from './updates';

export type { DownloadManager, DownloadManagerOptions, SavedFileAnswer } from './api';

export async function createDownloadManager(
  options: DownloadManagerOptions,
): Promise<DownloadManager> {
  const { dir } = options;
  const log = (options.logger ?? silentLogger).child('downloads');
  await mkdir(join(dir, PARTIAL), { recursive: true, mode: 0o700 });
  const manifestFile = join(dir, MANIFEST);
  const loaded = await loadManifest(manifestFile);
  if (loaded.damaged)
    log.warn('the downloads manifest was unreadable; its files are removed and can be saved again');
  const state = new DownloadsState({ options, dir, manifestFile, manifest: loaded.manifest, log });
  // The transfers run on their own thread: this one only gets their progress (at most
  // every 100 ms).
  const thread = new TransferThread({
    logger: log,
    progressEveryMs: Math.min(100, options.progressEveryMs ?? 250),
    ...(options.transferWorkerScript === undefined ? {} : { script: options.transferWorkerScript }),
  });
  const serial = createKeyedQueue();
  const queue = new Queue({
    state,
    thread,
    serial,
    options,
    limits: {
      concurrency: options.concurrency ?? 2,
      delays: options.retryDelaysMs ?? [1000, 4000, 15_000, 60_000],
      askAbove: options.askAboveBytes ?? ASK_ABOVE_BYTES,
      maxBytes: options.maxBytes ?? MAX_DOWNLOAD_BYTES,
    },
  });
  // Only what the manifest vouches for stays.
  await cleanDownloads(state);
  const downloads = new Downloads({
    state,
    queue,
    thread,
    serial,
    saved: new SavedFiles({ state, thread }),
    options,
    log,
  });
  // Transfers that were under way when the app stopped resume now.
  queue.pump();
  return downloads;
}

export interface DownloadsDeps {
  readonly state: DownloadsState;
  readonly queue: Queue;
  readonly thread: TransferThread;
  readonly saved: SavedFiles;
  /** One step at a time per product (shared with the queue). */
  readonly serial: ReturnType<typeof createKeyedQueue>;
  readonly options: Pick<DownloadManagerOptions, 'products' | 'siteOrigin' | 'sendWith'>;
  readonly log: Logger;
}

export class Downloads implements DownloadManager {
  readonly #state: DownloadsState;
  readonly #queue: Queue;
  readonly #thread: TransferThread;
  readonly #saved: SavedFiles;
  readonly #serial: DownloadsDeps['serial'];
  readonly #options: DownloadsDeps['options'];
  readonly #log: Logger;

  constructor(deps: DownloadsDeps) {
    this.#state = deps.state;
    this.#queue = deps.queue;
    this.#thread = deps.thread;
    this.#saved = deps.saved;
    this.#serial = deps.serial;
    this.#options = deps.options;
    this.#log = deps.log;
  }

  list(siteId: string): ProductOfflineView[] {
    return this.#state.records(siteId).map((r) => this.#state.viewOf(r));
  }

  async prepare(siteId: string): Promise<boolean> {
    // After the listing's answer is sent: the thread's start never delays the screen.
    await new Promise((resolve) => setImmediate(resolve));
    if (this.#state.closed || !this.#options.products(siteId)?.some((p) => p.downloadUrl !== null))
      return false;
    await this.#thread.warm();
    return true;
  }

  storage(siteIds: readonly string[]): SiteStorageView[] {
    return siteIds.map((siteId) => {
      const records = this.#state.records(siteId);
      return {
        siteId,
        keepAll: this.#state.keepsAll(siteId),
        bytes: records.reduce((n, r) => n + (r.saved?.size ?? 0), 0),
        products: records.map((r) => this.#state.viewOf(r)),
      };
    });
  }

  async save(
    siteId: string,
    productId: string,
    opts: { readonly confirmLarge?: boolean } = {},
  ): Promise<ProductOfflineView> {
    const product = this.#savable(siteId, productId);
    const url = product.downloadUrl!;
    checkFileUrl(url, this.#options.siteOrigin(siteId) ?? '');
    return this.#serial(keyOf(siteId, productId), async () => {
      const state = this.#state;
      let record = state.find(siteId, productId);
      if (!record) {
        record = { siteId, productId, title: '', saved: null, job: null, updateAvailable: false };
        state.add(record);
      }
      record.title = product.title;
      if (record.saved && !record.updateAvailable && record.saved.url === url && !record.job)
        return state.viewOf(record);
      this.#queueJob(record, url, opts.confirmLarge === true);
      await state.persist();
      state.emit(record, siteId, productId);
      this.#queue.pump();
      return state.viewOf(record);
    });
  }

  /**
   * The product as last synced, if its file may be saved: bought, access not ended, with a file.
   */
  #savable(siteId: string, productId: string): DigitalProductView {
    const product = this.#state.productOf(siteId, productId);
    if (!product)
      throw new CoreError(
        'not-found',
        'This product is not in your purchases on this site (sync to refresh the list).',
      );
    if (this.#state.accessEnded(product))
      throw new CoreError(
        'forbidden',
        'Your access to this product has ended, so its file is not downloaded.',
        { reason: 'access-ended' },
      );
    if (!product.downloadUrl)
      throw new CoreError('not-found', 'This product has no file to download.', {
        reason: 'no-file',
      });
    return product;
  }

  /**
   * Queues the record's job (a new one, or the one it has: from 0 again when the address changed).
   */
  #queueJob(record: ProductRecord, url: string, confirmLarge: boolean): void {
    const job = record.job;
    if (!job) {
      record.job = {
        state: 'queued',
        url,
        part: `${randomBytes(8).toString('hex')}.part`,
        bytes: 0,
        total: null,
        etag: null,
        lastModified: null,
        confirmedLarge: confirmLarge,
        isUpdate: record.saved !== null,
        error: null,
      };
      return;
    }
    if (confirmLarge) job.confirmedLarge = true;
    if (job.url !== url)
      Object.assign(job, { url, bytes: 0, etag: null, lastModified: null, total: null });
    if (job.state !== 'queued') {
      job.state = 'queued';
      job.error = null;
      this.#state.resetAttempts(keyOf(record.siteId, record.productId));
    }
  }

  async pause(siteId: string, productId: string): Promise<ProductOfflineView> {
    const key = keyOf(siteId, productId);
    const record = this.#state.require(siteId, productId);
    if (record.job && (record.job.state === 'queued' || this.#state.runOf(key))) {
      record.job.state = 'paused';
      record.job.error = null;
      await this.#queue.stopRunning(key, 'pause');
      await this.#state.persist();
    }
    this.#state.emit(record, siteId, productId);
    return this.#state.viewOf(record);
  }

  async resume(siteId: string, productId: string): Promise<ProductOfflineView> {
    const record = this.#state.require(siteId, productId);
    if (!record.job) return this.#state.viewOf(record);
    return this.save(siteId, productId, {
      confirmLarge: record.job.state === 'needs-confirmation' || record.job.confirmedLarge,
    });
  }

  async #dropJob(record: ProductRecord): Promise<void> {
    const key = keyOf(record.siteId, record.productId);
    const job = record.job;
    if (!job) return;
    record.job = null;
    await this.#queue.stopRunning(key, 'cancel');
    this.#state.resetAttempts(key);
    await rm(this.#state.partFile(job), { force: true });
  }

  async cancel(siteId: string, productId: string): Promise<void> {
    const state = this.#state;
    const record = state.require(siteId, productId);
    await this.#serial(keyOf(siteId, productId), async () => {
      await this.#dropJob(record);
      if (!record.saved) state.forget(record);
      await state.persist();
    });
    state.emit(state.find(siteId, productId) ?? null, siteId, productId);
  }

  async #removeRecord(record: ProductRecord): Promise<void> {
    await this.#dropJob(record);
    this.#state.forget(record);
    // The manifest first: a crash between the two leaves an unnamed folder, removed at
    // the next start.
    await this.#state.persist();
    await rm(this.#state.productDir(record), { recursive: true, force: true });
  }

  async remove(siteId: string, productId: string): Promise<void> {
    const record = this.#state.require(siteId, productId);
    await this.#serial(keyOf(siteId, productId), () => this.#removeRecord(record));
    this.#state.emit(null, siteId, productId);
  }

  async removeSite(siteId: string, opts: { readonly forgetSetting?: boolean } = {}): Promise<void> {
    const state = this.#state;
    for (const record of state.records(siteId)) {
      await this.#serial(keyOf(siteId, record.productId), () => this.#removeRecord(record));
      state.emit(null, siteId, record.productId);
    }
    if (opts.forgetSetting) state.setKeepAll(siteId, false);
    await state.persist();
    await rm(join(state.dir, hashKey('s', siteId)), { recursive: true, force: true });
  }

  async setKeepAll(siteId: string, keepAll: boolean): Promise<void> {
    this.#state.setKeepAll(siteId, keepAll);
    await this.#state.persist();
    if (keepAll) await this.afterSync(siteId);
  }

  async afterSync(siteId: string): Promise<void> {
    const state = this.#state;
    const products = this.#options.products(siteId);
    if (!products) return;
    await noteNewAddresses(state, siteId, products);
    await checkValidators(state, this.#options, siteId, products);
    if (!state.keepsAll(siteId)) return;
    for (const product of products) {
      if (!product.downloadUrl || state.accessEnded(product)) continue;
      const record = state.find(siteId, product.id);
      if (record && (record.job || (record.saved && !record.updateAvailable))) continue;
      await this.save(siteId, product.id).catch((error: unknown) =>
        this.#log.info('a product could not be kept offline', {
          productId: product.id,
          code: toAppError(error).code,
        }),
      );
    }
  }

  locate(siteId: string, productId: string): Promise<LocatedFile> {
    return this.#saved.locate(siteId, productId);
  }

  serve(pathname: string, method: string, range: string | undefined): Promise<SavedFileAnswer> {
    return this.#saved.serve(pathname, method, range);
  }

  networkBack(): void {
    const state = this.#state;
    for (const record of state.records()) {
      const job = record.job;
      if (job?.state === 'failed' && job.error?.code === 'site-unreachable') {
        job.state = 'queued';
        state.resetAttempts(keyOf(record.siteId, record.productId));
        state.emit(record, record.siteId, record.productId);
      }
    }
    void state.persist();
    this.#queue.pump();
  }

  async idle(): Promise<void> {
    const state = this.#state;
    for (;;) {
      // Each run settles once its file is placed and the next queued one has started: no sleep
      // after the last.
      if (state.runningCount > 0) await state.runsSettled();
      // Only a retry's timer (or a transfer waiting for a free place) is polled.
      else if (state.retriesWaiting > 0 || state.records().some((r) => r.job?.state === 'queued'))
        await new Promise((resolve) => setTimeout(resolve, 20));
      else break;
    }
    await state.written();
  }

  async close(): Promise<void> {
    this.#state.close();
    for (const key of this.#state.busyKeys()) await this.#queue.stopRunning(key, 'close');
    await this.#state.persist();
    await this.#state.written();
    await this.#thread.close();
  }
}
