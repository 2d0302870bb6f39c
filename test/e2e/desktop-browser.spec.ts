import { expect, test } from './fixtures';
import { openScreen, startDemo, translator } from './helpers-ui';

/**
 * The installed-app features as the browser host can show them (issue 12): the same keyboard shortcuts as the
 * Electron menu (one table, electron/common/shortcuts.ts), the shortcuts list in Settings. The Electron side of each
 * item is in test/e2e/electron/desktop.spec.ts.
 */
const en = translator('en');

test.describe('browser host: desktop features', () => {
  test('Ctrl+1..6 open the screens, Ctrl+F focuses search, Ctrl+R syncs (not reloads), Ctrl+, opens Settings with the shortcuts list', async ({ page, context, host }) => {
    test.setTimeout(120_000);
    await startDemo(page, context, host);
    // A page reload would drop this marker: Ctrl+R must sync instead.
    await page.evaluate(() => ((globalThis as { __marker?: number }).__marker = 42));

    const screens = ['library', 'notifications', 'billing', 'entitlements', 'consulting', 'profile'] as const;
    for (const [i, screen] of [...screens.entries()].reverse()) {
      await page.keyboard.press(`Control+${i + 1}`);
      await expect(page.getByTestId(`nav-${screen}`)).toHaveAttribute('aria-current', 'page');
    }

    await page.keyboard.press('Control+f');
    await expect(page.getByTestId('search-input')).toBeFocused();
    await page.getByTestId('search-input').blur();

    const sites = await host.core.handlers['sites:list'](undefined);
    const site = sites.ok ? sites.value[0]! : null;
    const before = await host.core.handlers['sync:status']({ siteId: site!.id });
    const lastBefore = before.ok ? before.value.lastSyncedAt : null;
    await page.keyboard.press('Control+r');
    await expect
      .poll(async () => {
        const now = await host.core.handlers['sync:status']({ siteId: site!.id });
        return now.ok ? now.value.lastSyncedAt : null;
      }, { timeout: 30_000 })
      .not.toBe(lastBefore);
    expect(await page.evaluate(() => (globalThis as { __marker?: number }).__marker)).toBe(42);

    await page.keyboard.press('Control+,');
    await expect(page.getByTestId('nav-settings')).toHaveAttribute('aria-current', 'page');
    const list = page.getByTestId('shortcuts-settings');
    await expect(list.getByRole('heading')).toHaveText(en('desktop.shortcuts.title'));
    await expect(list.getByTestId('shortcut-go-billing')).toContainText(en('desktop.shortcuts.go', { screen: en('nav.billing') }));
    await expect(list.getByTestId('shortcut-go-billing')).toContainText('Ctrl+3');
    await expect(list.getByTestId('shortcut-sync-now')).toContainText('Ctrl+R');
    await expect(list.locator('tbody tr')).toHaveCount(9);

    // Typing a plain digit in a field is typing, not a shortcut.
    await openScreen(page, 'library');
    await page.getByTestId('search-input').fill('');
    await page.getByTestId('search-input').press('3');
    await expect(page.getByTestId('nav-billing')).not.toHaveAttribute('aria-current', 'page');
  });
});
