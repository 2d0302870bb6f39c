import type { Page } from '@playwright/test';
import { expect, signInThrough, test } from './fixtures';
import {
  SHOTS,
  demoServer,
  englishLeftovers,
  expectAccessible,
  liveAppGrants,
  openScreen,
  overflowing,
  startDemo,
  translator,
} from './helpers-ui';

/**
 * Settings in sections with their own navigation, the sign-in check on demand, no internal names on
 * screen, and sign-out from the site menu and from Profile, in the browser host against the demo
 * school.
 */
const activeId = (page: Page) =>
  page.evaluate(
    () =>
      (globalThis as unknown as { document: { activeElement: { id: string } | null } }).document
        .activeElement?.id ?? '',
  );

/**
 * Words only the app's insides use: the cipher, key-store codes, the host's and platform's codes.
 */
const JARGON = /AES|GCM|keyfile|node-aes|libsecret|dpapi|\bdarwin\b|\bwin32\b|client_id/i;

test.describe('Settings and Profile', () => {
  test.use({ signedInDemo: true });
  test('sections with their own navigation, keyboard only; linkable from the palette; Back returns to a section', async ({
    page,
    context,
    host,
  }) => {
    test.setTimeout(120_000);
    const t = translator('en');
    await startDemo(page, context, host);
    await openScreen(page, 'settings');
    const nav = page.getByTestId('settings-nav');
    await expect(nav).toHaveAttribute('aria-label', t('settings.nav.label'));
    for (const s of [
      'schools',
      'notifications',
      'storage',
      'appearance',
      'privacy',
      'desktop',
      'demo',
      'about',
    ])
      await expect(page.getByTestId(`settings-nav-${s}`)).toHaveText(t(`settings.nav.${s}`));
    await expect(page.getByTestId('settings-nav-schools')).toHaveAttribute('aria-current', 'true');
    await expectAccessible(page, 'settings');

    // Keyboard: Tab from the screen's heading reaches the section links; Enter on "Storage" lands
    // on its heading.
    await page.locator('#screen-title').focus();
    await page.keyboard.press('Tab');
    await expect(page.getByTestId('settings-nav-schools')).toBeFocused();
    for (let i = 0; i < 2; i++) await page.keyboard.press('Tab');
    await expect(page.getByTestId('settings-nav-storage')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect.poll(() => activeId(page)).toBe('settings-storage-title');
    await expect(page.getByTestId('settings-nav-storage')).toHaveAttribute('aria-current', 'true');
    await expect(page.getByTestId('settings-nav-schools')).not.toHaveAttribute(
      'aria-current',
      'true',
    );
    await expect(
      page.getByTestId('settings-section-storage').getByTestId('storage-settings'),
    ).toBeInViewport();

    // The palette names each section; choosing one opens Settings there.
    await openScreen(page, 'library');
    await page.keyboard.press('Control+K');
    await page.getByTestId('palette-input').fill('settings priv');
    await expect(page.getByTestId('palette-option').first()).toHaveAttribute(
      'data-id',
      'settings-privacy',
    );
    await expect(page.getByTestId('palette-option').first()).toContainText(
      t('palette.settingsSection', { section: t('settings.nav.privacy') }),
    );
    await page.keyboard.press('Enter');
    await expect.poll(() => activeId(page)).toBe('settings-privacy-title');
    await expect(page.getByTestId('token-protection')).toBeInViewport();
    await expect(page.getByTestId('settings-nav-privacy')).toHaveAttribute('aria-current', 'true');

    // Back: the library, then forward to the same section again.
    await page.goBack();
    await expect(page.getByTestId('nav-library')).toHaveAttribute('aria-current', 'page');
    await page.goForward();
    await expect.poll(() => activeId(page)).toBe('settings-privacy-title');
    await expect(page.getByTestId('settings-nav-privacy')).toHaveAttribute('aria-current', 'true');
    await page.screenshot({ path: `${SHOTS}/settings-sections-en.png` });

    // "Check sign-in" from the palette: Settings > Schools, with the check's button focused, Enter
    // runs it.
    await openScreen(page, 'library');
    await page.keyboard.press('Control+K');
    await page.getByTestId('palette-input').fill('check sign');
    await expect(page.getByTestId('palette-option').first()).toHaveAttribute(
      'data-id',
      'check-sign-in',
    );
    await page.keyboard.press('Enter');
    const run = page.getByTestId('doctor-settings').getByTestId('doctor-run');
    await expect(run).toBeFocused();
    await expect(run).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('doctor-settings').getByTestId('doctor-summary')).toBeVisible({
      timeout: 30_000,
    });
  });

  test('no internal names on Settings or Profile; their details only under "Technical details"', async ({
    page,
    context,
    host,
  }) => {
    const t = translator('en');
    await startDemo(page, context, host);
    await openScreen(page, 'settings');
    const protection = await host.core.handlers['security:get-token-protection'](undefined);
    if (!protection.ok) throw new Error(protection.error.message);
    await expect(page.getByTestId('app-version')).toBeVisible();
    expect(await page.locator('#main').innerText()).not.toMatch(JARGON);
    // The key store's and the host's codes are there for support, folded away.
    const panel = page.getByTestId('token-protection');
    await expect(panel.locator('code')).toBeHidden();
    await panel.getByText(t('settings.techDetails')).click();
    await expect(panel.locator('code')).toHaveText(protection.value.backend);
    await expect(page.getByTestId('app-host')).toBeHidden();

    await openScreen(page, 'profile');
    await expect(page.getByTestId('school').first()).toBeVisible();
    expect(await page.locator('#main').innerText()).not.toMatch(JARGON);
  });

  test('the sign-in check on demand from Settings, for the school chosen', async ({
    page,
    context,
    host,
  }) => {
    const t = translator('en');
    await startDemo(page, context, host);
    await openScreen(page, 'settings');
    const card = page.getByTestId('doctor-settings');
    await expect(card.getByRole('heading', { name: t('settings.doctor.title') })).toBeVisible();
    await card.getByTestId('doctor-run').click();
    await expect(card.getByTestId('doctor-summary')).toBeVisible({ timeout: 30_000 });
    expect(await card.getByTestId('doctor-check').count()).toBeGreaterThan(3);
    // The demo school is healthy: nothing is marked as a problem.
    await expect(card.locator('[data-testid="doctor-check"][data-status="problem"]')).toHaveCount(
      0,
    );
    await expectAccessible(page, 'settings with a sign-in check');
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/settings-doctor-en.png` });
  });

  test('sign out from the site menu and from Profile: the same question, the site told each time', async ({
    page,
    context,
    host,
  }) => {
    test.setTimeout(180_000);
    const t = translator('en');
    await startDemo(page, context, host);
    const server = demoServer(host);
    const sites = await host.core.handlers['sites:list'](undefined);
    if (!sites.ok) throw new Error(sites.error.message);
    const site = sites.value.find((s) => s.status === 'ready')!;
    expect(liveAppGrants(server).length).toBeGreaterThan(0);

    // The site menu, by keyboard: ArrowUp opens it on its last item, "Sign out of …".
    const switcher = page.getByTestId('site-switcher');
    await switcher.focus();
    await page.keyboard.press('ArrowUp');
    const item = page.getByTestId('site-menu-sign-out');
    await expect(item).toBeFocused();
    await expect(item).toHaveText(t('sites.switcher.signOut', { site: site.label }));
    await page.keyboard.press('Enter');
    const dialog = page.getByTestId('sign-out-dialog');
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('heading')).toHaveText(
      t('settings.sites.signOutTitle', { site: site.label }),
    );
    await expect(dialog.getByTestId('keep-data')).toBeChecked();
    await expectAccessible(page, 'sign-out from the site menu');
    // Cancel first: nothing happens, focus back on the menu button.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(switcher).toBeFocused();
    expect(liveAppGrants(server).length).toBeGreaterThan(0);
    await switcher.click();
    await item.click();
    await dialog.getByTestId('confirm-sign-out').click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('site-menu-notice')).toHaveText(t('settings.sites.signedOut'));
    await expect(switcher).toContainText(t('settings.sites.status.signed-out'));
    // RFC 7009: the app revoked its refresh token, so the site holds no live grant for it.
    await expect.poll(() => liveAppGrants(server)).toEqual([]);
    // The data was kept: the library still reads offline.
    await openScreen(page, 'library');
    await expect(page.getByTestId('course-card').first()).toBeVisible();

    // Profile, signed in again: its "Sign out" asks the same question; this time the saved data
    // goes too.
    await openScreen(page, 'profile');
    await expect(page.getByTestId('profile-sign-out')).toHaveCount(0);
    await signInThrough(page, context, () =>
      page.getByTestId('sign-in-again').getByRole('button').click(),
    );
    await expect(page.getByTestId('profile-sign-out')).toBeVisible({ timeout: 30_000 });
    await expect.poll(() => liveAppGrants(server).length).toBeGreaterThan(0);
    await page.getByTestId('profile-sign-out').click();
    await expect(dialog).toBeVisible();
    await dialog.getByTestId('keep-data').uncheck();
    await expect(dialog).toContainText(t('settings.sites.keepDataNo'));
    await dialog.getByTestId('confirm-sign-out').click();
    await expect.poll(() => liveAppGrants(server)).toEqual([]);
    // Nothing is left to show offline: the screen becomes the school's sign-in.
    await expect(page.locator('#screen-title')).toHaveText(
      t('sites.signIn.title', { site: site.label }),
    );
    const after = await host.core.handlers['sites:list'](undefined);
    if (!after.ok) throw new Error(after.error.message);
    expect(after.value.find((s) => s.id === site.id)!.status).toBe('signed-out');
    // The saved data went with it (removeData): no course is left offline.
    const library = await host.core.handlers['library:list']({ siteId: site.id });
    if (!library.ok) throw new Error(library.error.message);
    expect(library.value).toEqual([]);
  });

  test('zh-TW: the sections, the check and the sign-out question in Chinese, axe-clean', async ({
    page,
    context,
    host,
  }) => {
    test.setTimeout(120_000);
    const zh = translator('zh-TW');
    await startDemo(page, context, host);
    await openScreen(page, 'settings');
    await page.getByTestId('language-select').selectOption('zh-TW');
    await expect(page.getByTestId('settings-nav-schools')).toHaveText(zh('settings.nav.schools'));
    await page.getByTestId('doctor-settings').getByTestId('doctor-run').click();
    await expect(page.getByTestId('doctor-settings').getByTestId('doctor-summary')).toBeVisible({
      timeout: 30_000,
    });
    expect(await englishLeftovers(page)).toEqual([]);
    expect(await page.locator('#main').innerText()).not.toMatch(JARGON);
    await expectAccessible(page, 'settings (zh-TW)');
    await page.screenshot({ path: `${SHOTS}/zh-TW-settings-sections.png` });
    // A narrow window: the section links wrap above the sections, and nothing sticks out of its
    // box.
    await page.setViewportSize({ width: 700, height: 800 });
    await expect(page.getByTestId('settings-nav')).toBeVisible();
    expect(await overflowing(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/zh-TW-settings-sections-narrow.png` });
    await page.setViewportSize({ width: 1100, height: 800 });
    await page.getByTestId('site-switcher').click();
    await page.getByTestId('site-menu-sign-out').click();
    await expect(page.getByTestId('sign-out-dialog')).toContainText(
      zh('settings.sites.signOutText'),
    );
    await expectAccessible(page, 'sign-out question (zh-TW)');
  });
});
