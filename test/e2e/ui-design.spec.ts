import {
  askSite,
  demoServer,
  expectAccessible,
  openScreen,
  SHOTS,
  startDemo,
  translator,
} from './helpers-ui';
import { expect, test } from './fixtures';

/**
 * The design system's interactive pieces, driven as a student would: the site switcher menu by
 * keyboard, course cards opened from anywhere on the card (pointer) and by keyboard with a visible
 * focus ring, the course header's progress ring and "continue watching", in light and dark and in a
 * narrow window.
 */
test.describe('design system: switcher menu, course cards, course header', () => {
  test.use({ signedInDemo: true });
  test('site switcher: a menu button operable by keyboard (open, wrap, Escape, Add a site)', async ({
    page,
    context,
    host,
  }) => {
    test.setTimeout(120_000);
    await startDemo(page, context, host);
    const t = translator('en');
    const switcher = page.getByTestId('site-switcher');
    await expect(switcher).toHaveAttribute('aria-haspopup', 'menu');
    await expect(switcher).toHaveAttribute('aria-expanded', 'false');
    await expect(switcher).toContainText(t('settings.sites.status.ready'));

    // Enter opens on the first item (the current site, checked); arrows wrap round the last item,
    // "Sign out" of the signed-in site, which follows "Add a site".
    await switcher.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await expect(menu).toBeVisible();
    await expect(switcher).toHaveAttribute('aria-expanded', 'true');
    const sites = menu.getByRole('menuitemradio');
    const add = menu.getByRole('menuitem', { name: t('nav.addSite') });
    const signOut = menu.getByTestId('site-menu-sign-out');
    await expect(sites.first()).toBeFocused();
    await expect(sites.first()).toHaveAttribute('aria-checked', 'true');
    const siteCount = await sites.count();
    await page.keyboard.press('ArrowUp');
    await expect(signOut).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await expect(add).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect(sites.first()).toBeFocused();
    await page.keyboard.press('End');
    await expect(signOut).toBeFocused();
    await page.keyboard.press('Home');
    await expect(sites.first()).toBeFocused();
    // The unread count of the signed-in site is in its item, as the site itself reports it.
    const held = await askSite<{ unreadNotificationCount: number }>(
      demoServer(host),
      '{ unreadNotificationCount }',
    );
    expect(held.unreadNotificationCount).toBeGreaterThan(0);
    await expect(sites.first().getByTestId('site-unread')).toContainText(
      String(held.unreadNotificationCount),
    );
    await expectAccessible(page, 'site menu open');

    // Escape closes and gives focus back to the button.
    await page.keyboard.press('Escape');
    await expect(menu).toHaveCount(0);
    await expect(switcher).toBeFocused();
    await expect(switcher).toHaveAttribute('aria-expanded', 'false');

    // ArrowUp opens on the last item ("Sign out"); one more up is "Add a site", and Enter there
    // opens the add-site screen.
    await page.keyboard.press('ArrowUp');
    await expect(signOut).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await expect(add).toBeFocused();
    expect(siteCount).toBeGreaterThan(0);
    await page.keyboard.press('Enter');
    await expect(menu).toHaveCount(0);
    await expect(page.locator('#screen-title')).toHaveText(t('sites.welcome.addTitle'));

    // A press outside closes an open menu.
    await switcher.click();
    await expect(menu).toBeVisible();
    await page.locator('footer').click({ position: { x: 5, y: 5 } });
    await expect(menu).toHaveCount(0);
  });

  test('course cards: the whole card opens the course; keyboard focus rings the card; the header has cover, ring and continue watching', async ({
    page,
    context,
    host,
  }) => {
    test.setTimeout(120_000);
    await startDemo(page, context, host);
    const t = translator('en');
    const card = page
      .getByTestId('course-card')
      .filter({ has: page.getByTestId('continue-watching') })
      .first();
    const title = (await card.getByRole('heading').textContent())!;

    // A click on the cover, far from the title, opens the course: the card is one target.
    const cover = (await card.locator('.course-cover').boundingBox())!;
    const box = (await card.boundingBox())!;
    await card.click({
      position: { x: cover.x - box.x + 20, y: cover.y - box.y + cover.height - 12 },
    });
    await expect(page.locator('#screen-title')).toHaveText(title);
    const header = page.getByTestId('course-header');
    await expect(header.locator('.course-cover')).toBeVisible();
    await expect(header.getByTestId('continue-watching')).toContainText(t('course.continueTitle'));
    // The ring says what the library said, to assistive technology as a progressbar.
    const ring = header.getByRole('progressbar', { name: t('library.progressLabel', { title }) });
    const percent = Number(await ring.getAttribute('aria-valuenow'));
    expect(percent).toBeGreaterThan(0);
    expect(percent).toBeLessThan(100);
    await expect(header.locator('.progress-ring-text')).toHaveText(`${percent}%`);
    await expectAccessible(page, 'course header');

    // Back, then by keyboard: Tab reaches the card's one control, the card shows the focus ring,
    // Enter opens.
    await page.getByRole('button', { name: t('course.back') }).click();
    await expect(card).toBeVisible();
    const link = card.getByRole('heading').getByRole('button');
    await link.focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await expect(link).toBeFocused();
    await expect(card).toHaveCSS('outline-style', 'solid');
    await page.keyboard.press('Enter');
    await expect(page.locator('#screen-title')).toHaveText(title);

    // Hover lifts the card (a shadow it does not have at rest).
    await openScreen(page, 'library');
    const first = page.getByTestId('course-card').first();
    const rest = await page.evaluate<string>(
      `getComputedStyle(document.querySelector('[data-testid="course-card"]')).boxShadow`,
    );
    expect(rest).not.toBe('');
    await first.hover();
    await expect(first).not.toHaveCSS('box-shadow', rest);
  });

  test('dark theme in a narrow window: library and course stay accessible and fit', async ({
    page,
    context,
    host,
  }) => {
    test.setTimeout(120_000);
    await startDemo(page, context, host);
    await openScreen(page, 'settings');
    await page.getByTestId('theme-select').selectOption('dark');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await page.setViewportSize({ width: 900, height: 700 });
    await openScreen(page, 'library');
    // Dark really is dark: the page background is a dark colour.
    const bg = await page.evaluate<string>('getComputedStyle(document.body).backgroundColor');
    const [r, g, b] = (bg.match(/\d+/g) ?? []).map(Number);
    expect((r ?? 255) + (g ?? 255) + (b ?? 255)).toBeLessThan(120);
    // Narrow: the sidebar keeps icons only, the labels stay for assistive technology.
    await expect(page.getByTestId('nav-billing')).toHaveAccessibleName(
      translator('en')('nav.billing'),
    );
    await expectAccessible(page, 'library dark narrow');
    await page.screenshot({ path: `${SHOTS}/library-dark-narrow-en.png` });
    await page.getByTestId('course-card').first().getByRole('heading').getByRole('button').click();
    await expect(page.getByTestId('course-header')).toBeVisible();
    await expectAccessible(page, 'course dark narrow');
    const sideways = await page.locator('#main').evaluate((m) => m.scrollWidth > m.clientWidth + 1);
    expect(sideways).toBe(false);
  });
});
