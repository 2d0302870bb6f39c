import { expect, packageVersion, test } from './fixtures';

test.describe('browser host: the renderer shell over the IPC contract', () => {
  test('shows the app:get-info answer (version and data folder)', async ({
    page,
    host,
    dataDir,
  }) => {
    await page.goto(host.launchUrl());
    // The About panel lives in Settings.
    await page.getByTestId('nav-settings').click();
    await expect(page.getByTestId('app-version')).toHaveText(packageVersion);
    await expect(page.getByTestId('app-data-dir')).toHaveText(dataDir);
    await expect(page.getByTestId('app-host')).toHaveText('browser');
  });

  test('refuses a page opened without the per-launch secret', async ({ page, host }) => {
    const response = await page.goto(host.origin);
    expect(response?.status()).toBe(403);
    await expect(
      page.getByText('Open the app with the link printed when it started.'),
    ).toBeVisible();
  });
});
