import AxeBuilder from '@axe-core/playwright';
import { expect, test as base } from '@playwright/test';
import type { Browser, BrowserContext, Cookie, Page } from '@playwright/test';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { startBrowserHost, type BrowserHost } from '../../electron/browser-host/server';
import { createAppCore } from '../../electron/core/app-core';
import { LOCK_FILE_NAME } from '../../electron/core/data-dir-lock';
import type { DemoOrigins } from '../../electron/core/demo/demo-servers';
import { FIRST_SCREEN_FILE } from '../../electron/core/desktop/first-screen';

export const packageVersion = (
  JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }
).version;

function hostOn(dataDir: string): Promise<BrowserHost> {
  return startBrowserHost({
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
}

/**
 * A data folder in which the demo school is signed in and synced, the demo sites' origins then, and
 * the browser's cookies from the demo sites (the student's session at the school, which its pages
 * opened from the app find).
 */
interface SignedInFolder {
  readonly dir: string;
  readonly origins: DemoOrigins;
  readonly siteCookies: Cookie[];
}

/** Hosts opened on a copy of a signed-in folder: startDemo only opens the app on them. */
const signedInHosts = new WeakSet<BrowserHost>();

/** Whether `host` opened on a copy of a data folder in which the demo is signed in and synced. */
export function startedSignedIn(host: BrowserHost): boolean {
  return signedInHosts.has(host);
}

/**
 * A real browser host over a real core, with a fresh data folder per test, removed afterwards. With
 * `signedInDemo` the folder is a copy of one in which a student signed in to the demo school
 * through the browser and the first sync finished (startDemo's steps, done once per worker):
 * startDemo then opens the app on it, and the sign-in itself is tested by the specs that leave the
 * option off. The demo sites keep their ports (ports.json); should another program hold one, the
 * demo would move and ask the student to sign in again, so such a copy is dropped for an empty
 * folder and the full sign-in.
 */
export const test = base.extend<
  { host: BrowserHost; dataDir: string; signedInDemo: boolean },
  { signedInFolder: () => Promise<SignedInFolder> }
>({
  signedInDemo: [false, { option: true }],
  signedInFolder: [
    async ({ browser }, use) => {
      const dir = mkdtempSync(join(tmpdir(), 'ld-e2e-signed-in-'));
      let made: Promise<SignedInFolder> | undefined;
      await use(() => (made ??= signInOnce(browser, dir)));
      await made?.catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
    { scope: 'worker' },
  ],
  // eslint-disable-next-line no-empty-pattern
  dataDir: async ({}, use) => {
    const dir = mkdtempSync(join(tmpdir(), 'ld-e2e-'));
    await use(dir);
    rmSync(dir, { recursive: true, force: true });
  },
  host: async ({ context, dataDir, signedInDemo, signedInFolder }, use) => {
    let host: BrowserHost | null = null;
    if (signedInDemo) {
      const folder = await signedInFolder();
      cpSync(folder.dir, dataDir, {
        recursive: true,
        filter: (source) => basename(source) !== LOCK_FILE_NAME,
      });
      host = await hostOn(dataDir);
      if (isDeepStrictEqual(host.core.demo?.origins(), folder.origins)) {
        signedInHosts.add(host);
        await context.addCookies(folder.siteCookies);
      } else {
        await host.close();
        rmSync(dataDir, { recursive: true, force: true });
        mkdirSync(dataDir, { recursive: true });
        host = null;
      }
    }
    host ??= await hostOn(dataDir);
    await use(host);
    await host.close();
  },
});

/** startDemo's steps on a folder of its own, in a context of its own; the host is closed after. */
async function signInOnce(browser: Browser, dir: string): Promise<SignedInFolder> {
  const host = await hostOn(dir);
  const context = await browser.newContext();
  try {
    await startDemo(await context.newPage(), context, host);
    const origins = host.core.demo?.origins();
    if (!origins) throw new Error('the demo sites are not running');
    // Cookies are not port-scoped (RFC 6265 §8.5): the host's own (ld_host_<port>) is left out by
    // name.
    const siteCookies = (await context.cookies(Object.values(origins))).filter(
      (c) => !c.name.startsWith('ld_host_'),
    );
    return { dir, origins, siteCookies };
  } finally {
    await context.close();
    await host.close();
    // The last window's frame: a first session has none.
    rmSync(join(dir, FIRST_SCREEN_FILE), { force: true });
  }
}

/**
 * Try the demo, sign in and approve in the tab it opens (left open: see signInThrough), wait for
 * data. Today is the first screen once signed in; the specs start from the library, one click away.
 * On a host opened signed in (the `signedInDemo` option) the app is only opened.
 */
export async function startDemo(
  page: Page,
  context: BrowserContext,
  host: BrowserHost,
): Promise<void> {
  await page.setViewportSize({ width: 1100, height: 800 });
  await page.goto(host.launchUrl());
  if (!startedSignedIn(host))
    await signInThrough(page, context, () => page.getByTestId('try-demo').click());
  await libraryFromToday(page);
  await expect(page.getByTestId('course-card').first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('last-synced')).toBeVisible({ timeout: 30_000 });
}

/** Once signed in the app opens on Today; the library is one click away in the sidebar. */
export async function libraryFromToday(page: Page): Promise<void> {
  await expect(page.getByTestId('nav-today')).toHaveAttribute('aria-current', 'page', {
    timeout: 30_000,
  });
  await page.getByTestId('nav-library').click();
}

export { expect };

/** Screenshots of the screens, kept as a CI artifact. */
export const SHOTS = 'test-results/screenshots';

/**
 * axe-core on the page as it is now: no serious or critical violation; with `strict`, no violation
 * of any impact (a landmark named twice or a skipped heading level is moderate, yet a screen-reader
 * user feels it).
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

/**
 * Plays the student on the demo site's own pages: the sign-in form when shown, then the consent
 * decision.
 */
export async function signInOnSite(tab: Page, decision: 'approve' | 'deny'): Promise<void> {
  const password = tab.locator('input[name="password"]');
  const consent = tab.locator(`button[name="decision"][value="${decision}"]`);
  // A new tab starts on about:blank, whose load state is already reached: wait for one of the two
  // pages the site can show (sign-in when this site has no session yet, else consent) before
  // deciding which one it is.
  await expect(password.or(consent).first()).toBeVisible({ timeout: 30_000 });
  if (await password.isVisible()) {
    await tab.fill('input[name="email"]', 'student@example.com');
    await password.fill('student-demo');
    await tab.click('button[type="submit"]');
  }
  await consent.click();
}

/**
 * Clicks a control that starts a sign-in and completes it in the tab the app opens. The finished
 * tab is left open, as in a student's browser: closing a tab that sits on the loopback receiver's
 * page (its server already closed) has hung Chromium's page handling on CI, stalling the next call
 * on the app's page.
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
