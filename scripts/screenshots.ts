/**
 * `npm run screenshots`: pictures of the main screens for the README, made from the demo exactly as
 * a student sees it. Builds the renderer, starts the browser host over a fresh core in a temporary
 * data folder, drives Debian's Chromium (CHROMIUM_PATH overrides /usr/bin/chromium) through "Try
 * the demo" and the demo site's own sign-in page, signs in to the second demo site too (so the site
 * switcher has something to switch), and writes PNGs to docs/screenshots/: English and Traditional
 * Chinese, light and dark, wide (1280x800) and narrow (900x700).
 *
 * Usage: npm run screenshots [-- --only en-light-wide]   (a filter on the combination's name)
 */
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';
import { startBrowserHost, type BrowserHost } from '../electron/browser-host/server';
import { createAppCore } from '../electron/core/app-core';
import { rendererConfig } from '../renderer/vite.config';

const OUT = 'docs/screenshots';
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;

type Lang = 'en' | 'zh-TW';
type Theme = 'light' | 'dark';
type Size = 'wide' | 'narrow';
const VIEWPORTS: Record<Size, { width: number; height: number }> = {
  wide: { width: 1280, height: 800 },
  narrow: { width: 900, height: 700 },
};
type Shot =
  | 'welcome'
  | 'today'
  | 'library'
  | 'course'
  | 'billing'
  | 'notifications'
  | 'settings'
  | 'entitlements'
  | 'consulting'
  | 'profile'
  | 'search'
  | 'site-menu'
  | 'settings-desktop';

/**
 * Every combination of language, theme and size gets the library and the course page; the wide ones
 * get every main screen; a few extras show the first run, the open site switcher and the remaining
 * screens. About 40 pictures, a few MB in all.
 */
function plan(lang: Lang, theme: Theme, size: Size): Shot[] {
  const shots: Shot[] = ['library', 'course'];
  if (size === 'wide') shots.push('today', 'billing', 'notifications', 'settings');
  if (size === 'wide' && theme === 'light') shots.push('site-menu');
  // The other screens once in each language, in opposite themes.
  if (size === 'wide' && (lang === 'en') === (theme === 'light'))
    shots.push('entitlements', 'consulting', 'profile', 'search', 'settings-desktop');
  return shots;
}

async function signInOnSite(tab: Page): Promise<void> {
  const password = tab.locator('input[name="password"]');
  const consent = tab.locator('button[name="decision"][value="approve"]');
  await password.or(consent).first().waitFor({ timeout: 30_000 });
  if (await password.isVisible()) {
    await tab.fill('input[name="email"]', 'student@example.com');
    await password.fill('student-demo');
    await tab.click('button[type="submit"]');
  }
  await consent.click();
}

/** Clicks what starts a sign-in, completes it in the tab the app opens, and closes that tab. */
async function signInThrough(context: BrowserContext, start: () => Promise<void>): Promise<void> {
  const tab = context.waitForEvent('page');
  await start();
  const page = await tab;
  await signInOnSite(page);
  await page.waitForTimeout(500);
  await page.close().catch(() => {});
}

/** Images decoded, fonts loaded, two frames painted: what a person would see after a moment. */
async function settle(page: Page): Promise<void> {
  // A string, evaluated in the page: this file is type-checked for Node, without the DOM's types.
  await page.evaluate(`(async () => {
    await document.fonts.ready;
    await Promise.all([...document.images].map((img) => (img.complete ? null : new Promise((r) => img.addEventListener('load', r, { once: true })))));
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  })()`);
  await page.mouse.move(1, 1);
  await page.waitForTimeout(150);
}

type NavScreen =
  | 'today'
  | 'library'
  | 'billing'
  | 'notifications'
  | 'settings'
  | 'entitlements'
  | 'consulting'
  | 'profile';

async function openScreen(page: Page, screen: NavScreen): Promise<void> {
  await page.getByTestId(`nav-${screen}`).click();
  await page.locator('#screen-title').waitFor();
  await page
    .getByTestId('loading')
    .first()
    .waitFor({ state: 'detached', timeout: 15_000 })
    .catch(() => {});
}

async function setPreferences(page: Page, lang: Lang, theme: Theme): Promise<void> {
  await openScreen(page, 'settings');
  // One at a time: each choice is saved before the next is made.
  await page.getByTestId('theme-select').selectOption(theme);
  await page.locator(`html[data-theme="${theme}"]`).waitFor({ state: 'attached' });
  await page.getByTestId('language-select').selectOption(lang);
  await page.waitForFunction(`document.documentElement.lang === ${JSON.stringify(lang)}`);
}

async function take(page: Page, shot: Shot, name: string): Promise<void> {
  switch (shot) {
    case 'today':
    case 'library':
    case 'billing':
    case 'notifications':
    case 'settings':
    case 'entitlements':
    case 'consulting':
    case 'profile':
      await openScreen(page, shot);
      if (shot === 'library') await page.getByTestId('course-card').first().waitFor();
      if (shot === 'today') await page.getByTestId('today-continue').first().waitFor();
      break;
    case 'course': {
      await openScreen(page, 'library');
      const card = page
        .getByTestId('course-card')
        .filter({ has: page.getByTestId('continue-watching') })
        .first();
      await card.getByRole('heading').getByRole('button').click();
      await page.getByTestId('lecture-row').first().waitFor();
      break;
    }
    case 'site-menu':
      await openScreen(page, 'library');
      await page.getByTestId('site-switcher').click();
      await page.getByTestId('site-menu').waitFor();
      break;
    case 'search':
      await openScreen(page, 'library');
      // Demo titles are bilingual: each language finds its own word.
      await page
        .getByTestId('search-input')
        .fill((await page.locator('html').getAttribute('lang')) === 'zh-TW' ? '資料' : 'data');
      await page.getByTestId('search-hit').first().waitFor();
      break;
    case 'settings-desktop':
      // The installed app's sections of Settings: notifications, background, updates, shortcuts.
      await openScreen(page, 'settings');
      await page
        .getByTestId('notification-settings')
        .evaluate((el) => el.scrollIntoView({ block: 'start' }));
      break;
    case 'welcome':
      break;
  }
  await settle(page);
  if (shot === 'site-menu') {
    // Keep the pointer off the items; the menu shows the keyboard's active item.
    await page.keyboard.press('ArrowDown');
  }
  await page.screenshot({ path: join(OUT, `${name}.png`) });
  if (shot === 'site-menu') await page.keyboard.press('Escape');
  console.log(`  ${name}.png`);
}

async function main(): Promise<void> {
  const only = process.argv.includes('--only')
    ? process.argv[process.argv.indexOf('--only') + 1]
    : undefined;
  await build({ ...rendererConfig, logLevel: 'warn' });
  mkdirSync(OUT, { recursive: true });
  // Only this script's own pictures (<screen>-<language>-<theme>-<size>.png) are made anew; others
  // in the folder (the feature pictures the README shows beside them) are left as they are.
  const OWN = /^[a-z-]+-(en|zh-TW)-(light|dark)-(wide|narrow)\.png$/;
  if (!only) for (const f of readdirSync(OUT)) if (OWN.test(f)) unlinkSync(join(OUT, f));

  const dataDir = mkdtempSync(join(tmpdir(), 'ld-shots-'));
  let host: BrowserHost | undefined;
  let browser: Browser | undefined;
  try {
    host = await startBrowserHost({
      rendererDir: join(process.cwd(), 'out/renderer'),
      createCore: ({ openExternal }) =>
        createAppCore({ dataDir, version, host: 'browser', openExternal }),
    });
    browser = await chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--font-render-hinting=none',
      ],
    });
    // Reduced motion: no skeleton sweep or hover transition caught half-way.
    const context = await browser.newContext({
      viewport: VIEWPORTS.wide,
      reducedMotion: 'reduce',
      colorScheme: 'light',
      locale: 'en-US',
      timezoneId: 'Asia/Taipei',
    });
    const page = await context.newPage();
    await page.goto(host.launchUrl());
    await page.getByTestId('try-demo').waitFor();
    await settle(page);
    if (!only || 'welcome-en-light-wide'.includes(only)) {
      await page.screenshot({ path: join(OUT, 'welcome-en-light-wide.png') });
      console.log('  welcome-en-light-wide.png');
    }
    await signInThrough(context, () => page.getByTestId('try-demo').click());
    // Signed in, the app opens on Today.
    await page.getByTestId('today-continue').first().waitFor({ timeout: 60_000 });
    await page.getByTestId('last-synced').waitFor({ timeout: 60_000 });

    // The second demo site, signed in from Settings, so the switcher lists two schools.
    await openScreen(page, 'settings');
    const second = page.getByTestId('site-row').nth(1);
    await signInThrough(context, () => second.getByRole('button', { name: 'Sign in' }).click());
    await second.getByText('Signed in').waitFor({ timeout: 60_000 });
    await openScreen(page, 'library');

    for (const size of ['wide', 'narrow'] as const) {
      await page.setViewportSize(VIEWPORTS[size]);
      for (const lang of ['en', 'zh-TW'] as const) {
        for (const theme of ['light', 'dark'] as const) {
          const combo = `${lang}-${theme}-${size}`;
          if (only && !combo.includes(only)) continue;
          await setPreferences(page, lang, theme);
          for (const shot of plan(lang, theme, size)) await take(page, shot, `${shot}-${combo}`);
        }
      }
    }
    await context.close();
  } finally {
    await browser?.close();
    await host?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const files = readdirSync(OUT).filter((f) => f.endsWith('.png'));
  const total = files.reduce((sum, f) => sum + statSync(join(OUT, f)).size, 0);
  console.log(`${files.length} screenshots in ${OUT}, ${(total / 1024 / 1024).toFixed(2)} MB`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
