import { existsSync } from 'node:fs';
import type { BrowserContext, Page } from '@playwright/test';
import { join } from 'node:path';
import { startBrowserHost, type BrowserHost } from '../../electron/browser-host/server';
import { createAppCore } from '../../electron/core/app-core';
import { FIRST_SCREEN_FILE, readFirstScreen } from '../../electron/core/desktop/first-screen';
import { expect, expectAccessible, packageVersion, SHOTS, test } from './fixtures';
import { startDemo } from './helpers-ui';

/**
 * A host on `dataDir` as `npm run demo` starts one: the last session's first frame read before the
 * core opens.
 */
function hostOn(dataDir: string, firstScreen = readFirstScreen(dataDir)): Promise<BrowserHost> {
  return startBrowserHost({
    rendererDir: join(process.cwd(), 'out/renderer'),
    firstScreen,
    createCore: ({ openExternal, deliverFile }) =>
      createAppCore({
        dataDir,
        version: packageVersion,
        host: 'browser',
        openExternal,
        deliverFile,
      }),
  });
}

/**
 * A first session on `dataDir`: the demo signed in and synced, Today shown, its frame kept; the
 * host then closed.
 */
async function firstSession(page: Page, context: BrowserContext, dataDir: string): Promise<void> {
  const host = await hostOn(dataDir);
  try {
    await startDemo(page, context, host);
    await page.getByTestId('nav-today').click();
    await expect(page.getByTestId('today-continue').first()).toBeVisible({ timeout: 15_000 });
    await expect
      .poll(() => existsSync(join(dataDir, FIRST_SCREEN_FILE)), { timeout: 15_000 })
      .toBe(true);
  } finally {
    await host.close();
  }
}

/**
 * A cold start paints the student's Today from the last session before the app's scripts have run
 * (electron/core/desktop/first-screen.ts, renderer/src/state/first-screen.ts), and the live app
 * takes the window over once its own Today has its data.
 */
test.describe('browser host: the first frame from the last session', () => {
  test('Today as the window last showed it is painted before the scripts run, then the live app takes over', async ({
    page,
    context,
    dataDir,
  }) => {
    test.setTimeout(120_000);
    // A first session: the demo signed in and synced; Today shows its data, and the window keeps it
    // as a frame.
    await firstSession(page, context, dataDir);
    const kept = readFirstScreen(dataDir)!;
    expect(kept.html).toContain('data-frame-testid="today-continue"');
    // No id and no test id of the live page is repeated in the frame.
    expect(kept.html).not.toMatch(/\sid="|\sdata-testid="/);
    const host = await hostOn(dataDir);
    try {
      // The next start, the app's script held back: the frame alone is on screen, with the courses.
      const second = await context.newPage();
      await second.setViewportSize({ width: 1100, height: 800 });
      let letScriptLoad!: () => void;
      const scriptMayLoad = new Promise<void>((resolve) => (letScriptLoad = resolve));
      await second.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
        await scriptMayLoad;
        await route.continue();
      });
      await second.goto(host.launchUrl(), { waitUntil: 'commit' });
      const frame = second.locator('#ld-first-screen');
      await expect(frame.locator('[data-frame-testid="today-continue"]').first()).toBeVisible({
        timeout: 15_000,
      });
      await expect(frame).toHaveAttribute('aria-hidden', 'true');
      await expect(frame).toHaveAttribute('inert', '');
      expect(await second.getByTestId('today-continue').count()).toBe(0);
      await second.screenshot({ path: `${SHOTS}/first-screen-frame.png` });
      await expectAccessible(second, 'first frame before the scripts run');

      // The script runs: the live Today replaces the frame, which is gone from the page.
      letScriptLoad();
      await expect(second.getByTestId('today-continue').first()).toBeVisible({ timeout: 15_000 });
      await expect(frame).toHaveCount(0);
      expect(await second.locator('[data-frame-testid]').count()).toBe(0);
      expect(
        await second.evaluate('performance.getEntriesByName("first-screen-released").length'),
      ).toBe(1);
      await expectAccessible(second, 'Today after the live app took over');

      // A reload may be on another screen: only the host's first page carries the frame.
      const reloaded = second.waitForResponse((r) => new URL(r.url()).pathname === '/');
      await second.reload();
      expect(await (await reloaded).text()).not.toContain('ld-first-screen');
    } finally {
      await host.close();
    }
  });

  test('a frame drawn by another build of the app is not sent: the start draws the app’s own way', async ({
    page,
    context,
    dataDir,
  }) => {
    test.setTimeout(120_000);
    await firstSession(page, context, dataDir);
    const host = await hostOn(dataDir, {
      ...readFirstScreen(dataDir)!,
      build: 'index-AnOlderBuild.js',
    });
    try {
      const second = await context.newPage();
      const document = second.waitForResponse((r) => new URL(r.url()).pathname === '/');
      await second.goto(host.launchUrl());
      expect(await (await document).text()).not.toContain('ld-first-screen');
      await expect(second.getByTestId('today-continue').first()).toBeVisible({ timeout: 15_000 });
    } finally {
      await host.close();
    }
  });
});
