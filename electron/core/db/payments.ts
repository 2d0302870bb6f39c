import type { Database } from 'better-sqlite3';
import type {
  BillingView,
  OrderView,
  PaymentInstructions,
  PaymentState,
  PaymentType,
  PaymentView,
  RefundingState,
} from '../../common/view-models';
import type { PaymentRecord } from './records';
import { json, prepared } from './statements';
import { cachedView, nextBoundary } from './view-cache';

// ------------------------------------------------------------------ writes

export function replacePayments(db: Database, siteId: string, records: readonly PaymentRecord[]): void {
  prepared<{ siteId: string }>(db, 'DELETE FROM payments WHERE site_id = @siteId').run({ siteId });
  const insert = prepared<Record<string, unknown>>(
    db,
    `INSERT INTO payments (site_id, id, position, trade_no, amount, currency, payment_type, created_at, paid_at, payment_state,
       refunding_state, refunded_amount, refunded_at, refund_requested_at, bank_code, bank_name, code_no, expired_at,
       adjustments, invoice, line_items, installment)
     VALUES (@siteId, @id, @position, @tradeNo, @amount, @currency, @paymentType, @createdAt, @paidAt, @paymentState,
       @refundingState, @refundedAmount, @refundedAt, @refundRequestedAt, @bankCode, @bankName, @codeNo, @expiredAt,
       @adjustments, @invoice, @lineItems, @installment)`,
  );
  records.forEach((p, position) =>
    insert.run({
      siteId,
      id: p.id,
      position,
      tradeNo: p.tradeNo,
      amount: p.amount,
      currency: p.currency,
      paymentType: p.paymentType,
      createdAt: p.createdAt,
      paidAt: p.paidAt,
      paymentState: p.paymentState,
      refundingState: p.refundingState,
      refundedAmount: p.refundedAmount,
      refundedAt: p.refundedAt,
      refundRequestedAt: p.refundRequestedAt,
      bankCode: p.bankCode,
      bankName: p.bankName,
      codeNo: p.codeNo,
      expiredAt: p.expiredAt,
      adjustments: json(p.adjustments),
      invoice: p.invoice === null ? null : json(p.invoice),
      lineItems: json(p.lineitems),
      installment: p.installment === null ? null : json(p.installment),
    }),
  );
}

// ------------------------------------------------------------------ view

interface PaymentRow {
  id: string;
  trade_no: string;
  amount: number;
  currency: string;
  payment_type: PaymentType;
  created_at: string;
  paid_at: string | null;
  payment_state: PaymentState;
  refunding_state: RefundingState;
  refunded_amount: number;
  refunded_at: string | null;
  refund_requested_at: string | null;
  bank_code: string | null;
  bank_name: string | null;
  code_no: string | null;
  expired_at: string | null;
  adjustments: string;
  invoice: string | null;
  line_items: string;
  installment: string | null;
}

function toPaymentView(r: PaymentRow, now: number): PaymentView {
  const instructions: PaymentInstructions | null =
    r.code_no === null
      ? null
      : {
          bankCode: r.bank_code,
          bankName: r.bank_name,
          codeNo: r.code_no,
          expiredAt: r.expired_at,
          isExpired: r.expired_at !== null && Date.parse(r.expired_at) <= now,
        };
  return {
    paymentId: r.id,
    tradeNo: r.trade_no,
    amount: r.amount,
    currency: r.currency,
    paymentType: r.payment_type,
    paymentState: r.payment_state,
    createdAt: r.created_at,
    paidAt: r.paid_at,
    adjustments: parseList<PaymentView['adjustments'][number]>(r.adjustments),
    invoice: r.invoice === null ? null : (JSON.parse(r.invoice) as PaymentView['invoice']),
    lineItems: parseList<PaymentView['lineItems'][number]>(r.line_items),
    installment: r.installment === null ? null : (JSON.parse(r.installment) as PaymentView['installment']),
    refund: {
      state: r.refunding_state,
      refundedAmount: r.refunded_amount,
      refundedAt: r.refunded_at,
      refundRequestedAt: r.refund_requested_at,
    },
    instructions,
  };
}

/** Money that reached the school: paid rows, and rows refunded later (they were paid first). */
const WAS_PAID: ReadonlySet<PaymentState> = new Set(['paid', 'refunded']);

function summaryState(payments: readonly PaymentView[], paid: number, refunded: number): OrderView['summaryState'] {
  if (refunded > 0) return refunded >= paid ? 'refunded' : 'partially_refunded';
  const states = new Set(payments.map((p) => p.paymentState));
  if (states.size === 1) {
    const [only] = states;
    switch (only!) {
      case 'paid':
        return 'paid';
      case 'refunded':
        return 'refunded';
      case 'manual_enrolled':
        return 'manual_enrolled';
      case 'failed':
        return 'failed';
      case 'expired':
        return 'expired';
      case 'not_paid':
        // Unpaid ATM / store code: awaiting payment until its instructions expire.
        return payments.every((p) => p.instructions?.isExpired === true) ? 'expired' : 'awaiting_payment';
    }
  }
  // A purchase retried after a failed or expired attempt, then paid, is a paid order.
  if (states.has('paid') && [...states].every((s) => s === 'paid' || s === 'failed' || s === 'expired')) return 'paid';
  return 'mixed';
}

/**
 * Billing: payments grouped into orders by tradeNo (spec "Payment node": one node is one payment, not one order),
 * newest order first; totals per currency; unpaid ATM / convenience-store instructions still payable.
 */
export function getBilling(db: Database, siteId: string, now: Date): BillingView {
  return cachedView(db, 'billing', siteId, '', now, () => computeBilling(db, siteId, now));
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const EMPTY: readonly never[] = [];
/** Most payments carry no adjustments: skip the parser for the common empty list. */
function parseList<T>(text: string): readonly T[] {
  return text === '[]' ? EMPTY : (JSON.parse(text) as T[]);
}

function computeBilling(db: Database, siteId: string, now: Date): { value: BillingView; validUntil: number } {
  const t = now.getTime();
  const rows = prepared<{ siteId: string }, PaymentRow>(
    db,
    `SELECT id, trade_no, amount, currency, payment_type, created_at, paid_at, payment_state, refunding_state, refunded_amount,
            refunded_at, refund_requested_at, bank_code, bank_name, code_no, expired_at, adjustments, invoice, line_items, installment
     FROM payments WHERE site_id = @siteId ORDER BY trade_no, created_at, id`,
  ).all({ siteId });

  const orders: OrderView[] = [];
  const pendingInstructions: PaymentView[] = [];
  const totals = new Map<string, { paid: number; refunded: number }>();
  let i = 0;
  while (i < rows.length) {
    const tradeNo = rows[i]!.trade_no;
    const payments: PaymentView[] = [];
    for (; i < rows.length && rows[i]!.trade_no === tradeNo; i++) payments.push(toPaymentView(rows[i]!, t));
    let paidAmount = 0;
    let refundedAmount = 0;
    let totalAmount = 0;
    const titles: string[] = [];
    const seenItems = new Set<string>();
    for (const p of payments) {
      totalAmount += p.amount;
      if (WAS_PAID.has(p.paymentState)) paidAmount += p.amount;
      refundedAmount += p.refund.refundedAmount;
      for (const li of p.lineItems) {
        const key = `${li.itemType}\u0000${li.title}`;
        if (!seenItems.has(key)) {
          seenItems.add(key);
          titles.push(li.title);
        }
      }
      if (p.paymentState === 'not_paid' && p.instructions !== null && !p.instructions.isExpired) pendingInstructions.push(p);
      const total = totals.get(p.currency) ?? { paid: 0, refunded: 0 };
      if (WAS_PAID.has(p.paymentState)) total.paid += p.amount;
      total.refunded += p.refund.refundedAmount;
      totals.set(p.currency, total);
    }
    orders.push({
      tradeNo,
      currency: payments[0]!.currency,
      createdAt: payments[0]!.createdAt,
      paidAmount,
      refundedAmount,
      totalAmount,
      summaryState: summaryState(payments, paidAmount, refundedAmount),
      title: titles.join(', '),
      payments: [...payments].reverse(),
    });
  }
  // ISO 8601 UTC strings order as text; plain comparison (not localeCompare, which is slow and locale-bound).
  orders.sort((a, b) => cmp(b.createdAt, a.createdAt) || cmp(b.tradeNo, a.tradeNo));
  pendingInstructions.sort((a, b) => cmp(a.instructions!.expiredAt ?? '\uffff', b.instructions!.expiredAt ?? '\uffff'));
  const value: BillingView = {
    orders,
    pendingInstructions,
    totals: [...totals].sort(([a], [b]) => cmp(a, b)).map(([currency, v]) => ({ currency, paid: v.paid, refunded: v.refunded })),
  };
  // Instructions expire (isExpired, pending list, awaiting/expired order state) at their expiredAt.
  const expiries = rows.flatMap((r) => (r.code_no !== null && r.expired_at !== null ? [Date.parse(r.expired_at)] : []));
  return { value, validUntil: nextBoundary(t, expiries) };
}
