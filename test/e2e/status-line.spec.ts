import type { Page } from '@playwright/test';
import { join } from 'node:path';
import { startBrowserHost } from '../../electron/browser-host/server';
import { createAppCore } from '../../electron/core/app-core';
import {
  expect,
  expectAccessible,
  packageVersion,
  SHOTS,
  signInThrough,
  test as base,
} from './fixtures';
import { demoServer, englishLeftovers, openScreen, startDemo, translator } from './helpers-ui';

/**
 * The status line tells the truth: the status bar, the banners and the header chip render the one
 * status of the site (core sync/site-status.ts). "You're offline" only when the computer has no
 * network (the core's view of the OS network is switched here, as Electron's net.isOnline() would
 * report it); a demo school that stops answering is named; a refused refresh turns both red with
 * "sign-in needed", never a green "Synced" beside the banner.
 */

let networkUp = true;
const test = base.extend({
  host: async ({ dataDir }, use) => {
    networkUp = true;
    const host = await startBrowserHost({
      rendererDir: join(process.cwd(), 'out/renderer'),
      createCore: ({ openExternal, deliverFile }) =>
        createAppCore({
          dataDir,
          version: packageVersion,
          host: 'browser',
          openExternal,
          deliverFile,
          networkUp: () => networkUp,
        }),
    });
    await use(host);
    await host.close();
  },
});

type Translate = ReturnType<typeof translator>;

async function switchFault(page: Page, t: Translate, testId: string, on: boolean): Promise<void> {
  await openScreen(page, 'settings');
  const panel = page.getByTestId('demo-faults');
  const box = panel.getByTestId(testId);
  if (on) await box.check();
  else await box.uncheck();
  await expect(panel.getByTestId('demo-faults-status')).toContainText(t('demoFaults.saved'));
}

/** The status bar and the header chip show the same state (and tone). */
async function expectBoth(page: Page, state: string, tone: string): Promise<void> {
  const bar = page.getByTestId('sync-status');
  const chip = page.getByTestId('site-chip-state');
  await expect(bar).toHaveAttribute('data-state', state, { timeout: 45_000 });
  await expect(bar).toHaveAttribute('data-tone', tone);
  await expect(chip).toHaveAttribute('data-state', state);
  await expect(chip).toHaveAttribute('data-tone', tone);
}

for (const lng of ['en', 'zh-TW'] as const) {
  test.describe(`status line (${lng})`, () => {
    test.use({ locale: lng });
    const t = translator(lng);

    test('a school that stops answering is named; back, the status is green again', async ({
      page,
      context,
      host,
    }) => {
      test.setTimeout(120_000);
      await startDemo(page, context, host);
      await expectBoth(page, 'ok', 'ok');
      const school = (await page.getByTestId('site-name').textContent()) ?? '';
      expect(school).not.toBe('');

      await switchFault(page, t, 'demo-fault-offline', true);
      await expectBoth(page, 'not-answering', 'warning');
      const banner = page.getByTestId('not-answering-banner');
      await expect(banner).toContainText(t('siteStatus.notAnswering.title', { site: school }));
      await expect(page.getByTestId('offline-banner')).toBeHidden();
      await expect(page.getByTestId('status-reason')).toHaveText(
        t('siteStatus.reason.notAnswering', { site: school }),
      );
      await expect(page.getByTestId('last-synced')).toContainText(
        t('siteStatus.lastSynced', { when: '' }).trim(),
      );
      await expect(page.getByTestId('site-chip-state')).toContainText(
        t('siteStatus.chip.notAnswering'),
      );
      await expectAccessible(page, `not answering (${lng})`);
      await page.screenshot({ path: `${SHOTS}/status-not-answering-${lng}.png` });
      if (lng === 'zh-TW') expect(await englishLeftovers(page)).toEqual([]);

      await switchFault(page, t, 'demo-fault-offline', false);
      await expectBoth(page, 'ok', 'ok');
      await expect(banner).toBeHidden();
      await expect(page.getByTestId('status-reason')).toBeHidden();
    });

    test('while the school is not answering, every action that needs it is refused the same on every screen', async ({
      page,
      context,
      host,
    }) => {
      test.setTimeout(150_000);
      await startDemo(page, context, host);
      await switchFault(page, t, 'demo-fault-offline', true);
      await expectBoth(page, 'not-answering', 'warning');
      // A window opened afresh (a restart, a reload) has not seen the run fail: it must know all
      // the same.
      await page.reload();
      await expect(page.getByTestId('not-answering-banner')).toBeVisible({ timeout: 30_000 });
      await page.getByTestId('nav-today').click();
      const resume = page.getByTestId('today-open-lecture').first();
      await expect(resume).toBeDisabled();
      await expect(page.getByTestId('today-continue').first()).toContainText(
        t('sitePages.offline'),
      );
      await openScreen(page, 'library');
      const card = page
        .getByTestId('course-card')
        .filter({ has: page.getByTestId('card-open-lecture') })
        .first();
      await expect(card.getByTestId('card-open-lecture')).toBeDisabled();
      await card.getByRole('heading').getByRole('button').click();
      await expect(page.getByTestId('next-step-open')).toBeDisabled();
      await expect(page.getByTestId('open-course-page')).toBeDisabled();
      await expect(page.getByTestId('continue-watching')).toContainText(t('sitePages.offline'));
      await expect(page.getByTestId('course-header')).toContainText(t('sitePages.offline'));

      await switchFault(page, t, 'demo-fault-offline', false);
      await expectBoth(page, 'ok', 'ok');
      await page.getByTestId('nav-today').click();
      await expect(page.getByTestId('today-open-lecture').first()).toBeEnabled();
    });

    test('signed out with the copy kept: the bar, the chip and Today say what the banner says, never a green "Synced"', async ({
      page,
      context,
      host,
    }) => {
      test.setTimeout(120_000);
      await startDemo(page, context, host);
      await openScreen(page, 'settings');
      await page.getByTestId('site-row').first().getByTestId('sign-out').click();
      await expect(page.getByTestId('keep-data')).toBeChecked();
      await page.getByTestId('confirm-sign-out').click();
      await expect(page.getByTestId('sign-in-again')).toBeVisible({ timeout: 30_000 });
      await expectBoth(page, 'needs-sign-in', 'danger');
      await expect(page.getByTestId('last-synced')).toContainText(
        t('siteStatus.lastSynced', { when: '' }).trim(),
      );
      await page.getByTestId('nav-today').click();
      const today = page.getByTestId('today-school-status').first();
      await expect(today).toHaveAttribute('data-state', 'needs-sign-in');
      await expect(today).toContainText(t('siteStatus.reason.needsSignIn'));
      // Today's header and the status bar say the same time in the same words.
      const bar = (await page.getByTestId('last-synced').textContent())!.trim();
      await expect(today).toContainText(bar);
      await expectAccessible(page, `today, signed out (${lng})`, { strict: true });
    });

    test('a refused refresh: status bar and chip red with "sign-in needed", never green', async ({
      page,
      context,
      host,
    }) => {
      test.setTimeout(120_000);
      await startDemo(page, context, host);
      await switchFault(page, t, 'demo-fault-refreshRefused', true);
      const banner = page.getByTestId('sign-in-again');
      await expect(banner).toBeVisible({ timeout: 30_000 });
      await expectBoth(page, 'needs-sign-in', 'danger');
      await expect(page.getByTestId('status-reason')).toHaveText(
        t('siteStatus.reason.needsSignIn'),
      );
      await expect(page.getByTestId('site-chip-state')).toContainText(
        t('siteStatus.chip.needsSignIn'),
      );
      // "Last synced ...", not the green "Synced ...".
      await expect(page.getByTestId('last-synced')).toContainText(
        t('siteStatus.lastSynced', { when: '' }).trim(),
      );
      await expectAccessible(page, `sign-in needed (${lng})`);
      await page.screenshot({ path: `${SHOTS}/status-sign-in-needed-${lng}.png` });

      await switchFault(page, t, 'demo-fault-refreshRefused', false);
      await signInThrough(page, context, () => banner.getByRole('button').click());
      await expect(banner).toBeHidden({ timeout: 30_000 });
      await expectBoth(page, 'ok', 'ok');
    });

    test('no network on this computer: "You\'re offline"; the network back, the school answers again', async ({
      page,
      context,
      host,
    }) => {
      test.setTimeout(120_000);
      await startDemo(page, context, host);
      const demo = host.core.demo!;
      networkUp = false;
      await demo.stop();
      await page.getByTestId('sync-now').click();
      await expectBoth(page, 'offline', 'warning');
      await expect(page.getByTestId('offline-banner')).toContainText(t('sync.offline.title'));
      await expect(page.getByTestId('not-answering-banner')).toBeHidden();
      await expect(page.getByTestId('status-reason')).toHaveText(t('siteStatus.reason.offline'));
      await expect(page.getByTestId('site-chip-state')).toContainText(t('siteStatus.chip.offline'));
      await expectAccessible(page, `offline (${lng})`);

      networkUp = true;
      await demo.start();
      await page.getByTestId('sync-now').click();
      await expectBoth(page, 'ok', 'ok');
      await expect(page.getByTestId('offline-banner')).toBeHidden();
      expect(demoServer(host).url).toMatch(/^http:\/\/127\.0\.0\.1:/);
    });
  });
}
