import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  SHOTS,
  demoServer,
  expectAccessible,
  openScreen,
  startDemo,
  translator,
} from './helpers-ui';

const en = translator('en');
const zh = translator('zh-TW');

const notice = (page: Page, id: string) =>
  page.locator(`[data-testid="notification-row"][data-notification-id="${id}"]`);

test.describe('notifications lead somewhere', () => {
  test('a payment notice opens Purchases at its order, a course notice the course, an event notice the event with its join link; each is marked read', async ({
    page,
    context,
    host,
  }) => {
    test.setTimeout(150_000);
    await startDemo(page, context, host);
    await openScreen(page, 'notifications');

    // The event: shown in place, when and where, with the join link; the notice is read (the school
    // not answering: queued, and says so).
    const demo = host.core.demo!;
    await demo.stop();
    await page.getByTestId('sync-now').click();
    await expect(page.getByTestId('not-answering-banner')).toBeVisible({ timeout: 30_000 });
    const event = notice(page, 'ntf_demo_03');
    await expect(event.getByTestId('open-notice')).toHaveText(en('notifications.open.event'));
    await event.getByTestId('open-notice').click();
    const panel = event.getByTestId('notice-event');
    await expect(panel).toContainText('Live Q&A');
    await expect(panel.getByRole('heading')).toBeFocused();
    expect(await panel.getByTestId('notice-event-join').getAttribute('href')).toMatch(
      /^https:\/\//,
    );
    await expect(event).toHaveAttribute('data-unread', 'false');
    await expect(event.getByTestId('pending-sync')).toBeVisible();
    await expectAccessible(page, 'notifications: an event opened in place');
    await page.screenshot({ path: `${SHOTS}/notice-event-en.png` });
    await demo.start();
    await page.getByTestId('sync-now').click();
    await expect(event.getByTestId('pending-sync')).toBeHidden({ timeout: 30_000 });
    await expect
      .poll(
        () =>
          (
            demoServer(host)
              .db.prepare("SELECT read_at FROM notifications WHERE id = 'ntf_demo_03'")
              .get() as { read_at: number | null }
          ).read_at,
      )
      .not.toBeNull();

    // The payment, by keyboard: Purchases opens at that order.
    const payment = notice(page, 'ntf_demo_02');
    await expect(payment.getByTestId('open-notice')).toHaveAccessibleName(
      `${en('notifications.open.order')}: ATM payment waiting 待繳款通知`,
    );
    await payment.getByTestId('open-notice').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('nav-billing')).toHaveAttribute('aria-current', 'page');
    await expect(
      page
        .getByTestId('focused-order')
        .locator('[data-testid="order-group"][data-trade-no="T202611000004"]'),
    ).toBeVisible();

    // The course: its page in the app.
    await openScreen(page, 'notifications');
    await expect(notice(page, 'ntf_demo_02')).toHaveAttribute('data-unread', 'false');
    await notice(page, 'ntf_demo_01').getByTestId('open-notice').click();
    await expect(page.locator('#screen-title')).toContainText('Machine Learning');
    await expect(page.getByTestId('lecture-row').first()).toBeVisible();

    // A notice with no page of its own has nothing to open; it stays readable.
    await openScreen(page, 'notifications');
    await expect(notice(page, 'ntf_demo_04').getByTestId('open-notice')).toHaveCount(0);
    await expect(notice(page, 'ntf_demo_01')).toHaveAttribute('data-unread', 'false');

    // In Traditional Chinese.
    await openScreen(page, 'settings');
    await page.getByTestId('language-select').selectOption('zh-TW');
    await page.getByTestId('nav-notifications').click();
    await expect(notice(page, 'ntf_demo_02').getByTestId('open-notice')).toHaveText(
      zh('notifications.open.order'),
    );
    await notice(page, 'ntf_demo_03').getByTestId('open-notice').click();
    await expect(notice(page, 'ntf_demo_03').getByTestId('notice-event')).toContainText(
      zh('entitlements.join'),
    );
    await expectAccessible(page, 'notifications zh-TW: an event opened in place');
    await page.screenshot({ path: `${SHOTS}/notice-event-zh-TW.png` });
  });
});
