import { _electron as electron, expect, test } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { electronSkipReason, launchOptions } from './env';

/**
 * The same shell through the real Electron host. Electron's binary comes from GitHub, which is not
 * reachable everywhere (see README): where it is missing these tests are skipped, and say so.
 */
const skipReason = electronSkipReason();

test.describe('Electron host', () => {
  test.skip(skipReason !== null, skipReason ?? '');

  test('shows the app:get-info answer through the preload bridge', async () => {
    const userData = mkdtempSync(join(tmpdir(), 'ld-electron-'));
    const app = await electron.launch(launchOptions(userData));
    try {
      const window = await app.firstWindow();
      // The host is shown under Settings (About).
      await window.getByTestId('nav-settings').click();
      await expect(window.getByTestId('app-host')).toHaveText('electron');
      // Hardening: the page has no Node and no raw ipcRenderer.
      expect(
        await window.evaluate(() => typeof (globalThis as { require?: unknown }).require),
      ).toBe('undefined');
    } finally {
      await app.close();
      rmSync(userData, { recursive: true, force: true });
    }
  });
});
