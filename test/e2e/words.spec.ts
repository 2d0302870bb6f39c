import { expect, expectAccessible, test } from './fixtures';
import { openScreen, startDemo, translator } from './helpers-ui';

/**
 * The words a student reads, in both languages: counts with plural rules, intervals in hours, a
 * sync "just now" that does not read as "sync now", OS-notification boxes not ticked before the
 * browser allowed them, a join link that says it leaves the app.
 */
for (const lng of ['en', 'zh-TW'] as const) {
  test.describe(`words (${lng})`, () => {
    test.use({ locale: lng });
    test('counts, intervals, "just now", notification boxes and the join link say what is true', async ({
      page,
      context,
      host,
    }) => {
      test.setTimeout(120_000);
      const t = translator(lng);
      await startDemo(page, context, host);
      if (lng === 'zh-TW') await expect(page.getByTestId('last-synced')).not.toContainText('現在');

      await openScreen(page, 'settings');
      await expect(page.getByTestId('auto-sync-select').locator('option[value="240"]')).toHaveText(
        t('settings.sync.hours', { count: 4 }),
      );
      // Nothing saved yet: "0 bytes", not "0 byte".
      await expect(page.getByTestId('storage-site').first()).toContainText(
        t('downloads.storage.used', { size: t('downloads.bytes', { count: 0, size: '0' }) }),
      );
      // The browser has not allowed notifications (headless: never asked): no box says they will be
      // shown.
      const boxes = page.getByTestId('notification-settings').getByRole('checkbox');
      await expect(boxes.first()).toBeVisible();
      for (const box of await boxes.all()) {
        await expect(box).not.toBeChecked();
        await expect(box).toBeDisabled();
      }

      await openScreen(page, 'entitlements');
      const join = page.getByRole('link', { name: t('entitlements.join') }).first();
      await expect(join).toBeVisible();
      await expect(join.locator('svg.open-on-site-arrow')).toHaveCount(1);
      await expectAccessible(page, `products with a join link (${lng})`, { strict: true });
    });
  });
}
