import type { OrderView } from '../../common/view-models';
import { getOrdersPage, type ReadableDB } from '../db/index';
import { displayAmount } from './money';
import {
  escapeHtml,
  printableDocument,
  printableFooter,
  receiptArticle,
  type ReceiptOptions,
} from './receipt';
import type { ExportLanguage } from './strings';

const WORDS = {
  en: {
    title: (year: string) => `Receipts ${year}`,
    intro: (count: number, school: string) =>
      `${count} ${count === 1 ? 'order' : 'orders'} paid at ${school}, one receipt each, oldest first.`,
    totals: 'Totals',
    currency: 'Currency',
    paid: 'Paid',
    refunded: 'Refunded',
    spent: 'Spent (paid − refunded)',
  },
  'zh-TW': {
    title: (year: string) => `${year} 年收據`,
    intro: (count: number, school: string) =>
      `在 ${school} 付款的 ${count} 筆訂單，每筆一張收據，由舊到新。`,
    totals: '合計',
    currency: '幣別',
    paid: '已付款',
    refunded: '已退款',
    spent: '花費（已付款 − 已退款）',
  },
} satisfies Record<ExportLanguage, unknown>;

/**
 * The orders of one year a reimbursement needs: those whose money reached the school (paidAmount >
 * 0, so refunded ones too, their refunds shown), oldest first. An order waiting for payment, failed
 * or expired has no receipt. The year is the one the list's headings and the spending table use
 * (the order date as the school wrote it).
 */
export function receiptOrdersOfYear(
  db: ReadableDB,
  siteId: string,
  year: string,
  now: Date,
): OrderView[] {
  return getOrdersPage(db, siteId, now, { year })
    .items.filter((o) => o.paidAmount > 0)
    .reverse();
}

/**
 * A year's receipts in one printable document, for reimbursement: a cover with the totals per
 * currency, then each order's receipt on its own page (the same article as the single receipt). One
 * order the writer cannot write leaves a marked gap, not a failed file.
 */
export function yearReceiptsHtml(
  orders: readonly OrderView[],
  year: string,
  options: ReceiptOptions,
): string {
  const w = WORDS[options.language];
  const e = (v: string) => escapeHtml(v);
  const totals = new Map<string, { paid: number; refunded: number }>();
  for (const o of orders) {
    const t = totals.get(o.currency) ?? { paid: 0, refunded: 0 };
    t.paid += o.paidAmount;
    t.refunded += o.refundedAmount;
    totals.set(o.currency, t);
  }
  const money = (n: number, currency: string) => e(displayAmount(n, currency, options.language));
  const rows = [...totals.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(
      ([currency, t]) =>
        `<tr><th scope="row">${e(currency)}</th><td class="num">${money(t.paid, currency)}</td><td class="num">${money(t.refunded, currency)}</td><td class="num">${money(t.paid - t.refunded, currency)}</td></tr>`,
    )
    .join('');
  const article = (o: OrderView): string => {
    try {
      return receiptArticle(o, options);
    } catch {
      return `<article class="receipt" data-trade-no="${e(String(o?.tradeNo))}"><h1>${e(String(o?.tradeNo))}</h1></article>`;
    }
  };
  const main = `<main data-year="${e(year)}">
<header class="cover"><div><h1>${e(w.title(year))}</h1><p>${e(w.intro(orders.length, options.site.label))}</p></div>
<div class="site"><div><strong>${e(options.site.label)}</strong></div><div class="muted">${e(options.site.baseUrl)}</div></div></header>
<section class="totals"><h2>${e(w.totals)}</h2><table><thead><tr><th scope="col">${e(w.currency)}</th><th scope="col" class="num">${e(w.paid)}</th><th scope="col" class="num">${e(w.refunded)}</th><th scope="col" class="num">${e(w.spent)}</th></tr></thead><tbody>${rows}</tbody></table></section>
${orders.map(article).join('\n')}
${printableFooter(options)}
</main>`;
  return printableDocument(w.title(year), main, options);
}
