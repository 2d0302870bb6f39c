import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { startBrowserHost, type BrowserHost } from '../../electron/browser-host/server';
import { createAppCore } from '../../electron/core/app-core';
import { expect, expectAccessible, packageVersion, test } from './fixtures';
import {
  clock,
  demoServer,
  expandOrder,
  openScreen,
  scrollToRow,
  startDemo,
  translator,
} from './helpers-ui';

const t = translator('en');

function startHost(dataDir: string): Promise<BrowserHost> {
  return startBrowserHost({
    rendererDir: join(process.cwd(), 'out/renderer'),
    createCore: ({ openExternal, deliverFile }) =>
      createAppCore({
        dataDir,
        version: packageVersion,
        host: 'browser',
        openExternal,
        deliverFile,
      }),
  });
}

/** Clicks, and returns the tab the app opened (the "system browser" of the browser host). */
async function opensTab(page: Page, click: () => Promise<void>): Promise<Page> {
  const tab = page.context().waitForEvent('page');
  await click();
  const opened = await tab;
  await opened.waitForLoadState('domcontentloaded');
  return opened;
}

test.describe('take me to my lesson: the school’s own pages', () => {
  test('from a cold start to the lecture’s page on the school’s site in two clicks', async ({
    page,
    context,
    host,
    dataDir,
  }) => {
    test.setTimeout(150_000);
    await startDemo(page, context, host);
    const site = demoServer(host);
    const last = site.db
      .prepare(
        "SELECT last_lecture_id AS id, last_position_seconds AS t FROM enrollments WHERE course_id = 'crs_data_analysis'",
      )
      .get() as { id: string; t: number };
    // Quit, and start the app again on the same data: a cold start, signed in from before.
    const origin = site.url;
    await host.close();
    const again = await startHost(dataDir);
    try {
      await page.goto(again.launchUrl());
      let clicks = 0;
      const click = async (target: ReturnType<Page['getByTestId']>) => {
        clicks++;
        await target.click();
      };
      // No click: the app opens on Today (what to do next, every school). Click 1: resume the
      // course being watched, on the school's site. (The promise is two clicks at most.)
      await expect(page.getByTestId('nav-today')).toHaveAttribute('aria-current', 'page');
      const resume = page
        .locator('[data-testid="today-continue"][data-course-id="crs_data_analysis"]')
        .getByTestId('today-open-lecture');
      await expect(resume).toHaveText(t('course.next.resume', { time: clock(last.t) }));
      const tab = await opensTab(page, () => click(resume));
      expect(clicks).toBeLessThanOrEqual(2);
      const restarted = demoServer(again);
      expect(restarted.url, 'the demo school keeps its address across restarts').toBe(origin);
      expect(tab.url()).toBe(
        `${origin}/courses/intro-to-data-analysis/lectures/${last.id}?t=${last.t}`,
      );
      await expect(tab.getByTestId('resume-at')).toHaveText(/Playback resumes at 5:12 of/);
      await tab.screenshot({ path: 'test-results/screenshots/site-lecture-page.png' });
      await tab.close();
      await page.screenshot({ path: 'test-results/screenshots/today-en.png' });
      // The library is one click away, and the course's own prompt says the same.
      await page.getByTestId('nav-library').click();
      await page
        .locator('[data-testid="course-card"][data-course-id="crs_data_analysis"]')
        .getByRole('heading')
        .getByRole('button')
        .click();
      await expect(page.getByTestId('continue-watching').getByTestId('next-step-open')).toHaveText(
        t('course.next.resume', { time: clock(last.t) }),
      );
      await page.screenshot({ path: 'test-results/screenshots/course-next-step-en.png' });
    } finally {
      await again.close();
    }
  });

  test('Today: continue learning, what needs attention with the code’s countdown, unread notices; axe-clean and by keyboard', async ({
    page,
    context,
    host,
  }) => {
    test.setTimeout(120_000);
    await startDemo(page, context, host);
    await page.getByTestId('nav-today').click();
    await expect(page.getByTestId('today-continue').first()).toBeVisible();
    const attention = page.getByTestId('today-attention');
    await expect(attention.filter({ hasText: '82219900012345' })).toHaveAttribute(
      'data-kind',
      'payment-due',
    );
    await expect(
      attention.filter({ hasText: '82219900012345' }).getByTestId('today-countdown'),
    ).toContainText(/\d+ d \d+ h \d+ min left/);
    await expect(attention.filter({ hasText: 'UX Writing' })).toHaveAttribute(
      'data-kind',
      'access-ending',
    );
    await expect(attention.filter({ hasText: 'Live Q&A' })).toHaveAttribute(
      'data-kind',
      'event-soon',
    );
    await expect(page.getByTestId('today-unread').first()).toBeVisible();
    await expect(page.getByTestId('today-freshness')).toBeVisible();
    await expectAccessible(page, 'today');
    await page.screenshot({
      path: 'test-results/screenshots/today-attention-en.png',
      fullPage: true,
    });
    // By keyboard: the payment's button opens Purchases.
    const seePayment = attention
      .filter({ hasText: '82219900012345' })
      .getByRole('button', { name: t('today.seePayment') });
    await seePayment.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('nav-billing')).toHaveAttribute('aria-current', 'page');
  });

  test('each unlocked lecture, the course, an order and a consulting service open on the site; ↗ says so; axe-clean', async ({
    page,
    context,
    host,
  }) => {
    test.setTimeout(120_000);
    await startDemo(page, context, host);
    const origin = demoServer(host).url;
    await page
      .locator('[data-testid="course-card"][data-course-id="crs_machine_learning"]')
      .getByRole('heading')
      .getByRole('button')
      .click();
    await expect(page.getByTestId('lecture-row').first()).toBeVisible();
    // Locked lectures say until when, and have no button; the open ones each have one.
    // The lecture list is windowed: the row is rendered once the list is scrolled to it.
    const locked = page.locator('[data-testid="lecture-row"].locked').first();
    await scrollToRow(page, locked);
    await locked.scrollIntoViewIfNeeded();
    await expect(locked.getByTestId('lecture-lock')).toContainText('Locked until');
    await expect(locked.getByTestId('open-lecture')).toHaveCount(0);
    await page.locator('#main').evaluate((m) => m.scrollTo(0, 0));
    const first = page.getByTestId('lecture-row').first();
    await expect(first.getByTestId('open-lecture')).toHaveAccessibleName(
      /opens the school’s site in your browser/,
    );
    await expectAccessible(page, 'course with site buttons');
    // Keyboard: the course page button is reached and pressed with the keyboard.
    const coursePage = page.getByTestId('open-course-page');
    await coursePage.focus();
    const courseTab = await opensTab(page, () => page.keyboard.press('Enter'));
    expect(courseTab.url()).toBe(`${origin}/courses/machine-learning-in-practice`);
    await expect(courseTab.locator('h1')).toContainText('Machine Learning');
    await courseTab.close();
    const lectureId = await first.getAttribute('data-lecture-id');
    const lectureTab = await opensTab(page, () => first.getByTestId('open-lecture').click());
    expect(new URL(lectureTab.url()).pathname).toBe(
      `/courses/machine-learning-in-practice/lectures/${lectureId}`,
    );
    await lectureTab.close();

    await openScreen(page, 'billing');
    const order = page.locator('[data-testid="order-group"][data-trade-no="T202611000004"]');
    await order.scrollIntoViewIfNeeded();
    await expandOrder(order);
    const orderTab = await opensTab(page, () => order.getByTestId('open-order').click());
    expect(orderTab.url()).toBe(`${origin}/orders/T202611000004`);
    await expect(orderTab.locator('body')).toContainText('82219900012345');
    await orderTab.close();

    await openScreen(page, 'consulting');
    const service = page.locator(
      '[data-testid="consulting-service"][data-service-id="csv_data_mentoring"]',
    );
    const serviceTab = await opensTab(page, () => service.getByTestId('open-consulting').click());
    expect(serviceTab.url()).toBe(`${origin}/consulting/csv_data_mentoring`);
    await serviceTab.close();
    await expectAccessible(page, 'consulting with site buttons');
  });

  test('the right prompt: access ended, completed, and offline the buttons are disabled with the reason', async ({
    page,
    context,
    host,
  }) => {
    test.setTimeout(120_000);
    await startDemo(page, context, host);
    const expired = page.locator('[data-testid="course-card"][data-course-id="crs_photography"]');
    await expired.scrollIntoViewIfNeeded();
    await expect(expired.getByTestId('next-step')).toContainText('Access ended on');
    await expect(expired.getByTestId('continue-watching')).toHaveCount(0);
    // Its page offers the way to extend: the course's page on the school's site, where it is sold.
    await expired.getByRole('heading').getByRole('button').click();
    await expect(page.getByTestId('continue-watching')).toHaveAttribute(
      'data-next-step',
      'expired',
    );
    const extend = page.getByTestId('next-step-extend');
    await expect(extend).toHaveText(t('course.next.extend'));
    const extendTab = await opensTab(page, () => extend.click());
    expect(extendTab.url()).toMatch(/\/courses\/[^/?#]+$/);
    await extendTab.close();
    const courseTab = await opensTab(page, () => page.getByTestId('open-course-page').click());
    expect(courseTab.url(), 'the same page as "Course page"').toBe(extendTab.url());
    await courseTab.close();
    await openScreen(page, 'library');
    const done = page.locator('[data-testid="course-card"][data-course-id="crs_python"]');
    await expect(done.getByTestId('next-step')).toHaveText(t('library.nextCompleted'));
    await done.getByRole('heading').getByRole('button').click();
    await expect(page.getByTestId('continue-watching')).toHaveAttribute(
      'data-next-step',
      'completed',
    );
    await expect(page.getByTestId('next-step-open')).toHaveText(t('course.next.watchAgain'));

    // Offline: the demo school is taken off the network; the app notices at its next sync.
    await host.core.demo!.stop();
    await page.getByTestId('sync-now').click();
    await expect(page.getByTestId('open-course-page')).toBeDisabled({ timeout: 30_000 });
    await expect(page.locator('.open-on-site-reason').first()).toHaveText(t('sitePages.offline'));
    await expectAccessible(page, 'course offline');
  });
});
