import type {
  LineItemType,
  OrderView,
  PaymentInstructions,
  PaymentState,
  PaymentType,
  PaymentView,
  RefundingState,
} from '../../common/view-models';
import {
  knownOr,
  siteNumber,
  siteText,
  siteTextOrNull,
  type Unknown,
} from '../../common/site-values';

/**
 * Stored payment rows as view models: the site's values as they came, each checked here
 * (ARCHITECTURE "Data from a site is untrusted input"), and the rules that make an order of
 * payments. The queries live in payments.ts.
 */
// Every value each enum can take (a Record, so a value added to the type must be added here):
// anything else the site sends is 'unknown' in the view model, so the screens and the exports show
// "unknown" alike.
const keysOf = <T extends string>(all: Readonly<Record<T, true>>): readonly T[] =>
  Object.keys(all) as T[];
const PAYMENT_STATES = keysOf<PaymentState>({
  not_paid: true,
  paid: true,
  expired: true,
  failed: true,
  manual_enrolled: true,
  refunded: true,
});
const PAYMENT_TYPES = keysOf<PaymentType>({
  credit_card: true,
  atm: true,
  cvs: true,
  line_pay: true,
  apple_pay: true,
  manual: true,
  free: true,
});
const REFUNDING_STATES = keysOf<RefundingState>({
  none: true,
  requested: true,
  processing: true,
  partially_refunded: true,
  refunded: true,
  rejected: true,
});
const LINE_ITEM_TYPES = keysOf<LineItemType>({
  CurriculumPlan: true,
  MembershipPlan: true,
  Ticket: true,
  DigitalProduct: true,
  OrderBump: true,
  Meeting: true,
});
const INVOICE_KINDS = keysOf<'personal' | 'company' | 'donation'>({
  personal: true,
  company: true,
  donation: true,
});
const ADJUSTMENT_KINDS = keysOf<'coupon' | 'promotion'>({ coupon: true, promotion: true });

type Json = Record<string, unknown>;
/** A stored JSON column: the site's value as it came, so every field is checked here. */
function parseJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const objects = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);
/**
 * A site's date as text (the screens show one that does not parse as "unknown"); anything not a
 * string is absent.
 */
const dateText = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function toLineItems(text: string): PaymentView['lineItems'] {
  if (text === '[]') return EMPTY;
  return objects(parseJson(text)).map((li) => ({
    id: siteText(li['id']),
    itemType: knownOr(li['itemType'], LINE_ITEM_TYPES),
    title: siteText(li['title']),
    quantity: siteNumber(li['quantity'], 1),
    originalAmount: siteNumber(li['originalAmount']),
    discountAmount: siteNumber(li['discountAmount']),
    finalAmount: siteNumber(li['finalAmount']),
  }));
}

function toAdjustments(text: string): PaymentView['adjustments'] {
  if (text === '[]') return EMPTY;
  return objects(parseJson(text)).map((a) => ({
    kind: knownOr(a['kind'], ADJUSTMENT_KINDS),
    code: siteTextOrNull(a['code']),
    title: siteText(a['title']),
    amount: siteNumber(a['amount']),
  }));
}

function toInvoice(text: string | null): PaymentView['invoice'] {
  const inv = parseJson(text);
  if (!isObject(inv)) return null;
  return {
    number: siteText(inv['number']),
    kind: knownOr(inv['kind'], INVOICE_KINDS),
    title: siteTextOrNull(inv['title']),
    taxId: siteTextOrNull(inv['taxId']),
    issuedAt: dateText(inv['issuedAt']) ?? '',
    voidedAt: dateText(inv['voidedAt']),
  };
}

function toInstallment(text: string | null): PaymentView['installment'] {
  const i = parseJson(text);
  if (!isObject(i)) return null;
  return {
    periods: siteNumber(i['periods']),
    amountPerPeriod: siteNumber(i['amountPerPeriod']),
    bankName: siteTextOrNull(i['bankName']),
  };
}

export interface PaymentRow {
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
  /**
   * expired_at as epoch ms (SQLite's reading of the text, 006-view-pages); null when absent or
   * unreadable.
   */
  expires_ms: number | null;
  adjustments: string;
  invoice: string | null;
  line_items: string;
  installment: string | null;
}

export const PAYMENT_COLUMNS = `p.id, p.trade_no, p.amount, p.currency, p.payment_type, p.created_at, p.paid_at, p.payment_state, p.refunding_state,
  p.refunded_amount, p.refunded_at, p.refund_requested_at, p.bank_code, p.bank_name, p.code_no, p.expired_at, p.expires_ms,
  p.adjustments, p.invoice, p.line_items, p.installment`;

/**
 * Unpaid ATM / convenience-store payments (the partial index payments_payable); "payable" adds: not
 * expired at @now.
 */
export const UNPAID_CODE = `payment_state = 'not_paid' AND code_no IS NOT NULL`;
export const PAYABLE = `${UNPAID_CODE} AND (expires_ms IS NULL OR expires_ms > @now)`;

export function toPaymentView(r: PaymentRow, now: number): PaymentView {
  const instructions: PaymentInstructions | null =
    r.code_no === null
      ? null
      : {
          bankCode: siteTextOrNull(r.bank_code),
          bankName: siteTextOrNull(r.bank_name),
          codeNo: siteText(r.code_no),
          expiredAt: r.expired_at,
          // Judged at read time against the caller's clock, from the same column the SQL filters
          // use.
          isExpired: r.expires_ms !== null && r.expires_ms <= now,
        };
  return {
    paymentId: r.id,
    tradeNo: r.trade_no,
    amount: siteNumber(r.amount),
    currency: siteText(r.currency, 16),
    paymentType: knownOr(r.payment_type, PAYMENT_TYPES),
    paymentState: knownOr(r.payment_state, PAYMENT_STATES),
    createdAt: r.created_at,
    paidAt: r.paid_at,
    adjustments: toAdjustments(r.adjustments),
    invoice: toInvoice(r.invoice),
    lineItems: toLineItems(r.line_items),
    installment: toInstallment(r.installment),
    refund: {
      state: knownOr(r.refunding_state, REFUNDING_STATES),
      refundedAmount: siteNumber(r.refunded_amount),
      refundedAt: r.refunded_at,
      refundRequestedAt: r.refund_requested_at,
    },
    instructions,
  };
}

/** Money that reached the school: paid rows, and rows refunded later (they were paid first). */
const WAS_PAID: ReadonlySet<PaymentState | Unknown> = new Set(['paid', 'refunded']);

function summaryState(
  payments: readonly PaymentView[],
  paid: number,
  refunded: number,
): OrderView['summaryState'] {
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
        return payments.every((p) => p.instructions?.isExpired === true)
          ? 'expired'
          : 'awaiting_payment';
    }
  }
  // A purchase retried after a failed or expired attempt, then paid, is a paid order.
  if (
    states.has('paid') &&
    [...states].every((s) => s === 'paid' || s === 'failed' || s === 'expired')
  )
    return 'paid';
  return 'mixed';
}

/**
 * One order from its payments, oldest first as read (spec "Payment node": one node is one payment,
 * not one order).
 */
export function toOrderView(tradeNo: string, payments: readonly PaymentView[]): OrderView {
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
  }
  return {
    tradeNo,
    currency: payments[0]!.currency,
    createdAt: payments[0]!.createdAt,
    paidAmount,
    refundedAmount,
    totalAmount,
    summaryState: summaryState(payments, paidAmount, refundedAmount),
    title: titles.filter((t) => t !== '').join(', '),
    // Newest payment first.
    payments: [...payments].reverse(),
  };
}

// ISO 8601 UTC strings order as text; plain comparison (not localeCompare, which is slow and
// locale-bound).
export const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const EMPTY: readonly never[] = [];
