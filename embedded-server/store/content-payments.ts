import type { Database } from 'better-sqlite3';
import { contentMemo } from './content-memo';
import {
  jsonIds,
  keyset,
  pageParams,
  rawStmt,
  stmt,
  toPage,
  type Page,
  type PageRequest,
} from './content-sql';
// The enum columns hold the member schema's values, which the API answers as stored.
import type {
  InvoiceKind,
  LineItemType,
  PaymentState,
  PaymentType,
  RefundingState,
} from '../member-api/schema-types';

/**
 * Data access for payments, their adjustments and line items (migration 002). One row = one
 * payment.
 */

export interface PaymentRow {
  id: string;
  school_id: string;
  user_id: string;
  trade_no: string;
  amount: number;
  currency: string;
  payment_type: PaymentType;
  created_at: number;
  paid_at: number | null;
  payment_state: PaymentState;
  refunding_state: RefundingState;
  refunded_amount: number;
  refunded_at: number | null;
  refund_requested_at: number | null;
  bank_code: string | null;
  bank_name: string | null;
  code_no: string | null;
  expired_at: number | null;
  invoice_number: string | null;
  invoice_kind: InvoiceKind | null;
  invoice_title: string | null;
  invoice_tax_id: string | null;
  invoice_issued_at: number | null;
  invoice_voided_at: number | null;
  installment_periods: number | null;
  installment_amount_per_period: number | null;
  installment_bank_name: string | null;
}

export interface AdjustmentRow {
  payment_id: string;
  kind: 'coupon' | 'promotion';
  code: string | null;
  title: string;
  amount: number;
}

export interface LineItemRow {
  id: string;
  payment_id: string;
  item_type: LineItemType;
  item_id: string | null;
  title: string;
  quantity: number;
  original_amount: number;
  discount_amount: number;
  final_amount: number;
}

/** Newest first (spec "Limits": up to 50 a page, newest first); the caller caps `first`. */
export function listPayments(db: Database, req: PageRequest): Page<PaymentRow> {
  const rows = stmt<object, PaymentRow>(
    db,
    `SELECT * FROM payments WHERE school_id = :school AND user_id = :user AND ${keyset('created_at', 'id')}
      ORDER BY created_at DESC, id DESC LIMIT :limit`,
  ).all(pageParams(req));
  return toPage(rows, req, countPayments(db, req));
}

/**
 * Position of each column in a row of `listPaymentTuples` (the member API's payment pages): rows
 * come back as arrays (better-sqlite3 raw mode), not one 27-key object per row. Keys are PaymentRow
 * columns.
 */
export const PAY = {
  id: 0,
  trade_no: 1,
  amount: 2,
  currency: 3,
  payment_type: 4,
  created_at: 5,
  paid_at: 6,
  payment_state: 7,
  refunding_state: 8,
  refunded_amount: 9,
  refunded_at: 10,
  refund_requested_at: 11,
  bank_code: 12,
  bank_name: 13,
  code_no: 14,
  expired_at: 15,
  invoice_number: 16,
  invoice_kind: 17,
  invoice_title: 18,
  invoice_tax_id: 19,
  invoice_issued_at: 20,
  invoice_voided_at: 21,
  installment_periods: 22,
  installment_amount_per_period: 23,
  installment_bank_name: 24,
} as const;

/** A payment row as an array: `t[PAY.trade_no]` is typed as `PaymentRow['trade_no']`. */
export type PaymentTuple = { readonly [K in keyof typeof PAY as (typeof PAY)[K]]: PaymentRow[K] };

const PAYMENT_TUPLE_COLUMNS = (Object.keys(PAY) as (keyof typeof PAY)[])
  .sort((a, b) => PAY[a] - PAY[b])
  .join(', ');

/** `listPayments` for the member API: same rows, same order, as tuples (see PAY). */
export function listPaymentTuples(db: Database, req: PageRequest): Page<PaymentTuple> {
  const rows = rawStmt(
    db,
    `SELECT ${PAYMENT_TUPLE_COLUMNS} FROM payments WHERE school_id = :school AND user_id = :user AND ${keyset('created_at', 'id')}
      ORDER BY created_at DESC, id DESC LIMIT :limit`,
  ).all(pageParams(req)) as unknown as PaymentTuple[];
  return toPage(rows, req, countPayments(db, req));
}

/**
 * A member's payment count, the totalCount of every page. Counting 5,000 index entries cost as much
 * as reading the page itself (~0.15 ms), on each of a history's 101 pages, so it is memoised
 * against the `payments` generation (store/content-memo.ts), which any insert or delete of a
 * payment, or a move to another member, raises.
 */
function countPayments(db: Database, req: PageRequest): number {
  return contentMemo<number>(db, 'payments').getOrRemember(
    `${req.schoolId}\u0000${req.userId}`,
    () =>
      stmt<object, { n: number }>(
        db,
        'SELECT count(*) AS n FROM payments WHERE school_id = :school AND user_id = :user',
      ).get({
        school: req.schoolId,
        user: req.userId,
      })!.n,
  );
}

export function adjustmentsForPayments(
  db: Database,
  paymentIds: readonly string[],
): AdjustmentRow[] {
  return stmt<object, AdjustmentRow>(
    db,
    'SELECT payment_id, kind, code, title, amount FROM payment_adjustments WHERE payment_id IN (SELECT value FROM json_each(:ids)) ORDER BY id',
  ).all({ ids: jsonIds(paymentIds) });
}

export function lineItemsForPayments(db: Database, paymentIds: readonly string[]): LineItemRow[] {
  return stmt<object, LineItemRow>(
    db,
    'SELECT * FROM payment_line_items WHERE payment_id IN (SELECT value FROM json_each(:ids)) ORDER BY payment_id, id',
  ).all({ ids: jsonIds(paymentIds) });
}

export function insertPayment(db: Database, row: PaymentRow): void {
  stmt(
    db,
    `INSERT INTO payments (id, school_id, user_id, trade_no, amount, currency, payment_type, created_at, paid_at, payment_state,
        refunding_state, refunded_amount, refunded_at, refund_requested_at, bank_code, bank_name, code_no, expired_at,
        invoice_number, invoice_kind, invoice_title, invoice_tax_id, invoice_issued_at, invoice_voided_at,
        installment_periods, installment_amount_per_period, installment_bank_name)
     VALUES (:id, :school_id, :user_id, :trade_no, :amount, :currency, :payment_type, :created_at, :paid_at, :payment_state,
        :refunding_state, :refunded_amount, :refunded_at, :refund_requested_at, :bank_code, :bank_name, :code_no, :expired_at,
        :invoice_number, :invoice_kind, :invoice_title, :invoice_tax_id, :invoice_issued_at, :invoice_voided_at,
        :installment_periods, :installment_amount_per_period, :installment_bank_name)`,
  ).run(row);
}

export function insertAdjustment(db: Database, row: AdjustmentRow): void {
  stmt(
    db,
    'INSERT INTO payment_adjustments (payment_id, kind, code, title, amount) VALUES (:payment_id, :kind, :code, :title, :amount)',
  ).run(row);
}

export function insertLineItem(db: Database, row: LineItemRow): void {
  stmt(
    db,
    `INSERT INTO payment_line_items (id, payment_id, item_type, item_id, title, quantity, original_amount, discount_amount, final_amount)
     VALUES (:id, :payment_id, :item_type, :item_id, :title, :quantity, :original_amount, :discount_amount, :final_amount)`,
  ).run(row);
}

export function getPayment(db: Database, schoolId: string, id: string): PaymentRow | undefined {
  return stmt<object, PaymentRow>(
    db,
    'SELECT * FROM payments WHERE school_id = :school AND id = :id',
  ).get({ school: schoolId, id });
}

/** Operator order view: every payment at the school, newest first, optionally one trade. */
export function listSchoolPayments(
  db: Database,
  schoolId: string,
  tradeNo: string | null,
  limit: number,
  offset: number,
): { rows: PaymentRow[]; total: number } {
  const params = { school: schoolId, trade: tradeNo, limit, offset };
  const rows = stmt<object, PaymentRow>(
    db,
    `SELECT * FROM payments WHERE school_id = :school AND (:trade IS NULL OR trade_no = :trade)
      ORDER BY created_at DESC, id DESC LIMIT :limit OFFSET :offset`,
  ).all(params);
  const total = stmt<object, { n: number }>(
    db,
    'SELECT count(*) AS n FROM payments WHERE school_id = :school AND (:trade IS NULL OR trade_no = :trade)',
  ).get(params)!.n;
  return { rows, total };
}

/**
 * Every payment of one order, newest first. An order holds a handful of payments, so no page is
 * needed.
 */
export function listPaymentsOfOrder(db: Database, schoolId: string, tradeNo: string): PaymentRow[] {
  return stmt<object, PaymentRow>(
    db,
    'SELECT * FROM payments WHERE school_id = :school AND trade_no = :trade ORDER BY created_at DESC, id DESC',
  ).all({
    school: schoolId,
    trade: tradeNo,
  });
}

export function recordRefund(
  db: Database,
  schoolId: string,
  id: string,
  amount: number,
  at: number,
): void {
  stmt(
    db,
    `UPDATE payments SET refunded_amount = refunded_amount + :amount, refunded_at = :at,
            refund_requested_at = coalesce(refund_requested_at, :at),
            refunding_state = CASE WHEN refunded_amount + :amount >= amount THEN 'refunded' ELSE 'partially_refunded' END,
            payment_state = CASE WHEN refunded_amount + :amount >= amount THEN 'refunded' ELSE payment_state END
      WHERE school_id = :school AND id = :id`,
  ).run({ school: schoolId, id, amount, at });
}

export function sumPaid(
  db: Database,
  schoolId: string,
): { currency: string; total: number; refunded: number; count: number }[] {
  return stmt<object, { currency: string; total: number; refunded: number; count: number }>(
    db,
    `SELECT currency, sum(amount) AS total, sum(refunded_amount) AS refunded, count(*) AS count FROM payments
      WHERE school_id = :school AND payment_state IN ('paid', 'refunded') GROUP BY currency ORDER BY currency`,
  ).all({ school: schoolId });
}
