import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { SHOTS, expectAccessible, startDemo, translator } from './helpers-ui';

// Each test starts from the demo signed in and synced (fixtures.ts: signedInDemo).
test.use({ signedInDemo: true });

/**
 * The command palette (Ctrl+K) and Back/Forward across screens, in the browser host against the
 * demo school: every jump is made with the keyboard only, and the browser's own Back and Forward
 * walk the screens it went through.
 */
const activeId = (page: Page) =>
  page.evaluate(
    () =>
      (globalThis as unknown as { document: { activeElement: { id: string } | null } }).document
        .activeElement?.id ?? '',
  );

test('command palette: jump to a screen, a course and an order, run a command; Back and Forward walk the screens', async ({
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
  const palette = page.getByTestId('command-palette');
  const input = page.getByTestId('palette-input');
  const open = async () => {
    await page.keyboard.press('Control+K');
    await expect(input).toBeFocused();
  };
  await expect(page).toHaveTitle(`${t('nav.library')} – Learning Desktop`);

  // A screen: typed, the best match first, Enter goes there.
  await open();
  await expect(palette.getByRole('listbox')).toBeVisible();
  await expectAccessible(page, 'command palette');
  await input.fill('purch');
  await expect(page.getByTestId('palette-option').first()).toHaveAttribute('data-id', 'go-billing');
  await page.screenshot({ path: `${SHOTS}/palette-en.png` });
  await page.keyboard.press('Enter');
  await expect(palette).toBeHidden();
  await expect(page.getByTestId('nav-billing')).toHaveAttribute('aria-current', 'page');
  await expect(page).toHaveTitle(`${t('nav.billing')} – Learning Desktop`);

  // A course, by a word of its title, chosen with the arrow keys: its page opens with its heading
  // focused.
  const library = await host.core.handlers['library:page']({
    siteId,
    filter: 'all',
    sort: 'service',
    offset: 0,
    limit: 50,
  });
  if (!library.ok) throw new Error(library.error.message);
  const course = library.value.items[1]!;
  await open();
  await input.fill(course.title.split(' ').slice(0, 2).join(' '));
  const courseOption = page.locator(
    `[data-testid="palette-option"][data-id="course-${siteId}-${course.courseId}"]`,
  );
  await expect(courseOption).toBeVisible();
  const options = await page
    .getByTestId('palette-option')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-id')));
  for (let i = 0; i < options.indexOf(`course-${siteId}-${course.courseId}`); i++)
    await page.keyboard.press('ArrowDown');
  await expect(courseOption).toHaveAttribute('aria-selected', 'true');
  await expect(input).toHaveAttribute(
    'aria-activedescendant',
    (await courseOption.getAttribute('id'))!,
  );
  await page.keyboard.press('Enter');
  await expect(page.locator('#screen-title')).toHaveText(course.title);
  await expect.poll(() => activeId(page)).toBe('screen-title');
  await expect(page).toHaveTitle(`${course.title} – Learning Desktop`);

  // An order by its number: Purchases opens with that order first.
  const orders = await host.core.handlers['billing:orders']({ siteId, offset: 0, limit: 50 });
  if (!orders.ok) throw new Error(orders.error.message);
  const order = orders.value.items[3]!;
  await open();
  await input.fill(order.tradeNo);
  await expect(page.getByTestId('palette-option').first()).toHaveAttribute(
    'data-id',
    `order-${order.tradeNo}`,
  );
  await page.keyboard.press('Enter');
  const focused = page.getByTestId('focused-order');
  await expect(
    focused.locator(`[data-testid="order-group"][data-trade-no="${order.tradeNo}"]`),
  ).toBeVisible();
  await expectAccessible(page, 'purchases with a jumped-to order');

  // Back and Forward: the order, the course, Purchases, the library; and forward again.
  await page.goBack();
  await expect(page.locator('#screen-title')).toHaveText(course.title);
  await page.goBack();
  await expect(page.getByTestId('nav-billing')).toHaveAttribute('aria-current', 'page');
  await expect(focused).toBeHidden();
  await page.goBack();
  await expect(page.getByTestId('nav-library')).toHaveAttribute('aria-current', 'page');
  await page.goForward();
  await expect(page.getByTestId('nav-billing')).toHaveAttribute('aria-current', 'page');

  // A command that needs a confirmation lands on it: "Sign out of …" opens Settings with the
  // question asked.
  await open();
  await input.fill('sign out');
  await expect(page.getByTestId('palette-option').first()).toHaveAttribute(
    'data-id',
    `sign-out-${siteId}`,
  );
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('sign-out-dialog')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('sign-out-dialog')).toBeHidden();
  await page.goBack();
  await page.goForward();
  // Coming back to Settings through the history does not ask again.
  await expect(page.getByTestId('nav-settings')).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('sign-out-dialog')).toBeHidden();

  // Nothing matches: said so; Escape closes and focus returns.
  await open();
  await input.fill('zzzz-nothing');
  await expect(palette.getByRole('status')).toHaveText(
    t('palette.none', { query: 'zzzz-nothing' }),
  );
  await page.keyboard.press('Escape');
  await expect(palette).toBeHidden();
});

for (const lng of ['en', 'zh-TW'] as const) {
  test.describe(`palette commands (${lng})`, () => {
    test.use({ locale: lng });
    test('continue on the school’s site, theme and language, each shortcut shown, a lecture resumed from a hit', async ({
      page,
      context,
      host,
    }) => {
      test.setTimeout(120_000);
      const t = translator(lng);
      await startDemo(page, context, host);
      const today = await host.core.handlers['today:get'](undefined);
      if (!today.ok) throw new Error(today.error.message);
      const next = today.value.continueLearning[0]!;
      if (
        next.nextStep.kind !== 'resume' &&
        next.nextStep.kind !== 'next' &&
        next.nextStep.kind !== 'start'
      )
        throw new Error('no lecture to continue');
      const lecture = next.nextStep.lecture;
      const input = page.getByTestId('palette-input');
      const option = (id: string) =>
        page.locator(`[data-testid="palette-option"][data-id="${id}"]`);

      await page.keyboard.press('Control+K');
      await expect(input).toBeFocused();
      // Linux: Ctrl (⌘ on macOS), as the shortcuts list writes them.
      await expect(option('go-library').getByTestId('palette-shortcut')).toHaveText('Ctrl+1');
      await expect(option('back').getByTestId('palette-shortcut')).toHaveText('Alt+←');
      await expect(option('continue')).toContainText(lecture.title);
      await expectAccessible(page, `palette with its commands (${lng})`, { strict: true });
      const tab = context.waitForEvent('page');
      await option('continue').click();
      // The school's own address of that lecture (its course by the school's slug).
      expect(new URL((await tab).url()).pathname).toMatch(
        new RegExp(`^/courses/[^/]+/lectures/${lecture.lectureId}$`),
      );

      await page.bringToFront();
      await page.keyboard.press('Control+K');
      await input.fill(t('palette.theme', { theme: t('settings.prefs.dark') }));
      await expect(page.getByTestId('palette-option').first()).toHaveAttribute(
        'data-id',
        'theme-dark',
      );
      await page.keyboard.press('Enter');
      await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');

      await page.keyboard.press('Control+K');
      await input.fill(lecture.title);
      const onSite = page.locator(`[data-testid="palette-option"][data-id^="found-site-"]`).first();
      await expect(onSite).toContainText(lecture.title);

      await input.fill(lng === 'en' ? '繁體中文' : 'English');
      await page.keyboard.press('Enter');
      await expect(page.locator('html')).toHaveAttribute('lang', lng === 'en' ? 'zh-TW' : 'en');
    });
  });
}
