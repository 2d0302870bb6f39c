import { afterEach, describe, expect, it } from 'vitest';
import { getOrdersPage, getSpendingByYear } from '../../../electron/core/db';
import {
  ORDER_FILTERS,
  type OrderFilter,
  type OrderView,
} from '../../../electron/common/view-models';
import { payment } from './fixtures';
import { at, closeDatabases, day, NOW, withSite } from './pages-scaffold';

afterEach(closeDatabases);

const item = (id: string, title: string) => ({
  id,
  itemType: 'CurriculumPlan' as const,
  title,
  quantity: 1,
  originalAmount: 1000,
  discountAmount: 0,
  finalAmount: 1000,
});
const unpaid = {
  paymentState: 'not_paid' as const,
  paymentType: 'atm' as const,
  paidAt: null,
  bankCode: '812',
};

// One order in every state the screen shows, on days 1..10 (newest: J).
const payments = [
  payment('a', {
    tradeNo: 'A-100',
    createdAt: day(1),
    lineitems: [item('la', 'Intro to Data Analysis')],
  }),
  payment('b', {
    tradeNo: 'B-200',
    createdAt: day(2),
    paymentState: 'refunded',
    refundingState: 'refunded',
    refundedAmount: 1000,
  }),
  payment('c', {
    tradeNo: 'C-300',
    createdAt: day(3),
    refundingState: 'partially_refunded',
    refundedAmount: 300,
  }),
  payment('d', {
    tradeNo: 'D-400',
    createdAt: day(4),
    ...unpaid,
    codeNo: '444',
    expiredAt: '2026-06-12T00:00:00.000Z',
  }),
  payment('e', {
    tradeNo: 'E-500',
    createdAt: day(5),
    ...unpaid,
    codeNo: '555',
    expiredAt: '2026-06-01T00:00:00.000Z',
  }),
  payment('f', { tradeNo: 'F-600', createdAt: day(6), paymentState: 'failed', paidAt: null }),
  payment('g', { tradeNo: 'G-700', createdAt: day(7), paymentState: 'expired', paidAt: null }),
  // Retried after a failed attempt, then paid: a paid order.
  payment('h1', { tradeNo: 'H-800', createdAt: day(8), paymentState: 'failed', paidAt: null }),
  payment('h2', {
    tradeNo: 'H-800',
    createdAt: day(8).replace('T00', 'T01'),
    lineitems: [item('lh', '100% Cotton_Weaving')],
  }),
  payment('i', {
    tradeNo: 'I-900',
    createdAt: day(9),
    paymentState: 'manual_enrolled',
    paidAt: null,
  }),
  // A paid payment beside an unpaid one: mixed.
  payment('j1', { tradeNo: 'J-1000', createdAt: day(10) }),
  payment('j2', { tradeNo: 'J-1000', createdAt: day(10).replace('T00', 'T02'), ...unpaid }),
];

const IN_FILTER: Record<Exclude<OrderFilter, 'all'>, readonly OrderView['summaryState'][]> = {
  waiting: ['awaiting_payment'],
  paid: ['paid'],
  refunded: ['refunded', 'partially_refunded'],
  failed: ['failed', 'expired'],
};

const trades = (page: { items: readonly OrderView[] }) => page.items.map((o) => o.tradeNo);

describe('Purchases: filters and search, applied in SQL at read time', () => {
  it('each filter holds exactly the orders whose shown state it names, newest first, counted alike', () => {
    const db = withSite({ payments });
    const all = getOrdersPage(db, 's', NOW).items;
    expect(new Set(all.map((o) => o.summaryState))).toEqual(
      new Set([
        'paid',
        'refunded',
        'partially_refunded',
        'awaiting_payment',
        'expired',
        'failed',
        'manual_enrolled',
        'mixed',
      ]),
    );
    for (const f of ORDER_FILTERS) {
      const page = getOrdersPage(db, 's', NOW, { state: f });
      const expected = f === 'all' ? all : all.filter((o) => IN_FILTER[f].includes(o.summaryState));
      expect(page.items, f).toEqual(expected);
      expect(page.total, f).toBe(expected.length);
    }
    expect(trades(getOrdersPage(db, 's', NOW, { state: 'waiting' }))).toEqual(['D-400']);
    expect(trades(getOrdersPage(db, 's', NOW, { state: 'paid' }))).toEqual(['H-800', 'A-100']);
    expect(trades(getOrdersPage(db, 's', NOW, { state: 'refunded' }))).toEqual(['C-300', 'B-200']);
    expect(trades(getOrdersPage(db, 's', NOW, { state: 'failed' }))).toEqual([
      'G-700',
      'F-600',
      'E-500',
    ]);
  });

  it('waiting and failed follow the clock of the call: a code past its deadline moves from one to the other', () => {
    const db = withSite({ payments });
    const deadline = at('2026-06-12T00:00:00.000Z');
    expect(
      trades(getOrdersPage(db, 's', at('2026-06-11T23:59:59.999Z'), { state: 'waiting' })),
    ).toEqual(['D-400']);
    expect(trades(getOrdersPage(db, 's', deadline, { state: 'waiting' }))).toEqual([]);
    expect(trades(getOrdersPage(db, 's', deadline, { state: 'failed' }))).toEqual([
      'G-700',
      'F-600',
      'E-500',
      'D-400',
    ]);
  });

  it('a filtered list pages like the whole one: every match once, the filtered total on each page', () => {
    const db = withSite({ payments });
    const first = getOrdersPage(db, 's', NOW, { state: 'failed', limit: 2 });
    expect(first).toMatchObject({ total: 3, nextOffset: 2 });
    const second = getOrdersPage(db, 's', NOW, { state: 'failed', offset: 2, limit: 2 });
    expect(second).toMatchObject({ total: 3, nextOffset: null });
    expect([...trades(first), ...trades(second)]).toEqual(['G-700', 'F-600', 'E-500']);
  });

  it('search: part of an order number or of an item title, any case; % and _ are plain characters', () => {
    const db = withSite({ payments });
    expect(trades(getOrdersPage(db, 's', NOW, { query: 'c-3' }))).toEqual(['C-300']);
    expect(trades(getOrdersPage(db, 's', NOW, { query: '  data analysis ' }))).toEqual(['A-100']);
    // Titles of any payment of the order count (H-800's title is on its second payment).
    expect(trades(getOrdersPage(db, 's', NOW, { query: '100% cotton_' }))).toEqual(['H-800']);
    // Taken literally, '%' and '_' match no other order ('100' is in J-1000's number, not '100%').
    expect(trades(getOrdersPage(db, 's', NOW, { query: '0%' }))).toEqual(['H-800']);
    expect(trades(getOrdersPage(db, 's', NOW, { query: '_' }))).toEqual(['H-800']);
    // JSON keys are not searched: every line item has a "title" key.
    expect(getOrdersPage(db, 's', NOW, { query: 'title' })).toEqual({
      items: [],
      total: 0,
      nextOffset: null,
    });
    // With a filter: both apply.
    expect(trades(getOrdersPage(db, 's', NOW, { query: 'plan', state: 'refunded' }))).toEqual([
      'C-300',
      'B-200',
    ]);
    expect(trades(getOrdersPage(db, 's', NOW, { query: '', state: 'all' }))).toHaveLength(10);
  });
});

describe('Purchases: spending per year and currency', () => {
  it('paid minus refunded per year and currency, each order in the year it was placed, newest year first', () => {
    const db = withSite({
      payments: [
        payment('y1', { tradeNo: 'Y1', createdAt: '2025-12-31T23:00:00.000Z', amount: 2000 }),
        // Placed in 2025, its second payment in 2026: all of it counts in 2025 (the order's year).
        payment('y2a', { tradeNo: 'Y2', createdAt: '2025-03-01T00:00:00.000Z', amount: 500 }),
        payment('y2b', {
          tradeNo: 'Y2',
          createdAt: '2026-01-05T00:00:00.000Z',
          amount: 500,
          refundingState: 'partially_refunded',
          refundedAmount: 200,
        }),
        payment('y3', {
          tradeNo: 'Y3',
          createdAt: '2026-02-01T00:00:00.000Z',
          amount: 1000,
          paymentState: 'refunded',
          refundingState: 'refunded',
          refundedAmount: 1000,
        }),
        payment('y4', {
          tradeNo: 'Y4',
          createdAt: '2026-02-02T00:00:00.000Z',
          amount: 30,
          currency: 'USD',
        }),
        // Never paid: nothing spent, still an order of its year.
        payment('y5', {
          tradeNo: 'Y5',
          createdAt: '2026-02-03T00:00:00.000Z',
          amount: 900,
          paymentState: 'failed',
          paidAt: null,
        }),
        payment('y6', { tradeNo: 'Y6', createdAt: '2026-02-04T00:00:00.000Z', amount: 700 }),
      ],
    });
    expect(getSpendingByYear(db, 's')).toEqual([
      { year: '2026', currency: 'TWD', paid: 1700, refunded: 1000, spent: 700, orderCount: 3 },
      { year: '2026', currency: 'USD', paid: 30, refunded: 0, spent: 30, orderCount: 1 },
      { year: '2025', currency: 'TWD', paid: 3000, refunded: 200, spent: 2800, orderCount: 2 },
    ]);
    // The years are those of the order list's headings: the orders' own dates.
    const years = new Set(getOrdersPage(db, 's', NOW).items.map((o) => o.createdAt.slice(0, 4)));
    expect(new Set(getSpendingByYear(db, 's').map((r) => r.year))).toEqual(years);
    expect(getSpendingByYear(db, 'nobody')).toEqual([]);
  });
});
