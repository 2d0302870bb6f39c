import type { CoreHandlers } from '../../common/ipc-contract';
import { sitePageOf } from '../db/index';
import { sitePageUrl } from '../net/site-pages';
import { requireSite, type AppServices } from './services';

/**
 * "Take me there": the school's own page for something in the saved copy, opened in the system
 * browser. The address is built from the saved copy on the site's base URL and checked to stay on
 * its origin (net/site-pages.ts).
 */
export type SitePageHandlersDeps = Pick<AppServices, 'db' | 'sites' | 'clock'>;

export function createSitePageHandlers(
  s: SitePageHandlersDeps,
  openExternal: (url: string) => Promise<void>,
): Pick<CoreHandlers, 'site:open-page'> {
  return {
    'site:open-page': async ({ siteId, page }) => {
      const site = requireSite(s, siteId);
      const url = sitePageUrl(site.baseUrl, sitePageOf(s.db, siteId, page, s.clock.now()));
      await openExternal(url);
      return { url };
    },
  };
}
