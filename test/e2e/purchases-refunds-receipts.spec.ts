import type { BrowserContext, Page } from '@playwright/test';
import type { BillingView } from '../../electron/common/view-models';
import { expect, test } from './fixtures';
import {
  SHOTS,
  expandOrder,
  expectAccessible,
  openScreen,
  scrollToRow,
  startDemo,
  translator,
} from './helpers-ui';

// Each test starts from the demo signed in and synced (fixtures.ts: signedInDemo).
test.use({ signedInDemo: true });

/**
 * Purchases, the rest of "purchases you can manage" in the browser host against the demo school: a
 * refunded order tells its refund story, a payable code is shown once on the screen (its order
 * points to it), and a year's receipts come as one print view.
 */

type PrintCounted = { __printCalls: number };
/**
 * Opens a print view; window.print is recorded instead of run (a test cannot answer the print
 * dialog).
 */
async function openPrintView(context: BrowserContext, open: () => Promise<void>): Promise<Page> {
  await context.addInitScript(
    'globalThis.__printCalls = 0; globalThis.print = () => { globalThis.__printCalls += 1; };',
  );
  const [view] = await Promise.all([context.waitForEvent('page'), open()]);
  await view.waitForLoadState('load');
  await expect
    .poll(() => view.evaluate(() => (globalThis as unknown as PrintCounted).__printCalls))
    .toBe(1);
  return view;
}

for (const lng of ['en', 'zh-TW'] as const) {
  test.describe(lng, () => {
    test.use({ locale: lng === 'en' ? 'en-US' : 'zh-TW' });
    test(`purchases (${lng}): refund timeline, payment code shown once, a year's receipts in one file, axe-clean`, async ({
      page,
      context,
      host,
    }) => {
      test.setTimeout(150_000);
      const t = translator(lng);
      await startDemo(page, context, host);
      const sites = await host.core.handlers['sites:list'](undefined);
      if (!sites.ok) throw new Error(sites.error.message);
      const siteId = sites.value.find((s) => s.status === 'ready')!.id;
      const got = await host.core.handlers['billing:get']({ siteId });
      if (!got.ok) throw new Error(got.error.message);
      const billing: BillingView = got.value;
      await openScreen(page, 'billing');
      const order = (tradeNo: string) =>
        page
          .getByTestId('order-list')
          .locator(`[data-testid="order-group"][data-trade-no="${tradeNo}"]`);

      // ---- the refunded order: ordered, paid, refund requested, refunded, each with its date.
      const refunded = billing.orders.find((o) =>
        o.payments.some((p) => p.paymentId === 'pay_demo_09'),
      )!;
      await scrollToRow(page, order(refunded.tradeNo));
      await expandOrder(order(refunded.tradeNo));
      const timeline = order(refunded.tradeNo).getByTestId('refund-timeline');
      await expect(timeline).toBeVisible();
      await expect(timeline.locator('li')).toHaveCount(4);
      await expect(timeline.locator('li[data-step="ordered"]')).toContainText(
        t('billing.timeline.ordered'),
      );
      await expect(timeline.locator('li[data-step="refund-requested"]')).toContainText(
        t('billing.timeline.requested'),
      );
      await expect(timeline.locator('li[data-step="refund-outcome"]')).toHaveAttribute(
        'data-state',
        'refunded',
      );
      await expectAccessible(page, `purchases ${lng}, a refunded order open`, { strict: true });
      await order(refunded.tradeNo).scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/purchases-refund-timeline-${lng}.png` });

      // ---- a payable code: in full once, under "waiting for you"; its order says where and takes
      // the student there.
      const payable = billing.pendingInstructions[0]!;
      const code = payable.instructions!.codeNo;
      await scrollToRow(page, order(payable.tradeNo));
      await expandOrder(order(payable.tradeNo));
      await expect(order(payable.tradeNo).getByTestId('instructions-above')).toBeVisible();
      await expect(page.getByTestId('payment-code').filter({ hasText: code })).toHaveCount(1);
      await expect(
        page
          .getByTestId('pending-instructions')
          .getByTestId('payment-code')
          .filter({ hasText: code }),
      ).toHaveCount(1);
      await order(payable.tradeNo).getByTestId('instructions-go').click();
      await expect(
        page
          .getByTestId('pending-instructions')
          .getByTestId('payment-instructions')
          .filter({ hasText: code }),
      ).toBeFocused();
      await expectAccessible(page, `purchases ${lng}, a waiting order open`, { strict: true });

      // ---- all receipts of a year: one print view, one receipt per paid order of that year.
      const year = billing.orders[0]!.createdAt.slice(0, 4);
      const paidThatYear = billing.orders.filter(
        (o) => o.createdAt.startsWith(year) && o.paidAmount > 0,
      );
      const button = page
        .getByTestId('spending')
        .locator(`[data-year="${year}"]`)
        .getByTestId('year-receipts');
      await button.scrollIntoViewIfNeeded();
      await expect(button).toHaveAccessibleName(t('export.yearReceipts', { year }));
      const view = await openPrintView(context, () => button.click());
      await expect(view.locator('main')).toHaveAttribute('data-year', year);
      await expect(view.locator('article.receipt')).toHaveCount(paidThatYear.length);
      await expectAccessible(view, `year receipts ${lng}`, { strict: true });
      const pdf = await view.pdf({ format: 'A4', printBackground: true });
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      await view.close();
    });

    test(`one way to an order (${lng}): Today's "See payment" and a notice open it marked, in view and focused; a reminder ends "Saved"`, async ({
      page,
      context,
      host,
    }) => {
      test.setTimeout(150_000);
      const t = translator(lng);
      await startDemo(page, context, host);
      await page.getByTestId('nav-today').click();
      const due = page.locator('[data-testid="today-attention"][data-kind="payment-due"]').first();
      await expect(due).toBeVisible({ timeout: 30_000 });
      await due.getByTestId('today-see-payment').click();
      const focused = page.getByTestId('focused-order');
      const opened = focused.getByTestId('order-group');
      await expect(opened).toHaveAttribute('data-highlighted', 'true');
      await expect(opened.getByTestId('order-toggle')).toHaveAttribute('aria-expanded', 'true');
      await expect(opened.locator('.order-title')).toBeFocused();
      await expect(opened).toBeInViewport();
      // "Waiting for you" is below this order: the order says so, and its button goes there.
      await expect(opened.getByTestId('instructions-above')).toContainText(
        t('billing.instructionsBelow'),
      );
      await opened.getByTestId('instructions-go').click();
      await expect(page.getByTestId('pending-instructions').locator(':focus')).toHaveCount(1);
      // Listed among the others (above them, "waiting for you"), an order says that instead.
      await focused.getByRole('button', { name: t('billing.showAllOrders') }).click();
      await expect(page.getByTestId('focused-order')).toHaveCount(0);
      await expectAccessible(page, `purchases ${lng}, taken to an order`, { strict: true });

      // The deadline as a calendar reminder ends in "Saved", not "Downloading" forever.
      const calendar = page
        .getByTestId('pending-instructions')
        .getByTestId('calendar-payment')
        .first();
      const [file] = await Promise.all([page.waitForEvent('download'), calendar.click()]);
      await expect(
        page.getByTestId('pending-instructions').getByTestId('calendar-payment-status').first(),
      ).toHaveText(t('export.downloaded', { name: file.suggestedFilename() }));
      expect(file.suggestedFilename()).toMatch(/\.ics$/);

      // A notice about an order takes the same way there.
      await openScreen(page, 'notifications');
      const notice = page
        .getByTestId('notification-row')
        .filter({ has: page.locator('[data-testid="open-notice"][data-link="order"]') });
      await scrollToRow(page, notice);
      await notice.first().getByTestId('open-notice').click();
      const fromNotice = page.getByTestId('focused-order').getByTestId('order-group');
      await expect(fromNotice).toHaveAttribute('data-highlighted', 'true');
      await expect(fromNotice.locator('.order-title')).toBeFocused();
      await expect(fromNotice).toBeInViewport();
    });
  });
}
