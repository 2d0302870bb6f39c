import type { Page } from '@playwright/test';
import type { SearchHit } from '../../electron/common/view-models';
import type { BrowserHost } from '../../electron/browser-host/server';
import { expect, test } from './fixtures';
import { SHOTS, expectAccessible, startDemo, translator } from './helpers-ui';

// Each test starts from the demo signed in and synced (fixtures.ts: signedInDemo).
test.use({ signedInDemo: true });

/**
 * Search everything, in the browser host against the demo school: a trade number typed in the
 * header's field finds the order, reached with the keyboard (Down, Down..., Enter) and opened
 * expanded in Purchases; a lecture hit says its course, section and state and opens the course with
 * that row in view and marked; the kind filter; an instructor's courses; both languages, axe-clean.
 * What the screen lists is checked against the core's own answer (search:query).
 */
async function coreSearch(host: BrowserHost, query: string): Promise<readonly SearchHit[]> {
  const r = await host.core.handlers['search:query']({ query });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

async function type(page: Page, query: string): Promise<void> {
  await page.getByTestId('search-input').fill(query);
  await expect(page.locator(`[data-results-for="${query}"]`)).toBeAttached({ timeout: 15_000 });
}

/** Leaves the search screen (the palette's hits must not depend on it). */
async function openScreenFromNav(page: Page): Promise<void> {
  await page.getByTestId('nav-library').click();
  await expect(page.getByTestId('nav-library')).toHaveAttribute('aria-current', 'page');
}

const hits = (page: Page) => page.getByTestId('search-results').getByTestId('search-hit');

test.describe('search everything (English)', () => {
  test('a trade number opens its order expanded; a lecture opens in its course, marked; filters; axe', async ({
    page,
    context,
    host,
  }) => {
    test.setTimeout(120_000);
    const t = translator('en');
    await startDemo(page, context, host);

    // ---- an order by its trade number, with the keyboard only.
    const tradeNo = 'T202611000003';
    const answer = await coreSearch(host, tradeNo);
    const orderAt = answer.findIndex((h) => h.kind === 'order' && h.id === tradeNo);
    expect(orderAt, 'the core finds the order by its number').toBeGreaterThanOrEqual(0);
    await type(page, tradeNo);
    await expect(hits(page)).toHaveCount(answer.length);
    const order = hits(page).nth(orderAt);
    await expect(order).toHaveAttribute('data-kind', 'order');
    // With two schools signed in, each hit names its school.
    const sites = await host.core.handlers['sites:list'](undefined);
    if (!sites.ok) throw new Error(sites.error.message);
    const school = (siteId: string) =>
      sites.value.length > 1 ? [sites.value.find((s) => s.id === siteId)!.label] : [];
    await expect(order.getByTestId('hit-context')).toContainText(
      [t('search.kind.order'), ...school(answer[orderAt]!.siteId), tradeNo].join(' · '),
    );
    await expectAccessible(page, 'search results, an order');
    await page.screenshot({ path: `${SHOTS}/search-everything-order-en.png` });
    await page.getByTestId('search-input').focus();
    await page.keyboard.press('ArrowDown');
    for (let i = 0; i < orderAt; i++) await page.keyboard.press('ArrowDown');
    await expect(order.getByRole('button')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('nav-billing')).toHaveAttribute('aria-current', 'page');
    const focused = page.getByTestId('focused-order');
    await expect(focused).toBeVisible({ timeout: 15_000 });
    await expect(focused.getByTestId('order-group')).toHaveAttribute('data-trade-no', tradeNo);
    await expect(focused.getByTestId('order-toggle')).toHaveAttribute('aria-expanded', 'true');

    // ---- a lecture: its course, section and state; opening it scrolls its row into view and marks
    // it.
    const lectureQuery = 'Chart lesson 4';
    const lecture = (await coreSearch(host, lectureQuery)).find((h) => h.kind === 'lecture')!;
    expect(lecture.context.course).toBe('Intro to Data Analysis 資料分析入門');
    await type(page, lectureQuery);
    const lectureHit = page.locator(
      `[data-testid="search-hit"][data-kind="lecture"][data-id="${lecture.id}"]`,
    );
    const state =
      lecture.context.lectureState === 'locked'
        ? t('search.locked')
        : t(`course.state.${lecture.context.lectureState}`);
    await expect(lectureHit.getByTestId('hit-context')).toHaveText(
      [
        t('search.kind.lecture'),
        ...school(lecture.siteId),
        lecture.context.course,
        lecture.context.section,
        state,
      ].join(' · '),
    );
    await page.setViewportSize({ width: 1100, height: 500 });
    await lectureHit.getByRole('button').click();
    const row = page.locator(`[data-testid="lecture-row"][data-lecture-id="${lecture.id}"]`);
    await expect(row).toHaveAttribute('data-highlighted', 'true', { timeout: 15_000 });
    await expect(row).toBeInViewport();
    await expect(page.locator('[data-testid="lecture-row"][data-highlighted="true"]')).toHaveCount(
      1,
    );
    await expectAccessible(page, 'a course opened from a lecture hit');
    await page.screenshot({ path: `${SHOTS}/search-everything-lecture-en.png` });
    await page.setViewportSize({ width: 1100, height: 800 });

    // ---- the kind filter: only events; then an instructor's hit lists their courses.
    await type(page, 'Calligraphy');
    await page.getByTestId('search-kind').selectOption('event');
    await expect(page.locator('[data-results-for="Calligraphy"]')).toBeAttached();
    await expect(hits(page).first()).toBeVisible();
    for (const kind of await hits(page).evaluateAll((els) =>
      els.map((e) => e.getAttribute('data-kind')),
    ))
      expect(kind).toBe('event');
    // The filter stays while the text changes (it is part of the route).
    await type(page, 'Calligraphy Workshop');
    await expect(page.getByTestId('search-kind')).toHaveValue('event');
    await page.getByTestId('search-kind').selectOption('');

    await type(page, 'Mei-Ling');
    await page
      .locator('[data-testid="search-hit"][data-kind="instructor"]')
      .first()
      .getByRole('button')
      .click();
    await expect(page.getByTestId('search-kind')).toHaveValue('course');
    await expect(
      page.locator('[data-testid="search-hit"][data-kind="course"][data-id="crs_data_analysis"]'),
    ).toBeVisible({ timeout: 15_000 });
    await expectAccessible(page, 'an instructor’s courses');

    // ---- an event by its place: Products & events with that registration in view and marked. (The
    // instructor's filters stay while the text changes: back to everything, every school.)
    await page.getByTestId('search-kind').selectOption('');
    if (sites.value.length > 1) await page.getByTestId('search-school').selectOption('');
    await type(page, 'Da-an District');
    await page
      .locator('[data-testid="search-hit"][data-kind="event"]')
      .first()
      .getByRole('button')
      .click();
    const registration = page.locator(
      '[data-testid="event-registration"][data-id="reg_workshop_taipei"]',
    );
    await expect(registration).toHaveAttribute('data-highlighted', 'true', { timeout: 15_000 });
    await expect(registration).toBeInViewport();
    await expectAccessible(page, 'an event opened from search');

    // ---- a consulting service and a notice: their screens, with that row in view and marked.
    await type(page, 'Code Review');
    await page
      .locator('[data-testid="search-hit"][data-kind="consulting"]')
      .first()
      .getByRole('button')
      .click();
    const service = page.locator(
      '[data-testid="consulting-service"][data-service-id="csv_python_code_review"]',
    );
    await expect(service).toHaveAttribute('data-highlighted', 'true', { timeout: 15_000 });
    await expect(service).toBeInViewport();
    await expect(
      page.locator('[data-testid="consulting-service"][data-highlighted="true"]'),
    ).toHaveCount(1);
    await type(page, 'Holiday schedule');
    await page
      .locator('[data-testid="search-hit"][data-kind="notification"]')
      .first()
      .getByRole('button')
      .click();
    const notice = page.locator(
      '[data-testid="notification-row"][data-notification-id="ntf_demo_08"]',
    );
    await expect(notice).toHaveAttribute('data-highlighted', 'true', { timeout: 15_000 });
    await expect(notice).toBeInViewport();
    await expect(
      page.locator('[data-testid="notification-row"][data-highlighted="true"]'),
    ).toHaveCount(1);
    await expectAccessible(page, 'a consulting service and a notice opened from search');

    // ---- the command palette lists the same search's hits after its own matches: Enter opens one
    // the same way.
    await openScreenFromNav(page);
    await page.keyboard.press('Control+K');
    await page.getByTestId('palette-input').fill('Chart lesson 4');
    const foundOption = page.locator(
      `[data-testid="palette-option"][data-kind="found"][data-id$="lecture-${lecture.id}"]`,
    );
    await expect(foundOption).toBeVisible({ timeout: 15_000 });
    await expectAccessible(page, 'the command palette with search hits');
    await foundOption.click();
    await expect(row).toHaveAttribute('data-highlighted', 'true', { timeout: 15_000 });
  });
});

test.describe('search everything (Traditional Chinese)', () => {
  test.use({ locale: 'zh-TW' });
  test('hits say their kind and context in Chinese, axe-clean', async ({ page, context, host }) => {
    test.setTimeout(120_000);
    const zh = translator('zh-TW');
    await startDemo(page, context, host);
    await type(page, '書法');
    await expect(hits(page).first()).toBeVisible();
    const kinds = new Set(
      await hits(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-kind'))),
    );
    expect([...kinds]).toEqual(expect.arrayContaining(['course', 'order', 'event']));
    const course = page
      .locator('[data-testid="search-hit"][data-kind="course"]')
      .first()
      .getByTestId('hit-context');
    await expect(course).toContainText(`${zh('search.kind.course')} · `);
    await expect(page.getByTestId('search-kind').locator('option').first()).toHaveText(
      zh('search.allKinds'),
    );
    await expectAccessible(page, 'search results (zh-TW)');
    await page.screenshot({ path: `${SHOTS}/search-everything-zh-TW.png` });
  });
});
