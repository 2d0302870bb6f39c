import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startBrowserHost } from '../../electron/browser-host/server';
import { createAppCore } from '../../electron/core/app-core';
import { connectMcp } from '../core/mcp-local/mcp-client';
import { expect, packageVersion, test as base } from './fixtures';
import {
  englishLeftovers,
  expectAccessible,
  SHOTS,
  slashedDates,
  startDemo,
  translator,
} from './helpers-ui';

/**
 * Settings > AI assistant in Chromium, both languages: off by default, turned on with the cloud
 * acknowledgement, a school's categories; a real MCP client's calls (the SDK's Client over stdio
 * against the entry point) then show in the AI activity view; a connect button previews and writes
 * Claude Desktop's file in a temporary home.
 */
const test = base.extend({
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
          assistantPlaces: { home: join(dataDir, 'home'), platform: 'linux', env: {} },
        }),
    });
    await use(host);
    await host.close();
  },
});

for (const lng of ['en', 'zh-TW'] as const) {
  test.describe(`AI assistant (${lng})`, () => {
    test.use({ locale: lng });

    test("turn on, allow a school, see an assistant's calls, connect Claude Desktop", async ({
      page,
      context,
      host,
      dataDir,
    }) => {
      test.setTimeout(180_000);
      const t = translator(lng);
      await startDemo(page, context, host);
      await page.getByTestId('nav-settings').click();
      await page.getByTestId('settings-nav-assistant').click();
      const consent = page.getByTestId('assistant-consent');
      await expect(consent.getByRole('heading')).toHaveText(t('assistant.title'));
      await expect(page.getByTestId('assistant-enabled')).not.toBeChecked();
      await expect(page.getByTestId('assistant-enabled')).toBeDisabled();
      await expect(page.getByTestId('assistant-checks')).toContainText(
        t('assistant.finding.featureOff'),
      );
      await expectAccessible(page, `assistant off (${lng})`);

      await page.getByTestId('assistant-cloud').check();
      await page.getByTestId('assistant-enabled').check();
      const school = page.getByTestId('assistant-school').first();
      await expect(school.getByTestId('assistant-school-enabled')).toBeChecked();
      await expect(school.getByTestId('assistant-category-courses')).toBeChecked();
      await expect(school.getByTestId('assistant-category-purchases')).not.toBeChecked();
      await expect(school.getByTestId('assistant-category-profile')).not.toBeChecked();
      await school.getByTestId('assistant-category-products').uncheck();
      await expect(school.getByTestId('assistant-category-products')).not.toBeChecked();
      // Saved by the core (the box shows the change at once, before the core's answer).
      await expect
        .poll(() => readFileSync(join(dataDir, 'ai-assistant.json'), 'utf8'))
        .toContain('"products": false');

      // An assistant asks "what should I study this week?": its client calls the tools.
      const session = await connectMcp(dataDir, { name: 'Claude' });
      try {
        const names = (await session.client.listTools()).tools.map((x) => x.name);
        expect(names).toContain('get_today');
        expect(names).not.toContain('list_purchases');
        const schools = await session.client.callTool({ name: 'list_schools', arguments: {} });
        const first = (schools.structuredContent as { allowed: { categories: string[] }[] })
          .allowed[0]!;
        expect(first.categories).toEqual(['courses', 'dates', 'notifications']);
        await session.client.callTool({ name: 'get_today', arguments: {} });
        await session.client.callTool({ name: 'get_progress', arguments: {} });
        const refused = await session.client.callTool({ name: 'list_purchases', arguments: {} });
        expect(refused.isError).toBe(true);
      } finally {
        await session.close();
      }
      const activity = page.getByTestId('assistant-activity');
      await activity.getByRole('button', { name: t('assistant.activity.refresh') }).click();
      const table = page.getByTestId('assistant-activity-table');
      await expect(table).toContainText('get_today');
      await expect(table).toContainText('get_progress');
      await expect(table).toContainText(t('assistant.outcome.refused'));
      await expect(table).toContainText('Claude');
      await activity.scrollIntoViewIfNeeded();
      await expectAccessible(page, `assistant on with activity (${lng})`);
      if (lng === 'zh-TW') {
        expect(await englishLeftovers(page), 'English left on the zh-TW screen').toEqual([]);
        expect(await slashedDates(page), 'a date in another style').toEqual([]);
      }
      await page.screenshot({ path: `${SHOTS}/assistant-activity-${lng}.png`, fullPage: true });

      await page.getByTestId('assistant-connect-claude-desktop').click();
      const preview = page.getByTestId('assistant-preview');
      const file = join(dataDir, 'home', '.config', 'Claude', 'claude_desktop_config.json');
      await expect(preview).toContainText(file);
      await expect(preview.locator('pre')).toContainText('"learning-desktop"');
      expect(existsSync(file)).toBe(false);
      await expectAccessible(page, `assistant connect preview (${lng})`);
      await page.getByTestId('assistant-write').click();
      await expect(page.getByTestId('assistant-connected')).toBeVisible();
      const written = JSON.parse(readFileSync(file, 'utf8')) as {
        mcpServers: Record<string, { command: string; args: string[] }>;
      };
      expect(written.mcpServers['learning-desktop']!.args).toContain('--data-dir');

      // Claude Desktop's bundle: the manifest first, the .mcpb only on the student's word.
      await page.getByTestId('assistant-bundle-show').click();
      const bundle = page.getByTestId('assistant-bundle-preview');
      await expect(bundle.locator('pre')).toContainText('"type": "binary"');
      await expect(bundle).toContainText('icon.png');
      await expectAccessible(page, `assistant bundle preview (${lng})`);
      const download = page.waitForEvent('download');
      await page.getByTestId('assistant-bundle-save').click();
      expect((await download).suggestedFilename()).toBe('learning-desktop.mcpb');
      await expect(page.getByTestId('assistant-bundle-saved')).toBeVisible();

      // The one write: the assistant asks, the student answers here.
      await page.getByTestId('assistant-allow-mark-read').check();
      await expect
        .poll(() => readFileSync(join(dataDir, 'ai-assistant.json'), 'utf8'))
        .toContain('"allowMarkRead": true');
      const asker = await connectMcp(dataDir, { name: 'Claude' });
      try {
        const schools = await asker.client.callTool({ name: 'list_schools', arguments: {} });
        const siteIds = (
          schools.structuredContent as { allowed: { siteId: string }[] }
        ).allowed.map((s) => s.siteId);
        const siteId = siteIds[0]!;
        const unread = await asker.client.callTool({
          name: 'list_notifications',
          arguments: { siteId, onlyUnread: true },
        });
        const id = (unread.structuredContent as { notifications: { id: string }[] })
          .notifications[0]!.id;
        const asked = await asker.client.callTool({
          name: 'ask_to_mark_notices_read',
          arguments: { siteId, noticeIds: [id] },
        });
        expect(asked.isError).toBeFalsy();
      } finally {
        await asker.close();
      }
      const request = page.getByTestId('assistant-request');
      await expect(request).toBeVisible({ timeout: 15_000 });
      await expectAccessible(page, `assistant request (${lng})`);
      await request.getByTestId('assistant-request-accept').click();
      await expect(request).toHaveCount(0);

      await page.getByTestId('assistant-activity-clear').click();
      await expect(page.getByTestId('assistant-activity-empty')).toBeVisible();
    });
  });
}
