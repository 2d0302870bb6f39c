/** The offline store: open + migrations, one module per table group, view-model queries. */
export {
  checkOfflineDatabase,
  closeOfflineDatabase,
  closedCleanly,
  openOfflineDatabase,
  openReadConnection,
  type CheckedDatabase,
  type OpenedDatabase,
  type OpenOptions,
} from './open';
export { migrate } from './migrate';
export { LATEST_VERSION, MIGRATIONS, type Migration } from './migrations';
export type { Logger } from './logger';
export { ensureSite, removeSiteData, listSiteIds, hasSite } from './sites';
export { commitSnapshot } from './snapshot';
export type * from './records';
export {
  getAllSitesLibraryPage,
  getLibrary,
  getLibraryPage,
  getCourseDetail,
  EXPIRES_SOON_MS,
} from './courses';
export {
  getBilling,
  getBillingSummary,
  getOrder,
  getOrdersPage,
  getPayableInstructionsPage,
  getPayment,
  getSpendingByYear,
} from './payments';
export type { PageRequest } from './paging';
export { getEntitlements } from './entitlements';
export { getConsulting } from './consulting';
export { sitePageOf, type SitePageTarget } from './site-page-target';
export { getToday, type TodayData } from './today';
export {
  getNotifications,
  getNotificationsPage,
  getNotificationsSummary,
  getSubscription,
} from './notifications';
export { findNoticeTarget, getNoticeForOpening } from './notice-target';
export { getProfile } from './profile';
export {
  search,
  searchEverything,
  SEARCH_LIMIT,
  SEARCH_PER_KIND,
  parseSearch,
  type ParsedSearch,
  type SearchScope,
} from './search';
export {
  getCourseProgressRows,
  getProgressSummary,
  weekCounter,
  WEEKS_SHOWN,
  type CourseProgressRow,
} from './progress';
export {
  getLastSyncedAt,
  getStoredSyncState,
  getSyncStatus,
  recordSyncRun,
  type StoredSyncState,
} from './sync-runs';
export {
  enqueueChange,
  pendingEntries,
  failedEntries,
  countPending,
  dismissFailed,
  type OutboxChange,
  type OutboxEntry,
} from './outbox';
export type * from './parts';
export {
  decideReminders,
  REMINDER_KINDS,
  REMINDER_SUBJECTS_PER_RUN,
  type ReminderGroup,
  type ReminderKind,
  type ReminderRunInput,
} from './reminders';
