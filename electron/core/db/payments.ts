import type { Database } from 'better-sqlite3';
import type {
  BillingSummary,
  BillingView,
  CurrencyTotal,
  OrderFilter,
  OrderView,
  Page,
  PaymentView,
  YearSpending,
} from '../../common/view-models';
import type { PaymentRecord } from './records';
import { json, prepared } from './statements';
import { nextOffset, pageOf, type PageRequest } from './paging';
import { cachedView } from './view-cache';
import {
  cmp,
  PAYABLE,
  PAYMENT_COLUMNS,
  toOrderView,
  toPaymentView,
  UNPAID_CODE,
  type PaymentRow,
} from './payment-views';
import type { AnyDB, ReadableDB } from './handles';

// ------------------------------------------------------------------ writes

export function replacePayments(
  db: Database,
  siteId: string,
  records: readonly PaymentRecord[],
): void {
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

// ------------------------------------------------------------------ views (rows to view models:
// payment-views.ts)

/**
 * Which orders a page holds: a state filter and a search (order number or item title,
 * case-insensitive for ASCII).
 */
export interface OrderQuery extends PageRequest {
  readonly state?: OrderFilter;
  readonly query?: string;
  /**
   * Orders placed in this year (the first four characters of the date as the school wrote it, like
   * the year headings).
   */
  readonly year?: string;
}

/**
 * An order's summaryState in SQL, over its payments (the GROUP BY trade_no of payments p): the same
 * rules as summaryState() in payment-views.ts, which the tests hold it to. @now is the caller's
 * clock in epoch ms.
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

const FILTER_STATES: Readonly<
  Record<Exclude<OrderFilter, 'all'>, readonly OrderView['summaryState'][]>
> = {
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
 * The WHERE of an order query over `orders o` (and its parameters); the SQL text depends only on
 * which parts are present, so each variant is one prepared statement.
 */
function orderWhere(q: OrderQuery): { sql: string; params: { like?: string; year?: string } } {
  const parts = ['o.site_id = @siteId'];
  const params: { like?: string; year?: string } = {};
  if (q.year !== undefined) {
    params.year = q.year;
    parts.push('substr(o.created_at, 1, 4) = @year');
  }
  if (q.state !== undefined && q.state !== 'all') {
    const states = FILTER_STATES[q.state].map((s) => `'${s}'`).join(', ');
    parts.push(
      `(SELECT ${ORDER_STATE_SQL} FROM payments WHERE site_id = @siteId AND trade_no = o.trade_no) IN (${states})`,
    );
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
 * A page of orders, newest first (by the earliest payment of each; ties by tradeNo), each with its
 * payments newest first. The page's orders come off the index orders_by_created, their payments off
 * payments_by_trade; the time-dependent parts (instructions expired, awaiting vs expired) are
 * judged against `now` at this call.
 */
export function getOrdersPage(
  db: AnyDB,
  siteId: string,
  now: Date,
  request: OrderQuery = {},
): Page<OrderView> {
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
  const total = prepared<Record<string, unknown>, { n: number }>(
    db,
    `SELECT count(*) AS n FROM orders o WHERE ${where.sql}`,
  ).get({
    siteId,
    ...where.params,
    ...(usesNow ? { now: t } : {}),
  })!.n;
  return { items, total, nextOffset: nextOffset(offset, items.length, limit, total) };
}

/**
 * A page of the unpaid ATM / convenience-store payments still payable at `now`, soonest deadline
 * first (none last).
 */
export function getPayableInstructionsPage(
  db: ReadableDB,
  siteId: string,
  now: Date,
  request: PageRequest = {},
): Page<PaymentView> {
  const t = now.getTime();
  const { offset, limit } = pageOf(request);
  const items = prepared<
    { siteId: string; now: number; offset: number; limit: number },
    PaymentRow
  >(
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

/**
 * A school's payable codes whose deadline falls before `until` (epoch ms), soonest first: the
 * upcoming dates read only the window on the partial index payments_payable, not a whole page.
 */
export function getPayableUntil(
  db: ReadableDB,
  siteId: string,
  now: Date,
  until: number,
  limit: number,
): PaymentView[] {
  const t = now.getTime();
  return prepared<{ siteId: string; now: number; until: number; limit: number }, PaymentRow>(
    db,
    // The page is chosen on the index first; only its rows are read whole (line items and all).
    `WITH page AS (
       SELECT id, expires_ms FROM payments WHERE site_id = @siteId AND ${PAYABLE} AND expires_ms <= @until
       ORDER BY expires_ms, id LIMIT @limit
     )
     SELECT ${PAYMENT_COLUMNS} FROM page JOIN payments p ON p.site_id = @siteId AND p.id = page.id
     ORDER BY page.expires_ms, page.id`,
  )
    .all({ siteId, now: t, until, limit })
    .map((r) => toPaymentView(r, t));
}

/**
 * The payable codes of every school at once, the soonest to expire first (the Today home): one
 * statement over the partial index payments_payable, no count.
 */
export function getPayableAcrossSites(
  db: Database,
  now: Date,
  limit: number,
): { readonly siteId: string; readonly payment: PaymentView }[] {
  const t = now.getTime();
  return prepared<{ now: number; limit: number }, PaymentRow & { site_id: string }>(
    db,
    `SELECT p.site_id, ${PAYMENT_COLUMNS} FROM payments p WHERE ${PAYABLE}
      ORDER BY p.expires_ms IS NULL, p.expires_ms, p.site_id, p.id LIMIT @limit`,
  )
    .all({ now: t, limit })
    .map((r) => ({ siteId: r.site_id, payment: toPaymentView(r, t) }));
}

/**
 * The next instant after `now` at which a code matching `which` expires (a view showing them
 * changes then).
 */
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

/**
 * How many payable codes the summary carries (the screen shows them with the totals, the rest on
 * request).
 */
export const PENDING_PREVIEW = 5;

/**
 * The head of the billing screen: counts, totals per currency, the soonest payable codes. Memoised
 * per site until the payments change or the next payable code expires (the codes and their count
 * change then); every part is an index read.
 */
export function getBillingSummary(db: ReadableDB, siteId: string, now: Date): BillingSummary {
  return cachedView(db, 'billing', siteId, 'summary', now, () => {
    const t = now.getTime();
    const totals = prepared<{ siteId: string }, CurrencyTotal & { n: number }>(
      db,
      `SELECT currency, count(*) AS n,
              total(CASE WHEN payment_state IN ('paid', 'refunded') THEN amount ELSE 0 END) AS paid, total(refunded_amount) AS refunded
       FROM payments WHERE site_id = @siteId GROUP BY currency`,
    ).all({ siteId });
    const orderCount = prepared<{ siteId: string }, { n: number }>(
      db,
      'SELECT count(*) AS n FROM orders WHERE site_id = @siteId',
    ).get({ siteId })!.n;
    const pending = getPayableInstructionsPage(db, siteId, now, { limit: PENDING_PREVIEW });
    const value: BillingSummary = {
      orderCount,
      paymentCount: totals.reduce((n, r) => n + r.n, 0),
      pendingCount: pending.total,
      pendingInstructions: pending.items,
      totals: totals
        .sort((a, b) => cmp(a.currency, b.currency))
        .map((r) => ({ currency: r.currency, paid: r.paid, refunded: r.refunded })),
    };
    return { value, validUntil: nextCodeExpiry(db, siteId, t, UNPAID_CODE) };
  });
}

/**
 * The whole billing at once: every order, every payable code and the totals, from the same queries
 * as the pages. The screen never asks for it (it reads the summary and pages); tests and the
 * `billing:get` channel do.
 */
export function getBilling(db: ReadableDB, siteId: string, now: Date): BillingView {
  return cachedView(db, 'billing', siteId, '', now, () => {
    const orders = getOrdersPage(db, siteId, now).items;
    const pendingInstructions = getPayableInstructionsPage(db, siteId, now).items;
    const value: BillingView = {
      orders,
      pendingInstructions,
      totals: getBillingSummary(db, siteId, now).totals,
    };
    // Instructions expire (isExpired, pending list, awaiting/expired order state) at their expiry.
    return { value, validUntil: nextCodeExpiry(db, siteId, now.getTime(), 'code_no IS NOT NULL') };
  });
}

/** One order by its tradeNo (a receipt), or null when this site has none by that number. */
export function getOrder(
  db: ReadableDB,
  siteId: string,
  tradeNo: string,
  now: Date,
): OrderView | null {
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
export function getPayment(
  db: ReadableDB,
  siteId: string,
  paymentId: string,
  now: Date,
): PaymentView | null {
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
 * Spending per year and currency, newest year first: paid (paid, and refunded later) minus
 * refunded, with each order counted in the year it was placed (the year of its date as the school
 * wrote it, the list's year headings).
 */
export function getSpendingByYear(db: ReadableDB, siteId: string): YearSpending[] {
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
