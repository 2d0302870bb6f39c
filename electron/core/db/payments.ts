import type { Database } from 'better-sqlite3';
import type {
  BillingSummary,
  BillingView,
  CurrencyTotal,
  OrderFilter,
  OrderView,
  Page,
  LineItemType,
  PaymentInstructions,
  PaymentState,
  PaymentType,
  PaymentView,
  RefundingState,
  YearSpending,
} from '../../common/view-models';
import { knownOr, siteNumber, siteText, siteTextOrNull, type Unknown } from '../../common/site-values';
import type { PaymentRecord } from './records';
import { json, prepared } from './statements';
import { nextOffset, pageOf, type PageRequest } from './paging';
import { cachedView } from './view-cache';

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
  // One row per order, so the billing pages walk orders newest first on an index (006-view-pages).
  prepared<{ siteId: string }>(db, 'DELETE FROM orders WHERE site_id = @siteId').run({ siteId });
  prepared<{ siteId: string }>(
    db,
    `INSERT INTO orders (site_id, trade_no, created_at)
     SELECT site_id, trade_no, min(created_at) FROM payments WHERE site_id = @siteId GROUP BY trade_no`,
  ).run({ siteId });
}

// ------------------------------------------------------------------ views

// Every value each enum can take (a Record, so a value added to the type must be added here): anything else the
// site sends is 'unknown' in the view model, so the screens and the exports show "unknown" alike.
const keysOf = <T extends string>(all: Readonly<Record<T, true>>): readonly T[] => Object.keys(all) as T[];
const PAYMENT_STATES = keysOf<PaymentState>({ not_paid: true, paid: true, expired: true, failed: true, manual_enrolled: true, refunded: true });
const PAYMENT_TYPES = keysOf<PaymentType>({ credit_card: true, atm: true, cvs: true, line_pay: true, apple_pay: true, manual: true, free: true });
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
const INVOICE_KINDS = keysOf<'personal' | 'company' | 'donation'>({ personal: true, company: true, donation: true });
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
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const objects = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);
/** A site's date as text (the screens show one that does not parse as "unknown"); anything not a string is absent. */
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
  return { periods: siteNumber(i['periods']), amountPerPeriod: siteNumber(i['amountPerPeriod']), bankName: siteTextOrNull(i['bankName']) };
}

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
  /** expired_at as epoch ms (SQLite's reading of the text, 006-view-pages); null when absent or unreadable. */
  expires_ms: number | null;
  adjustments: string;
  invoice: string | null;
  line_items: string;
  installment: string | null;
}

const PAYMENT_COLUMNS = `p.id, p.trade_no, p.amount, p.currency, p.payment_type, p.created_at, p.paid_at, p.payment_state, p.refunding_state,
  p.refunded_amount, p.refunded_at, p.refund_requested_at, p.bank_code, p.bank_name, p.code_no, p.expired_at, p.expires_ms,
  p.adjustments, p.invoice, p.line_items, p.installment`;

/** Unpaid ATM / convenience-store payments (the partial index payments_payable); "payable" adds: not expired at @now. */
const UNPAID_CODE = `payment_state = 'not_paid' AND code_no IS NOT NULL`;
const PAYABLE = `${UNPAID_CODE} AND (expires_ms IS NULL OR expires_ms > @now)`;

function toPaymentView(r: PaymentRow, now: number): PaymentView {
  const instructions: PaymentInstructions | null =
    r.code_no === null
      ? null
      : {
          bankCode: siteTextOrNull(r.bank_code),
          bankName: siteTextOrNull(r.bank_name),
          codeNo: siteText(r.code_no),
          expiredAt: r.expired_at,
          // Judged at read time against the caller's clock, from the same column the SQL filters use.
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

/** One order from its payments, oldest first as read (spec "Payment node": one node is one payment, not one order). */
function toOrderView(tradeNo: string, payments: readonly PaymentView[]): OrderView {
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

// ISO 8601 UTC strings order as text; plain comparison (not localeCompare, which is slow and locale-bound).
const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const EMPTY: readonly never[] = [];

/** Which orders a page holds: a state filter and a search (order number or item title, case-insensitive for ASCII). */
export interface OrderQuery extends PageRequest {
  readonly state?: OrderFilter;
  readonly query?: string;
}

/**
 * An order's summaryState in SQL, over its payments (the GROUP BY trade_no of payments p): the same rules as
 * summaryState() below, which the tests hold it to. @now is the caller's clock in epoch ms.
 */
const ORDER_STATE_SQL = `CASE
  WHEN total(refunded_amount) > 0 THEN
    CASE WHEN total(refunded_amount) >= total(CASE WHEN payment_state IN ('paid', 'refunded') THEN amount ELSE 0 END)
      THEN 'refunded' ELSE 'partially_refunded' END
  WHEN count(DISTINCT payment_state) = 1 THEN
    CASE min(payment_state)
      WHEN 'not_paid' THEN
        CASE WHEN sum(code_no IS NOT NULL AND expires_ms IS NOT NULL AND expires_ms <= @now) = count(*) THEN 'expired' ELSE 'awaiting_payment' END
      ELSE min(payment_state) END
  WHEN sum(payment_state = 'paid') > 0 AND sum(payment_state NOT IN ('paid', 'failed', 'expired')) = 0 THEN 'paid'
  ELSE 'mixed' END`;

const FILTER_STATES: Readonly<Record<Exclude<OrderFilter, 'all'>, readonly OrderView['summaryState'][]>> = {
  waiting: ['awaiting_payment'],
  paid: ['paid'],
  refunded: ['refunded', 'partially_refunded'],
  failed: ['failed', 'expired'],
};

/** A LIKE pattern that matches `text` anywhere, its own % _ and \ taken literally. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The WHERE of an order query over `orders o` (and its parameters); the SQL text depends only on which parts are
 * present, so each variant is one prepared statement.
 */
function orderWhere(q: OrderQuery): { sql: string; params: { like?: string } } {
  const parts = ['o.site_id = @siteId'];
  const params: { like?: string } = {};
  if (q.state !== undefined && q.state !== 'all') {
    const states = FILTER_STATES[q.state].map((s) => `'${s}'`).join(', ');
    parts.push(`(SELECT ${ORDER_STATE_SQL} FROM payments WHERE site_id = @siteId AND trade_no = o.trade_no) IN (${states})`);
  }
  const text = q.query?.trim() ?? '';
  if (text !== '') {
    params.like = containsPattern(text);
    parts.push(
      `(o.trade_no LIKE @like ESCAPE '\\' OR EXISTS (SELECT 1 FROM payments p, json_each(p.line_items) li
         WHERE p.site_id = @siteId AND p.trade_no = o.trade_no AND json_extract(li.value, '$.title') LIKE @like ESCAPE '\\'))`,
    );
  }
  return { sql: parts.join(' AND '), params };
}

/**
 * A page of orders, newest first (by the earliest payment of each; ties by tradeNo), each with its payments newest
 * first. The page's orders come off the index orders_by_created, their payments off payments_by_trade; the
 * time-dependent parts (instructions expired, awaiting vs expired) are judged against `now` at this call.
 */
export function getOrdersPage(db: Database, siteId: string, now: Date, request: OrderQuery = {}): Page<OrderView> {
  const t = now.getTime();
  const { offset, limit } = pageOf(request);
  const where = orderWhere(request);
  const usesNow = where.sql.includes('@now');
  const rows = prepared<Record<string, unknown>, PaymentRow>(
    db,
    `WITH page AS (
       SELECT o.trade_no, o.created_at FROM orders o WHERE ${where.sql}
       ORDER BY o.created_at DESC, o.trade_no DESC LIMIT @limit OFFSET @offset
     )
     SELECT ${PAYMENT_COLUMNS} FROM page CROSS JOIN payments p ON p.site_id = @siteId AND p.trade_no = page.trade_no
     ORDER BY page.created_at DESC, page.trade_no DESC`,
  ).all({ siteId, offset, limit: limit ?? -1, ...where.params, ...(usesNow ? { now: t } : {}) });
  // CROSS JOIN keeps the page as the outer loop (https://sqlite.org/optoverview.html#crossjoin): the rows arrive in
  // page order with no sort; each order's few payments are put in (createdAt, id) order here.
  const items: OrderView[] = [];
  let i = 0;
  while (i < rows.length) {
    const tradeNo = rows[i]!.trade_no;
    const start = i;
    while (i < rows.length && rows[i]!.trade_no === tradeNo) i++;
    const payments = rows
      .slice(start, i)
      .sort((a, b) => cmp(a.created_at, b.created_at) || cmp(a.id, b.id))
      .map((r) => toPaymentView(r, t));
    items.push(toOrderView(tradeNo, payments));
  }
  const total = prepared<Record<string, unknown>, { n: number }>(db, `SELECT count(*) AS n FROM orders o WHERE ${where.sql}`).get({
    siteId,
    ...where.params,
    ...(usesNow ? { now: t } : {}),
  })!.n;
  return { items, total, nextOffset: nextOffset(offset, items.length, limit, total) };
}

/** A page of the unpaid ATM / convenience-store payments still payable at `now`, soonest deadline first (none last). */
export function getPayableInstructionsPage(db: Database, siteId: string, now: Date, request: PageRequest = {}): Page<PaymentView> {
  const t = now.getTime();
  const { offset, limit } = pageOf(request);
  const items = prepared<{ siteId: string; now: number; offset: number; limit: number }, PaymentRow>(
    db,
    `WITH page AS (
       SELECT id, expires_ms FROM payments WHERE site_id = @siteId AND ${PAYABLE}
       ORDER BY expires_ms IS NULL, expires_ms, id LIMIT @limit OFFSET @offset
     )
     SELECT ${PAYMENT_COLUMNS} FROM page JOIN payments p ON p.site_id = @siteId AND p.id = page.id
     ORDER BY page.expires_ms IS NULL, page.expires_ms, page.id`,
  )
    .all({ siteId, now: t, offset, limit: limit ?? -1 })
    .map((r) => toPaymentView(r, t));
  const total = countPayable(db, siteId, t);
  return { items, total, nextOffset: nextOffset(offset, items.length, limit, total) };
}

/** The next instant after `now` at which a code matching `which` expires (a view showing them changes then). */
function nextCodeExpiry(db: Database, siteId: string, now: number, which: string): number {
  const at = prepared<{ siteId: string; now: number }, { at: number | null }>(
    db,
    `SELECT min(expires_ms) AS at FROM payments WHERE site_id = @siteId AND ${which} AND expires_ms > @now`,
  ).get({ siteId, now })!.at;
  return at ?? Number.POSITIVE_INFINITY;
}

function countPayable(db: Database, siteId: string, now: number): number {
  return prepared<{ siteId: string; now: number }, { n: number }>(
    db,
    `SELECT count(*) AS n FROM payments WHERE site_id = @siteId AND ${PAYABLE}`,
  ).get({
    siteId,
    now,
  })!.n;
}

/** How many payable codes the summary carries (the screen shows them with the totals, the rest on request). */
export const PENDING_PREVIEW = 5;

/**
 * The head of the billing screen: counts, totals per currency, the soonest payable codes. Memoised per site until
 * the payments change or the next payable code expires (the codes and their count change then); every part is an
 * index read.
 */
export function getBillingSummary(db: Database, siteId: string, now: Date): BillingSummary {
  return cachedView(db, 'billing', siteId, 'summary', now, () => {
    const t = now.getTime();
    const totals = prepared<{ siteId: string }, CurrencyTotal & { n: number }>(
      db,
      `SELECT currency, count(*) AS n,
              total(CASE WHEN payment_state IN ('paid', 'refunded') THEN amount ELSE 0 END) AS paid, total(refunded_amount) AS refunded
       FROM payments WHERE site_id = @siteId GROUP BY currency`,
    ).all({ siteId });
    const orderCount = prepared<{ siteId: string }, { n: number }>(db, 'SELECT count(*) AS n FROM orders WHERE site_id = @siteId').get({ siteId })!.n;
    const pending = getPayableInstructionsPage(db, siteId, now, { limit: PENDING_PREVIEW });
    const value: BillingSummary = {
      orderCount,
      paymentCount: totals.reduce((n, r) => n + r.n, 0),
      pendingCount: pending.total,
      pendingInstructions: pending.items,
      totals: totals.sort((a, b) => cmp(a.currency, b.currency)).map((r) => ({ currency: r.currency, paid: r.paid, refunded: r.refunded })),
    };
    return { value, validUntil: nextCodeExpiry(db, siteId, t, UNPAID_CODE) };
  });
}

/**
 * The whole billing at once: every order, every payable code and the totals, from the same queries as the pages.
 * The screen never asks for it (it reads the summary and pages); tests and the `billing:get` channel do.
 */
export function getBilling(db: Database, siteId: string, now: Date): BillingView {
  return cachedView(db, 'billing', siteId, '', now, () => {
    const orders = getOrdersPage(db, siteId, now).items;
    const pendingInstructions = getPayableInstructionsPage(db, siteId, now).items;
    const value: BillingView = { orders, pendingInstructions, totals: getBillingSummary(db, siteId, now).totals };
    // Instructions expire (isExpired, pending list, awaiting/expired order state) at their expiry.
    return { value, validUntil: nextCodeExpiry(db, siteId, now.getTime(), 'code_no IS NOT NULL') };
  });
}

/** One order by its tradeNo (a receipt), or null when this site has none by that number. */
export function getOrder(db: Database, siteId: string, tradeNo: string, now: Date): OrderView | null {
  const rows = prepared<{ siteId: string; tradeNo: string }, PaymentRow>(
    db,
    `SELECT ${PAYMENT_COLUMNS} FROM payments p WHERE p.site_id = @siteId AND p.trade_no = @tradeNo ORDER BY p.created_at, p.id`,
  ).all({ siteId, tradeNo });
  if (rows.length === 0) return null;
  const t = now.getTime();
  return toOrderView(
    tradeNo,
    rows.map((r) => toPaymentView(r, t)),
  );
}

/** One payment by its id (a calendar reminder for its code), or null. */
export function getPayment(db: Database, siteId: string, paymentId: string, now: Date): PaymentView | null {
  const row = prepared<{ siteId: string; paymentId: string }, PaymentRow>(
    db,
    `SELECT ${PAYMENT_COLUMNS} FROM payments p WHERE p.site_id = @siteId AND p.id = @paymentId`,
  ).get({
    siteId,
    paymentId,
  });
  return row ? toPaymentView(row, now.getTime()) : null;
}

/**
 * Spending per year and currency, newest year first: paid (paid, and refunded later) minus refunded, with each
 * order counted in the year it was placed (the year of its date as the school wrote it, the list's year headings).
 */
export function getSpendingByYear(db: Database, siteId: string): YearSpending[] {
  return prepared<{ siteId: string }, Omit<YearSpending, 'spent'>>(
    db,
    `SELECT substr(o.created_at, 1, 4) AS year, p.currency AS currency,
            total(CASE WHEN p.payment_state IN ('paid', 'refunded') THEN p.amount ELSE 0 END) AS paid,
            total(p.refunded_amount) AS refunded, count(DISTINCT o.trade_no) AS orderCount
     FROM orders o JOIN payments p ON p.site_id = o.site_id AND p.trade_no = o.trade_no
     WHERE o.site_id = @siteId
     GROUP BY year, currency ORDER BY year DESC, currency`,
  )
    .all({ siteId })
    .map((r) => ({ ...r, spent: r.paid - r.refunded }));
}
