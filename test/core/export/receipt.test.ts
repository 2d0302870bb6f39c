import { describe, expect, it } from 'vitest';
import { escapeHtml, receiptHtml } from '../../../electron/core/export/receipt';
import { orderView, paymentView } from './fixtures';

const OPTIONS = {
  timeZone: 'Asia/Taipei',
  site: { label: 'Good Food School', baseUrl: 'https://school.example.com' },
  generatedAt: new Date('2026-06-01T08:00:00.000Z'),
} as const;

/** The text a reader sees: tags dropped, entities decoded, white space collapsed. */
const visible = (html: string) =>
  html
    .replace(/<style>[\s\S]*?<\/style>/, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();

describe('printable receipt (one order, as the site gave it)', () => {
  const first = paymentView('p1', {
    tradeNo: 'T-100',
    paymentType: 'atm',
    paymentState: 'expired',
    paidAt: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    instructions: {
      bankCode: '812',
      bankName: 'Taishin',
      codeNo: '99912345678901',
      expiredAt: '2026-01-04T15:59:59.000Z',
      isExpired: true,
    },
  });
  const second = paymentView('p2', {
    tradeNo: 'T-100',
    amount: 2700,
    createdAt: '2026-01-05T06:30:00.000Z',
    lineItems: [
      {
        id: 'a',
        itemType: 'CurriculumPlan',
        title: 'Knife skills',
        quantity: 1,
        originalAmount: 3000,
        discountAmount: 300,
        finalAmount: 2700,
      },
      {
        id: 'b',
        itemType: 'OrderBump',
        title: 'Recipe book',
        quantity: 2,
        originalAmount: 0,
        discountAmount: 0,
        finalAmount: 0,
      },
    ],
    adjustments: [{ kind: 'coupon', code: 'SAVE10', title: 'Ten percent off', amount: -300 }],
    installment: { periods: 3, amountPerPeriod: 900, bankName: 'Cathay' },
    invoice: {
      number: 'AB-12345678',
      kind: 'company',
      title: 'Good Food Ltd',
      taxId: '12345678',
      issuedAt: '2026-01-05T07:00:00.000Z',
      voidedAt: '2026-01-08T00:00:00.000Z',
    },
    refund: {
      state: 'partially_refunded',
      refundedAmount: 900,
      refundedAt: '2026-01-09T02:00:00.000Z',
      refundRequestedAt: '2026-01-07T02:00:00.000Z',
    },
  });
  const order = orderView('T-100', [second, first], {
    summaryState: 'partially_refunded',
    paidAmount: 2700,
    refundedAmount: 900,
    totalAmount: 3900,
  });

  it('says everything of the order: number, each payment in order, items, discounts, installments, invoice, refund, totals', () => {
    const text = visible(receiptHtml(order, { ...OPTIONS, language: 'en' }));
    const expected = [
      'Receipt Order number T-100 Order date Jan 1, 2026, 8:00 AM (GMT+8) State Partly refunded School: Good Food School https://school.example.com',
      'Payment 1 of 2 Method ATM transfer State Expired Amount NT$1,200 Created Jan 1, 2026, 8:00 AM (GMT+8) Payment code 99912345678901 Bank Taishin (812) Pay by Jan 4, 2026, 11:59 PM (GMT+8)',
      'Item Type Qty Price Discount Paid Plan p1 Course 1 NT$1,200 — NT$1,200',
      'Payment 2 of 2 Method Credit card State Paid Amount NT$2,700 Created Jan 5, 2026, 2:30 PM (GMT+8) Paid Jan 5, 2026, 2:31 PM (GMT+8) Installments 3 installments of NT$900 · Cathay',
      'Item Type Qty Price Discount Paid Knife skills Course 1 NT$3,000 −NT$300 NT$2,700 Recipe book Add-on 2 NT$0 — NT$0',
      'Discounts Coupon Ten percent off SAVE10 −NT$300',
      'Invoice Number AB-12345678 Type Company Title Good Food Ltd Tax ID 12345678 Issued Jan 5, 2026, 3:00 PM (GMT+8) Voided Jan 8, 2026, 8:00 AM (GMT+8)',
      'Refund State Partly refunded Refunded NT$900 Requested Jan 7, 2026, 10:00 AM (GMT+8) Refunded on Jan 9, 2026, 10:00 AM (GMT+8)',
      'Order total NT$3,900 Paid NT$2,700 Refunded NT$900',
      "Made by Learning Desktop from this computer's copy of your purchases on Jun 1, 2026, 4:00 PM (GMT+8).",
      'This receipt is not a tax invoice; the invoice fields are shown as the school gave them.',
    ].join(' ');
    expect(text).toBe(`Receipt T-100 ${expected}`);
  });

  it('in Traditional Chinese, with the page language set for the fonts', () => {
    const html = receiptHtml(order, { ...OPTIONS, language: 'zh-TW' });
    expect(html).toContain('<html lang="zh-TW">');
    const text = visible(html);
    expect(text).toContain('收據 訂單編號 T-100');
    expect(text).toContain('第 1 筆付款（共 2 筆） 付款方式 ATM 轉帳 狀態 已逾期');
    expect(text).toContain('發票 號碼 AB-12345678 類型 公司 抬頭 Good Food Ltd 統一編號 12345678');
    expect(text).toContain('退款 狀態 部分退款 退款金額 $900');
    expect(text).toContain('本收據並非統一發票');
  });

  it('escapes whatever the site wrote, and allows no script, image or connection (CSP)', () => {
    const hostile = paymentView('p3', {
      tradeNo: 'T-"><script>alert(1)</script>',
      lineItems: [
        {
          id: 'x',
          itemType: 'Ticket',
          title: '<img src=x onerror=alert(1)>&amp;',
          quantity: 1,
          originalAmount: 1,
          discountAmount: 0,
          finalAmount: 1,
        },
      ],
      invoice: {
        number: "N'1",
        kind: 'personal',
        title: '</style><script>x()</script>',
        taxId: null,
        issuedAt: '2026-01-05T07:00:00.000Z',
        voidedAt: null,
      },
    });
    const html = receiptHtml(orderView(hostile.tradeNo, [hostile]), { ...OPTIONS, language: 'en' });
    expect(html).not.toMatch(/<script|<img|<\/style><script/i);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;&amp;amp;');
    expect(html).toContain('data-trade-no="T-&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">`,
    );
    expect(visible(html)).toContain('<img src=x onerror=alert(1)>&amp;');
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });

  it('loads the host’s print script only when asked, from the same origin', () => {
    const html = receiptHtml(order, { ...OPTIONS, language: 'en', script: '/__host/print.js' });
    expect(html).toContain('<script src="/__host/print.js" defer></script>');
    expect(html).toContain("script-src 'self'");
  });
});
