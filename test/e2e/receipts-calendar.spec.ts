import { readFileSync } from 'node:fs';
import type { BrowserContext, Download, Page } from '@playwright/test';
import type { BrowserHost } from '../../electron/browser-host/server';
import type { BillingView, LibraryCourse } from '../../electron/common/view-models';
import { readCsv } from '../core/export/read-csv';
import { expect, test } from './fixtures';
import {
  SHOTS,
  expandOrder,
  expectAccessible,
  openCourse,
  openScreen,
  startDemo,
  translator,
} from './helpers-ui';

// Each test starts from the demo signed in and synced (fixtures.ts: signedInDemo).
test.use({ signedInDemo: true });

/**
 * Receipts and calendar in the browser host: the purchase CSV and the .ics reminders arrive as real
 * downloads (Playwright's download event, the file read back from disk), the receipt as a print
 * view the browser turns into a PDF. Each file is checked against the offline copy the screens
 * show.
 */

const unfold = (ics: string) => ics.replace(/\r\n[ \t]/g, '');

async function value<T>(
  host: BrowserHost,
  run: () => Promise<{ ok: true; value: T } | { ok: false; error: { message: string } }>,
): Promise<T> {
  const r = await run();
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

async function downloaded(
  page: Page,
  click: () => Promise<void>,
): Promise<{ download: Download; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  const path = await download.path();
  return { download, bytes: readFileSync(path) };
}

type PrintCounted = { __printCalls: number };

/**
 * Opens a receipt's print view and checks that it asked to print once. The view calls
 * window.print() on load; a test cannot answer the print dialog, and while it is open Chromium
 * refuses to print the page again (156: "Page is already being printed"). So window.print is
 * recorded instead of run, before any script of the page, and the test prints the PDF itself.
 */
async function openPrintView(context: BrowserContext, open: () => Promise<void>): Promise<Page> {
  await context.addInitScript(() => {
    const w = globalThis as unknown as PrintCounted & { print: () => void };
    w.__printCalls = 0;
    w.print = () => {
      w.__printCalls += 1;
    };
  });
  const [view] = await Promise.all([context.waitForEvent('page'), open()]);
  await view.waitForLoadState('load');
  await expect
    .poll(() => view.evaluate(() => (globalThis as unknown as PrintCounted).__printCalls))
    .toBe(1);
  return view;
}

test.describe('receipts and calendar: files the student asks for', () => {
  test('purchase CSV, a receipt printed to PDF, and calendar reminders, in English', async ({
    page,
    context,
    host,
  }) => {
    test.setTimeout(180_000);
    const t = translator('en');
    await startDemo(page, context, host);
    const siteId = (await value(host, () => host.core.handlers['sites:list'](undefined)))[0]!.id;
    const billing: BillingView = await value(host, () =>
      host.core.handlers['billing:get']({ siteId }),
    );
    expect(billing.orders.length).toBeGreaterThan(0);

    await openScreen(page, 'billing');
    // ---- the whole history as CSV: BOM, CRLF, one row per payment, every order of the offline
    // copy.
    const csv = await downloaded(page, () => page.getByTestId('export-orders-csv').click());
    expect(csv.download.suggestedFilename()).toMatch(
      /^purchases-127\.0\.0\.1-\d{4}-\d{2}-\d{2}\.csv$/,
    );
    expect([...csv.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = readCsv(csv.bytes.toString('utf8'));
    expect(rows[0]![0]).toBe('Order number');
    const payments = billing.orders.flatMap((o) => o.payments);
    expect(rows.length - 1).toBe(payments.length);
    expect(new Set(rows.slice(1).map((r) => r[0]))).toEqual(
      new Set(billing.orders.map((o) => o.tradeNo)),
    );
    for (const p of payments) {
      const row = rows.find((r) => r[4] === p.paymentId)!;
      expect([row[0], row[9]]).toEqual([p.tradeNo, p.currency]);
      // TWD has no minor unit: whole numbers.
      if (p.currency === 'TWD') expect(row[10]).toBe(String(Math.round(p.amount)));
    }
    await expect(page.getByTestId('export-orders-csv-status')).toHaveText(
      t('export.downloaded', { name: csv.download.suggestedFilename() }),
    );

    // ---- a receipt: a print view of the first order, printed to PDF by the browser.
    const order = billing.orders[0]!;
    const group = page.locator(`[data-testid="order-group"][data-trade-no="${order.tradeNo}"]`);
    // Orders are listed collapsed; the receipt button is in the opened order.
    await expandOrder(group);
    await expect(group.getByTestId('receipt')).toHaveAccessibleName(
      t('export.receiptFor', { tradeNo: order.tradeNo }),
    );
    const receipt = await openPrintView(context, () => group.getByTestId('receipt').click());
    expect(new URL(receipt.url()).pathname).toMatch(
      /^\/__host\/files\/[A-Za-z0-9_-]{32}\/receipt-[A-Za-z0-9._-]+\.html$/,
    );
    await expect(receipt.locator('h1')).toHaveText('Receipt');
    await expect(receipt.locator('main')).toHaveAttribute('data-trade-no', order.tradeNo);
    await expect(receipt.locator('section.payment')).toHaveCount(order.payments.length);
    for (const li of order.payments.flatMap((p) => p.lineItems))
      await expect(
        receipt.locator('table').getByText(li.title, { exact: true }).first(),
      ).toBeVisible();
    await receipt.setViewportSize({ width: 900, height: 1100 });
    await receipt.screenshot({ path: `${SHOTS}/receipt-en.png`, fullPage: true });
    const pdf = await receipt.pdf({ format: 'A4', printBackground: true });
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.length).toBeGreaterThan(5_000);
    await receipt.close();
    await expect(page.getByTestId('receipt-status').first()).toHaveText(t('export.printView'));

    // ---- a payment code's deadline as an .ics reminder.
    const pending = billing.pendingInstructions[0];
    expect(pending, 'the demo has a payable ATM or convenience-store code').toBeDefined();
    const code = page
      .locator('[data-testid="pending-instructions"] [data-testid="payment-instructions"]')
      .first();
    const ics = await downloaded(page, () => code.getByTestId('calendar-payment').click());
    expect(ics.download.suggestedFilename()).toBe(
      `payment-deadline-${pending!.tradeNo.replace(/[^A-Za-z0-9._-]+/g, '-')}.ics`,
    );
    const text = ics.bytes.toString('utf8');
    expect(text.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n')).toBe(true);
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(text.split('\r\n').every((l) => Buffer.byteLength(l) <= 75)).toBe(true);
    const lines = unfold(text).split('\r\n');
    const deadline = new Date(pending!.instructions!.expiredAt!)
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}Z$/, 'Z');
    expect(lines).toContain(`DTSTART:${deadline}`);
    expect(lines.find((l) => l.startsWith('DESCRIPTION:'))).toContain(
      pending!.instructions!.codeNo,
    );
    expect(lines.filter((l) => l.startsWith('UID:'))).toHaveLength(1);

    // ---- a course's access end.
    const courses: LibraryCourse[] = await value(host, () =>
      host.core.handlers['library:list']({ siteId }),
    );
    const ending = courses.find(
      (c) => !c.hasLifetimeAccess && c.expireDate !== null && !c.isExpired,
    );
    expect(ending, 'the demo has a course whose access ends later').toBeDefined();
    await openCourse(page, ending!.courseId);
    const course = await downloaded(page, () => page.getByTestId('calendar-course').click());
    const courseLines = unfold(course.bytes.toString('utf8')).split('\r\n');
    expect(courseLines).toContain(
      `SUMMARY:Access ends: ${ending!.title.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,')}`,
    );
    expect(courseLines).toContain(
      `DTSTART:${new Date(ending!.expireDate!)
        .toISOString()
        .replace(/[-:]/g, '')
        .replace(/\.\d{3}Z$/, 'Z')}`,
    );
    await expectAccessible(page, 'course with calendar button');
  });

  test('in Traditional Chinese: CSV headers, the receipt and its words; billing stays accessible', async ({
    page,
    context,
    host,
  }) => {
    test.setTimeout(180_000);
    await startDemo(page, context, host);
    await value(host, () => host.core.handlers['settings:update']({ language: 'zh-TW' }));
    const t = translator('zh-TW');
    await expect(page.getByTestId('nav-billing')).toHaveText(new RegExp(t('nav.billing')));
    await openScreen(page, 'billing');
    await expect(page.getByTestId('export-orders-csv')).toHaveText(t('export.ordersCsv'));
    await expectAccessible(page, 'billing (zh-TW) with export buttons');
    const csv = await downloaded(page, () => page.getByTestId('export-orders-csv').click());
    const rows = readCsv(csv.bytes.toString('utf8'));
    expect(rows[0]!.slice(0, 4)).toEqual([
      '訂單編號',
      expect.stringMatching(/^訂單日期 （.+）$/),
      '訂單狀態',
      '品項',
    ]);
    // Chinese titles survive the trip: the bytes are UTF-8 and decode to the titles the site gave.
    const siteId = (await value(host, () => host.core.handlers['sites:list'](undefined)))[0]!.id;
    const billing: BillingView = await value(host, () =>
      host.core.handlers['billing:get']({ siteId }),
    );
    const titled = billing.orders.flatMap((o) => o.payments).find((p) => p.lineItems.length === 1)!;
    expect(rows.find((r) => r[4] === titled.paymentId)![3]).toBe(titled.lineItems[0]!.title);

    const group = page.getByTestId('order-group').first();
    await expandOrder(group);
    const receipt = await openPrintView(context, () => group.getByTestId('receipt').click());
    await expect(receipt.locator('html')).toHaveAttribute('lang', 'zh-TW');
    await expect(receipt.locator('h1')).toHaveText('收據');
    await receipt.setViewportSize({ width: 900, height: 1100 });
    await receipt.screenshot({ path: `${SHOTS}/receipt-zh-TW.png`, fullPage: true });
    await receipt.close();
  });
});
