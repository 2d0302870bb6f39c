/**
 * The offline store: open + migrations, one module per table group, view-model queries. This file
 * is the one way into db/ for the rest of the core (`local/layers` entries, eslint.config.ts): what
 * is not exported here is db's own business, so a table module can change without its callers
 * noticing.
 */
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
export type { AnyDB, ReadableDB, ReadWriteDB, WritableDB } from './handles';
export { LATEST_VERSION, MIGRATIONS, type Migration } from './migrations';
export { silentLogger, type Logger } from './logger';
export { ensureSite, removeSiteData, listSiteIds, hasSite } from './sites';
export {
  commitSnapshot,
  commitSnapshotIfChanged,
  countSnapshot,
  digestOf,
  storedPageCursors,
  viewsOfCommit,
} from './snapshot';
export { changingViews, forgetViews, writtenElsewhere, type ViewArea } from './view-cache';
export { indexShortTermsInSteps, warmSummaries } from './warm';
export { markCourseSeen } from './course-news';
export {
  COURSE_DISPLAY_FIELDS,
  type CourseDisplay,
  type CourseDisplayView,
} from './course-display';
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
  getPayableUntil,
  getPayment,
  getSpendingByYear,
} from './payments';
export type { PageRequest } from './paging';
export { getEntitlements } from './entitlements';
export { getConsulting } from './consulting';
export { sitePageOf, type SitePageTarget } from './site-page-target';
export { getToday, type TodayData } from './today';
export {
  acceptAllNotificationsRead,
  acceptNotificationRead,
  acceptSubscription,
  getNotifications,
  getNotificationsPage,
  getNotificationsSummary,
  getSubscription,
} from './notifications';
export { findNoticeTarget, getNoticeForOpening } from './notice-target';
export { getProfile } from './profile';
export {
  indexShortTerms,
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
  getPacePage,
  getProgressSummary,
  getWeekProgress,
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
  markFailed,
  recordAttempt,
  removeEntry,
  type OutboxChange,
  type OutboxEntry,
} from './outbox';
export { PART_NAMES } from './parts';
export type * from './parts';
export {
  decideReminders,
  REMINDER_KINDS,
  REMINDER_SUBJECTS_PER_RUN,
  type ReminderGroup,
  type ReminderKind,
  type ReminderRunInput,
} from './reminders';
export {
  countNotes,
  getCourseNotes,
  getNote,
  getNoteAddress,
  getNoteFilters,
  getNotesPage,
  noteDraftStart,
  searchNotes,
  type NotesFilter,
} from './notes';
export {
  addNote,
  deleteNote,
  forgetSiteNotes,
  restoreNote,
  updateNote,
  UNDO_KEPT,
  type NewNote,
  type NoteInput,
} from './notes-write';
export {
  CHANGE_RECORD_KEPT,
  getChangesSince,
  getUnseenChanges,
  markChangesSeen,
} from './change-record';
// The local MCP server's few reads of its own (mcp-local/), on the same prepared-statement cache.
export { prepared } from './statements';
export { buildCoursePlan, buildPlanView, type PlanChoices } from './plan-view';
export { decideRuleReminders, snoozeReminder } from './reminder-decide';
export {
  RULE_KINDS,
  type RuleKind,
  type RuleReminderGroup,
  type RuleRunInput,
} from './reminder-run';
export type { ReminderSubject } from './reminder-subjects';
