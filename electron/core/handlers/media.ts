import type { CoreHandlers } from '../../common/ipc-contract';
import type { ImageDiskCache } from '../downloads/image-cache';
import { createSiteImages } from '../net/site-image';
import type { FetchLike } from '../net/http';
import { requireSite, type AppServices } from './services';

/** Pictures a site names, fetched by the core for the screens (net/site-image.ts says why). */
export type MediaHandlersDeps = Pick<AppServices, 'sites'>;

export function createMediaHandlers(
  s: MediaHandlersDeps,
  fetchImpl: FetchLike,
  disk: ImageDiskCache | null = null,
): Pick<CoreHandlers, 'media:image'> {
  const images = createSiteImages(fetchImpl);
  return {
    // The copy on disk first (an https school's picture kept from an earlier launch), then the
    // site.
    'media:image': async ({ siteId, url }) => {
      const baseUrl = requireSite(s, siteId).baseUrl;
      const kept = await disk?.get(siteId, url).catch(() => null);
      if (kept) return kept;
      const fetched = await images.get(url, baseUrl);
      if (fetched !== null) await disk?.put(siteId, url, fetched).catch(() => undefined);
      return fetched;
    },
  };
}
