import { readCsv } from './read-csv';
import { describe, expect, it } from 'vitest';
import { ordersToCsv } from '../../../electron/core/export/csv';
import { minorUnits, plainAmount } from '../../../electron/core/export/money';
import { orderView, paymentView } from './fixtures';

const BOM = '\uFEFF';

describe('purchase history CSV (RFC 4180, UTF-8 with BOM for Excel)', () => {
  it('starts with the UTF-8 byte-order mark, ends every record with CRLF, and writes the exact rows', () => {
    const csv = ordersToCsv([orderView('T-1', [paymentView('p1')])], {
      language: 'en',
      timeZone: 'Asia/Taipei',
    });
    const bytes = Buffer.from(csv, 'utf8');
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(csv).toBe(
      BOM +
        'Order number,Order date (Asia/Taipei),Order state,Items,Payment ID,Payment method,Payment state,Payment created (Asia/Taipei),Paid at (Asia/Taipei),Currency,Amount,Discounts,Refund,Refunded amount,Invoice number,Invoice type,Invoice title,Tax ID\r\n' +
        'T-1,2026-01-05 14:30:00,Paid,Plan p1,p1,Credit card,Paid,2026-01-05 14:30:00,2026-01-05 14:31:00,TWD,1200,,No refund,,,,,\r\n',
    );
  });

  it('quotes commas, doubles quotes, keeps line breaks inside one quoted cell, and keeps Chinese text intact', () => {
    const p = paymentView('p1', {
      lineItems: [
        {
          id: 'a',
          itemType: 'CurriculumPlan',
          title: '料理入門, "基礎"',
          quantity: 2,
          originalAmount: 600,
          discountAmount: 0,
          finalAmount: 1200,
        },
        {
          id: 'b',
          itemType: 'OrderBump',
          title: '講義\n第二版',
          quantity: 1,
          originalAmount: 0,
          discountAmount: 0,
          finalAmount: 0,
        },
      ],
      invoice: {
        number: 'AB-12345678',
        kind: 'company',
        title: '好吃股份有限公司',
        taxId: '12345678',
        issuedAt: '2026-01-05T07:00:00.000Z',
        voidedAt: null,
      },
    });
    const csv = ordersToCsv([orderView('T-1', [p])], {
      language: 'zh-TW',
      timeZone: 'Asia/Taipei',
    });
    const lines = csv.slice(1).split('\r\n');
    expect(lines[0]).toBe(
      '訂單編號,訂單日期 （Asia/Taipei）,訂單狀態,品項,付款編號,付款方式,付款狀態,付款建立時間 （Asia/Taipei）,付款時間 （Asia/Taipei）,幣別,金額,折扣,退款,退款金額,發票號碼,發票類型,發票抬頭,統一編號',
    );
    expect(lines[1]).toBe(
      'T-1,2026-01-05 14:30:00,已付款,"料理入門, ""基礎"" × 2\n講義\n第二版",p1,信用卡,已付款,2026-01-05 14:30:00,2026-01-05 14:31:00,TWD,1200,,無退款,,AB-12345678,公司,好吃股份有限公司,12345678',
    );
    // A CSV reader gets back exactly the cells that were written.
    const rows = readCsv(csv);
    expect(rows).toHaveLength(2);
    expect(rows[1]![3]).toBe('料理入門, "基礎" × 2\n講義\n第二版');
    expect(rows[1]![16]).toBe('好吃股份有限公司');
  });

  it('a bare line feed or carriage return is quoted too (csv-stringify alone quotes only its CRLF; a spreadsheet would end the row there)', () => {
    for (const title of ['one\ntwo', 'one\rtwo']) {
      const p = paymentView('p1', {
        lineItems: [
          {
            id: 'a',
            itemType: 'Ticket',
            title,
            quantity: 1,
            originalAmount: 1,
            discountAmount: 0,
            finalAmount: 1,
          },
        ],
      });
      const csv = ordersToCsv([orderView('T-1', [p])], { language: 'en', timeZone: 'UTC' });
      expect(csv).toContain(`,"${title}",`);
      expect(readCsv(csv)[1]![3]).toBe(title);
    }
  });

  it('cells from the site that a spreadsheet would run as a formula are written as text (OWASP CSV injection)', () => {
    const p = paymentView('p1', {
      tradeNo: '=HYPERLINK("http://evil.example","x")',
      lineItems: [
        {
          id: 'a',
          itemType: 'Ticket',
          title: '+1+cmd',
          quantity: 1,
          originalAmount: 1,
          discountAmount: 0,
          finalAmount: 1,
        },
      ],
      invoice: {
        number: '@SUM(A1)',
        kind: 'personal',
        title: '-2+3',
        taxId: null,
        issuedAt: '2026-01-05T07:00:00.000Z',
        voidedAt: null,
      },
    });
    const rows = readCsv(
      ordersToCsv([orderView(p.tradeNo, [p])], { language: 'en', timeZone: 'UTC' }),
    );
    expect(rows[1]![0]).toBe(`'=HYPERLINK("http://evil.example","x")`);
    expect(rows[1]![3]).toBe(`'+1+cmd`);
    expect(rows[1]![14]).toBe(`'@SUM(A1)`);
    expect(rows[1]![16]).toBe(`'-2+3`);
  });

  it('amounts carry the currency’s minor units: TWD none, USD two, KWD three; refunds and discounts too', () => {
    const twd = paymentView('p1', {
      amount: 2990,
      adjustments: [{ kind: 'coupon', code: 'SAVE10', title: 'Ten off', amount: -300 }],
      refund: {
        state: 'partially_refunded',
        refundedAmount: 1000,
        refundedAt: '2026-01-06T00:00:00.000Z',
        refundRequestedAt: null,
      },
    });
    const usd = paymentView('p2', { tradeNo: 'T-2', amount: 49.5, currency: 'USD' });
    const kwd = paymentView('p3', { tradeNo: 'T-3', amount: 1.25, currency: 'KWD' });
    const rows = readCsv(
      ordersToCsv([orderView('T-1', [twd]), orderView('T-2', [usd]), orderView('T-3', [kwd])], {
        language: 'en',
        timeZone: 'UTC',
      }),
    );
    expect(rows.slice(1).map((r) => [r[9], r[10], r[11], r[12], r[13]])).toEqual([
      ['TWD', '2990', '300', 'Partly refunded', '1000'],
      ['USD', '49.50', '', 'No refund', ''],
      ['KWD', '1.250', '', 'No refund', ''],
    ]);
    expect([
      minorUnits('twd'),
      minorUnits('USD'),
      minorUnits('JPY'),
      minorUnits('BHD'),
      minorUnits('XYZ'),
    ]).toEqual([0, 2, 0, 3, 2]);
    expect([
      plainAmount(0.1 + 0.2, 'USD'),
      plainAmount(-3, 'USD'),
      plainAmount(-0.001, 'USD'),
      plainAmount(1999.6, 'TWD'),
    ]).toEqual(['0.30', '-3.00', '0.00', '2000']);
  });

  it('one row per payment, oldest first inside an order; an empty history is just the header', () => {
    const first = paymentView('p1', {
      paymentState: 'failed',
      paidAt: null,
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    const second = paymentView('p2', { createdAt: '2026-01-02T00:00:00.000Z' });
    const rows = readCsv(
      ordersToCsv([orderView('T-1', [second, first])], { language: 'en', timeZone: 'UTC' }),
    );
    expect(rows.slice(1).map((r) => [r[0], r[4], r[6], r[8]])).toEqual([
      ['T-1', 'p1', 'Failed', ''],
      ['T-1', 'p2', 'Paid', '2026-01-05 06:31:00'],
    ]);
    expect(ordersToCsv([], { language: 'en', timeZone: 'UTC' }).split('\r\n')).toHaveLength(2);
  });
});
