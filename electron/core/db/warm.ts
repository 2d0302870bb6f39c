import type { Database } from 'better-sqlite3';
import { getLibrary } from './courses';
import { getEntitlements } from './entitlements';
import { getNotifications } from './notifications';
import { getBilling } from './payments';

/**
 * Computes the site's list views once so the memoised results are ready before the renderer asks (after a sync
 * commit). The billing of a large history costs tens of milliseconds to build; paying it here, off the user's
 * click, keeps the view calls themselves fast.
 */
export function warmViews(db: Database, siteId: string, now: Date): void {
  getLibrary(db, siteId, now);
  getBilling(db, siteId, now);
  getNotifications(db, siteId);
  getEntitlements(db, siteId, now);
}
