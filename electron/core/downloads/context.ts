/**
 * What the parts of the download manager share (manager.ts builds it once): the manifest and the transfers under
 * way, how the manifest is written (one write at a time, coalesced), and the views a change is announced with.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { isCoreError } from '../errors';
import type { Logger } from '../log';
import type { createKeyedQueue } from '../fs/keyed-queue';
import type { DownloadJobView, ProductOfflineView } from '../../common/downloads';
import type { AppError } from '../../common/result';
import type { DigitalProductView } from '../../common/view-models';
import type { DownloadManagerOptions } from './api';
import { saveManifest, type Manifest, type ProductRecord } from './store';
import type { TransferThread } from './transfer-thread';

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
  /** Settles when the transfer itself stops (a stop waits for this, never for the finishing step). */
  transfer: Promise<void>;
  /** Settles once the whole run is over: the file placed (or the failure recorded) and the next one started. */
  settled: Promise<void>;
}

export interface Limits {
  readonly concurrency: number;
  readonly delays: readonly number[];
  readonly askAbove: number;
  readonly maxBytes: number;
}

export interface DownloadsContext {
  readonly options: DownloadManagerOptions;
  readonly dir: string;
  readonly partialDir: string;
  readonly log: Logger;
  readonly limits: Limits;
  readonly manifest: Manifest;
  readonly running: Map<string, Running>;
  readonly retryTimers: Map<string, { timer: NodeJS.Timeout; at: number }>;
  readonly attempts: Map<string, number>;
  readonly serial: ReturnType<typeof createKeyedQueue>;
  readonly thread: TransferThread;
  closed: boolean;
  /** Writes the manifest (coalesced with a write not yet started). */
  persist(): Promise<void>;
  /** Settles once every manifest write asked for so far is done. */
  written(): Promise<void>;
  emit(record: ProductRecord | null, siteId: string, productId: string): void;
  viewOf(record: ProductRecord): ProductOfflineView;
  productOf(siteId: string, productId: string): DigitalProductView | null;
  accessEnded(product: DigitalProductView | null): boolean;
}

export const hashKey = (prefix: string, id: string) =>
  `${prefix}-${createHash('sha256').update(id).digest('hex').slice(0, 16)}`;
export const keyOf = (siteId: string, productId: string) => `${siteId}\n${productId}`;
export const findRecord = (ctx: DownloadsContext, siteId: string, productId: string) =>
  ctx.manifest.products.find((p) => p.siteId === siteId && p.productId === productId);
export const productDirOf = (ctx: DownloadsContext, r: { siteId: string; productId: string }) =>
  join(ctx.dir, hashKey('s', r.siteId), hashKey('p', r.productId));
export const savedPathOf = (ctx: DownloadsContext, r: ProductRecord) =>
  join(productDirOf(ctx, r), r.saved!.version, r.saved!.name);

type Parts = Omit<
  DownloadsContext,
  'persist' | 'written' | 'emit' | 'viewOf' | 'productOf' | 'accessEnded'
> & { readonly manifestFile: string };

export function createContext(parts: Parts): DownloadsContext {
  const { manifest, manifestFile, log, running, retryTimers } = parts;
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
    chain = write.catch((error: unknown) =>
      log.error('the downloads manifest could not be written', { error }),
    );
    return write;
  }

  // ------------------------------------------------------------------ views

  function productOf(siteId: string, productId: string): DigitalProductView | null {
    return ctx.options.products(siteId)?.find((p) => p.id === productId) ?? null;
  }
  function accessEnded(product: DigitalProductView | null): boolean {
    return (
      product === null ||
      (product.expireDate !== null && Date.parse(product.expireDate) <= ctx.options.now())
    );
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
      if (last.t > first.t)
        bytesPerSecond = Math.round(((last.bytes - first.bytes) * 1000) / (last.t - first.t));
    }
    const secondsLeft =
      total !== null && bytesPerSecond > 0 ? Math.ceil((total - bytes) / bytesPerSecond) : null;
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
      ctx.options.onChange(record ? viewOf(record) : emptyView(siteId, productId));
    } catch (error) {
      log.warn('a downloads listener failed', { error });
    }
  }

  const ctx: DownloadsContext = {
    ...parts,
    persist,
    written: () => chain,
    emit,
    viewOf,
    productOf,
    accessEnded,
  };
  return ctx;
}

export function toAppError(error: unknown): AppError {
  if (isCoreError(error)) return error.toAppError();
  return { code: 'internal', message: 'The download failed unexpectedly.' };
}
