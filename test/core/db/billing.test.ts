import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commitSnapshot, ensureSite, getBilling } from '../../../electron/core/db';
import { payment } from './fixtures';
import { openTestDatabase } from '../../helpers/db';

const NOW = new Date('2026-06-10T00:00:00.000Z');
const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((f) => f()));

function billingOf(payments: Parameters<typeof payment>[1][]) {
  const dir = mkdtempSync(join(tmpdir(), 'ld-billing-'));
  const db = openTestDatabase(join(dir, 'offline.db'));
  cleanups.push(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  ensureSite(db, 's');
  commitSnapshot(db, 's', { payments: payments.map((p, i) => payment(`p${i}`, p)) });
  return getBilling(db, 's', NOW);
}

describe('billing view: payments grouped into orders by tradeNo (service-spec "Payment node")', () => {
  it('a purchase paid in several payments is one order; totals per currency', () => {
    const view = billingOf([
      {
        tradeNo: 'T1',
        amount: 3000,
        createdAt: '2026-06-01T00:00:00.000Z',
        installment: { periods: 3, amountPerPeriod: 1000, bankName: 'Bank' },
      },
      { tradeNo: 'T1', amount: 3000, createdAt: '2026-06-02T00:00:00.000Z' },
      { tradeNo: 'T2', amount: 49, currency: 'USD', createdAt: '2026-06-05T00:00:00.000Z' },
    ]);
    expect(
      view.orders.map((o) => [
        o.tradeNo,
        o.payments.length,
        o.totalAmount,
        o.paidAmount,
        o.summaryState,
      ]),
    ).toEqual([
      ['T2', 1, 49, 49, 'paid'],
      ['T1', 2, 6000, 6000, 'paid'],
    ]);
    // Newest payment first inside an order; the order's createdAt is its earliest payment's.
    expect(view.orders[1]!.payments.map((p) => p.paymentId)).toEqual(['p1', 'p0']);
    expect(view.orders[1]!.createdAt).toBe('2026-06-01T00:00:00.000Z');
    // Line items deduplicated across the order's payments (same plan title on each payment here).
    expect(view.orders[1]!.title).toBe('Plan p0, Plan p1');
    expect(view.totals).toEqual([
      { currency: 'TWD', paid: 6000, refunded: 0 },
      { currency: 'USD', paid: 49, refunded: 0 },
    ]);
  });

  it('refunds: partial and full', () => {
    const view = billingOf([
      {
        tradeNo: 'T1',
        amount: 1000,
        refundingState: 'partially_refunded',
        refundedAmount: 400,
        refundedAt: '2026-06-03T00:00:00.000Z',
      },
      {
        tradeNo: 'T2',
        amount: 500,
        paymentState: 'refunded',
        refundingState: 'refunded',
        refundedAmount: 500,
      },
    ]);
    const byTrade = Object.fromEntries(view.orders.map((o) => [o.tradeNo, o]));
    expect(byTrade.T1).toMatchObject({
      summaryState: 'partially_refunded',
      paidAmount: 1000,
      refundedAmount: 400,
    });
    expect(byTrade.T1!.payments[0]!.refund).toEqual({
      state: 'partially_refunded',
      refundedAmount: 400,
      refundedAt: '2026-06-03T00:00:00.000Z',
      refundRequestedAt: null,
    });
    expect(byTrade.T2).toMatchObject({
      summaryState: 'refunded',
      paidAmount: 500,
      refundedAmount: 500,
    });
    expect(view.totals).toEqual([{ currency: 'TWD', paid: 1500, refunded: 900 }]);
  });

  it('ATM / convenience-store instructions: payable ones listed soonest first, expired ones flagged', () => {
    const unpaid = {
      paymentType: 'atm',
      paymentState: 'not_paid',
      paidAt: null,
      bankCode: '812',
      bankName: 'Taishin',
      lineitems: [],
    } as const;
    const view = billingOf([
      { ...unpaid, tradeNo: 'A', codeNo: '111', expiredAt: '2026-06-20T00:00:00.000Z' },
      { ...unpaid, tradeNo: 'B', codeNo: '222', expiredAt: '2026-06-12T00:00:00.000Z' },
      { ...unpaid, tradeNo: 'C', codeNo: '333', expiredAt: '2026-06-01T00:00:00.000Z' },
      {
        ...unpaid,
        tradeNo: 'D',
        codeNo: '444',
        paymentState: 'expired',
        expiredAt: '2026-05-01T00:00:00.000Z',
      },
    ]);
    expect(view.pendingInstructions.map((p) => p.tradeNo)).toEqual(['B', 'A']);
    expect(view.pendingInstructions[0]!.instructions).toEqual({
      bankCode: '812',
      bankName: 'Taishin',
      codeNo: '222',
      expiredAt: '2026-06-12T00:00:00.000Z',
      isExpired: false,
    });
    const state = Object.fromEntries(view.orders.map((o) => [o.tradeNo, o.summaryState]));
    expect(state).toEqual({
      A: 'awaiting_payment',
      B: 'awaiting_payment',
      C: 'expired',
      D: 'expired',
    });
    expect(view.orders.find((o) => o.tradeNo === 'C')!.payments[0]!.instructions!.isExpired).toBe(
      true,
    );
    expect(view.totals).toEqual([{ currency: 'TWD', paid: 0, refunded: 0 }]);
  });

  it('a purchase retried after a failed attempt and then paid is a paid order; otherwise mixed states say mixed', () => {
    const view = billingOf([
      { tradeNo: 'R', paymentState: 'failed', paidAt: null, createdAt: '2026-06-01T00:00:00.000Z' },
      { tradeNo: 'R', paymentState: 'paid', createdAt: '2026-06-01T00:10:00.000Z' },
      { tradeNo: 'M', paymentState: 'manual_enrolled', amount: 0 },
      { tradeNo: 'X', paymentState: 'paid' },
      {
        tradeNo: 'X',
        paymentState: 'not_paid',
        paidAt: null,
        codeNo: '9',
        expiredAt: '2026-07-01T00:00:00.000Z',
      },
    ]);
    const state = Object.fromEntries(view.orders.map((o) => [o.tradeNo, o.summaryState]));
    expect(state).toEqual({ R: 'paid', M: 'manual_enrolled', X: 'mixed' });
    expect(view.orders.find((o) => o.tradeNo === 'R')).toMatchObject({
      paidAmount: 1000,
      totalAmount: 2000,
    });
  });
});
