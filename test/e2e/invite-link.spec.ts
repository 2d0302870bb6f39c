import type { Page } from '@playwright/test';
import { join } from 'node:path';
import { startBrowserHost, type BrowserHost } from '../../electron/browser-host/server';
import { createAppCore } from '../../electron/core/app-core';
import { inviteLink } from '../../electron/core/invite/invite-link';
import { DEMO_CLIENT_ID } from '../../electron/core/demo/demo-servers';
import { expect, packageVersion, signInOnSite, signInThrough, test } from './fixtures';
import { SHOTS, expectAccessible, libraryFromToday, translator } from './helpers-ui';

/**
 * A school's invite link in the browser host: its own address /add-site?site=...&client_id=...
 * fills in the add-site form and waits for the student; a refused link says why; the same link
 * given to the core the way Electron's main process does ('open-url', a second instance) reaches
 * the open page.
 */

async function sites(host: BrowserHost) {
  const r = await host.core.handlers['sites:list'](undefined);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** The browser host's own form of an invite link: the same query on this host's /add-site. */
const hostForm = (host: BrowserHost, link: string) =>
  `${host.origin}/add-site${link.slice(link.indexOf('?'))}`;

async function demoOrigin(host: BrowserHost): Promise<string> {
  const origins = await host.core.demo!.start();
  return origins.demo;
}

async function openApp(page: Page, host: BrowserHost): Promise<void> {
  await page.setViewportSize({ width: 1100, height: 800 });
  await page.goto(host.launchUrl());
  await expect(page.locator('#screen-title')).toBeVisible();
}

test.describe('invite links: the add-site form filled in, confirmed by the student', () => {
  test('an honest link fills the form and adds nothing until the student confirms; then the sign-in works', async ({
    page,
    context,
    host,
  }) => {
    test.setTimeout(120_000);
    const t = translator('en');
    const origin = await demoOrigin(host);
    await openApp(page, host);
    await page.goto(hostForm(host, inviteLink(origin, DEMO_CLIENT_ID)));

    const notice = page.getByTestId('invite-notice');
    await expect(notice).toBeVisible();
    await expect(notice.getByRole('heading')).toHaveText(t('invite.title'));
    await expect(page.getByTestId('invite-site')).toHaveText(origin);
    await expect(page.getByTestId('invite-client-id')).toHaveText(DEMO_CLIENT_ID);
    const form = page.getByTestId('add-site-form');
    await expect(form.getByLabel(t('sites.add.baseUrl'))).toHaveValue(origin);
    await expect(form.getByLabel(t('sites.add.clientId'))).toHaveValue(DEMO_CLIENT_ID);
    // The address is consumed (a reload shows the app), and nothing was added or opened by the link
    // alone.
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await sites(host)).toEqual([]);
    expect(context.pages()).toHaveLength(1);
    await expectAccessible(page, 'invite notice and filled form');
    await page.screenshot({ path: `${SHOTS}/invite-en.png` });

    // The student confirms: the site is added and the sign-in runs on the site's own page as usual.
    await signInThrough(page, context, () =>
      form.getByRole('button', { name: t('sites.add.submit') }).click(),
    );
    await libraryFromToday(page);
    await expect(page.getByTestId('course-card').first()).toBeVisible({ timeout: 30_000 });
    const added = await sites(host);
    expect(added.map((s) => [s.baseUrl, s.clientId, s.status])).toEqual([
      [origin, DEMO_CLIENT_ID, 'ready'],
    ]);
  });

  test('"Don’t add it" leaves the form empty and adds nothing', async ({ page, host }) => {
    const origin = await demoOrigin(host);
    await openApp(page, host);
    await page.goto(hostForm(host, inviteLink(origin, DEMO_CLIENT_ID)));
    await page.getByTestId('invite-dismiss').click();
    await expect(page.getByTestId('invite-notice')).toHaveCount(0);
    await expect(page.getByTestId('add-site-form').getByLabel('School address')).toHaveValue('');
    expect(await sites(host)).toEqual([]);
  });

  test('a link with a secret, a javascript: site or a duplicate parameter is refused with its reason (en, zh-TW)', async ({
    page,
    host,
  }) => {
    const en = translator('en');
    const origin = await demoOrigin(host);
    await openApp(page, host);
    const cases: [string, string][] = [
      [`${inviteLink(origin, DEMO_CLIENT_ID)}&client_secret=cs_leaked`, 'secret-in-link'],
      [
        `learning-desktop://add-site?site=${encodeURIComponent('javascript:alert(1)')}&client_id=x`,
        'site-not-https',
      ],
      [`${inviteLink(origin, DEMO_CLIENT_ID)}&site=https://evil.example`, 'duplicate-parameter'],
    ];
    for (const [link, refusal] of cases) {
      await page.goto(hostForm(host, link));
      const refused = page.getByTestId('invite-refused');
      await expect(refused).toHaveAttribute('data-refusal', refusal);
      await expect(refused).toContainText(en(`invite.refusal.${refusal}`));
      await expect(refused).toHaveAttribute('role', 'alert');
      // Nothing is filled in from a refused link, and the secret is nowhere on the page.
      await expect(page.getByTestId('add-site-form').getByLabel('School address')).toHaveValue('');
      expect(await page.content()).not.toContain('cs_leaked');
    }
    await expectAccessible(page, 'refused invite');
    expect(await sites(host)).toEqual([]);

    const r = await host.core.handlers['settings:update']({ language: 'zh-TW' });
    expect(r.ok).toBe(true);
    const zh = translator('zh-TW');
    await page.goto(hostForm(host, cases[0]![0]));
    await expect(page.getByTestId('invite-refused')).toContainText(zh('invite.refusedTitle'));
    await expect(page.getByTestId('invite-refused')).toContainText(
      zh('invite.refusal.secret-in-link'),
    );
  });

  test('a link pasted into "Have an invite link?" is read the same way (en), and a foreign one refused', async ({
    page,
    host,
  }) => {
    const t = translator('en');
    const origin = await demoOrigin(host);
    await openApp(page, host);
    const paste = page.getByTestId('invite-paste');
    await paste.getByLabel(t('invite.paste.label')).fill(inviteLink(origin, DEMO_CLIENT_ID));
    await paste.getByRole('button', { name: t('invite.paste.submit') }).click();
    await expect(page.getByTestId('invite-client-id')).toHaveText(DEMO_CLIENT_ID);
    await expect(page.getByTestId('add-site-form').getByLabel(t('sites.add.baseUrl'))).toHaveValue(
      origin,
    );
    await page.getByTestId('invite-dismiss').click();
    await page
      .getByTestId('invite-paste')
      .getByLabel(t('invite.paste.label'))
      .fill('https://evil.example/add-site?site=https://evil.example&client_id=x');
    await page
      .getByTestId('invite-paste')
      .getByRole('button', { name: t('invite.paste.submit') })
      .click();
    await expect(page.getByTestId('invite-refused')).toHaveAttribute(
      'data-refusal',
      'not-an-invite',
    );
    await expectAccessible(page, 'welcome with the invite paste form');
    expect(await sites(host)).toEqual([]);
  });

  test('a link handed to the core as Electron does (open-url, second instance) reaches the open page', async ({
    page,
    host,
  }) => {
    const origin = await demoOrigin(host);
    await openApp(page, host);
    host.core.openInviteLink(inviteLink(origin, 'app_from_the_os'));
    await expect(page.getByTestId('invite-client-id')).toHaveText('app_from_the_os');
    // Taken once: a reload does not show it again.
    await page.reload();
    await expect(page.locator('#screen-title')).toBeVisible();
    await expect(page.getByTestId('invite-notice')).toHaveCount(0);
    // A foreign link from the OS is refused the same way.
    host.core.openInviteLink('learning-desktop://remove-site?site=x');
    await expect(page.getByTestId('invite-refused')).toHaveAttribute(
      'data-refusal',
      'not-an-invite',
    );
  });
});

/**
 * A browser host on `dataDir`, as a start of the app on that data folder (a new origin each time: a
 * new port).
 */
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

for (const lng of ['en', 'zh-TW'] as const) {
  test.describe(`first run after a refused invite (${lng})`, () => {
    test.use({ locale: lng });
    test('Try the demo: the old error goes, "waiting for you" in view; each school lands on Today; the school kept on restart', async ({
      page,
      context,
      dataDir,
    }) => {
      test.setTimeout(150_000);
      const t = translator(lng);
      let host = await hostOn(dataDir);
      try {
        const origin = await demoOrigin(host);
        await page.setViewportSize({ width: 900, height: 700 });
        await page.goto(host.launchUrl());
        await page.goto(
          hostForm(host, `${inviteLink(origin, DEMO_CLIENT_ID)}&client_secret=cs_leaked`),
        );
        await expect(page.getByTestId('invite-refused')).toBeVisible();
        await page.getByTestId('try-demo').scrollIntoViewIfNeeded();
        const tab = context.waitForEvent('page');
        await page.getByTestId('try-demo').click();
        const signInTab = await tab;
        await expect(page.getByTestId('sign-in-progress')).toBeInViewport();
        await expect(page.getByTestId('invite-refused')).toHaveCount(0);
        await signInOnSite(signInTab, 'approve');
        await expect(page.getByTestId('nav-today')).toHaveAttribute('aria-current', 'page', {
          timeout: 30_000,
        });

        // The second demo school, chosen in the site menu: signed in, the app lands on Today as
        // after the first.
        await page.getByTestId('site-switcher').click();
        const other = page.locator('[data-testid="site-menu-item"][aria-checked="false"]').first();
        const otherId = (await other.getAttribute('data-site-id'))!;
        await other.click();
        await expect(page.getByTestId('sign-in-button')).toBeVisible();
        await signInThrough(page, context, () => page.getByTestId('sign-in-button').click());
        await expect(page.getByTestId('nav-today')).toHaveAttribute('aria-current', 'page', {
          timeout: 30_000,
        });
        await expect(page.locator('#screen-title')).toHaveText(t('today.title'));
        const otherName = (await page.getByTestId('site-name').textContent())!.trim();

        // A restart (another origin: the page's own storage is not the one it had): the school
        // chosen last is shown.
        await host.close();
        host = await hostOn(dataDir);
        await page.goto(host.launchUrl());
        await expect(page.getByTestId('site-name')).toHaveText(otherName, { timeout: 30_000 });
        expect(
          (
            (await host.core.handlers['settings:get'](undefined)) as {
              ok: true;
              value: { lastSiteId: string };
            }
          ).value.lastSiteId,
        ).toBe(otherId);
      } finally {
        await host.close();
      }
    });
  });
}
