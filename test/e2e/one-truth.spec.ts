import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { openScreen, startDemo } from './helpers-ui';

/**
 * One fact, one number, on every screen: the days of access left to the demo's UX Writing course
 * are the same on Today's notice and on its My courses card, in both languages
 * (electron/common/facts.ts accessDaysLeft). Today once counted whole days left (rounded down)
 * while My courses counted the days the access ends within.
 */
const LANGUAGES = [
  { locale: 'en', today: /\((\d+) days? left\)/, card: /Expires in (\d+) days?/ },
  { locale: 'zh-TW', today: /剩 (\d+) 天/, card: /(\d+) 天後到期/ },
] as const;

async function daysIn(
  page: Page,
  locator: ReturnType<Page['locator']>,
  pattern: RegExp,
): Promise<number> {
  const text = (await locator.textContent()) ?? '';
  const m = pattern.exec(text);
  expect(m, text).not.toBeNull();
  return Number(m![1]);
}

for (const lang of LANGUAGES) {
  test.describe(`the same days left on Today and My courses (${lang.locale})`, () => {
    // Signed in from the start: the days are read from the synced copy, not the sign-in.
    test.use({ locale: lang.locale, signedInDemo: true });
    test(`UX Writing: Today's notice and the course card count the same days (${lang.locale})`, async ({
      page,
      context,
      host,
    }) => {
      test.setTimeout(120_000);
      await startDemo(page, context, host);
      await page.getByTestId('nav-today').click();
      const notice = page.getByTestId('today-attention').filter({ hasText: 'UX Writing' });
      await expect(notice).toHaveAttribute('data-kind', 'access-ending');
      const onToday = await daysIn(page, notice, lang.today);
      await openScreen(page, 'library');
      const card = page
        .locator('[data-testid="course-card"][data-course-id="crs_ux_writing"]')
        .getByTestId('access');
      await expect(card).toBeVisible();
      const onCard = await daysIn(page, card, lang.card);
      expect(onToday).toBe(onCard);
    });
  });
}
