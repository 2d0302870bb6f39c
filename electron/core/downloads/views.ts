/**
 * What the screen is told about a product's offline state: free functions over a record and
 * its live run.
 */
import type { DownloadJobView, ProductOfflineView } from '../../common/downloads';
import type { DigitalProductView } from '../../common/view-models';
import type { ProductRecord } from './store';

/** A transfer under way, as far as the screen needs it. */
export interface LiveProgress {
  readonly bytes: number;
  readonly total: number | null;
  readonly samples: readonly { readonly t: number; readonly bytes: number }[];
}

/**
 * What is known beside the record: the product as last synced, the run under way, a retry's time.
 */
export interface ViewInputs {
  readonly product: DigitalProductView | null;
  readonly run: LiveProgress | undefined;
  readonly retryAt: number | null;
  readonly now: number;
}

export function accessEnded(product: DigitalProductView | null, now: number): boolean {
  return product === null || (product.expireDate !== null && Date.parse(product.expireDate) <= now);
}

/** Bytes per second over the samples kept (the last few seconds), 0 before there are two. */
function rateOf(run: LiveProgress): number {
  if (run.samples.length < 2) return 0;
  const first = run.samples[0]!;
  const last = run.samples[run.samples.length - 1]!;
  if (last.t <= first.t) return 0;
  return Math.round(((last.bytes - first.bytes) * 1000) / (last.t - first.t));
}

function jobView(record: ProductRecord, inputs: ViewInputs): DownloadJobView | null {
  const job = record.job;
  if (!job) return null;
  const { run } = inputs;
  const bytes = run ? run.bytes : job.bytes;
  const total = run ? run.total : job.total;
  const bytesPerSecond = run ? rateOf(run) : 0;
  const secondsLeft =
    total !== null && bytesPerSecond > 0 ? Math.ceil((total - bytes) / bytesPerSecond) : null;
  return {
    state: run ? 'downloading' : job.state,
    progress: { bytes, total, bytesPerSecond, secondsLeft },
    error: job.error,
    isUpdate: job.isUpdate,
    retryAt: inputs.retryAt,
  };
}

export function offlineView(record: ProductRecord, inputs: ViewInputs): ProductOfflineView {
  const { product } = inputs;
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
    job: jobView(record, inputs),
    updateAvailable: record.updateAvailable,
    accessEnded: accessEnded(product, inputs.now),
  };
}

/** A product with nothing saved and nothing under way. */
export function emptyView(
  siteId: string,
  productId: string,
  product: DigitalProductView | null,
  now: number,
): ProductOfflineView {
  return {
    siteId,
    productId,
    title: product?.title ?? '',
    saved: null,
    job: null,
    updateAvailable: false,
    accessEnded: accessEnded(product, now),
  };
}
