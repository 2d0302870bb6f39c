import type { OrderView, PaymentView } from '../../common/view-models';
import { readableDateTime } from './dates';
import { displayAmount } from './money';
import { label, text } from './safe';
import { stringsFor, type ExportLanguage } from './strings';

/**
 * A printable receipt for one order, as a complete HTML document: the order number, every payment
 * with its line items, discounts, installments, invoice fields and refunds, exactly as the site
 * gave them. Electron prints it to PDF (webContents.printToPDF); the browser host shows it as a
 * print view. Self-contained: inline style, no image, no script unless the host names one, and a
 * CSP that allows nothing else.
 */
export interface ReceiptOptions {
  readonly language: ExportLanguage;
  readonly timeZone: string;
  readonly site: { readonly label: string; readonly baseUrl: string };
  /** When the receipt was made (its footer). */
  readonly generatedAt: Date;
  /**
   * Same-origin path of a script the page loads (the browser host's print trigger); none for PDF
   * output.
   */
  readonly script?: string;
}

/** Text made safe for HTML element content and double-quoted attributes. */
export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

const STYLE = `
@page { size: A4; margin: 16mm; }
* { box-sizing: border-box; }
body { font-family: system-ui, "Noto Sans CJK TC", "Noto Sans TC", "PingFang TC", "Microsoft JhengHei", sans-serif; color: #111; background: #fff; margin: 0 auto; max-width: 800px; padding: 24px; font-size: 14px; line-height: 1.45; }
header { display: flex; justify-content: space-between; align-items: flex-start; border-bottom: 2px solid #111; padding-bottom: 12px; margin-bottom: 16px; gap: 16px; }
h1 { font-size: 26px; margin: 0; }
h2 { font-size: 17px; margin: 24px 0 8px; border-bottom: 1px solid #bbb; padding-bottom: 4px; }
h3 { font-size: 14px; margin: 14px 0 6px; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 0; }
dt { color: #444; }
dd { margin: 0; }
table { width: 100%; border-collapse: collapse; margin: 6px 0; }
th, td { text-align: left; padding: 4px 6px; border-bottom: 1px solid #ddd; vertical-align: top; }
th { background: #f2f2f2; font-weight: 600; }
.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.site { text-align: right; }
.site .muted { color: #444; font-size: 12px; word-break: break-all; }
.payment { break-inside: avoid; }
article.receipt + article.receipt, .cover + .totals + article.receipt { break-before: page; }
.cover { display: flex; justify-content: space-between; gap: 16px; border-bottom: 2px solid #111; margin-bottom: 16px; }
.totals { margin-top: 20px; border-top: 2px solid #111; padding-top: 8px; }
footer { margin-top: 28px; color: #444; font-size: 12px; }
code { font-family: ui-monospace, "Noto Sans Mono", monospace; }
@media print { body { padding: 0; max-width: none; } .no-print { display: none; } }
`;

/**
 * What every part of a receipt writes with: the words of its language, and values escaped as they
 * go in.
 */
interface Pen {
  readonly language: ReceiptOptions['language'];
  readonly w: ReturnType<typeof stringsFor>;
  readonly r: ReturnType<typeof stringsFor>['receipt'];
  /**
   * Every value the site sent is escaped, whatever its type (a quantity sent as a string is text
   * too).
   */
  readonly e: (value: unknown) => string;
  readonly when: (iso: string | null) => string;
  readonly money: (n: number, currency: string) => string;
  readonly row: (label: string, value: string) => string;
}

function penFor(language: ReceiptOptions['language'], timeZone: string): Pen {
  const w = stringsFor(language);
  const e = (value: unknown) => escapeHtml(text(value));
  return {
    language,
    w,
    r: w.receipt,
    e,
    when: (iso) => e(readableDateTime(iso, language, timeZone)),
    money: (n, currency) => e(displayAmount(n, currency, language)),
    row: (label, value) => `<dt>${e(label)}</dt><dd>${value}</dd>`,
  };
}

/** How the payment was made and when: method, state, amount, instalments, the payment code. */
function paymentFacts(pen: Pen, p: PaymentView): string[] {
  const { w, r, e, when, money, row, language } = pen;
  const parts: string[] = [];
  parts.push(row(r.method, e(label(w.paymentType, p.paymentType))));
  parts.push(row(r.state, e(label(w.paymentState, p.paymentState))));
  parts.push(row(r.amount, money(p.amount, p.currency)));
  parts.push(row(r.createdAt, when(p.createdAt)));
  if (p.paidAt) parts.push(row(r.paidAt, when(p.paidAt)));
  if (p.installment)
    parts.push(
      row(
        r.installmentLabel,
        e(
          r.installment(
            p.installment.periods,
            displayAmount(p.installment.amountPerPeriod, p.currency, language),
          ),
        ) + (p.installment.bankName ? ` · ${e(p.installment.bankName)}` : ''),
      ),
    );
  if (p.instructions) {
    parts.push(row(r.paymentCode, `<code>${e(p.instructions.codeNo)}</code>`));
    if (p.instructions.bankName || p.instructions.bankCode)
      parts.push(
        row(
          r.bank,
          e(
            [p.instructions.bankName, p.instructions.bankCode && `(${p.instructions.bankCode})`]
              .filter(Boolean)
              .join(' '),
          ),
        ),
      );
    if (p.instructions.expiredAt) parts.push(row(r.payBy, when(p.instructions.expiredAt)));
  }
  return parts;
}

/** What was bought, and what was taken off. */
function paymentItems(pen: Pen, p: PaymentView): string[] {
  const { w, r, e, money } = pen;
  const parts: string[] = [];
  if (p.lineItems.length > 0) {
    parts.push(
      `<table><thead><tr><th scope="col">${e(r.item)}</th><th scope="col">${e(r.type)}</th><th scope="col" class="num">${e(r.quantity)}</th><th scope="col" class="num">${e(r.original)}</th><th scope="col" class="num">${e(r.discount)}</th><th scope="col" class="num">${e(r.final)}</th></tr></thead><tbody>`,
    );
    for (const li of p.lineItems) {
      parts.push(
        `<tr><td>${e(li.title)}</td><td>${e(label(w.itemType, li.itemType))}</td><td class="num">${e(li.quantity)}</td><td class="num">${money(li.originalAmount, p.currency)}</td><td class="num">${li.discountAmount ? `−${money(li.discountAmount, p.currency)}` : '—'}</td><td class="num">${money(li.finalAmount, p.currency)}</td></tr>`,
      );
    }
    parts.push('</tbody></table>');
  }
  if (p.adjustments.length > 0) {
    parts.push(`<h3>${e(r.adjustments)}</h3><table><tbody>`);
    for (const a of p.adjustments) {
      parts.push(
        `<tr><td>${e(label(w.adjustmentKind, a.kind))}</td><td>${e(a.title)}${a.code ? ` <code>${e(a.code)}</code>` : ''}</td><td class="num">−${money(Math.abs(a.amount), p.currency)}</td></tr>`,
      );
    }
    parts.push('</tbody></table>');
  }
  return parts;
}

/** The payment's invoice and refund, when it has them. */
function paymentPapers(pen: Pen, p: PaymentView): string[] {
  const { w, r, e, when, money, row } = pen;
  const parts: string[] = [];
  if (p.invoice) {
    const inv = p.invoice;
    parts.push(`<h3>${e(r.invoice)}</h3><dl>`);
    parts.push(row(r.invoiceNumber, e(inv.number)));
    parts.push(row(r.invoiceKind, e(label(w.invoiceKind, inv.kind))));
    if (inv.title) parts.push(row(r.invoiceTitle, e(inv.title)));
    if (inv.taxId) parts.push(row(r.taxId, e(inv.taxId)));
    parts.push(row(r.issuedAt, when(inv.issuedAt)));
    if (inv.voidedAt) parts.push(row(r.voidedAt, when(inv.voidedAt)));
    parts.push('</dl>');
  }
  if (p.refund.state !== 'none') {
    parts.push(`<h3>${e(r.refund)}</h3><dl>`);
    parts.push(row(r.refundState, e(label(w.refundState, p.refund.state))));
    if (p.refund.refundedAmount > 0)
      parts.push(row(r.refundedAmount, money(p.refund.refundedAmount, p.currency)));
    if (p.refund.refundRequestedAt)
      parts.push(row(r.refundRequestedAt, when(p.refund.refundRequestedAt)));
    if (p.refund.refundedAt) parts.push(row(r.refundedAt, when(p.refund.refundedAt)));
    parts.push('</dl>');
  }
  return parts;
}

/**
 * One payment's section. One the receipt cannot write (a value of a shape nothing expected) does
 * not take the receipt with it: its section keeps only its heading.
 */
function paymentSection(pen: Pen, p: PaymentView, i: number, count: number): string {
  const { r, e } = pen;
  try {
    return [
      `<section class="payment" data-payment-id="${e(p.paymentId)}"><h2>${e(r.payment(i + 1, count))}</h2><dl>`,
      ...paymentFacts(pen, p),
      '</dl>',
      ...paymentItems(pen, p),
      ...paymentPapers(pen, p),
      '</section>',
    ].join('');
  } catch {
    return `<section class="payment" data-payment-id="${e(p?.paymentId)}"><h2>${e(r.payment(i + 1, count))}</h2></section>`;
  }
}

/**
 * One order's receipt as an <article>: its header (number, date, state, school), every payment, the
 * totals. The single receipt and a year's receipts (year-receipts.ts) are both made of it.
 */
export function receiptArticle(
  order: OrderView,
  options: Omit<ReceiptOptions, 'generatedAt' | 'script'>,
): string {
  const pen = penFor(options.language, options.timeZone);
  const { w, r, e, when, money, row } = pen;
  // Oldest payment first, as they happened.
  const payments = [...order.payments].reverse();
  const sections = payments.map((p, i) => paymentSection(pen, p, i, payments.length));
  return `<article class="receipt" data-trade-no="${e(order.tradeNo)}">
<header>
<div><h1>${e(r.title)}</h1><dl>${row(r.orderNo, `<code>${e(order.tradeNo)}</code>`)}${row(r.orderDate, when(order.createdAt))}${row(r.state, e(label(w.orderState, order.summaryState)))}</dl></div>
<div class="site"><div>${e(r.site)}: <strong>${e(options.site.label)}</strong></div><div class="muted">${e(options.site.baseUrl)}</div></div>
</header>
${sections.join('\n')}
<section class="totals"><dl>${row(r.total, money(order.totalAmount, order.currency))}${row(r.paid, money(order.paidAmount, order.currency))}${order.refundedAmount > 0 ? row(r.refunded, money(order.refundedAmount, order.currency)) : ''}</dl></section>
</article>`;
}

/**
 * A complete, self-contained HTML document around `main` (already escaped markup): inline style, a
 * CSP that allows nothing else, and the host's print script when it names one.
 */
export function printableDocument(
  title: string,
  main: string,
  options: Pick<ReceiptOptions, 'language' | 'script'>,
): string {
  const e = (value: unknown) => escapeHtml(text(value));
  // Our own constant (no quote character in it), written as is.
  const csp = `default-src 'none'; style-src 'unsafe-inline'${options.script ? "; script-src 'self'" : ''}; base-uri 'none'; form-action 'none'`;
  return `<!doctype html>
<html lang="${e(options.language)}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(title)}</title>
<style>${STYLE}</style>
${options.script ? `<script src="${e(options.script)}" defer></script>\n` : ''}</head>
<body>
${main}
</body>
</html>
`;
}

/**
 * The footer every printable file ends with: when it was made, from what, and that it is not a tax
 * invoice.
 */
export function printableFooter(
  options: Pick<ReceiptOptions, 'language' | 'timeZone' | 'generatedAt'>,
): string {
  const r = stringsFor(options.language).receipt;
  return `<footer><p>${escapeHtml(r.footer(readableDateTime(options.generatedAt.toISOString(), options.language, options.timeZone)))}</p><p>${escapeHtml(r.notInvoice)}</p></footer>`;
}

export function receiptHtml(order: OrderView, options: ReceiptOptions): string {
  const r = stringsFor(options.language).receipt;
  const main = `<main data-trade-no="${escapeHtml(text(order.tradeNo))}">
${receiptArticle(order, options)}
${printableFooter(options)}
</main>`;
  return printableDocument(`${r.title} ${order.tradeNo}`, main, options);
}
