import { afterEach, describe, expect, it } from 'vitest';
import {
  commitSnapshot,
  enqueueChange,
  getBilling,
  getBillingSummary,
  getNotifications,
  getNotificationsPage,
  getNotificationsSummary,
  getOrdersPage,
  getPayableInstructionsPage,
  removeSiteData,
} from '../../../electron/core/db';
import { notification, payment } from './fixtures';
import { closeDatabases, NOW, withSite, at, day } from './pages-scaffold';

afterEach(closeDatabases);

describe('billing pages: orders newest first, a page at a time', () => {
  // 7 orders on days 1..7 (T1 has two payments, the first on day 1), one order in USD.
  const payments = [
    payment('p1', { tradeNo: 'T1', createdAt: day(1) }),
    payment('p1b', { tradeNo: 'T1', createdAt: day(8), amount: 500 }),
    payment('p2', { tradeNo: 'T2', createdAt: day(2) }),
    payment('p3', { tradeNo: 'T3', createdAt: day(3), currency: 'USD', amount: 49 }),
    payment('p4', {
      tradeNo: 'T4',
      createdAt: day(4),
      paymentState: 'refunded',
      refundingState: 'refunded',
      refundedAmount: 1000,
    }),
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
    // T1 is dated by its first payment (day 1) although its second one is the newest payment of
    // all.
    expect(seen).toEqual(['T7', 'T6', 'T5', 'T4', 'T3', 'T2', 'T1']);
    expect([...totals]).toEqual([7]);
    const t1 = getOrdersPage(db, 's', NOW, { offset: 6, limit: 3 });
    expect(t1).toMatchObject({ total: 7, nextOffset: null });
    expect(t1.items[0]).toMatchObject({ tradeNo: 'T1', createdAt: day(1), totalAmount: 1500 });
    expect(t1.items[0]!.payments.map((p) => p.paymentId)).toEqual(['p1b', 'p1']);
    // Past the end: empty, no next page.
    expect(getOrdersPage(db, 's', NOW, { offset: 7, limit: 3 })).toEqual({
      items: [],
      total: 7,
      nextOffset: null,
    });
    // The pages are the whole view's orders, field by field.
    const all = [0, 3, 6].flatMap(
      (o) => getOrdersPage(db, 's', NOW, { offset: o, limit: 3 }).items,
    );
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
    commitSnapshot(db, 's', {
      payments: [payment('q1', { tradeNo: 'N1', createdAt: day(9) }), ...payments.slice(0, 2)],
    });
    expect(getOrdersPage(db, 's', NOW).items.map((o) => o.tradeNo)).toEqual(['N1', 'T1']);
    expect(getBillingSummary(db, 's', NOW)).toMatchObject({ orderCount: 2, paymentCount: 3 });
    removeSiteData(db, 's');
    expect(db.prepare('SELECT count(*) AS n FROM orders').get()).toEqual({ n: 0 });
  });

  const unpaid = {
    paymentType: 'atm',
    paymentState: 'not_paid',
    paidAt: null,
    bankCode: '812',
    bankName: 'Taishin',
    lineitems: [],
  } as const;
  const codes = [
    payment('a', { ...unpaid, tradeNo: 'A', codeNo: '111', expiredAt: '2026-06-20T00:00:00.000Z' }),
    payment('b', { ...unpaid, tradeNo: 'B', codeNo: '222', expiredAt: '2026-06-12T00:00:00.000Z' }),
    // The same instant as B's deadline written with an offset: SQLite reads both the same (006
    // expires_ms).
    payment('c', {
      ...unpaid,
      tradeNo: 'C',
      codeNo: '333',
      expiredAt: '2026-06-12T08:00:00.000+08:00',
    }),
    payment('d', { ...unpaid, tradeNo: 'D', codeNo: '444', expiredAt: null }),
    payment('e', { ...unpaid, tradeNo: 'E', codeNo: '555', expiredAt: '2026-06-01T00:00:00.000Z' }),
  ];

  it('payable codes: soonest deadline first (none last), judged against the clock of each call', () => {
    const db = withSite({ payments: codes });
    const first = getPayableInstructionsPage(db, 's', NOW, { limit: 2 });
    expect(first.items.map((p) => p.paymentId)).toEqual(['b', 'c']);
    expect(first).toMatchObject({ total: 4, nextOffset: 2 });
    expect(
      getPayableInstructionsPage(db, 's', NOW, { offset: 2, limit: 2 }).items.map(
        (p) => p.paymentId,
      ),
    ).toEqual(['a', 'd']);
    expect(getBillingSummary(db, 's', NOW)).toMatchObject({
      pendingCount: 4,
      pendingInstructions: getPayableInstructionsPage(db, 's', NOW, { limit: 5 }).items,
    });
    // At B's (and C's) deadline exactly: both expired, in the page, the summary and the orders
    // alike.
    const deadline = at('2026-06-12T00:00:00.000Z');
    expect(getPayableInstructionsPage(db, 's', deadline).items.map((p) => p.paymentId)).toEqual([
      'a',
      'd',
    ]);
    expect(getBillingSummary(db, 's', deadline).pendingCount).toBe(2);
    expect(
      getBillingSummary(db, 's', deadline).pendingInstructions.map((p) => p.paymentId),
    ).toEqual(['a', 'd']);
    const orders = Object.fromEntries(
      getOrdersPage(db, 's', deadline).items.map((o) => [o.tradeNo, o]),
    );
    expect(orders.B).toMatchObject({ summaryState: 'expired' });
    expect(orders.C!.payments[0]!.instructions).toMatchObject({
      expiredAt: '2026-06-12T08:00:00.000+08:00',
      isExpired: true,
    });
    expect(orders.A).toMatchObject({ summaryState: 'awaiting_payment' });
    // A millisecond before, still payable (the memoised summary was computed for a later clock:
    // recomputed).
    expect(getBillingSummary(db, 's', at('2026-06-11T23:59:59.999Z')).pendingCount).toBe(4);
    expect(
      getOrdersPage(db, 's', at('2026-06-11T23:59:59.999Z')).items.find((o) => o.tradeNo === 'B')!
        .summaryState,
    ).toBe('awaiting_payment');
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

describe('notification pages: newest first, "only unread" at the source', () => {
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
    expect(ids(getNotificationsPage(db, 's', { offset: 3, limit: 3, onlyUnread: true }))).toEqual([
      'n1',
    ]);
    expect(getNotificationsSummary(db, 's')).toEqual({
      total: 7,
      unreadCount: 4,
      subscriptions: [],
    });
    // The whole view is the same rows.
    expect(getNotifications(db, 's').items).toEqual(
      [0, 3, 6].flatMap((o) => getNotificationsPage(db, 's', { offset: o, limit: 3 }).items),
    );
  });

  it('a mark-read shows at once: read and pending in the page, out of the unread pages, counted in the summary', () => {
    const db = withSite({
      notifications: notices,
      subscriptions: [{ topic: 'announcements', channel: 'email', enabled: true }],
    });
    const before = getNotificationsSummary(db, 's');
    enqueueChange(db, 's', { kind: 'mark-notification-read', notificationId: 'n5' }, NOW);
    expect(getNotificationsPage(db, 's', { limit: 3 }).items[2]).toMatchObject({
      id: 'n5',
      readAt: NOW.toISOString(),
      pendingSync: true,
    });
    expect(getNotificationsPage(db, 's', { limit: 3 }).items[0]).toMatchObject({
      id: 'n7',
      readAt: null,
      pendingSync: false,
    });
    const unread = getNotificationsPage(db, 's', { onlyUnread: true });
    expect(unread.items.map((n) => n.id)).toEqual(['n7', 'n3', 'n1']);
    expect(unread.total).toBe(3);
    const after = getNotificationsSummary(db, 's');
    expect(after).not.toBe(before);
    expect(after).toMatchObject({ total: 7, unreadCount: 3 });
    enqueueChange(
      db,
      's',
      {
        kind: 'update-notification-subscription',
        topic: 'announcements',
        channel: 'email',
        enabled: false,
      },
      NOW,
    );
    expect(getNotificationsSummary(db, 's').subscriptions).toEqual([
      { topic: 'announcements', channel: 'email', enabled: false, pendingSync: true },
    ]);
    enqueueChange(db, 's', { kind: 'mark-all-notifications-read' }, NOW);
    expect(getNotificationsPage(db, 's', { onlyUnread: true })).toEqual({
      items: [],
      total: 0,
      nextOffset: null,
    });
    expect(getNotificationsPage(db, 's').items.every((n) => n.readAt !== null)).toBe(true);
    expect(getNotificationsSummary(db, 's').unreadCount).toBe(0);
  });
});

describe('notifications: many queued mark-reads', () => {
  it('flags each one pending, in a page and in the whole inbox alike', () => {
    const many = Array.from({ length: 150 }, (_, i) =>
      notification(`m${String(i).padStart(3, '0')}`, { createdAt: day(1 + (i % 28)) }),
    );
    const db = withSite({ notifications: many });
    for (const n of many.slice(0, 140))
      enqueueChange(db, 's', { kind: 'mark-notification-read', notificationId: n.id }, NOW);
    const whole = getNotifications(db, 's').items;
    expect(whole.filter((n) => n.pendingSync)).toHaveLength(140);
    expect(
      whole
        .filter((n) => n.readAt === null)
        .map((n) => n.id)
        .sort(),
    ).toEqual(many.slice(140).map((n) => n.id));
    const page = getNotificationsPage(db, 's', { limit: 100 }).items;
    expect(page).toEqual(whole.slice(0, 100));
  });
});
