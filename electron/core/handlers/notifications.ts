import type { CoreHandlers } from '../../common/ipc-contract';
import { CoreError } from '../errors';
import {
  findNoticeTarget,
  getNoticeForOpening,
  getNotifications,
  getNotificationsPage,
  getNotificationsSummary,
} from '../db/index';
import type { SyncService } from '../sync/service';
import { requireSite, type AppServices, type SiteLookup } from './services';

type NotificationChannel =
  | 'notifications:list'
  | 'notifications:summary'
  | 'notifications:page'
  | 'notifications:mark-read'
  | 'notifications:open'
  | 'notifications:mark-all-read'
  | 'notifications:update-subscription';

/** The site's notices and subscriptions; changes go through the sync service's outbox. */
export interface NotificationHandlersDeps extends Pick<AppServices, 'db'>, SiteLookup {
  readonly sync: Pick<
    SyncService,
    'markNotificationRead' | 'markAllNotificationsRead' | 'updateNotificationSubscription'
  >;
}

export function createNotificationHandlers(
  s: NotificationHandlersDeps,
): Pick<CoreHandlers, NotificationChannel> {
  const { db, sync } = s;
  const site = (siteId: string) => requireSite(s, siteId);
  return {
    'notifications:list': async ({ siteId }) => (site(siteId), getNotifications(db, siteId)),
    'notifications:summary': async ({ siteId }) => (
      site(siteId),
      getNotificationsSummary(db, siteId)
    ),
    'notifications:page': async ({ siteId, ...page }) => (
      site(siteId),
      getNotificationsPage(db, siteId, page)
    ),
    // Through the sync service's outbox: applied to the offline copy at once, sent now or when the
    // site is back.
    'notifications:mark-read': async ({ siteId, notificationId }) => {
      site(siteId);
      await sync.markNotificationRead(siteId, notificationId);
    },
    // Where the notice leads, from the saved copy (works offline); an unread one is marked read
    // like mark-read.
    'notifications:open': async ({ siteId, notificationId }) => {
      const known = site(siteId);
      const notice = getNoticeForOpening(db, siteId, notificationId);
      if (!notice)
        throw new CoreError('not-found', 'That notice is not in your saved copy any more.');
      const target = findNoticeTarget(db, siteId, known.baseUrl, notice.url);
      if (notice.unread) await sync.markNotificationRead(siteId, notificationId);
      return target;
    },
    'notifications:mark-all-read': async ({ siteId }) => {
      site(siteId);
      await sync.markAllNotificationsRead(siteId);
    },
    'notifications:update-subscription': async ({ siteId, topic, channel, enabled }) => {
      site(siteId);
      return sync.updateNotificationSubscription(siteId, topic, channel, enabled);
    },
  };
}
