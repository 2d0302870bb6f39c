import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import {
  commitSnapshot,
  enqueueChange,
  ensureSite,
  getAllSitesLibraryPage,
  getBilling,
  getBillingSummary,
  getLibrary,
  getLibraryPage,
  getNotifications,
  getNotificationsPage,
  getNotificationsSummary,
  getOrdersPage,
  getPayableInstructionsPage,
  openOfflineDatabase,
  removeSiteData,
  search,
} from '../../../electron/core/db';
import { ipcContract, PAGE_LIMIT_MAX } from '../../../electron/common/ipc-contract';
import { MIGRATIONS } from '../../../electron/core/db/migrations';
import { indexShortTerms } from '../../../electron/core/db/search';
import type { SiteSnapshot } from '../../../electron/core/db/records';
import type { LibraryFilter, LibrarySort } from '../../../electron/common/view-models';
import { course, notification, payment } from './fixtures';

const NOW = new Date('2026-06-10T00:00:00.000Z');
const dirs: string[] = [];
const opened: Database.Database[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ld-pages-'));
  dirs.push(dir);
  return join(dir, 'offline.db');
}

function openDb(file = tempFile()): Database.Database {
  const { db } = openOfflineDatabase(file);
  opened.push(db);
  return db;
}

function withSite(snapshot: SiteSnapshot, siteId = 's'): Database.Database {
  const db = openDb();
  ensureSite(db, siteId, NOW);
  commitSnapshot(db, siteId, snapshot);
  return db;
}

const at = (iso: string) => new Date(iso);
const day = (n: number) => `2026-06-${String(n).padStart(2, '0')}T00:00:00.000Z`;

describe('billing pages (issue 6): orders newest first, a page at a time', () => {
  // 7 orders on days 1..7 (T1 has two payments, the first on day 1), one order in USD.
  const payments = [
    payment('p1', { tradeNo: 'T1', createdAt: day(1) }),
    payment('p1b', { tradeNo: 'T1', createdAt: day(8), amount: 500 }),
    payment('p2', { tradeNo: 'T2', createdAt: day(2) }),
    payment('p3', { tradeNo: 'T3', createdAt: day(3), currency: 'USD', amount: 49 }),
    payment('p4', { tradeNo: 'T4', createdAt: day(4), paymentState: 'refunded', refundingState: 'refunded', refundedAmount: 1000 }),
    payment('p5', { tradeNo: 'T5', createdAt: day(5) }),
    payment('p6', { tradeNo: 'T6', createdAt: day(6) }),
    payment('p7', { tradeNo: 'T7', createdAt: day(7) }),
  ];

  it('pages cover every order exactly once, newest first by its earliest payment, with the total on each page', () => {
    const db = withSite({ payments });
    const seen: string[] = [];
    let offset: number | null = 0;
    const totals = new Set<number>();
    while (offset !== null) {
      const page = getOrdersPage(db, 's', NOW, { offset, limit: 3 });
      expect(page.items.length).toBeLessThanOrEqual(3);
      seen.push(...page.items.map((o) => o.tradeNo));
      totals.add(page.total);
      offset = page.nextOffset;
    }
    // T1 is dated by its first payment (day 1) although its second one is the newest payment of all.
    expect(seen).toEqual(['T7', 'T6', 'T5', 'T4', 'T3', 'T2', 'T1']);
    expect([...totals]).toEqual([7]);
    const t1 = getOrdersPage(db, 's', NOW, { offset: 6, limit: 3 });
    expect(t1).toMatchObject({ total: 7, nextOffset: null });
    expect(t1.items[0]).toMatchObject({ tradeNo: 'T1', createdAt: day(1), totalAmount: 1500 });
    expect(t1.items[0]!.payments.map((p) => p.paymentId)).toEqual(['p1b', 'p1']);
    // Past the end: empty, no next page.
    expect(getOrdersPage(db, 's', NOW, { offset: 7, limit: 3 })).toEqual({ items: [], total: 7, nextOffset: null });
    // The pages are the whole view's orders, field by field.
    const all = [0, 3, 6].flatMap((o) => getOrdersPage(db, 's', NOW, { offset: o, limit: 3 }).items);
    expect(all).toEqual(getBilling(db, 's', NOW).orders);
  });

  it('the summary counts orders and payments and totals every page per currency', () => {
    const db = withSite({ payments });
    expect(getBillingSummary(db, 's', NOW)).toEqual({
      orderCount: 7,
      paymentCount: 8,
      pendingCount: 0,
      pendingInstructions: [],
      totals: [
        { currency: 'TWD', paid: 6500, refunded: 1000 },
        { currency: 'USD', paid: 49, refunded: 0 },
      ],
    });
    expect(getBillingSummary(db, 's', NOW).totals).toEqual(getBilling(db, 's', NOW).totals);
  });

  it('the orders follow each commit of the payments, and leave with the site', () => {
    const db = withSite({ payments });
    commitSnapshot(db, 's', { payments: [payment('q1', { tradeNo: 'N1', createdAt: day(9) }), ...payments.slice(0, 2)] });
    expect(getOrdersPage(db, 's', NOW).items.map((o) => o.tradeNo)).toEqual(['N1', 'T1']);
    expect(getBillingSummary(db, 's', NOW)).toMatchObject({ orderCount: 2, paymentCount: 3 });
    removeSiteData(db, 's');
    expect(db.prepare('SELECT count(*) AS n FROM orders').get()).toEqual({ n: 0 });
  });

  const unpaid = { paymentType: 'atm', paymentState: 'not_paid', paidAt: null, bankCode: '812', bankName: 'Taishin', lineitems: [] } as const;
  const codes = [
    payment('a', { ...unpaid, tradeNo: 'A', codeNo: '111', expiredAt: '2026-06-20T00:00:00.000Z' }),
    payment('b', { ...unpaid, tradeNo: 'B', codeNo: '222', expiredAt: '2026-06-12T00:00:00.000Z' }),
    // The same instant as B's deadline written with an offset: SQLite reads both the same (006 expires_ms).
    payment('c', { ...unpaid, tradeNo: 'C', codeNo: '333', expiredAt: '2026-06-12T08:00:00.000+08:00' }),
    payment('d', { ...unpaid, tradeNo: 'D', codeNo: '444', expiredAt: null }),
    payment('e', { ...unpaid, tradeNo: 'E', codeNo: '555', expiredAt: '2026-06-01T00:00:00.000Z' }),
  ];

  it('payable codes: soonest deadline first (none last), judged against the clock of each call', () => {
    const db = withSite({ payments: codes });
    const first = getPayableInstructionsPage(db, 's', NOW, { limit: 2 });
    expect(first.items.map((p) => p.paymentId)).toEqual(['b', 'c']);
    expect(first).toMatchObject({ total: 4, nextOffset: 2 });
    expect(getPayableInstructionsPage(db, 's', NOW, { offset: 2, limit: 2 }).items.map((p) => p.paymentId)).toEqual(['a', 'd']);
    expect(getBillingSummary(db, 's', NOW)).toMatchObject({ pendingCount: 4, pendingInstructions: getPayableInstructionsPage(db, 's', NOW, { limit: 5 }).items });
    // At B's (and C's) deadline exactly: both expired, in the page, the summary and the orders alike.
    const deadline = at('2026-06-12T00:00:00.000Z');
    expect(getPayableInstructionsPage(db, 's', deadline).items.map((p) => p.paymentId)).toEqual(['a', 'd']);
    expect(getBillingSummary(db, 's', deadline).pendingCount).toBe(2);
    expect(getBillingSummary(db, 's', deadline).pendingInstructions.map((p) => p.paymentId)).toEqual(['a', 'd']);
    const orders = Object.fromEntries(getOrdersPage(db, 's', deadline).items.map((o) => [o.tradeNo, o]));
    expect(orders.B).toMatchObject({ summaryState: 'expired' });
    expect(orders.C!.payments[0]!.instructions).toMatchObject({ expiredAt: '2026-06-12T08:00:00.000+08:00', isExpired: true });
    expect(orders.A).toMatchObject({ summaryState: 'awaiting_payment' });
    // A millisecond before, still payable (the memoised summary was computed for a later clock: recomputed).
    expect(getBillingSummary(db, 's', at('2026-06-11T23:59:59.999Z')).pendingCount).toBe(4);
    expect(getOrdersPage(db, 's', at('2026-06-11T23:59:59.999Z')).items.find((o) => o.tradeNo === 'B')!.summaryState).toBe('awaiting_payment');
  });

  it('a mark-read keeps the billing summary memo; a write no writer accounted for drops it (fail-safe)', () => {
    const db = withSite({ payments: codes, notifications: [notification('n1')] });
    const summary = getBillingSummary(db, 's', NOW);
    enqueueChange(db, 's', { kind: 'mark-notification-read', notificationId: 'n1' }, NOW);
    expect(getBillingSummary(db, 's', NOW)).toBe(summary);
    db.prepare("UPDATE payments SET payment_state = 'paid' WHERE id = 'b'").run();
    expect(getBillingSummary(db, 's', NOW)).not.toBe(summary);
    expect(getBillingSummary(db, 's', NOW).pendingCount).toBe(3);
  });
});

describe('notification pages (issue 6): newest first, "only unread" at the source', () => {
  const notices = Array.from({ length: 7 }, (_, i) =>
    notification(`n${i + 1}`, { createdAt: day(i + 1), readAt: i % 2 === 0 ? null : day(20) }),
  ); // unread: n1 n3 n5 n7

  it('pages and totals, with and without the filter', () => {
    const db = withSite({ notifications: notices });
    const ids = (p: { items: readonly { id: string }[] }) => p.items.map((n) => n.id);
    const first = getNotificationsPage(db, 's', { limit: 3 });
    expect(ids(first)).toEqual(['n7', 'n6', 'n5']);
    expect(first).toMatchObject({ total: 7, nextOffset: 3 });
    expect(ids(getNotificationsPage(db, 's', { offset: 6, limit: 3 }))).toEqual(['n1']);
    expect(getNotificationsPage(db, 's', { offset: 6, limit: 3 }).nextOffset).toBeNull();
    const unread = getNotificationsPage(db, 's', { limit: 3, onlyUnread: true });
    expect(ids(unread)).toEqual(['n7', 'n5', 'n3']);
    expect(unread).toMatchObject({ total: 4, nextOffset: 3 });
    expect(ids(getNotificationsPage(db, 's', { offset: 3, limit: 3, onlyUnread: true }))).toEqual(['n1']);
    expect(getNotificationsSummary(db, 's')).toEqual({ total: 7, unreadCount: 4, subscriptions: [] });
    // The whole view is the same rows.
    expect(getNotifications(db, 's').items).toEqual([0, 3, 6].flatMap((o) => getNotificationsPage(db, 's', { offset: o, limit: 3 }).items));
  });

  it('a mark-read shows at once: read and pending in the page, out of the unread pages, counted in the summary', () => {
    const db = withSite({ notifications: notices, subscriptions: [{ topic: 'announcements', channel: 'email', enabled: true }] });
    const before = getNotificationsSummary(db, 's');
    enqueueChange(db, 's', { kind: 'mark-notification-read', notificationId: 'n5' }, NOW);
    expect(getNotificationsPage(db, 's', { limit: 3 }).items[2]).toMatchObject({ id: 'n5', readAt: NOW.toISOString(), pendingSync: true });
    expect(getNotificationsPage(db, 's', { limit: 3 }).items[0]).toMatchObject({ id: 'n7', readAt: null, pendingSync: false });
    const unread = getNotificationsPage(db, 's', { onlyUnread: true });
    expect(unread.items.map((n) => n.id)).toEqual(['n7', 'n3', 'n1']);
    expect(unread.total).toBe(3);
    const after = getNotificationsSummary(db, 's');
    expect(after).not.toBe(before);
    expect(after).toMatchObject({ total: 7, unreadCount: 3 });
    enqueueChange(db, 's', { kind: 'update-notification-subscription', topic: 'announcements', channel: 'email', enabled: false }, NOW);
    expect(getNotificationsSummary(db, 's').subscriptions).toEqual([{ topic: 'announcements', channel: 'email', enabled: false, pendingSync: true }]);
    enqueueChange(db, 's', { kind: 'mark-all-notifications-read' }, NOW);
    expect(getNotificationsPage(db, 's', { onlyUnread: true })).toEqual({ items: [], total: 0, nextOffset: null });
    expect(getNotificationsPage(db, 's').items.every((n) => n.readAt !== null)).toBe(true);
    expect(getNotificationsSummary(db, 's').unreadCount).toBe(0);
  });
});

describe('notifications: many queued mark-reads', () => {
  it('flags each one pending, in a page and in the whole inbox alike', () => {
    const many = Array.from({ length: 150 }, (_, i) => notification(`m${String(i).padStart(3, '0')}`, { createdAt: day(1 + (i % 28)) }));
    const db = withSite({ notifications: many });
    for (const n of many.slice(0, 140)) enqueueChange(db, 's', { kind: 'mark-notification-read', notificationId: n.id }, NOW);
    const whole = getNotifications(db, 's').items;
    expect(whole.filter((n) => n.pendingSync)).toHaveLength(140);
    expect(whole.filter((n) => n.readAt === null).map((n) => n.id).sort()).toEqual(many.slice(140).map((n) => n.id));
    const page = getNotificationsPage(db, 's', { limit: 100 }).items;
    expect(page).toEqual(whole.slice(0, 100));
  });
});

describe('library pages (issue 6): filtered by the core at read time', () => {
  const courses = [
    course('c1', { hasLifetimeAccess: true }),
    course('c2', { hasLifetimeAccess: false, expireDate: '2026-06-15T00:00:00.000Z' }),
    course('c3', { hasLifetimeAccess: false, expireDate: '2026-05-01T00:00:00.000Z' }),
    course('c4', { detailProgress: { totalLectures: 2, readLectures: 2, completedLectures: 2, percent: 100, completedAt: day(2) } }),
    // Same instant as c2's expiry, written in +08:00.
    course('c5', { hasLifetimeAccess: false, expireDate: '2026-06-15T08:00:00+08:00' }),
  ];

  it('pages in the service order, every filter with its own total, the course count whatever the filter', () => {
    const db = withSite({ courses });
    const ids = (p: { items: readonly { courseId: string }[] }) => p.items.map((c) => c.courseId);
    const first = getLibraryPage(db, 's', NOW, { limit: 2 });
    expect(ids(first)).toEqual(['c1', 'c2']);
    expect(first).toMatchObject({ total: 5, nextOffset: 2, courseCount: 5 });
    expect(ids(getLibraryPage(db, 's', NOW, { offset: 4, limit: 2 }))).toEqual(['c5']);
    expect(getLibraryPage(db, 's', NOW, { filter: 'expired' })).toMatchObject({ total: 1, courseCount: 5, nextOffset: null });
    expect(ids(getLibraryPage(db, 's', NOW, { filter: 'expired' }))).toEqual(['c3']);
    expect(ids(getLibraryPage(db, 's', NOW, { filter: 'in-progress' }))).toEqual(['c1', 'c2', 'c5']);
    expect(ids(getLibraryPage(db, 's', NOW, { filter: 'completed' }))).toEqual(['c4']);
    // Continue watching (joined per page row) on a deep page.
    expect(getLibraryPage(db, 's', NOW, { offset: 4, limit: 1 }).items[0]!.continueWatching).toMatchObject({ lectureId: 'c5-l2', lectureTitle: 'Knife skills' });
    expect(getLibraryPage(db, 's', NOW).items).toEqual(getLibrary(db, 's', NOW));
  });

  it('expiry flags and filters flip together at the instant access ends, whatever offset the date was written in', () => {
    const db = withSite({ courses });
    const expiredAt = (iso: string) => getLibraryPage(db, 's', at(iso), { filter: 'expired' }).items.map((c) => c.courseId);
    expect(expiredAt('2026-06-14T23:59:59.999Z')).toEqual(['c3']);
    expect(expiredAt('2026-06-15T00:00:00.000Z')).toEqual(['c2', 'c3', 'c5']);
    const atExpiry = getLibraryPage(db, 's', at('2026-06-15T00:00:00.000Z')).items;
    expect(atExpiry.filter((c) => c.isExpired).map((c) => c.courseId)).toEqual(['c2', 'c3', 'c5']);
    const before = getLibraryPage(db, 's', NOW).items.find((c) => c.courseId === 'c5')!;
    expect(before).toMatchObject({ isExpired: false, expiresSoon: true, expireDate: '2026-06-15T08:00:00+08:00' });
  });
});

describe('library power tools: filters, orders, time left, every school', () => {
  const unstarted = { totalLectures: 2, readLectures: 0, completedLectures: 0, percent: 0, completedAt: null };
  const courses = [
    // Started (a lecture read), access ends in 4 days.
    course('a', { title: 'beta', hasLifetimeAccess: false, expireDate: '2026-06-14T00:00:00.000Z', lastWatchedLecture: { lectureId: 'a-l2', positionSeconds: 1, watchedAt: '2026-06-09T00:00:00.000Z' } }),
    // Never started: 0%, nothing watched. Lifetime access.
    course('b', { title: 'Alpha', detailProgress: unstarted, lastWatchedLecture: null }),
    // Finished.
    course('c', { title: 'gamma', detailProgress: { totalLectures: 2, readLectures: 2, completedLectures: 2, percent: 100, completedAt: day(2) }, lastWatchedLecture: { lectureId: 'c-l2', positionSeconds: 1, watchedAt: '2026-05-01T00:00:00.000Z' } }),
    // Ended.
    course('d', { title: 'delta', hasLifetimeAccess: false, expireDate: '2026-05-01T00:00:00.000Z' }),
    // Not started, access ends in 30 days.
    course('e', { title: 'Epsilon', hasLifetimeAccess: false, expireDate: '2026-07-10T00:00:00.000Z', detailProgress: unstarted, lastWatchedLecture: null }),
  ];
  const ids = (p: { items: readonly { courseId: string }[] }) => p.items.map((c) => c.courseId);

  it('in progress means started and not finished (a course at 0% is "not started"); expiring soon is within 14 days', () => {
    const db = withSite({ courses });
    const by = (filter: LibraryFilter) => ids(getLibraryPage(db, 's', NOW, { filter }));
    expect(by('in-progress')).toEqual(['a']);
    expect(by('not-started')).toEqual(['b', 'e']);
    expect(by('completed')).toEqual(['c']);
    expect(by('expiring-soon')).toEqual(['a']);
    expect(by('expired')).toEqual(['d']);
    expect(by('all')).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('orders by recent activity, access ending soonest, progress and title, and pages in that order', () => {
    const db = withSite({ courses });
    const by = (sort: LibrarySort) => ids(getLibraryPage(db, 's', NOW, { sort }));
    // Last watched first (a on 06-09, then the fixtures' 02-01 for d, then c on 05-01...), else the enrolment date.
    expect(by('recent')).toEqual(['a', 'c', 'd', 'b', 'e']);
    // Open access soonest first (a, e), then ended (d), then lifetime in the school's order.
    expect(by('ending')).toEqual(['a', 'e', 'd', 'b', 'c']);
    expect(by('progress')).toEqual(['c', 'a', 'd', 'b', 'e']);
    expect(by('title')).toEqual(['b', 'a', 'd', 'e', 'c']);
    const first = getLibraryPage(db, 's', NOW, { sort: 'title', limit: 2 });
    expect(ids(first)).toEqual(['b', 'a']);
    expect(ids(getLibraryPage(db, 's', NOW, { sort: 'title', offset: first.nextOffset!, limit: 2 }))).toEqual(['d', 'e']);
    expect(ids(getLibraryPage(db, 's', NOW, { sort: 'ending', filter: 'not-started' }))).toEqual(['e', 'b']);
  });

  it('says what is left of each course: lectures not completed and their length', () => {
    const db = withSite({ courses });
    const page = getLibraryPage(db, 's', NOW).items;
    // The fixture's lectures: l1 completed (60 s), l2 read (300 s).
    expect(page.find((c) => c.courseId === 'a')).toMatchObject({ lecturesLeft: 1, secondsLeft: 300, siteId: 's' });
    expect(getLibrary(db, 's', NOW).map((c) => c.secondsLeft)).toEqual(page.map((c) => c.secondsLeft));
  });

  it('lists the courses of every school in one library, each with its site', () => {
    const db = withSite({ courses: courses.slice(0, 2) }, 'one');
    ensureSite(db, 'two', new Date(NOW.getTime() + 1000));
    commitSnapshot(db, 'two', { courses: [course('z', { title: 'Zeta', detailProgress: unstarted, lastWatchedLecture: null })] });
    const all = getAllSitesLibraryPage(db, NOW);
    expect(all.items.map((c) => [c.siteId, c.courseId])).toEqual([
      ['one', 'a'],
      ['one', 'b'],
      ['two', 'z'],
    ]);
    expect(all).toMatchObject({ total: 3, courseCount: 3 });
    expect(ids(getAllSitesLibraryPage(db, NOW, { filter: 'not-started', sort: 'title' }))).toEqual(['b', 'z']);
    expect(getAllSitesLibraryPage(db, NOW, { filter: 'not-started' })).toMatchObject({ total: 2, courseCount: 3 });
    removeSiteData(db, 'two');
    expect(ids(getAllSitesLibraryPage(db, NOW))).toEqual(['a', 'b']);
  });

  it('the contract accepts every filter and order, and refuses others', () => {
    const input = ipcContract['library:page'].input;
    expect(input.parse({ siteId: 's' })).toMatchObject({ filter: 'all', sort: 'service' });
    expect(input.safeParse({ siteId: 's', filter: 'not-started', sort: 'ending' }).success).toBe(true);
    expect(input.safeParse({ siteId: 's', sort: 'price' }).success).toBe(false);
    expect(ipcContract['library:all-page'].input.safeParse({ filter: 'expiring-soon', sort: 'recent' }).success).toBe(true);
  });
});

describe('migration 006 (view pages)', () => {
  it('fills the orders of payments stored by version 5, and reads expiries as epoch ms', () => {
    const file = tempFile();
    const v5 = new Database(file);
    v5.pragma('foreign_keys = ON');
    for (const m of MIGRATIONS.filter((m) => m.version <= 5)) v5.exec(m.sql);
    v5.pragma('user_version = 5');
    v5.prepare("INSERT INTO sites (id, created_at) VALUES ('s1', '2026-01-01T00:00:00.000Z')").run();
    const insert = v5.prepare(
      `INSERT INTO payments (site_id, id, position, trade_no, amount, currency, payment_type, created_at, payment_state, refunding_state,
         refunded_amount, code_no, expired_at, adjustments, line_items)
       VALUES ('s1', @id, 0, @trade, 100, 'TWD', 'atm', @created, 'not_paid', 'none', 0, '1', @expired, '[]', '[]')`,
    );
    insert.run({ id: 'p1', trade: 'T1', created: day(2), expired: '2026-06-30T00:00:00.000Z' });
    insert.run({ id: 'p2', trade: 'T1', created: day(1), expired: '2026-06-30T00:00:00.000Z' });
    insert.run({ id: 'p3', trade: 'T2', created: day(3), expired: '2026-06-01T00:00:00.000Z' });
    v5.close();

    const db = openDb(file);
    expect(db.prepare('SELECT trade_no, created_at FROM orders ORDER BY trade_no').all()).toEqual([
      { trade_no: 'T1', created_at: day(1) },
      { trade_no: 'T2', created_at: day(3) },
    ]);
    expect(db.prepare("SELECT expires_ms FROM payments WHERE id = 'p3'").get()).toEqual({ expires_ms: Date.parse('2026-06-01T00:00:00.000Z') });
    expect(getOrdersPage(db, 's1', NOW).items.map((o) => [o.tradeNo, o.summaryState])).toEqual([
      ['T2', 'expired'],
      ['T1', 'awaiting_payment'],
    ]);
    expect(getBillingSummary(db, 's1', NOW)).toMatchObject({ orderCount: 2, paymentCount: 3, pendingCount: 2 });
  });
});

describe('short search terms (007): the grams index answers what the LIKE scan did', () => {
  const snap: SiteSnapshot = {
    courses: [course('c1', { title: 'Personal Finance 個人理財入門' }), course('c2', { title: 'Python basics' })],
    notifications: [notification('n1', { title: '休館通知', body: '週五休館 happy' }), notification('n2', { title: 'Exam', body: 'in room 5' })],
  };
  const queries = ['理財', '週五', '數', 'py', 'PY', 'p', 'y', '5', 'c#', '館', 'zz', '理財 py', 'finance 理財'];
  const hits = (db: Database.Database, siteId = 's') => queries.map((q) => [q, search(db, siteId, q).map((h) => [h.id, h.snippet])]);

  it('gives the same hits, in the same order, before the rows are indexed (scan) and after (grams)', () => {
    const db = withSite(snap);
    const scanned = hits(db);
    expect(indexShortTerms(db)).toBeGreaterThan(0);
    expect(indexShortTerms(db)).toBe(0);
    expect(hits(db)).toEqual(scanned);
    expect(search(db, 's', '理財')).toEqual([{ kind: 'course', id: 'c1', courseId: 'c1', title: 'Personal Finance 個人理財入門', snippet: 'Personal Finance 個人[[理財]]入門' }]);
    expect(search(db, 's', 'py').map((h) => h.id)).toEqual(['c2', 'n1']); // Python, happy
    expect(search(db, 's', 'y').map((h) => h.id)).toEqual(['c2', 'n1']); // a 1-character term also at the end of a word
    expect(search(db, 's', '5').map((h) => h.id)).toEqual(['n2']);
  });

  it('gives the same hits while the index is written in steps (rows up to the step through grams, the rest scanned)', () => {
    const db = withSite(snap);
    const scanned = hits(db);
    const steps: number[] = [];
    for (let n = indexShortTerms(db, 2); n > 0; n = indexShortTerms(db, 2)) {
      steps.push(n);
      expect(hits(db)).toEqual(scanned);
    }
    expect(steps.length).toBeGreaterThan(2);
    expect(hits(db)).toEqual(scanned);
  });

  it('stays exact across commits (rows rewritten, not yet indexed, then compacted) and never mixes sites', () => {
    const db = withSite(snap);
    ensureSite(db, 't', NOW);
    commitSnapshot(db, 't', { courses: [course('t1', { title: '理財 for site t' })] });
    indexShortTerms(db);
    // Rewrite s's courses: the old rows' grams stay behind (garbage) and must not match anything.
    commitSnapshot(db, 's', { ...snap, courses: [course('c9', { title: 'Spy novels 理財' })] });
    expect(search(db, 's', '理財').map((h) => h.id)).toEqual(['c9']);
    expect(search(db, 't', '理財').map((h) => h.id)).toEqual(['t1']);
    indexShortTerms(db);
    expect(search(db, 's', '理財').map((h) => h.id)).toEqual(['c9']);
    // The unchanged notices kept their rows (and older row ids): the scan's order is row id order.
    expect(search(db, 's', 'py').map((h) => h.id)).toEqual(['n1', 'c9']);
    const state = () => db.prepare('SELECT indexed_through, next_rowid, garbage FROM search_state').get() as { indexed_through: number; next_rowid: number; garbage: number };
    // s's old course rows (course, section, 2 lectures, twice) are a third of the rows indexed: compacted by the pass above.
    expect(state().garbage).toBe(0);
    expect(state().indexed_through).toBeGreaterThan(0);
    removeSiteData(db, 't');
    // Removing a site drops the whole grams index: nothing derived from t's text stays; s is scanned meanwhile.
    expect(state()).toMatchObject({ indexed_through: 0, garbage: 0 });
    expect(db.prepare("SELECT count(*) AS n FROM search_grams WHERE search_grams MATCH '理財'").get()).toEqual({ n: 0 });
    expect(search(db, 't', '理財')).toEqual([]);
    expect(search(db, 's', '理財').map((h) => h.id)).toEqual(['c9']);
    // Row ids are never reused, so grams left behind never point at a new row.
    const next = state().next_rowid;
    commitSnapshot(db, 's', { courses: [course('c10', { title: 'Zebra' })] });
    expect((db.prepare('SELECT min(rowid) AS r FROM search_index WHERE kind = ?').get('course') as { r: number }).r).toBeGreaterThanOrEqual(next);
    expect(search(db, 's', '理財')).toEqual([]);
    indexShortTerms(db);
    expect(search(db, 's', 'ze').map((h) => h.id)).toEqual(['c10']);
  });
});

describe('page channels validate their input (the renderer is untrusted)', () => {
  it('defaults to the first page of 50, bounds the limit, refuses unknown keys and filters', () => {
    expect(ipcContract['notifications:page'].input.parse({ siteId: 's' })).toEqual({ siteId: 's', offset: 0, limit: 50, onlyUnread: false });
    expect(ipcContract['library:page'].input.parse({ siteId: 's', offset: 100, limit: PAGE_LIMIT_MAX, filter: 'expired' })).toMatchObject({ filter: 'expired' });
    for (const bad of [{ limit: PAGE_LIMIT_MAX + 1 }, { limit: 0 }, { offset: -1 }, { offset: 1.5 }, { filter: 'all' }, { cursor: 'x' }]) {
      expect(ipcContract['billing:orders'].input.safeParse({ siteId: 's', ...bad }).success, JSON.stringify(bad)).toBe(false);
    }
    expect(ipcContract['library:page'].input.safeParse({ siteId: 's', filter: 'newest' }).success).toBe(false);
    expect(ipcContract['billing:summary'].input.safeParse({ siteId: 's', limit: 5 }).success).toBe(false);
  });
});
