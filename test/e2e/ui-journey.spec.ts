import type { BrowserContext, Page } from '@playwright/test';
import { expect, expectAccessible, SHOTS, signInOnSite, test } from './fixtures';
import { expandOrder, libraryFromToday, scrollToRow } from './helpers-ui';

/**
 * The student's journey through the screens: Try the demo -> the site's sign-in page opens in a new
 * tab (the browser host's "system browser") -> sign in and approve -> the demo data appears. Every
 * screen is checked with axe-core (no serious or critical violations) in light and dark, and
 * photographed in English and Chinese under test-results/screenshots/ (kept as a CI artifact).
 */

async function tryDemo(
  page: Page,
  context: BrowserContext,
  decision: 'approve' | 'deny' = 'approve',
): Promise<Page> {
  const tab = context.waitForEvent('page');
  await page.getByTestId('try-demo').click();
  const signInPage = await tab;
  await expect(page.getByTestId('sign-in-progress')).toBeVisible();
  await expect(page.getByTestId('sign-in-phase')).toHaveAttribute(
    'data-phase',
    'waiting-for-browser',
  );
  await page.screenshot({ path: `${SHOTS}/sign-in-progress-en.png` });
  await signInOnSite(signInPage, decision);
  return signInPage;
}

const SCREENS = [
  'library',
  'course',
  'notifications',
  'billing',
  'entitlements',
  'consulting',
  'profile',
  'search',
  'settings',
] as const;
type ScreenName = (typeof SCREENS)[number];

async function open(page: Page, screen: ScreenName): Promise<void> {
  if (screen === 'course') {
    await page.getByTestId('nav-library').click();
    // A course with a last watched lecture, so the highlight shows.
    await page
      .getByTestId('course-card')
      .filter({ has: page.getByTestId('continue-watching') })
      .first()
      .getByRole('button')
      .first()
      .click();
    await expect(page.getByTestId('lecture-row').first()).toBeVisible();
    return;
  }
  if (screen === 'search') {
    await page.getByTestId('search-input').fill('data');
    await expect(page.getByTestId('search-hit').first()).toBeVisible();
    return;
  }
  await page.getByTestId(`nav-${screen}`).click();
  const ready: Record<Exclude<ScreenName, 'course' | 'search'>, string> = {
    library: 'course-card',
    notifications: 'notification-row',
    billing: 'order-group',
    entitlements: 'digital-product',
    consulting: 'consulting-service',
    profile: 'profile',
    settings: 'app-version',
  };
  await expect(page.getByTestId(ready[screen]).first()).toBeVisible();
}

test.describe('screens: the demo journey in the browser host', () => {
  test('try the demo, sign in, then every screen: data, axe in light and dark, screenshots in both languages', async ({
    page,
    context,
    host,
  }) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width: 1100, height: 800 });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: host.origin });
    await page.goto(host.launchUrl());
    await expect(page.getByTestId('try-demo')).toBeVisible();
    await expectAccessible(page, 'welcome', { strict: true });
    await page.screenshot({ path: `${SHOTS}/welcome-en.png`, fullPage: true });

    await tryDemo(page, context);

    // Library (one click from Today, the first screen): course cards with progress and access.
    await libraryFromToday(page);
    await expect(page.getByTestId('course-card').first()).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('course-progress').first()).toContainText('%');
    await expect(page.getByTestId('sync-status')).toBeVisible();
    await expect(page.getByTestId('last-synced')).toBeVisible({ timeout: 30_000 });

    // Course: lecture rows with state in words.
    await open(page, 'course');
    await expect(page.getByTestId('lecture-row').first()).toHaveAttribute(
      'data-state',
      /unread|read|completed/,
    );

    // Billing: grouped orders, a refund, ATM / store instructions with a working Copy button.
    await open(page, 'billing');
    await expect(page.getByTestId('order-group').first()).toBeVisible();
    await expect(page.getByTestId('pending-instructions')).toBeVisible();
    const code = (await page
      .getByTestId('pending-instructions')
      .getByTestId('payment-code')
      .first()
      .textContent())!.trim();
    await page.getByTestId('pending-instructions').getByTestId('copy-code').first().click();
    await expect(
      page.getByTestId('pending-instructions').getByTestId('copy-code-status').first(),
    ).toContainText('Copied');
    expect(
      await page.evaluate(() =>
        Promise.race([
          (
            globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
          ).navigator.clipboard.readText(),
          new Promise<string>((r) => setTimeout(() => r('(clipboard unavailable)'), 3000)),
        ]),
      ),
    ).toBe(code);
    await expect(page.getByTestId('time-left').first()).toContainText('left');
    // The order list is virtualized and its orders collapsed: scroll to an order with a refund and
    // open it.
    const refundedOrder = page.locator('[data-testid="order-group"][data-state="refunded"]');
    await scrollToRow(page, refundedOrder);
    await expandOrder(refundedOrder);
    await expect(page.getByTestId('refund').first()).toContainText(/Refund/);
    await page.getByTestId('refund').first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/billing-refund-en.png` });
    // Notifications: the badge, mark one read, the count goes down.
    await open(page, 'notifications');
    const badge = page.getByTestId('unread-badge');
    await expect(badge).toBeVisible();
    const before = Number(
      (await badge.locator('[aria-hidden="true"]').textContent())!.replace('+', ''),
    );
    await page.getByTestId('mark-read').first().click();
    await expect
      .poll(async () =>
        (await badge.count()) === 0
          ? 0
          : Number((await badge.locator('[aria-hidden="true"]').textContent())!.replace('+', '')),
      )
      .toBe(before - 1);

    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const screen of SCREENS) {
        await open(page, screen);
        await expectAccessible(page, `${screen} (${scheme})`, { strict: true });
        await page.screenshot({ path: `${SHOTS}/${screen}-en-${scheme}.png` });
      }
    }

    // The theme chosen in Settings wins over the system's (data-theme on <html>).
    await page.emulateMedia({ colorScheme: 'light' });
    await open(page, 'settings');
    await page.getByTestId('theme-select').selectOption('dark');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await expectAccessible(page, 'settings (data-theme dark)', { strict: true });
    await page.getByTestId('theme-select').selectOption('system');
    await expect(page.locator('html')).not.toHaveAttribute('data-theme', /.*/);

    // Traditional Chinese, chosen in Settings (persisted through settings:update).
    await page.getByTestId('language-select').selectOption('zh-TW');
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-TW');
    await expect(page.getByTestId('nav-library')).toContainText('我的課程');
    for (const screen of SCREENS) {
      await open(page, screen);
      await page.screenshot({ path: `${SHOTS}/${screen}-zh-TW.png` });
    }
    const saved = await page.evaluate(async () => {
      const api = (
        globalThis as unknown as {
          learningDesktop: {
            invoke(c: string): Promise<{ ok: boolean; value?: { language: string } }>;
          };
        }
      ).learningDesktop;
      return (await api.invoke('settings:get')).value?.language;
    });
    expect(saved).toBe('zh-TW');

    // A narrow window (~800px) still works.
    await page.setViewportSize({ width: 800, height: 700 });
    await open(page, 'billing');
    await page.screenshot({ path: `${SHOTS}/billing-zh-TW-narrow.png` });
    await open(page, 'library');
    await page.screenshot({ path: `${SHOTS}/library-zh-TW-narrow.png` });
    await open(page, 'course');
    await expect(page.getByTestId('last-watched')).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/course-zh-TW-narrow.png` });

    // Search: a lecture hit opens its course.
    await open(page, 'search');
    await expect(page.getByTestId('search-hit').first().locator('mark').first()).toBeVisible();
    await page
      .locator('[data-testid="search-hit"][data-kind="lecture"]')
      .first()
      .getByRole('button')
      .click();
    await expect(page.getByTestId('lecture-row').first()).toBeVisible();
  });

  test('a denied consent is explained and the student can try again', async ({
    page,
    context,
    host,
  }) => {
    await page.goto(host.launchUrl());
    await tryDemo(page, context, 'deny');
    await expect(page.getByTestId('sign-in-error')).toBeVisible();
    await expect(page.getByTestId('error-state')).toHaveAttribute(
      'data-error-code',
      'sign-in-denied',
    );
    await expect(page.getByTestId('sign-in-error')).toContainText('Approve');
    await page.screenshot({ path: `${SHOTS}/sign-in-denied-en.png` });

    const again = context.waitForEvent('page');
    await page.getByTestId('sign-in-retry').click();
    const tab2 = await again;
    await signInOnSite(tab2, 'approve');
    await libraryFromToday(page);
    await expect(page.getByTestId('course-card').first()).toBeVisible({ timeout: 30_000 });
  });

  test('a closed sign-in tab, then Cancel, is explained and the student can try again', async ({
    page,
    context,
    host,
  }) => {
    await page.goto(host.launchUrl());
    const tab = context.waitForEvent('page');
    await page.getByTestId('try-demo').click();
    const signInPage = await tab;
    await expect(page.getByTestId('sign-in-phase')).toBeVisible();
    await signInPage.close();
    await page.getByTestId('sign-in-cancel').click();
    await expect(page.getByTestId('error-state')).toHaveAttribute(
      'data-error-code',
      'sign-in-cancelled',
    );
    await expect(page.getByTestId('sign-in-retry')).toBeVisible();
  });

  test('the add-site form explains invalid input inline; the skip link reaches the content', async ({
    page,
    host,
  }) => {
    await page.goto(host.launchUrl());
    await expect(page.getByTestId('try-demo')).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.locator('#main')).toBeFocused();
    const form = page.getByTestId('add-site-form');
    await form.getByLabel('School address').fill('http://school.example.com');
    // The application ID is under a disclosure (the invite link is the usual way in).
    await form.getByText('I have an application ID', { exact: true }).click();
    await form.getByRole('button', { name: 'Add and sign in' }).click();
    await expect(form).toContainText('must start with https://');
    await expect(form).toContainText('Enter the application ID');
    await form.getByLabel(/confidential application/).check();
    await form.getByRole('button', { name: 'Add and sign in' }).click();
    await expect(form).toContainText('Enter the client secret');
    await page.screenshot({ path: `${SHOTS}/add-site-errors-en.png`, fullPage: true });

    // Before any site: the language can be chosen in Settings, and the welcome screen follows it.
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('language-select').selectOption('zh-TW');
    await page.getByTestId('nav-library').click();
    await expect(page.getByTestId('try-demo')).toHaveText('試用示範');
    await expectAccessible(page, 'welcome zh-TW', { strict: true });
    await page.screenshot({ path: `${SHOTS}/welcome-zh-TW.png`, fullPage: true });
  });
});
