import type { CoreHandlers } from '../../common/ipc-contract';
import { siteLinkUrl } from '../../common/external-url';
import type { TodaySite } from '../../common/view-models';
import { getNotificationsSummary, getToday, hasSite } from '../db/index';
import type { SiteManager } from '../sites/site-manager';
import type { AppServices } from './services';

/**
 * The Today home: the saved copy of every school, with each school's freshness and unread notices.
 */
export interface TodayHandlersDeps extends Pick<AppServices, 'db' | 'clock'> {
  readonly sites: Pick<SiteManager, 'list'>;
}

export function createTodayHandlers(s: TodayHandlersDeps): Pick<CoreHandlers, 'today:get'> {
  return {
    'today:get': async () => {
      const now = new Date(s.clock.now());
      const sites: TodaySite[] = s.sites
        .list()
        .filter((site) => hasSite(s.db, site.id))
        .map((site) => ({
          siteId: site.id,
          label: site.label,
          lastSyncedAt: site.lastSyncedAt,
          unreadCount: getNotificationsSummary(s.db, site.id).unreadCount,
        }));
      const known = new Set(sites.map((site) => site.siteId));
      const baseUrls = new Map(s.sites.list().map((site) => [site.id, site.baseUrl]));
      const data = getToday(s.db, now);
      // Only schools still in the list (a removed one's rows go with it; this guards the moment in
      // between).
      return {
        now: now.toISOString(),
        continueLearning: data.continueLearning.filter((c) => known.has(c.siteId)),
        // A join link the school may not send (common/external-url.ts siteLinkUrl) is not offered.
        attention: data.attention
          .filter((a) => known.has(a.siteId))
          .map((a) =>
            a.kind === 'event-soon' && a.joinUrl !== null
              ? { ...a, joinUrl: siteLinkUrl(a.joinUrl, baseUrls.get(a.siteId) ?? '') }
              : a,
          ),
        sites,
      };
    },
  };
}
