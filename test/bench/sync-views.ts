/**
 * The sync bench's view figures (sync.bench.ts): p95 of every view call the screens make on the
 * synced `large` seed, after a mark-read, repeated and rebuilt, and the short-term search index
 * pass that runs after a commit.
 */
import type { ReadWriteDB } from '../helpers/db';
import {
  enqueueChange,
  getBilling,
  getBillingSummary,
  getConsulting,
  getCourseDetail,
  getEntitlements,
  getLibrary,
  getLibraryPage,
  getNotifications,
  getNotificationsPage,
  getNotificationsSummary,
  getOrdersPage,
  getPayableInstructionsPage,
  getProfile,
  search,
} from '../../electron/core/db';
import { indexShortTerms } from '../../electron/core/db/search';
import type { SyncService } from '../../electron/core/sync';
import { timeIt } from './sync-rounds';
import { percentile, type BenchResult } from './types';

/**
 * Measured on a read-write connection of this thread: the figures write a mark-read between calls.
 */
export function viewResults(db: ReadWriteDB, sync: SyncService, now: Date): BenchResult[] {
  const results: BenchResult[] = [];
  // ---- view queries, p95 over many calls: what the screens call (pages of 50, as
  // renderer/src/query.ts asks)
  const courseIds = getLibraryPage(db, 'large', now, { limit: 100 }).items.map((c) => c.courseId);
  const library = getLibraryPage(db, 'large', now, { limit: 1 });
  const orders = getOrdersPage(db, 'large', now, { limit: 1 });
  const notices = getNotificationsPage(db, 'large', { limit: 1 });
  const words = ['intro', 'lesson', 'data', 'course', 'review', 'payment', 'zzz', '理財入門'];
  const shortWords = ['理財', 'py', '數'];
  const deep = (total: number) => Math.max(0, total - 50);
  const views: [string, (i: number) => unknown][] = [
    ['library: first page (library:page)', () => getLibraryPage(db, 'large', now, { limit: 50 })],
    [
      `library: deep page (offset ${deep(library.total)})`,
      () => getLibraryPage(db, 'large', now, { offset: deep(library.total), limit: 50 }),
    ],
    [
      'library: first page, filter in-progress',
      () => getLibraryPage(db, 'large', now, { limit: 50, filter: 'in-progress' }),
    ],
    ['getCourseDetail', (i) => getCourseDetail(db, 'large', courseIds[i % courseIds.length]!, now)],
    [
      'billing: summary + first 5 codes (billing:summary)',
      () => getBillingSummary(db, 'large', now),
    ],
    [
      'billing: first page of orders (billing:orders)',
      () => getOrdersPage(db, 'large', now, { limit: 50 }),
    ],
    [
      `billing: deep page of orders (offset ${deep(orders.total)})`,
      () => getOrdersPage(db, 'large', now, { offset: deep(orders.total), limit: 50 }),
    ],
    [
      'billing: payable codes on "show more" (billing:instructions)',
      () => getPayableInstructionsPage(db, 'large', now, { limit: 25 }),
    ],
    ['getEntitlements', () => getEntitlements(db, 'large', now)],
    ['getConsulting', () => getConsulting(db, 'large')],
    ['notifications: summary (notifications:summary)', () => getNotificationsSummary(db, 'large')],
    [
      'notifications: first page (notifications:page)',
      () => getNotificationsPage(db, 'large', { limit: 50 }),
    ],
    [
      `notifications: deep page (offset ${deep(notices.total)})`,
      () => getNotificationsPage(db, 'large', { offset: deep(notices.total), limit: 50 }),
    ],
    [
      'notifications: first page, only unread',
      () => getNotificationsPage(db, 'large', { limit: 50, onlyUnread: true }),
    ],
    ['getProfile', () => getProfile(db, 'large')],
    ['getSyncStatus', () => sync.status('large')],
    [
      'search (terms of 3+ characters: trigram index)',
      (i) => search(db, 'large', words[i % words.length]!),
    ],
    [
      'search (1-2 character terms: grams index)',
      (i) => search(db, 'large', shortWords[i % shortWords.length]!),
    ],
    // The whole views: no screen calls them any more (tests and the old channels do); for
    // comparison.
    ['whole view, not on a screen: getLibrary', () => getLibrary(db, 'large', now)],
    ['whole view, not on a screen: getBilling', () => getBilling(db, 'large', now)],
    ['whole view, not on a screen: getNotifications', () => getNotifications(db, 'large')],
  ];
  // Views are memoised until the data they read changes (view-cache.ts). Three numbers per view:
  // - repeated: the same call again, nothing written (a screen re-rendered, a tab revisited);
  // - after a mark-read: the student's own write between syncs, which only the inbox reads;
  // - rebuild: after a write to what the view reads (a sync commit that changed it; warmViews pays
  //   this after the commit, off the user's click), forced here by a write no writer accounts for.
  // What the post-commit warm-up (warm.ts, stopped by close() above) leaves a moment after a sync: the whole
  // short-term search index. Searches before it are measured below, with the index pass.
  indexShortTerms(db);
  const noticeIds = getNotificationsPage(db, 'large', { onlyUnread: true }).items.map((n) => n.id);
  let nextNotice = 0;
  const markRead = () =>
    enqueueChange(
      db,
      'large',
      {
        kind: 'mark-notification-read',
        notificationId: noticeIds[nextNotice++ % noticeIds.length]!,
      },
      now,
    );
  const rewrite = db.prepare("UPDATE sites SET created_at = created_at WHERE id = 'large'");
  const sample = (fn: (i: number) => unknown, before: () => unknown, n: number) => {
    const ms: number[] = [];
    for (let i = 0; i < n; i++) {
      before();
      ms.push(timeIt(() => fn(i)).ms);
    }
    return percentile(ms, 95);
  };
  for (const [name, fn] of views) {
    for (let i = 0; i < 5; i++) fn(i);
    const repeated = sample(fn, () => {}, 100);
    const afterMarkRead = sample(fn, markRead, 30);
    const rebuild = sample(fn, () => rewrite.run(), 30);
    results.push({
      name: `view p95: ${name}`,
      value: afterMarkRead,
      unit: 'ms',
      note: `after a mark-read; repeated ${repeated.toFixed(2)} ms; rebuild ${rebuild.toFixed(2)} ms; target < 5 ms`,
    });
  }

  // ---- the short-term search index pass (search.ts indexShortTerms), as after a first commit:
  // from empty
  const gramsRows = db.transaction(() => {
    db.prepare("INSERT INTO search_grams (search_grams) VALUES ('delete-all')").run();
    db.prepare('UPDATE search_state SET indexed_through = 0, indexed_rows = 0, garbage = 0').run();
  });
  gramsRows();
  // Right after a commit, before the pass: the rows it wrote are scanned (slower, never wrong).
  const shortBefore: number[] = [];
  for (let i = 0; i < 30; i++)
    shortBefore.push(timeIt(() => search(db, 'large', shortWords[i % shortWords.length]!)).ms);
  results.push({
    name: 'search p95, 1-2 character terms, before the pass',
    value: percentile(shortBefore, 95),
    unit: 'ms',
    note: 'the rows not indexed yet are scanned; the pass below runs right after a commit',
  });
  const pass = timeIt(() => indexShortTerms(db));
  results.push({
    name: 'short-term search index, whole pass (after a commit)',
    value: pass.ms,
    unit: 'ms',
    note: `${pass.value} rows; warm.ts runs it after the sync answered, in steps of 4000 rows`,
  });

  return results;
}
