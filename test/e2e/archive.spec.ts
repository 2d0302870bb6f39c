import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, expectAccessible, SHOTS, test } from './fixtures';
import { openScreen, startDemo, translator } from './helpers-ui';

/**
 * "Keep an archive": from Settings, one school's archive is written to the app's Archives folder,
 * and its index.html opens from disk in a browser with nothing of the app running for it (file://,
 * no script, no request). Both languages, axe-clean.
 */
for (const lng of ['en', 'zh-TW'] as const) {
  test.describe(`an archive you keep (${lng})`, () => {
    test.use({ locale: lng });
    const t = translator(lng);

    test('keep an archive and open it from disk', async ({ page, context, host, dataDir }) => {
      test.setTimeout(120_000);
      await startDemo(page, context, host);
      await openScreen(page, 'settings');
      const button = page.getByTestId('archive-site').first();
      await expect(button).toHaveText(t('archive.button'));
      await button.click();
      const status = page.getByTestId('archive-status').first();
      await expect(status).toContainText('index.html', { timeout: 30_000 });
      await expectAccessible(page, `settings after an archive (${lng})`);

      const parent = join(dataDir, 'Archives');
      const [folder] = readdirSync(parent).filter((n) => !n.startsWith('.'));
      expect(folder).toBeTruthy();
      await expect(status).toContainText(folder!);

      // Opened from disk, as after the app is uninstalled: the school's courses, purchases and
      // notices are there.
      const tab = await context.newPage();
      const requests: string[] = [];
      tab.on('request', (r) => {
        if (!r.url().startsWith('file:')) requests.push(r.url());
      });
      await tab.goto(pathToFileURL(join(parent, folder!, 'index.html')).href);
      await expect(tab.locator('h1')).toContainText('Demo School');
      await expect(tab.locator('h2')).toHaveCount(5);
      await expect(tab.locator('section h3').first()).toBeVisible();
      expect(requests).toEqual([]);
      await expectAccessible(tab, `archive index.html (${lng})`);
      await tab.screenshot({ path: `${SHOTS}/archive-index-${lng}.png` });
      await tab.close();
    });
  });
}
