import type { Page } from '@playwright/test';
import { expect, signInOnSite, signInThrough, test } from './fixtures';
import {
  SHOTS,
  askSite,
  demoServer,
  englishLeftovers,
  expectAccessible,
  overflowing,
  formatInPage,
  libraryFromToday,
  openCourse,
  openScreen,
  scrollToRow,
  slashedDates,
  translator,
  type NavScreen,
} from './helpers-ui';

/**
 * A student whose computer speaks Traditional Chinese gets the app in Traditional Chinese without
 * choosing it (the language setting stays "system"). Every screen is checked for its Chinese title,
 * for English UI phrases left behind, with axe (no serious or critical violations), and
 * photographed under test-results/screenshots/.
 */

test.use({ locale: 'zh-TW' });

const zh = translator('zh-TW');

async function check(page: Page, name: string, opts: { fullPage?: boolean } = {}): Promise<void> {
  expect(await englishLeftovers(page), `${name}: English left on a zh-TW screen`).toEqual([]);
  expect(await slashedDates(page), `${name}: a date in another style`).toEqual([]);
  expect(await overflowing(page), `${name}: text that does not fit`).toEqual([]);
  await expectAccessible(page, `${name} (zh-TW)`);
  await page.screenshot({ path: `${SHOTS}/zh-TW-${name}.png`, fullPage: opts.fullPage ?? false });
}

async function screen(page: Page, nav: NavScreen, titleKey: string, ready: string): Promise<void> {
  await openScreen(page, nav);
  await expect(page.locator('#screen-title')).toHaveText(zh(titleKey));
  await expect(page.getByTestId(ready).first()).toBeVisible({ timeout: 15_000 });
}

test.describe('screens: Traditional Chinese from the OS language', () => {
  test('every screen in zh-TW without choosing it: titles, no English left, axe, screenshots', async ({
    page,
    context,
    host,
  }) => {
    test.setTimeout(300_000);
    await page.setViewportSize({ width: 1100, height: 800 });
    await page.goto(host.launchUrl());

    // Welcome: nothing chosen, yet Chinese.
    await expect(page.getByTestId('try-demo')).toHaveText(zh('sites.welcome.tryDemo'));
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-TW');
    const settings = await host.core.handlers['settings:get'](undefined);
    expect(settings.ok && settings.value.language).toBe('system');
    await expect(page.locator('#screen-title')).toHaveText(zh('sites.welcome.title'));
    await check(page, 'welcome', { fullPage: true });

    // The add-site form explains invalid input in Chinese.
    const form = page.getByTestId('add-site-form');
    await form.getByLabel(zh('sites.add.baseUrl')).fill('http://school.example.com');
    await form.getByText(zh('sites.add.haveId'), { exact: true }).click();
    await form.getByRole('button', { name: zh('sites.add.submit') }).click();
    await expect(form.locator('.field-error')).toHaveText([
      zh('sites.add.errors.urlHttps'),
      zh('sites.add.errors.clientIdRequired'),
    ]);
    await form.scrollIntoViewIfNeeded();
    await check(page, 'add-site-errors', { fullPage: true });
    await form.getByLabel(zh('sites.add.baseUrl')).fill('');

    // Sign-in in progress, then a refused consent.
    const tab = context.waitForEvent('page');
    await page.getByTestId('try-demo').click();
    const signInPage = await tab;
    await expect(page.getByTestId('sign-in-phase')).toHaveAttribute(
      'data-phase',
      'waiting-for-browser',
      { timeout: 30_000 },
    );
    await expect(page.getByTestId('sign-in-progress')).toContainText(
      zh('sites.signIn.continueInBrowser'),
    );
    await expect(page.getByTestId('sign-in-phase')).toHaveText(
      zh('sites.signIn.phase.waiting-for-browser'),
    );
    await check(page, 'sign-in-progress');
    await signInOnSite(signInPage, 'deny');
    await expect(page.getByTestId('error-state')).toHaveAttribute(
      'data-error-code',
      'sign-in-denied',
      { timeout: 30_000 },
    );
    const sites = await host.core.handlers['sites:list'](undefined);
    const label = sites.ok ? sites.value[0]!.label : '';
    await expect(page.getByTestId('sign-in-error')).toContainText(
      zh('sites.signIn.failedTitle', { site: label }),
    );
    await check(page, 'sign-in-error');

    await signInThrough(page, context, () => page.getByTestId('sign-in-retry').click());
    await libraryFromToday(page);
    await expect(page.getByTestId('course-card').first()).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('last-synced')).toBeVisible({ timeout: 30_000 });

    await screen(page, 'library', 'library.title', 'course-card');
    await check(page, 'library');

    await page
      .getByTestId('course-card')
      .filter({ has: page.getByTestId('continue-watching') })
      .first()
      .getByRole('heading')
      .getByRole('button')
      .click();
    await expect(page.getByTestId('lecture-row').first()).toBeVisible();
    await expect(page.getByRole('button', { name: zh('course.back') })).toBeVisible();
    await expect(page.getByTestId('lecture-row').first()).toContainText(
      new RegExp(
        `${zh('course.state.unread')}|${zh('course.state.read')}|${zh('course.state.completed')}`,
      ),
    );
    await check(page, 'course');
    // A drip course's locked lecture: the lock and its unlock time in Chinese (date formatted for
    // zh-TW).
    const { enrolledCourses } = await askSite<{
      enrolledCourses: {
        nodes: {
          id: string;
          sections: {
            lectures: { lectureId: string; isLocked: boolean; unlockAt: string | null }[];
          }[];
        }[];
      };
    }>(
      demoServer(host),
      '{ enrolledCourses(first: 100) { nodes { id sections { lectures { lectureId isLocked unlockAt } } } } }',
    );
    const drip = enrolledCourses.nodes.find((c) =>
      c.sections.some((s) => s.lectures.some((l) => l.isLocked)),
    )!;
    const locked = drip.sections.flatMap((s) => s.lectures).find((l) => l.isLocked)!;
    await openCourse(page, drip.id);
    const lockedRow = page.locator(
      `[data-testid="lecture-row"][data-lecture-id="${locked.lectureId}"]`,
    );
    await scrollToRow(page, lockedRow);
    await page.locator('#main').evaluate((m) => m.scrollTo(0, m.scrollHeight));
    const when = await formatInPage(page, 'zh-TW', 'date-time', locked.unlockAt!);
    await expect(lockedRow.getByTestId('lecture-lock')).toHaveText(
      `${zh('course.unlocksOn', { date: when })}`,
    );
    await check(page, 'course-locks');

    await screen(page, 'billing', 'billing.title', 'order-group');
    // Spent per year: a currency column, in Chinese.
    await expect(page.getByTestId('spending').locator('thead th').nth(1)).toHaveText(
      zh('billing.spendingCurrency'),
    );
    await expect(page.getByTestId('order-group').first().getByTestId('order-state')).not.toHaveText(
      /[A-Za-z]/,
    );
    await check(page, 'billing');

    await screen(page, 'entitlements', 'entitlements.title', 'digital-product');
    await check(page, 'entitlements');

    await screen(page, 'consulting', 'consulting.title', 'consulting-service');
    await check(page, 'consulting');

    await screen(page, 'notifications', 'notifications.title', 'notification-row');
    await page.getByTestId('subscriptions-toggle').click();
    await expect(page.getByTestId('subscriptions')).toContainText(
      zh('notifications.subscriptions.title'),
    );
    await check(page, 'notifications');

    await screen(page, 'profile', 'profile.title', 'profile');
    await check(page, 'profile');

    await page.getByTestId('search-input').fill('資料');
    await expect(page.locator('#screen-title')).toHaveText(
      zh('search.titleFor', { query: '資料' }),
    );
    await expect(page.getByTestId('search-hit').first()).toBeVisible({ timeout: 15_000 });
    await check(page, 'search');

    await screen(page, 'settings', 'settings.title', 'app-version');
    await expect(page.getByTestId('language-select')).toHaveValue('system');
    await check(page, 'settings');
    await page.getByTestId('token-protection').scrollIntoViewIfNeeded();
    await expect(page.getByTestId('token-protection')).toContainText(zh('settings.security.title'));
    const protection = await host.core.handlers['security:get-token-protection'](undefined);
    if (!protection.ok) throw new Error(protection.error.message);
    await expect(page.getByTestId('token-protection').locator('code')).toHaveText(
      protection.value.backend,
    );
    // The core describes its cipher in English; the screen says it in Chinese.
    await expect(page.getByTestId('token-protection-description')).not.toHaveText(
      protection.value.description,
    );
    await expect(page.getByTestId('token-protection-description')).toHaveText(/[\u4e00-\u9fff]/);
    await check(page, 'settings-security');

    // A narrow window (about 800 px): nothing sticks out of its box in Chinese either.
    await page.setViewportSize({ width: 800, height: 700 });
    const narrow: [NavScreen, string, string][] = [
      ['library', 'library.title', 'course-card'],
      ['billing', 'billing.title', 'order-group'],
      ['entitlements', 'entitlements.title', 'digital-product'],
      ['consulting', 'consulting.title', 'consulting-service'],
      ['notifications', 'notifications.title', 'notification-row'],
      ['profile', 'profile.title', 'profile'],
      ['settings', 'settings.title', 'app-version'],
    ];
    for (const [nav, title, ready] of narrow) {
      await screen(page, nav, title, ready);
      expect(await overflowing(page), `${nav} (narrow): text that does not fit`).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/zh-TW-${nav}-narrow.png` });
    }
    await page.setViewportSize({ width: 1100, height: 800 });

    // Offline, with the saved data still shown.
    await host.core.demo!.stop();
    await page.getByTestId('sync-now').click();
    // The school stopped, the computer still online: the school is named as not answering.
    const banner = page.getByTestId('not-answering-banner');
    await expect(banner).toBeVisible({ timeout: 30_000 });
    await expect(banner).toContainText(zh('siteStatus.notAnswering.text'));
    await screen(page, 'library', 'library.title', 'course-card');
    await check(page, 'offline-library');
  });
});
