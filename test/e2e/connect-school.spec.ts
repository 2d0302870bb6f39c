import { createEmbeddedServer } from '../../embedded-server/index';
import { expect, test } from './fixtures';
import { SHOTS, expectAccessible, translator } from './helpers-ui';

const en = translator('en');
const zh = translator('zh-TW');

test.describe('connecting a school: the invite link first, then the address, the application ID under a disclosure', () => {
  test('the order of the welcome screen; a school without an application ID says who can create one (en, zh-TW); by keyboard; axe-clean', async ({
    page,
    host,
  }) => {
    test.setTimeout(90_000);
    // A school that answers (its sign-in description), for which the student has no application ID.
    const school = await createEmbeddedServer({ port: 0, seed: 'demo', site: 'demo' });
    try {
      await page.setViewportSize({ width: 1100, height: 900 });
      await page.goto(host.launchUrl());
      const paste = page.getByTestId('invite-paste');
      const form = page.getByTestId('add-site-form');
      await expect(paste.getByRole('heading')).toHaveText(en('invite.paste.title'));
      // The invite link first, the address next; the application ID and the confidential option are
      // folded away.
      const [pasteBox, formBox] = [await paste.boundingBox(), await form.boundingBox()];
      expect(pasteBox!.y).toBeLessThan(formBox!.y);
      await expect(form.getByLabel(en('sites.add.clientId'))).toBeHidden();
      await expect(form.getByLabel(en('sites.add.confidential'))).toBeHidden();
      await expectAccessible(page, 'welcome: invite link first');
      await page.screenshot({ path: `${SHOTS}/welcome-invite-first-en.png`, fullPage: true });

      // By keyboard: the address, then Enter. The school answers; no application ID: who can create
      // one, and how.
      await form.getByLabel(en('sites.add.baseUrl')).focus();
      await page.keyboard.type(school.url);
      await page.keyboard.press('Enter');
      const noId = page.getByTestId('no-application-id');
      await expect(noId).toBeVisible({ timeout: 30_000 });
      await expect(noId.getByRole('heading')).toBeFocused();
      const heading = (await noId.getByRole('heading').textContent())!;
      expect(heading).toContain('Learning Desktop');
      await expect(noId).toContainText('admin area');
      await expect(noId).toContainText('OAuth applications');
      await expect(noId).toContainText('MCP connections');
      await expectAccessible(page, 'welcome: no application ID');
      await page.screenshot({ path: `${SHOTS}/welcome-no-application-id-en.png`, fullPage: true });
      // Nothing was added.
      const sites = await host.core.handlers['sites:list'](undefined);
      expect(sites.ok && sites.value).toEqual([]);

      // "I have an application ID" opens with the keyboard; the ID is then asked for.
      const summary = form.getByText(en('sites.add.haveId'), { exact: true });
      await summary.focus();
      await page.keyboard.press('Enter');
      await expect(form.getByLabel(en('sites.add.clientId'))).toBeVisible();
      await expect(form.getByLabel(en('sites.add.confidential'))).toBeVisible();
      await form.getByRole('button', { name: en('sites.add.submit') }).click();
      await expect(form).toContainText(en('sites.add.errors.clientIdRequired'));
      await expectAccessible(page, 'welcome: application ID open');

      // In Traditional Chinese.
      await page.getByTestId('nav-settings').click();
      await page.getByTestId('language-select').selectOption('zh-TW');
      await page.getByTestId('nav-library').click();
      await expect(page.getByTestId('invite-paste').getByRole('heading')).toHaveText(
        zh('invite.paste.title'),
      );
      const zhForm = page.getByTestId('add-site-form');
      await zhForm.getByLabel(zh('sites.add.baseUrl')).fill(school.url);
      await zhForm.getByRole('button', { name: zh('sites.add.submit') }).click();
      const zhNoId = page.getByTestId('no-application-id');
      await expect(zhNoId).toBeVisible({ timeout: 30_000 });
      await expect(zhNoId).toContainText(zh('sites.add.noId.step3'));
      await expectAccessible(page, 'welcome zh-TW: no application ID');
      await page.screenshot({
        path: `${SHOTS}/welcome-no-application-id-zh-TW.png`,
        fullPage: true,
      });
    } finally {
      await school.close();
    }
  });
});
