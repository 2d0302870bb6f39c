import { stringify } from 'csv-stringify/sync';
import type { OrderView } from '../../common/view-models';
import { getOrdersPage, type AnyDB } from '../db/index';
import { sheetDateTime } from './dates';
import { plainAmount } from './money';
import { label, text } from './safe';
import { stringsFor, type ExportLanguage } from './strings';

export interface CsvOptions {
  readonly language: ExportLanguage;
  /** IANA zone the dates are written in (the student's). */
  readonly timeZone: string;
}

/**
 * Text that a spreadsheet would run as a formula when the cell starts with one of these (OWASP "CSV
 * Injection"):
 * titles and codes come from the site, so a cell like `=HYPERLINK(...)` is written with a leading
 * apostrophe and shown as text.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
/**
 * Every cell goes through here, whatever it holds (the site's words, our labels, dates, amounts):
 * one guard.
 */
export function cell(value: unknown): string {
  const t = text(value);
  return FORMULA_START.test(t) ? `'${t}` : t;
}

/**
 * The purchase history as CSV: one row per payment (a purchase paid in installments or retried has
 * several), with its order's number, date and items on every row so a spreadsheet can filter and
 * sum by any column.
 *
 * RFC 4180: CRLF line ends; fields with a comma, quote or line break are quoted, quotes doubled
 * (csv-stringify). UTF-8 with a byte-order mark: Excel reads a CSV without one in the system's
 * legacy code page, which turns Chinese titles into mojibake.
 */
export function ordersToCsv(orders: readonly OrderView[], options: CsvOptions): string {
  const w = stringsFor(options.language);
  const s = w.csv;
  const zone = s.timeZone(options.timeZone);
  const header = [
    s.tradeNo,
    `${s.orderDate} ${zone}`,
    s.orderState,
    s.items,
    s.paymentId,
    s.paymentMethod,
    s.paymentState,
    `${s.createdAt} ${zone}`,
    `${s.paidAt} ${zone}`,
    s.currency,
    s.amount,
    s.adjustments,
    s.refundState,
    s.refundedAmount,
    s.invoiceNumber,
    s.invoiceKind,
    s.invoiceTitle,
    s.taxId,
  ];
  const rows: string[][] = [];
  for (const order of orders) {
    // Oldest payment first in the file (the order view lists newest first).
    for (const p of [...order.payments].reverse()) {
      try {
        rows.push(paymentRow(order, p, w, options.timeZone));
      } catch {
        // An export never fails on one bad row: the row keeps what identifies it, the rest is left
        // empty.
        rows.push([
          cell(order.tradeNo),
          '',
          '',
          '',
          cell(p?.paymentId),
          ...Array<string>(13).fill(''),
        ]);
      }
    }
  }
  // quoted_match: csv-stringify quotes a field holding its record delimiter (CRLF) but not a bare
  // LF or CR, which every spreadsheet would read as the end of the row (RFC 4180 §2.6: fields with
  // line breaks are quoted).
  return stringify([header, ...rows], {
    bom: true,
    record_delimiter: 'windows',
    quoted_match: /[\r\n]/,
  });
}

type Words = ReturnType<typeof stringsFor>;

function paymentRow(
  order: OrderView,
  p: OrderView['payments'][number],
  w: Words,
  timeZone: string,
): string[] {
  const items = p.lineItems
    .map((li) =>
      Number(li.quantity) > 1 ? `${text(li.title)} × ${text(li.quantity)}` : text(li.title),
    )
    .join('\n');
  const adjustments = p.adjustments.reduce((sum, a) => sum + Math.abs(Number(a.amount) || 0), 0);
  const currency = text(p.currency);
  return [
    cell(order.tradeNo),
    cell(sheetDateTime(order.createdAt, timeZone)),
    cell(label(w.orderState, order.summaryState)),
    cell(items),
    cell(p.paymentId),
    cell(label(w.paymentType, p.paymentType)),
    cell(label(w.paymentState, p.paymentState)),
    cell(sheetDateTime(p.createdAt, timeZone)),
    cell(sheetDateTime(p.paidAt, timeZone)),
    cell(currency),
    cell(plainAmount(p.amount, currency)),
    adjustments === 0 ? '' : cell(plainAmount(adjustments, currency)),
    cell(label(w.refundState, p.refund.state)),
    p.refund.refundedAmount === 0 ? '' : cell(plainAmount(p.refund.refundedAmount, currency)),
    cell(p.invoice?.number),
    p.invoice ? cell(label(w.invoiceKind, p.invoice.kind)) : '',
    cell(p.invoice?.title),
    cell(p.invoice?.taxId),
  ];
}

/**
 * A site's whole purchase history as CSV, read from `db`, or null when it holds no purchase yet.
 * The app runs it on the writer's thread (worker-contract.ts `export:orders-csv`): the large seed's
 * 5,015 payments are ~840 KB of CSV and ~0.1 s of work that would otherwise hold the main process,
 * and with it every window, while it ran.
 */
export function purchaseHistoryCsv(
  db: AnyDB,
  siteId: string,
  now: Date,
  options: CsvOptions,
): string | null {
  const orders = getOrdersPage(db, siteId, now).items;
  return orders.length === 0 ? null : ordersToCsv(orders, options);
}
