import AxeBuilder from '@axe-core/playwright';
import { expect, test as base } from '@playwright/test';
import type { BrowserContext, Page } from '@playwright/test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBrowserHost, type BrowserHost } from '../../electron/browser-host/server';
import { createAppCore } from '../../electron/core/app-core';

export const packageVersion = (
  JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }
).version;

/** A real browser host over a real core, with a fresh data folder per test, removed afterwards. */
export const test = base.extend<{ host: BrowserHost; dataDir: string }>({
  // eslint-disable-next-line no-empty-pattern
  dataDir: async ({}, use) => {
    const dir = mkdtempSync(join(tmpdir(), 'ld-e2e-'));
    await use(dir);
    rmSync(dir, { recursive: true, force: true });
  },
  host: async ({ dataDir }, use) => {
    const host = await startBrowserHost({
      rendererDir: join(process.cwd(), 'out/renderer'),
      createCore: ({ openExternal, deliverFile }) =>
        createAppCore({
          dataDir,
          version: packageVersion,
          host: 'browser',
          openExternal,
          deliverFile,
        }),
    });
    await use(host);
    await host.close();
  },
});

export { expect };

/** Screenshots of the screens, kept as a CI artifact. */
export const SHOTS = 'test-results/screenshots';

/**
 * axe-core on the page as it is now: no serious or critical violation; with `strict`, no violation of any impact
 * (a landmark named twice or a skipped heading level is moderate, yet a screen-reader user feels it).
 */
export async function expectAccessible(
  page: Page,
  what: string,
  options: { readonly strict?: boolean } = {},
): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter(
    (v) => options.strict === true || v.impact === 'serious' || v.impact === 'critical',
  );
  // Strict scans go on after a finding, so one run lists every screen's violations.
  (options.strict === true ? expect.soft : expect)(
    bad.map(
      (v) =>
        `${what}: ${v.id} (${v.impact}) ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(', ')}`,
    ),
  ).toEqual([]);
}

// ---------------------------------------------------------------- screen journeys (renderer e2e)

/** Plays the student on the demo site's own pages: the sign-in form when shown, then the consent decision. */
export async function signInOnSite(tab: Page, decision: 'approve' | 'deny'): Promise<void> {
  const password = tab.locator('input[name="password"]');
  const consent = tab.locator(`button[name="decision"][value="${decision}"]`);
  // A new tab starts on about:blank, whose load state is already reached: wait for one of the two pages the site
  // can show (sign-in when this site has no session yet, else consent) before deciding which one it is.
  await expect(password.or(consent).first()).toBeVisible({ timeout: 30_000 });
  if (await password.isVisible()) {
    await tab.fill('input[name="email"]', 'student@example.com');
    await password.fill('student-demo');
    await tab.click('button[type="submit"]');
  }
  await consent.click();
}

/**
 * Clicks a control that starts a sign-in and completes it in the tab the app opens. The finished tab is left open, as
 * in a student's browser: closing a tab that sits on the loopback receiver's page (its server already closed) has
 * hung Chromium's page handling on CI, stalling the next call on the app's page.
 */
export async function signInThrough(
  page: Page,
  context: BrowserContext,
  start: () => Promise<void>,
  decision: 'approve' | 'deny' = 'approve',
): Promise<Page> {
  const tab = context.waitForEvent('page');
  await start();
  const signInPage = await tab;
  await signInOnSite(signInPage, decision);
  return signInPage;
}
