import type { Page } from '@playwright/test';
import { expect, expectAccessible, test } from './fixtures';
import { openScreen, scrollToRow, startDemo, translator } from './helpers-ui';

/**
 * Focus kept sensibly: Tab inside the site menu closes it and moves on from its button (WAI-ARIA
 * APG "Menu Button":
 * Tab closes the menu and moves focus to the next element), never dropping focus to the page;
 * opening a course puts focus on its heading.
 */

/** What has focus: its test id, id or tag, and whether it is the page itself. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const d = (
      globalThis as unknown as {
        document: {
          activeElement: {
            tagName: string;
            id: string;
            getAttribute(n: string): string | null;
          } | null;
          body: unknown;
        };
      }
    ).document;
    const a = d.activeElement;
    return {
      body: a === null || a === d.body,
      testId: a?.getAttribute('data-testid') ?? null,
      id: a?.id ?? '',
      tag: a?.tagName ?? '',
    };
  });

for (const lng of ['en', 'zh-TW'] as const) {
  test.describe(`focus rules (${lng})`, () => {
    test.use({ locale: lng, signedInDemo: true });

    test('Tab and Shift+Tab in the site menu close it and move on from its button', async ({
      page,
      context,
      host,
    }) => {
      test.setTimeout(120_000);
      await startDemo(page, context, host);
      const button = page.getByTestId('site-switcher');
      const menu = page.getByTestId('site-menu');

      await button.focus();
      await page.keyboard.press('Enter');
      await expect(menu).toBeVisible();
      expect((await focused(page)).testId).toBe('site-menu-item');
      await expectAccessible(page, `site menu open (${lng})`);
      await page.keyboard.press('Tab');
      await expect(menu).toBeHidden();
      const after = await focused(page);
      expect(after.body, 'Tab from the menu left focus on the page').toBe(false);
      expect(after.testId).not.toBe('site-switcher');
      // The same as Tab from the button itself.
      await button.focus();
      await page.keyboard.press('Tab');
      expect(await focused(page)).toEqual(after);

      await button.focus();
      await page.keyboard.press('ArrowDown');
      await expect(menu).toBeVisible();
      await page.keyboard.press('Shift+Tab');
      await expect(menu).toBeHidden();
      const before = await focused(page);
      expect(before.body, 'Shift+Tab from the menu left focus on the page').toBe(false);
      await button.focus();
      await page.keyboard.press('Shift+Tab');
      expect(await focused(page)).toEqual(before);
    });

    test('opening a course from the keyboard puts focus on its heading', async ({
      page,
      context,
      host,
    }) => {
      test.setTimeout(120_000);
      await startDemo(page, context, host);
      const card = page.getByTestId('course-card').first();
      const title = (await card.locator('.course-title').textContent())!.trim();
      await card.locator('.course-title button').focus();
      await page.keyboard.press('Enter');
      const heading = page.locator('#screen-title');
      await expect(heading).toHaveText(title);
      await expect(heading).toBeFocused();
      // Back to the library and into the same course again (its view already read): the heading
      // again.
      await openScreen(page, 'library');
      await expect(page.getByTestId('course-card').first()).toBeVisible();
      await page.getByTestId('course-card').first().locator('.course-title button').focus();
      await page.keyboard.press('Enter');
      await expect(heading).toHaveText(title);
      await expect(heading).toBeFocused();
    });

    test('focus never falls to the page: a screen\'s heading, "Mark read", the file viewer closed', async ({
      page,
      context,
      host,
    }) => {
      test.setTimeout(150_000);
      await startDemo(page, context, host);
      await openScreen(page, 'entitlements');
      await expect(page.locator('#screen-title')).toBeFocused();

      const sheet = page
        .getByTestId('digital-product')
        .filter({ has: page.getByRole('heading', { name: /SQL Cheat Sheet/ }) });
      await scrollToRow(page, sheet);
      await sheet.getByTestId('offline-save').click();
      await expect(sheet.getByTestId('offline-saved')).toBeVisible({ timeout: 30_000 });
      await sheet.getByTestId('offline-open').click();
      await expect(page.getByTestId('file-viewer')).toBeVisible();
      // The PDF viewer's frame takes the keys: its Close button, as a student would.
      await page.getByTestId('file-viewer-close').click();
      await expect(page.getByTestId('file-viewer')).toBeHidden();
      await expect(sheet.getByTestId('offline-open')).toBeFocused();

      await openScreen(page, 'notifications');
      const row = page.locator('[data-testid="notification-row"][data-unread="true"]').first();
      const id = await row.getAttribute('data-notification-id');
      await row.getByTestId('mark-read').click();
      const same = page.locator(`[data-testid="notification-row"][data-notification-id="${id}"]`);
      await expect(same).toHaveAttribute('data-unread', 'false');
      await expect(same.getByTestId('read-mark')).toBeFocused();
      expect((await focused(page)).body).toBe(false);

      // Only unread shown: the notice read leaves the list, and focus goes to the next one's "Mark
      // read".
      await page
        .getByRole('checkbox', { name: translator(lng)('notifications.onlyUnread') })
        .check();
      const unread = page.locator('[data-testid="notification-row"][data-unread="true"]');
      await expect(unread.first()).toBeVisible();
      const leaving = await unread.first().getAttribute('data-notification-id');
      await unread.first().getByTestId('mark-read').click();
      await expect(
        page.locator(`[data-testid="notification-row"][data-notification-id="${leaving}"]`),
      ).toHaveCount(0);
      await expect(
        page.getByTestId('notification-row').first().getByTestId('mark-read'),
      ).toBeFocused();
    });

    test('Back to my courses keeps the place and the card; Alt+Left and Alt+Right walk the screens', async ({
      page,
      context,
      host,
    }) => {
      test.setTimeout(150_000);
      const t = translator(lng);
      await startDemo(page, context, host);
      const main = page.locator('#main');
      const cards = page.getByTestId('course-card');
      await expect(cards.nth(5)).toBeAttached();
      const card = cards.nth(5);
      const courseId = (await card.getAttribute('data-course-id'))!;
      await card.scrollIntoViewIfNeeded();
      await main.evaluate((m) => m.scrollBy(0, 40));
      const top = await main.evaluate((m) => m.scrollTop);
      expect(top).toBeGreaterThan(0);
      await card.locator('.course-title button').click();
      await expect(page.getByTestId('lecture-row').first()).toBeVisible();
      await page.getByRole('button', { name: t('course.back') }).click();
      const back = page.locator(
        `[data-testid="course-card"][data-course-id="${courseId}"] .card-link`,
      );
      await expect(back).toBeFocused();
      await expect.poll(() => main.evaluate((m) => m.scrollTop)).toBe(top);

      // The keys of the installed app's Go menu, in the browser host too.
      await openScreen(page, 'billing');
      await page.keyboard.press('Alt+ArrowLeft');
      await expect(page.getByTestId('nav-library')).toHaveAttribute('aria-current', 'page');
      await expect.poll(() => main.evaluate((m) => m.scrollTop)).toBe(top);
      await page.keyboard.press('Alt+ArrowRight');
      await expect(page.getByTestId('nav-billing')).toHaveAttribute('aria-current', 'page');
      await expect(page.locator('#screen-title')).toBeFocused();
    });
  });
}
