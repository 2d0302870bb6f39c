import type { Page } from '@playwright/test';
import { expect, expectAccessible, test } from './fixtures';
import { openScreen, startDemo } from './helpers-ui';

/**
 * Focus kept sensibly: Tab inside the site menu closes it and moves on from its button (WAI-ARIA APG "Menu Button":
 * Tab closes the menu and moves focus to the next element), never dropping focus to the page; opening a course puts
 * focus on its heading.
 */

/** What has focus: its test id, id or tag, and whether it is the page itself. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const d = (
      globalThis as unknown as {
        document: { activeElement: { tagName: string; id: string; getAttribute(n: string): string | null } | null; body: unknown };
      }
    ).document;
    const a = d.activeElement;
    return { body: a === null || a === d.body, testId: a?.getAttribute('data-testid') ?? null, id: a?.id ?? '', tag: a?.tagName ?? '' };
  });

for (const lng of ['en', 'zh-TW'] as const) {
  test.describe(`focus rules (${lng})`, () => {
    test.use({ locale: lng });

    test('Tab and Shift+Tab in the site menu close it and move on from its button', async ({ page, context, host }) => {
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

    test('opening a course from the keyboard puts focus on its heading', async ({ page, context, host }) => {
      test.setTimeout(120_000);
      await startDemo(page, context, host);
      const card = page.getByTestId('course-card').first();
      const title = (await card.locator('.course-title').textContent())!.trim();
      await card.locator('.course-title button').focus();
      await page.keyboard.press('Enter');
      const heading = page.locator('#screen-title');
      await expect(heading).toHaveText(title);
      await expect(heading).toBeFocused();
      // Back to the library and into the same course again (its view already read): the heading again.
      await openScreen(page, 'library');
      await expect(page.getByTestId('course-card').first()).toBeVisible();
      await page.getByTestId('course-card').first().locator('.course-title button').focus();
      await page.keyboard.press('Enter');
      await expect(heading).toHaveText(title);
      await expect(heading).toBeFocused();
    });
  });
}
