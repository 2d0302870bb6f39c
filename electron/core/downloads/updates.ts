/**
 * After a sync: which saved copies have a newer file. A new address is a new file; the same
 * address may serve a new file too, asked about with a conditional HEAD. Free functions over
 * the downloads state.
 */
import type { DigitalProductView } from '../../common/view-models';
import type { DownloadManagerOptions } from './api';
import type { DownloadsState } from './state';
import { fileChanged } from './file-request';

/** A new address is a new file; the saved copy stays until the new one is complete. */
export async function noteNewAddresses(
  state: DownloadsState,
  siteId: string,
  products: readonly DigitalProductView[],
): Promise<void> {
  for (const record of state.records(siteId)) {
    const product = products.find((p) => p.id === record.productId);
    if (!product?.downloadUrl || !record.saved) continue;
    if (product.downloadUrl !== record.saved.url && !record.updateAvailable) {
      record.updateAvailable = true;
      state.emit(record, siteId, record.productId);
    }
  }
  await state.persist();
}

/**
 * The same address may serve a new file: each saved copy is asked about with a conditional HEAD (a
 * few at a time); another ETag, size or date offers the new version. No answer changes nothing.
 */
export async function checkValidators(
  state: DownloadsState,
  options: Pick<DownloadManagerOptions, 'siteOrigin' | 'sendWith'>,
  siteId: string,
  products: readonly DigitalProductView[],
): Promise<void> {
  const origin = options.siteOrigin(siteId);
  if (!origin) return;
  const due = state.records(siteId).filter((r) => {
    const product = products.find((p) => p.id === r.productId);
    return (
      r.saved &&
      !r.updateAvailable &&
      !r.job &&
      product?.downloadUrl === r.saved.url &&
      !state.accessEnded(product)
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
          state.emit(record, siteId, record.productId);
        }
      }),
    );
  }
  if (changed) await state.persist();
}
