import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests drive Debian's Chromium (npx playwright install cannot download a browser here)
 * through the browser host. CHROMIUM_PATH overrides the default /usr/bin/chromium; where neither
 * exists (Windows, macOS) it is Playwright's own Chromium (`npx playwright install chromium`, which
 * CI runs on every system). Playwright gives every launch a fresh, empty profile directory of its
 * own.
 */
export const chromiumPath =
  process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './test/e2e/global-setup.ts',
  fullyParallel: false,
  // Every test has its own data folder, host and demo sites on ports the system picks, and every
  // worker its own browser, so files run side by side. A test waits much of its time on the page,
  // the app's writer thread or the demo sites: two workers keep a 2-core machine busy (Playwright's
  // default is half the cores: one).
  workers: Math.max(2, Math.floor(availableParallelism() / 2)),
  timeout: 60_000,
  expect: { timeout: 10_000 },
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI
    ? [['list'], ['json', { outputFile: 'test-reports/playwright.json' }]]
    : [['list']],
  outputDir: 'test-results',
  use: {
    headless: true,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: chromiumPath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    { name: 'browser-host', testIgnore: '**/electron/**' },
    { name: 'electron', testMatch: '**/electron/**/*.spec.ts' },
  ],
});
