import type { Page } from '@playwright/test';
import { expect, expectAccessible, SHOTS, test } from './fixtures';
import { englishLeftovers, openScreen, scrollToRow, startDemo, translator } from './helpers-ui';

// Each test starts from the demo signed in and synced (fixtures.ts: signedInDemo).
test.use({ signedInDemo: true });

/**
 * Purchased files kept offline, as the student sees them in the browser host: save a product (the
 * demo site serves a real PDF and PNG), watch a slow one's progress, take the site off the network,
 * and open both from the app. Settings > Storage lists and removes them. Every screen axe-checked;
 * screenshots kept.
 */
const en = translator('en');
const zh = translator('zh-TW');

const card = (page: Page, title: RegExp) =>
  page.getByTestId('digital-product').filter({ has: page.getByRole('heading', { name: title }) });

async function saveAndWait(page: Page, title: RegExp): Promise<void> {
  const c = card(page, title);
  await scrollToRow(page, c);
  await c.getByTestId('offline-save').click();
  await expect(c.getByTestId('offline-saved')).toBeVisible({ timeout: 30_000 });
}

test.describe('purchased files kept offline', () => {
  test('save, progress, open with the site down, storage and removal (en)', async ({
    page,
    context,
    host,
  }) => {
    test.setTimeout(150_000);
    await startDemo(page, context, host);
    await openScreen(page, 'entitlements');

    // A PDF at full speed: "On this computer · <size>".
    await saveAndWait(page, /SQL Cheat Sheet/);
    await expect(card(page, /SQL Cheat Sheet/).getByTestId('offline-saved')).toHaveText(
      /^On this computer · \d+(\.\d)? kB$/,
    );

    // A slow one (Settings > Demo's fault, switched here through the core): progress with bytes,
    // speed, time left.
    host.core.demo!.setFaults({ download: 'slow' });
    const poster = card(page, /Grammar Poster/);
    await scrollToRow(page, poster);
    await poster.getByTestId('offline-save').click();
    await expect(poster.getByTestId('offline-progress-text')).toContainText(/ of .*\/s/, {
      timeout: 20_000,
    });
    await expect(poster.getByRole('progressbar')).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/downloads-progress-en.png` });
    await poster.getByTestId('offline-pause').click();
    await expect(poster.getByTestId('offline-job')).toHaveAttribute('data-state', 'paused');
    await expectAccessible(page, 'products with a paused transfer');
    host.core.demo!.setFaults({ download: 'none' });
    await poster.getByTestId('offline-resume').click();
    await expect(poster.getByTestId('offline-saved')).toBeVisible({ timeout: 30_000 });

    // The site goes away; the saved files still open inside the app.
    await host.core.demo!.stop();
    await page.reload();
    await openScreen(page, 'entitlements');
    const sheet = card(page, /SQL Cheat Sheet/);
    await scrollToRow(page, sheet);
    await expect(sheet.getByTestId('offline-saved')).toBeVisible();
    await sheet.getByTestId('offline-open').click();
    const viewer = page.getByTestId('file-viewer');
    await expect(viewer).toBeVisible();
    const src = await viewer.locator('iframe').getAttribute('src');
    expect(src).toMatch(/^\/saved-files\//);
    const pdf = await page.request.get(new URL(src!, host.origin).href);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');
    await expectAccessible(page, 'PDF viewer offline');
    await page.screenshot({ path: `${SHOTS}/downloads-pdf-offline-en.png` });
    await viewer.getByTestId('file-viewer-close').click();

    await scrollToRow(page, poster);
    await poster.getByTestId('offline-open').click();
    const img = page.getByTestId('file-viewer').locator('img');
    await expect(img).toBeVisible();
    await expect
      .poll(() => img.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth))
      .toBe(640);
    await page.screenshot({ path: `${SHOTS}/downloads-image-offline-en.png` });
    await page.getByTestId('file-viewer-close').click();
    await page.screenshot({ path: `${SHOTS}/downloads-products-en.png` });

    // Settings > Storage: per site and per product; remove one, then everything.
    await openScreen(page, 'settings');
    const storage = page.getByTestId('storage-settings');
    await expect(storage.getByTestId('storage-product')).toHaveCount(2);
    await expectAccessible(page, 'settings storage');
    await storage.scrollIntoViewIfNeeded();
    await storage.screenshot({ path: `${SHOTS}/downloads-storage-en.png` });
    await storage.getByTestId('storage-remove').first().click();
    await expect(storage.getByTestId('storage-product')).toHaveCount(1);
    await storage.getByTestId('storage-remove-all').click();
    await page.getByTestId('storage-remove-all-confirm').click();
    await expect(storage.getByTestId('storage-product')).toHaveCount(0);
    await expect(storage.getByTestId('storage-status')).toHaveText(en('downloads.storage.removed'));
  });

  test('the demo panel makes a download answer 410, then cut halfway: each failure said, and retried to the end', async ({
    page,
    context,
    host,
  }) => {
    test.setTimeout(150_000);
    await startDemo(page, context, host);
    await openScreen(page, 'settings');
    const panel = page.getByTestId('demo-faults');
    await panel.getByTestId('demo-fault-download').selectOption('gone');
    await expect(panel.getByTestId('demo-faults-status')).toContainText(en('demoFaults.saved'));
    await openScreen(page, 'entitlements');
    const drills = card(page, /Listening Drills/);
    await scrollToRow(page, drills);
    await drills.getByTestId('offline-save').click();
    await expect(drills.getByTestId('offline-error')).toHaveText(en('downloads.reason.gone'), {
      timeout: 20_000,
    });
    await expect(drills.getByTestId('offline-job')).toHaveAttribute('data-state', 'failed');
    await expectAccessible(page, 'a failed download');
    await page.screenshot({ path: `${SHOTS}/downloads-failed-en.png` });

    await openScreen(page, 'settings');
    await panel.getByTestId('demo-fault-download').selectOption('cut');
    await expect(panel.getByTestId('demo-faults-status')).toContainText(en('demoFaults.saved'));
    await openScreen(page, 'entitlements');
    await scrollToRow(page, drills);
    await drills.getByTestId('offline-retry').click();
    // Cut halfway each time: it resumes from where it stopped, and says so while it waits to try
    // again.
    await expect(drills.getByTestId('offline-error')).toContainText(en('downloads.reason.cut'), {
      timeout: 20_000,
    });
    host.core.demo!.setFaults({ download: 'none' });
    await expect(drills.getByTestId('offline-saved')).toBeVisible({ timeout: 90_000 });
  });

  test.describe('zh-TW', () => {
    test.use({ locale: 'zh-TW' });
    test('a saved product and Settings > Storage in Traditional Chinese', async ({
      page,
      context,
      host,
    }) => {
      test.setTimeout(120_000);
      await startDemo(page, context, host);
      await openScreen(page, 'entitlements');
      await saveAndWait(page, /SQL Cheat Sheet/);
      await expect(card(page, /SQL Cheat Sheet/).getByTestId('offline-saved')).toContainText(
        '已存在這台電腦',
      );
      expect(await englishLeftovers(page)).toEqual([]);
      await expectAccessible(page, 'products (zh-TW)');
      await page.screenshot({ path: `${SHOTS}/downloads-products-zh-TW.png` });
      await openScreen(page, 'settings');
      const storage = page.getByTestId('storage-settings');
      await expect(
        storage.getByRole('heading', { name: zh('downloads.storage.title') }),
      ).toBeVisible();
      await expect(storage.getByTestId('storage-product')).toHaveCount(1);
      await expectAccessible(page, 'settings storage (zh-TW)');
      await storage.scrollIntoViewIfNeeded();
      await storage.screenshot({ path: `${SHOTS}/downloads-storage-zh-TW.png` });
    });
  });
});
