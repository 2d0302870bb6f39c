import type { Page } from '@playwright/test';
import type { OrderFilter, OrderView } from '../../electron/common/view-models';
import { expect, test } from './fixtures';
import { SHOTS, expectAccessible, openScreen, startDemo, translator } from './helpers-ui';

// Each test starts from the demo signed in and synced (fixtures.ts: signedInDemo).
test.use({ signedInDemo: true });

/**
 * Purchases you can manage, in the browser host against the demo school: orders listed collapsed
 * and opened one at a time, filtered by state and searched by order number or item title. What the
 * screen lists is checked against the core's own answer for the same question (billing:orders).
 */
test('purchases: collapsed orders that open, filters, search, years and spending per year, axe-clean', async ({
  page,
  context,
  host,
}) => {
  test.setTimeout(120_000);
  const t = translator('en');
  await startDemo(page, context, host);
  const sites = await host.core.handlers['sites:list'](undefined);
  if (!sites.ok) throw new Error(sites.error.message);
  const siteId = sites.value.find((s) => s.status === 'ready')!.id;
  const core = async (state: OrderFilter, query = ''): Promise<readonly OrderView[]> => {
    const r = await host.core.handlers['billing:orders']({
      siteId,
      state,
      query,
      offset: 0,
      limit: 100,
    });
    if (!r.ok) throw new Error(r.error.message);
    return r.value.items;
  };
  const listed = (p: Page) => p.getByTestId('order-list').getByTestId('order-group');
  const tradeNos = async (p: Page) =>
    listed(p).evaluateAll((els) => els.map((e) => e.getAttribute('data-trade-no')));

  await openScreen(page, 'billing');
  const all = await core('all');
  expect(all.length, 'the demo seed has orders').toBeGreaterThan(3);

  // ---- collapsed rows: title, date, amount and state; no payments until opened.
  const first = listed(page).first();
  await expect(first).toHaveAttribute('data-trade-no', all[0]!.tradeNo);
  const toggle = first.getByTestId('order-toggle');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(first.getByTestId('payment')).toHaveCount(0);
  await expect(first.getByTestId('order-state')).toBeVisible();
  const collapsedHeight = (await first.boundingBox())!.height;
  expect(collapsedHeight, 'a collapsed order is one short row').toBeLessThan(200);
  await expectAccessible(page, 'purchases, orders collapsed');

  // ---- opening one, with the keyboard: its payments, the receipt and the link to the site; the
  // list re-measures it.
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const details = page.locator(
    `#${await toggle.getAttribute('aria-controls').then((id) => CSS_escape(id!))}`,
  );
  await expect(details).toBeVisible();
  await expect(details.getByTestId('payment')).toHaveCount(all[0]!.payments.length);
  await expect(details.getByTestId('receipt')).toBeVisible();
  await expect(details.getByTestId('open-order')).toBeVisible();
  // The next row moved down below the opened one (measured rows): no overlap.
  const openBox = (await first.boundingBox())!;
  const nextBox = (await listed(page).nth(1).boundingBox())!;
  expect(openBox.height).toBeGreaterThan(collapsedHeight);
  expect(nextBox.y).toBeGreaterThanOrEqual(openBox.y + openBox.height);
  await expectAccessible(page, 'purchases, an order open');
  await page.screenshot({ path: `${SHOTS}/purchases-open-en.png` });
  await page.keyboard.press('Space');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');

  // ---- filters: each lists what the core answers for it.
  const filter = page.getByTestId('order-filter');
  for (const f of ['waiting', 'paid', 'refunded', 'failed', 'all'] as const) {
    await filter.locator(`[data-filter="${f}"]`).click();
    await expect(filter.locator(`[data-filter="${f}"]`)).toHaveAttribute('aria-pressed', 'true');
    const expected = (await core(f)).map((o) => o.tradeNo).slice(0, 3);
    if (expected.length === 0) {
      await expect(page.getByText(t('billing.noMatch'))).toBeVisible();
    } else {
      await expect.poll(async () => (await tradeNos(page)).slice(0, 3)).toEqual(expected);
    }
  }
  const refunded = await core('refunded');
  expect(refunded.length, 'the demo seed has a refunded order').toBeGreaterThan(0);
  await filter.locator('[data-filter="refunded"]').click();
  await expect(page.getByTestId('order-count')).toHaveText(
    t('billing.orders', { count: refunded.length }),
  );
  for (const s of await listed(page).evaluateAll((els) =>
    els.map((e) => e.getAttribute('data-state')),
  ))
    expect(s).toMatch(/refunded$/);
  await expectAccessible(page, 'purchases, filtered');
  await page.screenshot({ path: `${SHOTS}/purchases-filtered-en.png` });
  await filter.locator('[data-filter="all"]').click();

  // ---- search: by an order number, then by a word of an item title.
  const search = page.getByTestId('order-search');
  const target = all[Math.min(3, all.length - 1)]!;
  await search.fill(target.tradeNo);
  await expect
    .poll(() => tradeNos(page))
    .toEqual((await core('all', target.tradeNo)).map((o) => o.tradeNo));
  expect(await tradeNos(page)).toContain(target.tradeNo);
  const word = target.payments.flatMap((p) => p.lineItems)[0]!.title.split(/\s+/)[0]!;
  await search.fill(word.toLowerCase());
  const byWord = (await core('all', word.toLowerCase())).map((o) => o.tradeNo);
  expect(byWord).toContain(target.tradeNo);
  await expect.poll(async () => (await tradeNos(page)).slice(0, 5)).toEqual(byWord.slice(0, 5));
  await search.fill('no such order anywhere');
  await expect(page.getByText(t('billing.noMatch'))).toBeVisible();
  await expectAccessible(page, 'purchases, nothing matches');
  await search.fill('');

  // ---- years: a heading above the first order of each year, and the core's spending per year and
  // currency.
  const spending = await host.core.handlers['billing:spending']({ siteId });
  if (!spending.ok) throw new Error(spending.error.message);
  const years = [...new Set(spending.value.map((r) => r.year))];
  expect(years).toEqual([...new Set(all.map((o) => o.createdAt.slice(0, 4)))]);
  await expect(listed(page).first()).toHaveAttribute('data-trade-no', all[0]!.tradeNo);
  await expect(page.getByTestId('year-heading').first()).toHaveText(
    t('billing.yearHeading', { year: years[0]! }),
  );
  const rows = page.getByTestId('spending-row');
  await expect(rows).toHaveCount(spending.value.length);
  for (const [i, r] of spending.value.entries()) {
    await expect(rows.nth(i)).toHaveAttribute('data-year', r.year);
    await expect(rows.nth(i)).toHaveAttribute('data-currency', r.currency);
    await expect(rows.nth(i).locator('td').last()).toHaveText(String(r.orderCount));
    // A year paid in two currencies is two rows: each says its currency, never one year shown twice
    // unexplained.
    await expect(rows.nth(i).getByTestId('spending-currency')).toHaveText(r.currency);
  }
  await expect(page.getByTestId('spending').locator('thead th').nth(1)).toHaveText(
    t('billing.spendingCurrency'),
  );
  const pairs = spending.value.map((r) => `${r.year} ${r.currency}`);
  expect(new Set(pairs).size, 'one row per year and currency').toBe(pairs.length);
  // Every year heading the list renders names a year of the core's answer, in order, once.
  const headings: string[] = [];
  const main = page.locator('#main');
  for (let step = 0; step < 60; step++) {
    for (const h of await page.getByTestId('year-heading').allTextContents())
      if (!headings.includes(h)) headings.push(h);
    const moved = await main.evaluate((m) => {
      const before = m.scrollTop;
      m.scrollBy(0, m.clientHeight * 0.6);
      return m.scrollTop !== before;
    });
    if (!moved) break;
    await page.waitForTimeout(50);
  }
  expect(headings).toEqual(years.map((year) => t('billing.yearHeading', { year })));
  await main.evaluate((m) => m.scrollTo(0, 0));
  await page.getByTestId('spending').scrollIntoViewIfNeeded();
  await expectAccessible(page, 'purchases, spending per year');
  await page.screenshot({ path: `${SHOTS}/purchases-years-en.png` });
});

/** CSS.escape for an id made by React's useId (it holds colons). */
function CSS_escape(id: string): string {
  return id.replace(/[^a-zA-Z0-9_-]/g, (c) => `\\${c}`);
}
