import type { BrowserContext, Page } from '@playwright/test';
import { expect, expectAccessible, SHOTS, signInThrough, test } from './fixtures';
import { libraryFromToday } from './helpers-ui';

/**
 * Offline, the outbox, sign-out and a second site, as the student sees them. The demo sites are
 * taken off the network with the core's demo test hook (stop/start keep the same ports).
 */

async function startDemo(page: Page, context: BrowserContext, launchUrl: string): Promise<void> {
  await page.setViewportSize({ width: 1100, height: 800 });
  await page.goto(launchUrl);
  await signInThrough(page, context, () => page.getByTestId('try-demo').click());
  await libraryFromToday(page);
  await expect(page.getByTestId('course-card').first()).toBeVisible({ timeout: 30_000 });
}

test.describe('screens: offline, outbox, sign-out, second site', () => {
  // The demo site stopped while this computer keeps its network: the banner says the school is not
  // answering.
  test('offline: banner, saved data still readable, a queued mark-read shown as not sent, replayed when back', async ({
    page,
    context,
    host,
  }) => {
    test.setTimeout(120_000);
    await startDemo(page, context, host.launchUrl());
    const demo = host.core.demo!;
    await demo.stop();

    await page.getByTestId('sync-now').click();
    await expect(page.getByTestId('not-answering-banner')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('course-card').first()).toBeVisible();
    // A page reloaded while offline learns the state from the host at once (the core does not
    // repeat it).
    await page.reload();
    await expect(page.getByTestId('not-answering-banner')).toBeVisible();
    await expect(page.getByTestId('course-card').first()).toBeVisible();

    await page.getByTestId('nav-notifications').click();
    const row = page.locator('[data-testid="notification-row"][data-unread="true"]').first();
    const id = await row.getAttribute('data-notification-id');
    await row.getByTestId('mark-read').click();
    const same = page.locator(`[data-testid="notification-row"][data-notification-id="${id}"]`);
    await expect(same.getByTestId('pending-sync')).toBeVisible();
    await expect(page.getByTestId('pending-changes')).toBeVisible();
    await expectAccessible(page, 'notifications offline');
    await page.screenshot({ path: `${SHOTS}/notifications-offline-en.png` });

    await demo.start();
    await page.getByTestId('sync-now').click();
    await expect(page.getByTestId('not-answering-banner')).toBeHidden({ timeout: 30_000 });
    await expect(same.getByTestId('pending-sync')).toBeHidden({ timeout: 30_000 });
    await expect(page.getByTestId('pending-changes')).toBeHidden();
  });

  test('sign out keeping data, second site through the switcher, remove a site', async ({
    page,
    context,
    host,
  }) => {
    test.setTimeout(120_000);
    await startDemo(page, context, host.launchUrl());

    // Second demo site: signed in from Settings, then chosen in the switcher.
    await page.getByTestId('nav-settings').click();
    const rows = page.getByTestId('site-row');
    await expect(rows).toHaveCount(2);
    const second = rows.nth(1);
    // Not the active site: its progress, and then its failure, show in its own row.
    await signInThrough(
      page,
      context,
      async () => {
        await second.getByRole('button', { name: 'Sign in' }).click();
        await expect(second.getByTestId('sign-in-progress')).toBeVisible();
      },
      'deny',
    );
    await expect(second.getByTestId('sign-in-error')).toBeVisible({ timeout: 30_000 });
    await expectAccessible(page, 'settings: second site sign-in denied');
    await page.screenshot({ path: `${SHOTS}/settings-second-site-denied-en.png` });
    await signInThrough(page, context, () => second.getByTestId('sign-in-retry').click());
    await expect(second).toContainText('Signed in', { timeout: 30_000 });
    // The switcher is a menu button (WAI-ARIA APG): one radio item per site, then "Add a site".
    const switcher = page.getByTestId('site-switcher');
    const firstLabel = (await page.getByTestId('site-name').textContent())!;
    await page.getByTestId('nav-library').click();
    const firstTitles = await page.getByTestId('course-card').locator('h2').allTextContents();
    await switcher.click();
    const menu = page.getByRole('menu');
    const items = menu.getByRole('menuitemradio');
    await expect(items).toHaveCount(2);
    await expect(items.nth(0)).toHaveAttribute('aria-checked', 'true');
    await expect(items.nth(0)).toContainText(firstLabel);
    await expect(items.nth(1)).toContainText('Signed in');
    const secondLabel = (await items.nth(1).locator('.site-menu-name').textContent())!.replace(
      / \(Demo\)$/,
      '',
    );
    await expectAccessible(page, 'site switcher menu open');
    // Chosen with the keyboard: the menu opened on the current site, ArrowDown moves to the next,
    // Enter picks it.
    await expect(items.nth(0)).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(items.nth(1)).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(menu).toBeHidden();
    await expect(switcher).toBeFocused();
    await expect(page.getByTestId('site-name')).toHaveText(secondLabel);
    await expect(page.getByTestId('course-card').first()).toBeVisible({ timeout: 30_000 });
    const secondTitles = await page.getByTestId('course-card').locator('h2').allTextContents();
    expect(secondTitles.some((t) => firstTitles.includes(t))).toBe(false);
    await page.screenshot({ path: `${SHOTS}/library-second-site-en.png` });

    // Sign out of the second site keeping its data: still readable, "Sign in again" offered.
    await page.getByTestId('nav-settings').click();
    await rows.nth(1).getByTestId('sign-out').click();
    const dialog = page.getByTestId('sign-out-dialog');
    await expect(dialog).toBeVisible();
    await expectAccessible(page, 'sign-out dialog');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await rows.nth(1).getByTestId('sign-out').click();
    await dialog.getByTestId('confirm-sign-out').click();
    await expect(page.getByRole('status').filter({ hasText: 'Signed out' })).toBeVisible();
    await page.getByTestId('nav-library').click();
    await expect(page.getByTestId('sign-in-again')).toBeVisible();
    await expect(page.getByTestId('course-card').first()).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/library-signed-out-en.png` });

    // Remove it: confirm dialog, then only the first site is left, in the switcher too.
    await page.getByTestId('nav-settings').click();
    await rows.nth(1).getByTestId('remove-site').click();
    await page.getByTestId('remove-dialog').getByTestId('confirm-remove').click();
    await expect(rows).toHaveCount(1);
    await expect(page.getByTestId('site-name')).toHaveText(firstLabel);
    await page.getByTestId('site-switcher').click();
    await expect(page.getByRole('menu').getByRole('menuitemradio')).toHaveCount(1);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('menu')).toHaveCount(0);
  });
});
