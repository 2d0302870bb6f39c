/**
 * The channels of purchased files kept on this computer (electron/core/downloads), part of the one
 * contract (ipc-contract.ts spreads them in); the shape of each entry is ipc-contract's
 * ChannelSpec. The renderer names products by id only: the address comes from the offline data,
 * never from the page.
 */
import { z } from 'zod';
import type { OpenOutcome, ProductOfflineView, SiteStorageView } from './downloads';

function channel<O>() {
  return <I extends z.ZodType>(input: I): { readonly input: I; readonly __output?: O } => ({
    input,
  });
}

const none = z.undefined();
const siteId = z.string().min(1).max(100);
const bySite = z.object({ siteId }).strict();
const productId = z.string().min(1).max(200);

export const downloadChannels = {
  /** The products of a site with a saved copy or a transfer under way (no network). */
  'downloads:list': channel<ProductOfflineView[]>()(bySite),
  /** Save (or update, or resume) a product's file; `confirmLarge` answers the size question. */
  'downloads:save': channel<ProductOfflineView>()(
    z.object({ siteId, productId, confirmLarge: z.boolean().optional() }).strict(),
  ),
  'downloads:pause': channel<ProductOfflineView>()(z.object({ siteId, productId }).strict()),
  'downloads:cancel': channel<void>()(z.object({ siteId, productId }).strict()),
  /** Deletes the saved copy (and any transfer) of one product. */
  'downloads:remove': channel<void>()(z.object({ siteId, productId }).strict()),
  /**
   * Deletes every saved copy of one site, or of every site; turns "keep every product offline" off
   * for them.
   */
  'downloads:remove-all': channel<void>()(z.object({ siteId: siteId.optional() }).strict()),
  /**
   * Opens a saved copy: inside the app (PDF, image, audio, video), else shown in its folder; never
   * run.
   */
  'downloads:open': channel<OpenOutcome>()(z.object({ siteId, productId }).strict()),
  /** Space used per site and per product (Settings > Storage). */
  'downloads:storage': channel<SiteStorageView[]>()(none),
  'downloads:set-keep-all': channel<SiteStorageView[]>()(
    z.object({ siteId, keepAll: z.boolean() }).strict(),
  ),
} as const;
