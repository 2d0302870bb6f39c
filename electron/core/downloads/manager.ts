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
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import type { AuthorizedSend } from '../auth/token-manager';
import { CoreError, isCoreError } from '../errors';
import type { Logger } from '../log';
import { silentLogger } from '../log';
import { removeStaleTempFiles } from '../fs/atomic-file';
import { createKeyedQueue } from '../fs/keyed-queue';
import {
  ASK_ABOVE_BYTES,
  MAX_DOWNLOAD_BYTES,
  SAVED_FILES_PATH,
  type DownloadJobView,
  type ProductOfflineView,
  type SiteStorageView,
  type ViewAs,
} from '../../common/downloads';
import type { AppError } from '../../common/result';
import type { DigitalProductView } from '../../common/view-models';
import { checkFileUrl, inlineMimeType } from './safety';
import { loadManifest, saveManifest, type JobRecord, type Manifest, type ProductRecord } from './store';
import { fileChanged, formatMiB, NeedsConfirmation, TransientError, type TransferResult } from './transfer';
import { createTransferThread } from './transfer-thread';

export interface DownloadManagerOptions {
  /** `<dataDir>/downloads` */
  readonly dir: string;
  /** The site's products as last synced (the offline database), or null for a site the app does not know. */
  readonly products: (siteId: string) => readonly DigitalProductView[] | null;
  /** The site's origin: the only one its member's token is sent to. */
  readonly siteOrigin: (siteId: string) => string | null;
  readonly sendWith: (siteId: string) => AuthorizedSend;
  readonly now: () => number;
  /** A product's offline state changed (progress at most every `progressEveryMs`). */
  readonly onChange: (view: ProductOfflineView) => void;
  readonly concurrency?: number;
  /** Waits before the automatic retries after a transient failure; then it stops as failed. */
  readonly retryDelaysMs?: readonly number[];
  readonly askAboveBytes?: number;
  readonly maxBytes?: number;
  readonly idleTimeoutMs?: number;
  readonly progressEveryMs?: number;
  readonly durableEveryMs?: number;
  readonly logger?: Logger;
}

export interface SavedFileAnswer {
  readonly status: 200 | 206 | 403 | 404 | 405 | 416;
  readonly headers: Readonly<Record<string, string>>;
  /** The bytes to send (inclusive range of `file`), or null. */
  readonly body: {
    readonly file: string;
    readonly start: number;
    readonly end: number;
  } | null;
}

export interface DownloadManager {
  list(siteId: string): ProductOfflineView[];
  storage(siteIds: readonly string[]): SiteStorageView[];
  save(siteId: string, productId: string, options?: { readonly confirmLarge?: boolean }): Promise<ProductOfflineView>;
  pause(siteId: string, productId: string): Promise<ProductOfflineView>;
  resume(siteId: string, productId: string): Promise<ProductOfflineView>;
  cancel(siteId: string, productId: string): Promise<void>;
  remove(siteId: string, productId: string): Promise<void>;
  /** Every file of the site (a removed site, a sign-out with "remove my data", "remove all"). */
  removeSite(siteId: string, options?: { readonly forgetSetting?: boolean }): Promise<void>;
  setKeepAll(siteId: string, keepAll: boolean): Promise<void>;
  /** A sync of the site committed: note changed files, and keep every product offline where asked. */
  afterSync(siteId: string): Promise<void>;
  /** The saved copy on disk (checked against the manifest), for opening. */
  locate(
    siteId: string,
    productId: string,
  ): Promise<{
    readonly path: string;
    readonly name: string;
    readonly viewAs: ViewAs | null;
    readonly url: string;
  }>;
  /** An app-origin request for a saved file (`/saved-files/...`): only the inline types, with Range. */
  serve(pathname: string, method: string, range: string | undefined): Promise<SavedFileAnswer>;
  /** The network is back: transfers that stopped for the network (not for a refusal) start again. */
  networkBack(): void;
  /** Resolves when no transfer runs or waits (tests, soak). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

const PARTIAL = '.partial';
const MANIFEST = 'downloads.json';

class Stopped extends Error {
  constructor(readonly why: 'pause' | 'cancel' | 'close') {
    super(`download ${why}`);
  }
}

interface Running {
  readonly controller: AbortController;
  bytes: number;
  total: number | null;
  samples: { t: number; bytes: number }[];
  lastEmit: number;
  /** Settles when the transfer itself stops (a stop waits for this, never for the finishing step). */
  transfer: Promise<void>;
}

const hashKey = (prefix: string, id: string) => `${prefix}-${createHash('sha256').update(id).digest('hex').slice(0, 16)}`;

export async function createDownloadManager(options: DownloadManagerOptions): Promise<DownloadManager> {
  const { dir } = options;
  const log = (options.logger ?? silentLogger).child('downloads');
  const concurrency = options.concurrency ?? 2;
  const delays = options.retryDelaysMs ?? [1000, 4000, 15_000, 60_000];
  const askAbove = options.askAboveBytes ?? ASK_ABOVE_BYTES;
  const maxBytes = options.maxBytes ?? MAX_DOWNLOAD_BYTES;
  const progressEvery = options.progressEveryMs ?? 250;
  const manifestFile = join(dir, MANIFEST);
  const partialDir = join(dir, PARTIAL);
  await mkdir(partialDir, { recursive: true, mode: 0o700 });

  const loaded = await loadManifest(manifestFile);
  if (loaded.damaged) log.warn('the downloads manifest was unreadable; its files are removed and can be saved again');
  const manifest: Manifest = loaded.manifest;
  const running = new Map<string, Running>();
  const retryTimers = new Map<string, { timer: NodeJS.Timeout; at: number }>();
  const attempts = new Map<string, number>();
  const serial = createKeyedQueue();
  let closed = false;
  // The transfers run on their own thread: this one only gets their progress (at most every 100 ms).
  const thread = createTransferThread({ logger: log, progressEveryMs: Math.min(100, progressEvery) });

  const keyOf = (siteId: string, productId: string) => `${siteId}\n${productId}`;
  const find = (siteId: string, productId: string) => manifest.products.find((p) => p.siteId === siteId && p.productId === productId);
  const productDir = (r: { siteId: string; productId: string }) => join(dir, hashKey('s', r.siteId), hashKey('p', r.productId));
  const savedPath = (r: ProductRecord) => join(productDir(r), r.saved!.version, r.saved!.name);

  // ------------------------------------------------------------------ persistence (one write at a time, coalesced)
  let pendingWrite: Promise<void> | null = null;
  let chain: Promise<void> = Promise.resolve();
  function persist(): Promise<void> {
    if (pendingWrite) return pendingWrite;
    const write = chain.then(() => {
      pendingWrite = null;
      return saveManifest(manifestFile, manifest);
    });
    pendingWrite = write;
    chain = write.catch((error: unknown) => log.error('the downloads manifest could not be written', { error }));
    return write;
  }

  // ------------------------------------------------------------------ start: only what the manifest vouches for stays
  await clean();

  async function clean(): Promise<void> {
    removeStaleTempFiles(dir);
    const keepParts = new Set<string>();
    for (const record of manifest.products) {
      if (record.saved) {
        const size = await stat(savedPath(record)).then(
          (s) => (s.isFile() ? s.size : -1),
          () => -1,
        );
        if (size !== record.saved.size) {
          log.warn('a saved file was missing or changed on disk; it is no longer shown as saved', { productId: record.productId });
          record.saved = null;
        }
      }
      const job = record.job;
      if (job) {
        const partFile = join(partialDir, job.part);
        const size = await stat(partFile).then(
          (s) => s.size,
          () => 0,
        );
        // A partial file resumes only with its validator (RFC 9110 §13.1.5), and from what was made durable.
        if (job.etag === null && job.lastModified === null) job.bytes = 0;
        job.bytes = Math.min(job.bytes, size);
        if (size > job.bytes) await truncate(partFile, job.bytes).catch(() => undefined);
        if (job.bytes > 0) keepParts.add(job.part);
      }
    }
    manifest.products = manifest.products.filter((r) => r.saved !== null || r.job !== null);
    for (const name of await readdir(partialDir).catch(() => [] as string[])) {
      if (!keepParts.has(name)) await rm(join(partialDir, name), { force: true, recursive: true });
    }
    // Saved copies: every folder not named by a record is a leftover (a rename whose manifest write never came).
    const keep = new Map<string, Map<string, Set<string>>>();
    for (const r of manifest.products) {
      if (!r.saved) continue;
      const s = hashKey('s', r.siteId);
      const p = hashKey('p', r.productId);
      if (!keep.has(s)) keep.set(s, new Map());
      if (!keep.get(s)!.has(p)) keep.get(s)!.set(p, new Set());
      keep.get(s)!.get(p)!.add(r.saved.version);
    }
    for (const s of await readdir(dir).catch(() => [] as string[])) {
      if (s === PARTIAL || s === MANIFEST || !s.startsWith('s-')) {
        if (s !== PARTIAL && s !== MANIFEST && !s.startsWith('.')) await rm(join(dir, s), { force: true, recursive: true });
        continue;
      }
      for (const p of await readdir(join(dir, s)).catch(() => [] as string[])) {
        for (const v of await readdir(join(dir, s, p)).catch(() => [] as string[])) {
          if (!keep.get(s)?.get(p)?.has(v)) await rm(join(dir, s, p, v), { force: true, recursive: true });
        }
        if (!keep.get(s)?.has(p)) await rm(join(dir, s, p), { force: true, recursive: true });
      }
      if (!keep.has(s)) await rm(join(dir, s), { force: true, recursive: true });
    }
    await persist();
  }

  // ------------------------------------------------------------------ views

  function productOf(siteId: string, productId: string): DigitalProductView | null {
    return options.products(siteId)?.find((p) => p.id === productId) ?? null;
  }
  function accessEnded(product: DigitalProductView | null): boolean {
    return product === null || (product.expireDate !== null && Date.parse(product.expireDate) <= options.now());
  }

  function jobView(record: ProductRecord): DownloadJobView | null {
    const job = record.job;
    if (!job) return null;
    const key = keyOf(record.siteId, record.productId);
    const run = running.get(key);
    const bytes = run ? run.bytes : job.bytes;
    const total = run ? run.total : job.total;
    let bytesPerSecond = 0;
    if (run && run.samples.length > 1) {
      const first = run.samples[0]!;
      const last = run.samples[run.samples.length - 1]!;
      if (last.t > first.t) bytesPerSecond = Math.round(((last.bytes - first.bytes) * 1000) / (last.t - first.t));
    }
    const secondsLeft = total !== null && bytesPerSecond > 0 ? Math.ceil((total - bytes) / bytesPerSecond) : null;
    return {
      state: run ? 'downloading' : job.state,
      progress: { bytes, total, bytesPerSecond, secondsLeft },
      error: job.error,
      isUpdate: job.isUpdate,
      retryAt: retryTimers.get(key)?.at ?? null,
    };
  }

  function viewOf(record: ProductRecord): ProductOfflineView {
    const product = productOf(record.siteId, record.productId);
    return {
      siteId: record.siteId,
      productId: record.productId,
      title: product?.title ?? record.title,
      saved: record.saved
        ? {
            name: record.saved.name,
            size: record.saved.size,
            savedAt: record.saved.savedAt,
            viewAs: record.saved.viewAs,
          }
        : null,
      job: jobView(record),
      updateAvailable: record.updateAvailable,
      accessEnded: accessEnded(product),
    };
  }
  const emptyView = (siteId: string, productId: string): ProductOfflineView => ({
    siteId,
    productId,
    title: productOf(siteId, productId)?.title ?? '',
    saved: null,
    job: null,
    updateAvailable: false,
    accessEnded: accessEnded(productOf(siteId, productId)),
  });

  function emit(record: ProductRecord | null, siteId: string, productId: string): void {
    try {
      options.onChange(record ? viewOf(record) : emptyView(siteId, productId));
    } catch (error) {
      log.warn('a downloads listener failed', { error });
    }
  }

  // ------------------------------------------------------------------ the queue

  function pump(): void {
    if (closed) return;
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
    void transferred
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

  async function finish(record: ProductRecord, job: JobRecord, result: TransferResult): Promise<void> {
    if (record.job !== job) return; // cancelled meanwhile
    attempts.delete(keyOf(record.siteId, record.productId));
    const version = randomBytes(8).toString('hex');
    const target = join(productDir(record), version);
    await mkdir(target, { recursive: true, mode: 0o700 });
    // rename(2) within one file system: the complete, fsynced file appears under its name at once.
    await rename(join(partialDir, job.part), join(target, result.name));
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

  // ------------------------------------------------------------------ operations

  function requireRecord(siteId: string, productId: string): ProductRecord {
    const record = find(siteId, productId);
    if (!record) throw new CoreError('not-found', 'This product is not saved on this computer.');
    return record;
  }

  async function save(siteId: string, productId: string, opts: { readonly confirmLarge?: boolean } = {}): Promise<ProductOfflineView> {
    const product = productOf(siteId, productId);
    if (!product) throw new CoreError('not-found', 'This product is not in your purchases on this site (sync to refresh the list).');
    if (accessEnded(product))
      throw new CoreError('forbidden', 'Your access to this product has ended, so its file is not downloaded.', { reason: 'access-ended' });
    if (!product.downloadUrl) throw new CoreError('not-found', 'This product has no file to download.', { reason: 'no-file' });
    const url = product.downloadUrl;
    checkFileUrl(url);
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
      if (record.saved && !record.updateAvailable && record.saved.url === url && !record.job) return viewOf(record);
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

  async function removeSite(siteId: string, opts: { readonly forgetSetting?: boolean } = {}): Promise<void> {
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
  async function checkValidators(siteId: string, products: readonly DigitalProductView[]): Promise<void> {
    const origin = options.siteOrigin(siteId);
    if (!origin) return;
    const due = manifest.products.filter((r) => {
      const product = products.find((p) => p.id === r.productId);
      return r.siteId === siteId && r.saved && !r.updateAvailable && !r.job && product?.downloadUrl === r.saved.url && !accessEnded(product);
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

  async function locate(siteId: string, productId: string) {
    const record = requireRecord(siteId, productId);
    if (!record.saved) throw new CoreError('not-found', 'This product is not saved on this computer yet.');
    const path = savedPath(record);
    const saved = record.saved;
    const size = await stat(path).then(
      (s) => s.size,
      () => -1,
    );
    // Every open reads the whole file again and compares its SHA-256 with the one taken as it arrived (on the transfer
    // thread: this one stays free). A size check alone misses a file altered in place (a disk error, another program,
    // a tool that rewrites it); the byte-range reads that follow (serve) check the size only.
    const intact = size === saved.size && (await thread.sha256(path)) === saved.sha256;
    if (record.saved !== saved)
      throw new CoreError('not-found', 'The saved file changed while it was being opened. Open it again.', { reason: 'missing' });
    if (!intact) {
      // Changed or deleted behind the app's back: never opened as if it were the saved copy; offered to save again.
      record.saved = null;
      if (!record.job) manifest.products = manifest.products.filter((r) => r !== record);
      await persist();
      // The manifest first (as removeRecord): the altered copy goes once nothing names it.
      await rm(join(productDir(record), saved.version), { recursive: true, force: true });
      emit(find(siteId, productId) ?? null, siteId, productId);
      throw new CoreError('not-found', 'The saved file is missing or was changed on this computer. Save it again.', { reason: 'missing' });
    }
    const url = `${SAVED_FILES_PATH}${encodeURIComponent(siteId)}/${encodeURIComponent(productId)}/${saved.version}/${encodeURIComponent(saved.name)}`;
    return { path, name: saved.name, viewAs: saved.viewAs, url };
  }

  async function serve(pathname: string, method: string, range: string | undefined): Promise<SavedFileAnswer> {
    const base = {
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-store',
      'Cross-Origin-Resource-Policy': 'same-origin',
    };
    const refuse = (status: SavedFileAnswer['status']): SavedFileAnswer => ({
      status,
      headers: { ...base, 'Content-Type': 'text/plain; charset=utf-8' },
      body: null,
    });
    if (method !== 'GET' && method !== 'HEAD') return refuse(405);
    if (!pathname.startsWith(SAVED_FILES_PATH)) return refuse(404);
    const parts = pathname.slice(SAVED_FILES_PATH.length).split('/');
    if (parts.length !== 4) return refuse(404);
    let siteId: string, productId: string;
    try {
      [siteId, productId] = [decodeURIComponent(parts[0]!), decodeURIComponent(parts[1]!)];
    } catch {
      return refuse(404);
    }
    const record = find(siteId, productId);
    // Served by the manifest's record, never by the path's name: the version must match, the name is not read.
    if (!record?.saved || parts[2] !== record.saved.version) return refuse(404);
    const mimeType = inlineMimeType(record.saved.name);
    // Only what opens inside the app is served; anything else is shown in its folder, never handed to the page.
    if (!record.saved.viewAs || !mimeType) return refuse(403);
    const file = savedPath(record);
    const size = await stat(file).then(
      (s) => s.size,
      () => -1,
    );
    if (size !== record.saved.size) return refuse(404);
    const headers: Record<string, string> = {
      ...base,
      'Content-Type': mimeType,
      'Accept-Ranges': 'bytes',
      'Content-Disposition': `inline; filename*=UTF-8''${encodeURIComponent(record.saved.name)}`,
    };
    let start = 0;
    let end = size - 1;
    let status: 200 | 206 = 200;
    // RFC 9110 §14.2: one byte range (the media elements' seeking); several ranges get the whole file.
    const m = range ? /^bytes=(\d*)-(\d*)$/.exec(range.trim()) : null;
    if (m && (m[1] !== '' || m[2] !== '')) {
      if (m[1] === '') {
        start = Math.max(0, size - Number(m[2]));
      } else {
        start = Number(m[1]);
        if (m[2] !== '') end = Math.min(end, Number(m[2]));
      }
      if (start > end || start >= size)
        return {
          status: 416,
          headers: { ...base, 'Content-Range': `bytes */${size}` },
          body: null,
        };
      status = 206;
      headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
    }
    headers['Content-Length'] = String(Math.max(0, end - start + 1));
    return {
      status,
      headers,
      body: method === 'HEAD' || size === 0 ? null : { file, start, end },
    };
  }

  // Transfers that were under way when the app stopped resume now.
  pump();

  return {
    list: (siteId) => manifest.products.filter((r) => r.siteId === siteId).map(viewOf),
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
    locate,
    serve,
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
      while (running.size > 0 || retryTimers.size > 0 || manifest.products.some((r) => r.job?.state === 'queued')) {
        await Promise.all([...running.values()].map((r) => r.transfer));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await chain;
    },
    async close() {
      closed = true;
      for (const key of [...running.keys(), ...retryTimers.keys()]) await stopRunning(key, 'close');
      await persist();
      await chain;
      await thread.close();
    },
  };
}

function toAppError(error: unknown): AppError {
  if (isCoreError(error)) return error.toAppError();
  return { code: 'internal', message: 'The download failed unexpectedly.' };
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
