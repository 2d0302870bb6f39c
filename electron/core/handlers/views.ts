import type { CoreHandlers } from '../../common/ipc-contract';
import {
  getBilling,
  getBillingSummary,
  getConsulting,
  getCourseDetail,
  getEntitlements,
  getAllSitesLibraryPage,
  getLibrary,
  getLibraryPage,
  getOrder,
  getOrdersPage,
  getSpendingByYear,
  getPayableInstructionsPage,
  getProfile,
  getProgressSummary,
  searchEverything,
  SEARCH_LIMIT,
  SEARCH_PER_KIND,
} from '../db/index';
import { CoreError } from '../errors';
import { entitlementLinksForSite } from '../net/external-url';
import { requireSite, type AppServices } from './services';

type ViewChannel =
  | 'library:list'
  | 'library:page'
  | 'library:all-page'
  | 'course:get'
  | 'course:mark-seen'
  | 'billing:get'
  | 'billing:summary'
  | 'billing:orders'
  | 'billing:order'
  | 'billing:spending'
  | 'progress:summary'
  | 'billing:instructions'
  | 'entitlements:get'
  | 'consulting:list'
  | 'profile:get'
  | 'search:query';

/**
 * The screens' views of a site's offline data, read through the main process's read-only
 * connection.
 */
export type ViewHandlersDeps = Pick<AppServices, 'db' | 'writer' | 'sites' | 'clock'>;

export function createViewHandlers(s: ViewHandlersDeps): Pick<CoreHandlers, ViewChannel> {
  const { db } = s;
  const now = () => new Date(s.clock.now());
  const site = (siteId: string) => requireSite(s, siteId);
  return {
    'library:list': async ({ siteId }) => (site(siteId), getLibrary(db, siteId, now())),
    'library:page': async ({ siteId, ...page }) => (
      site(siteId),
      getLibraryPage(db, siteId, now(), page)
    ),
    'library:all-page': async (page) => getAllSitesLibraryPage(db, now(), page),
    'course:get': async ({ siteId, courseId }) => (
      site(siteId),
      getCourseDetail(db, siteId, courseId, now())
    ),
    // The one write here: opening a course clears its "new since last sync" count
    // (db/course-news.ts), in the writer.
    'course:mark-seen': async ({ siteId, courseId }) => {
      site(siteId);
      await s.writer.call('course:mark-seen', { siteId, courseId });
    },
    'billing:get': async ({ siteId }) => (site(siteId), getBilling(db, siteId, now())),
    'billing:summary': async ({ siteId }) => (site(siteId), getBillingSummary(db, siteId, now())),
    'billing:orders': async ({ siteId, ...page }) => (
      site(siteId),
      getOrdersPage(db, siteId, now(), page)
    ),
    'billing:order': async ({ siteId, tradeNo }) => {
      site(siteId);
      const order = getOrder(db, siteId, tradeNo, now());
      if (!order)
        throw new CoreError('not-found', 'This order is not in your offline copy.', { tradeNo });
      return order;
    },
    'billing:spending': async ({ siteId }) => (site(siteId), getSpendingByYear(db, siteId)),
    'progress:summary': async ({ siteId, timeZone }) => (
      site(siteId),
      getProgressSummary(db, siteId, now(), timeZone)
    ),
    'billing:instructions': async ({ siteId, ...page }) => (
      site(siteId),
      getPayableInstructionsPage(db, siteId, now(), page)
    ),
    'entitlements:get': async ({ siteId }) =>
      entitlementLinksForSite(getEntitlements(db, siteId, now()), site(siteId).baseUrl),
    'consulting:list': async ({ siteId }) => (site(siteId), getConsulting(db, siteId)),
    'profile:get': async ({ siteId }) => (site(siteId), getProfile(db, siteId)),
    'search:query': async ({ siteId, query, kinds }) => {
      const siteIds = siteId !== undefined ? [site(siteId).id] : s.sites.list().map((x) => x.id);
      const oneKind = kinds !== undefined && kinds.length === 1;
      return searchEverything(
        db,
        query,
        { siteIds, kinds, limit: SEARCH_LIMIT, perKind: oneKind ? SEARCH_LIMIT : SEARCH_PER_KIND },
        now(),
      );
    },
  };
}
