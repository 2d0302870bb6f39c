import type { CoreHandlers } from '../../common/ipc-contract';
import { createSiteImages } from '../net/site-image';
import type { FetchLike } from '../net/http';
import { requireSite, type AppServices } from './services';

/** Pictures a site names, fetched by the core for the screens (net/site-image.ts says why). */
export type MediaHandlersDeps = Pick<AppServices, 'sites'>;

export function createMediaHandlers(
  s: MediaHandlersDeps,
  fetchImpl: FetchLike,
): Pick<CoreHandlers, 'media:image'> {
  const images = createSiteImages(fetchImpl);
  return {
    'media:image': async ({ siteId, url }) => images.get(url, requireSite(s, siteId).baseUrl),
  };
}
