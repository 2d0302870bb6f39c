/**
 * The download manager's state and its one owner: the manifest, the transfers under way, their
 * retry timers and attempt counts, how the manifest is written (one write at a time, coalesced) and
 * how a change is announced. The other parts (queue.ts, saved-files.ts, clean.ts, manager.ts) ask
 * it through methods; none holds its Maps.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { CoreError, isCoreError } from '../errors';
import type { Logger } from '../log';
import type { ProductOfflineView } from '../../common/downloads';
import type { AppError } from '../../common/result';
import type { DigitalProductView } from '../../common/view-models';
import type { DownloadManagerOptions } from './api';
import { saveManifest, type JobRecord, type Manifest, type ProductRecord } from './store';
import { accessEnded, emptyView, offlineView } from './views';

export const PARTIAL = '.partial';
export const MANIFEST = 'downloads.json';

export class Stopped extends Error {
  constructor(readonly why: 'pause' | 'cancel' | 'close') {
    super(`download ${why}`);
  }
}

export interface Running {
  readonly controller: AbortController;
  bytes: number;
  total: number | null;
  samples: { t: number; bytes: number }[];
  lastEmit: number;
  /**
   * Settles when the transfer itself stops (a stop waits for this, never for the finishing step).
   */
  transfer: Promise<void>;
  /**
   * Settles once the whole run is over: the file placed (or the failure recorded) and the
   * next one started.
   */
  settled: Promise<void>;
}

export interface Limits {
  readonly concurrency: number;
  readonly delays: readonly number[];
  readonly askAbove: number;
  readonly maxBytes: number;
}

export const hashKey = (prefix: string, id: string) =>
  `${prefix}-${createHash('sha256').update(id).digest('hex').slice(0, 16)}`;
export const keyOf = (siteId: string, productId: string) => `${siteId}\n${productId}`;
const keyOfRecord = (r: { siteId: string; productId: string }) => keyOf(r.siteId, r.productId);

export interface DownloadsStateDeps {
  readonly options: Pick<DownloadManagerOptions, 'products' | 'now' | 'onChange'>;
  /** `<dataDir>/downloads` */
  readonly dir: string;
  readonly manifestFile: string;
  readonly manifest: Manifest;
  readonly log: Logger;
}

export class DownloadsState {
  readonly dir: string;
  readonly partialDir: string;
  readonly log: Logger;
  readonly #options: DownloadsStateDeps['options'];
  readonly #manifestFile: string;
  readonly #manifest: Manifest;
  readonly #running = new Map<string, Running>();
  readonly #retryTimers = new Map<string, { timer: NodeJS.Timeout; at: number }>();
  readonly #attempts = new Map<string, number>();
  #closed = false;
  #pendingWrite: Promise<void> | null = null;
  #chain: Promise<void> = Promise.resolve();

  constructor(deps: DownloadsStateDeps) {
    this.dir = deps.dir;
    this.partialDir = join(deps.dir, PARTIAL);
    this.log = deps.log;
    this.#options = deps.options;
    this.#manifestFile = deps.manifestFile;
    this.#manifest = deps.manifest;
  }

  // ------------------------------------------------------------------ records

  /** The records of one site (or all), as a copy: removing one while walking them is safe. */
  records(siteId?: string): ProductRecord[] {
    const all = this.#manifest.products;
    return siteId === undefined ? [...all] : all.filter((r) => r.siteId === siteId);
  }
  find(siteId: string, productId: string): ProductRecord | undefined {
    return this.#manifest.products.find((p) => p.siteId === siteId && p.productId === productId);
  }
  /** The record, or not-found: the product is not kept on this computer. */
  require(siteId: string, productId: string): ProductRecord {
    const record = this.find(siteId, productId);
    if (!record) throw new CoreError('not-found', 'This product is not saved on this computer.');
    return record;
  }
  add(record: ProductRecord): void {
    this.#manifest.products.push(record);
  }
  forget(record: ProductRecord): void {
    this.retain((r) => r !== record);
  }
  retain(keep: (record: ProductRecord) => boolean): void {
    this.#manifest.products = this.#manifest.products.filter(keep);
  }
  keepsAll(siteId: string): boolean {
    return this.#manifest.keepAll[siteId] === true;
  }
  setKeepAll(siteId: string, keepAll: boolean): void {
    if (keepAll) this.#manifest.keepAll[siteId] = true;
    else delete this.#manifest.keepAll[siteId];
  }

  // ------------------------------------------------------------------ where files go

  productDir(r: { siteId: string; productId: string }): string {
    return join(this.dir, hashKey('s', r.siteId), hashKey('p', r.productId));
  }
  savedPath(r: ProductRecord): string {
    return join(this.productDir(r), r.saved!.version, r.saved!.name);
  }
  partFile(job: JobRecord): string {
    return join(this.partialDir, job.part);
  }

  // ------------------------------------------------------------------ transfers under way

  get closed(): boolean {
    return this.#closed;
  }
  close(): void {
    this.#closed = true;
  }
  runOf(key: string): Running | undefined {
    return this.#running.get(key);
  }
  get runningCount(): number {
    return this.#running.size;
  }
  beginRun(key: string, run: Running): void {
    this.#running.set(key, run);
  }
  /** The run is over (unless another has taken its place meanwhile). */
  endRun(key: string, run: Running): void {
    if (this.#running.get(key) === run) this.#running.delete(key);
  }
  /** Settles once every run under way now has settled. */
  runsSettled(): Promise<unknown> {
    return Promise.all([...this.#running.values()].map((r) => r.settled));
  }
  /** Keys with a transfer running or a retry waiting. */
  busyKeys(): string[] {
    return [...this.#running.keys(), ...this.#retryTimers.keys()];
  }

  // ------------------------------------------------------------------ retries

  hasRetry(key: string): boolean {
    return this.#retryTimers.has(key);
  }
  get retriesWaiting(): number {
    return this.#retryTimers.size;
  }
  /**
   * Runs `due` after `delayMs` (the timer never holds the app open); a later schedule replaces it.
   */
  scheduleRetry(key: string, delayMs: number, due: () => void): void {
    const timer = setTimeout(() => {
      this.#retryTimers.delete(key);
      due();
    }, delayMs);
    timer.unref();
    this.#retryTimers.set(key, { timer, at: this.#options.now() + delayMs });
  }
  cancelRetry(key: string): void {
    const timer = this.#retryTimers.get(key);
    if (timer) clearTimeout(timer.timer);
    this.#retryTimers.delete(key);
  }
  /** One more failed try of `key`: how many so far. */
  countAttempt(key: string): number {
    const n = (this.#attempts.get(key) ?? 0) + 1;
    this.#attempts.set(key, n);
    return n;
  }
  resetAttempts(key: string): void {
    this.#attempts.delete(key);
  }

  // ------------------------------------------------------------------ persistence (one write at
  // a time, coalesced)

  /** Writes the manifest (coalesced with a write not yet started). */
  persist(): Promise<void> {
    if (this.#pendingWrite) return this.#pendingWrite;
    const write = this.#chain.then(() => {
      this.#pendingWrite = null;
      return saveManifest(this.#manifestFile, this.#manifest);
    });
    this.#pendingWrite = write;
    this.#chain = write.catch((error: unknown) =>
      this.log.error('the downloads manifest could not be written', { error }),
    );
    return write;
  }
  /** Settles once every manifest write asked for so far is done. */
  written(): Promise<void> {
    return this.#chain;
  }

  // ------------------------------------------------------------------ views

  productOf(siteId: string, productId: string): DigitalProductView | null {
    return this.#options.products(siteId)?.find((p) => p.id === productId) ?? null;
  }
  accessEnded(product: DigitalProductView | null): boolean {
    return accessEnded(product, this.#options.now());
  }
  viewOf(record: ProductRecord): ProductOfflineView {
    const key = keyOfRecord(record);
    return offlineView(record, {
      product: this.productOf(record.siteId, record.productId),
      run: this.#running.get(key),
      retryAt: this.#retryTimers.get(key)?.at ?? null,
      now: this.#options.now(),
    });
  }
  /** Tells the listener about a product (null: nothing of it is kept any more). */
  emit(record: ProductRecord | null, siteId: string, productId: string): void {
    try {
      this.#options.onChange(
        record
          ? this.viewOf(record)
          : emptyView(siteId, productId, this.productOf(siteId, productId), this.#options.now()),
      );
    } catch (error) {
      this.log.warn('a downloads listener failed', { error });
    }
  }
}

export function toAppError(error: unknown): AppError {
  if (isCoreError(error)) return error.toAppError();
  return { code: 'internal', message: 'The download failed unexpectedly.' };
}
