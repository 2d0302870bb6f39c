import { _electron as electron, expect, test } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signInOnSite } from '../fixtures';
import { electronSkipReason, launchOptions } from './env';
import { invoke, recordExternalUrls } from './helpers';

/**
 * The student's journey through the real Electron host in demo mode: the demo sites run in the main
 * process, the sign-in opens "the system browser" (shell.openExternal, replaced here by a recorder
 * so the test's Chromium plays the browser), the loopback redirect comes back to the app, the data
 * syncs and the screens show it; marking a notice read and signing out go through the same core as
 * in the browser host. Electron's binary comes from GitHub, which is not reachable everywhere:
 * where it is missing these tests are skipped, and say so. global-setup builds main, preload and
 * renderer (electron-vite) where the binary exists.
 */
const skipReason = electronSkipReason();

test.describe('Electron host: the demo journey', () => {
  test.skip(skipReason !== null, skipReason ?? '');

  test('sign in through the system browser, sync, read every screen, mark a notice read, sign out', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    const userData = mkdtempSync(join(tmpdir(), 'ld-electron-journey-'));
    const app = await electron.launch(launchOptions(userData, ['--demo']));
    try {
      const opened = await recordExternalUrls(app);
      const window = await app.firstWindow();
      await window.waitForFunction(() => 'learningDesktop' in globalThis);
      await expect
        .poll(
          async () => {
            const r = await invoke(window, 'sites:list');
            return r.ok ? (r.value as { isDemo: boolean }[]).filter((s) => s.isDemo).length : -1;
          },
          { timeout: 30_000 },
        )
        .toBe(2);
      const sites = (await invoke(window, 'sites:list')).value as {
        id: string;
        isDemo: boolean;
        baseUrl: string;
      }[];
      const demo = sites.find((s) => s.isDemo)!;

      // The app asks the OS to open the site's authorize page; the test's browser plays the system
      // browser.
      const signedIn = invoke(window, 'sites:sign-in', { siteId: demo.id });
      await expect
        .poll(async () => (await opened()).length, { timeout: 30_000 })
        .toBeGreaterThan(0);
      const authorizeUrl = (await opened())[0]!;
      expect(authorizeUrl.startsWith(`${demo.baseUrl}/oauth/authorize?`)).toBe(true);
      expect(new URL(authorizeUrl).searchParams.get('code_challenge_method')).toBe('S256');
      await page.goto(authorizeUrl);
      await signInOnSite(page, 'approve');
      expect((await signedIn).ok).toBe(true);

      // Screens, through the real preload bridge.
      await window.getByTestId('nav-library').click();
      await expect(window.getByTestId('course-card').first()).toBeVisible({ timeout: 30_000 });
      await window.getByTestId('course-card').first().getByRole('button').first().click();
      await expect(window.getByTestId('lecture-row').first()).toBeVisible();
      await window.getByTestId('nav-billing').click();
      await expect(window.getByTestId('order-group').first()).toBeVisible();
      await window.getByTestId('nav-notifications').click();
      const summary = window.getByTestId('unread-summary');
      await expect(summary).toBeVisible();
      const before = (await summary.textContent()) ?? '';
      await window.getByTestId('mark-read').first().click();
      await expect(summary).not.toHaveText(before);

      // Sign out revokes with the refresh token (the site answers, so nothing stays pending).
      const out = await invoke(window, 'sites:sign-out', { siteId: demo.id, removeData: false });
      expect(out.ok).toBe(true);
      expect((out.value as { revoked: boolean }).revoked).toBe(true);
    } finally {
      await app.close();
      rmSync(userData, { recursive: true, force: true });
    }
  });
});
