import { expect, signInThrough, test } from './fixtures';
import {
  SHOTS,
  allAppGrants,
  askSite,
  demoServer,
  liveAppGrants,
  openScreen,
  revokeAppGrantsAtSite,
  startDemo,
} from './helpers-ui';
import { t, siteLabel, syncNow } from './details-helpers';

/**
 * What a student sees of the account: notifications, settings, sign-out, a grant ended at the site;
 * as in ui-details.spec.ts, what a student sees, checked against what the demo site holds: its
 * member API (as the student) is asked for the truth, and the expected words come from the app's
 * own English strings and the page's Intl.
 */

test.describe('screens: details the student reads, against the demo site', () => {
  test.use({ signedInDemo: true });
  test('notifications: mark all read reaches the site; a subscription change survives a reload', async ({
    page,
    context,
    host,
  }) => {
    test.setTimeout(150_000);
    await startDemo(page, context, host);
    const server = demoServer(host);
    interface Inbox {
      unreadNotificationCount: number;
      notifications: { totalCount: number; nodes: { id: string; readAt: string | null }[] };
      notificationSubscriptions: { topic: string; channel: string; enabled: boolean }[];
    }
    const inbox = () =>
      askSite<Inbox>(
        server,
        '{ unreadNotificationCount notifications(first: 50) { totalCount nodes { id readAt } } notificationSubscriptions { topic channel enabled } }',
      );
    const before = await inbox();
    expect(
      before.unreadNotificationCount,
      'the demo seed has unread notifications',
    ).toBeGreaterThan(0);

    await openScreen(page, 'notifications');
    const summary = page.getByTestId('unread-summary');
    await expect(summary).toHaveText(
      t('notifications.unreadCount', { count: before.unreadNotificationCount }),
    );
    await expect(page.getByTestId('unread-badge').locator('[aria-hidden="true"]')).toHaveText(
      String(before.unreadNotificationCount),
    );
    await page.getByTestId('mark-all-read').click();
    await expect(summary).toHaveText(t('notifications.unreadCount', { count: 0 }));
    await expect(page.getByTestId('unread-badge')).toHaveCount(0);
    await expect(page.locator('[data-testid="notification-row"][data-unread="true"]')).toHaveCount(
      0,
    );
    await expect(page.getByTestId('mark-all-read')).toBeDisabled();
    await syncNow(page);
    await expect(page.getByTestId('pending-changes')).toBeHidden({ timeout: 30_000 });
    await expect
      .poll(async () => (await inbox()).unreadNotificationCount, { timeout: 30_000 })
      .toBe(0);
    const after = await inbox();
    expect(after.notifications.totalCount).toBe(before.notifications.totalCount);
    expect(after.notifications.nodes.filter((n) => n.readAt === null)).toEqual([]);

    // A subscription toggle, changed, is still changed after the page is reloaded, and reaches the
    // site.
    const sub = before.notificationSubscriptions[0];
    expect(sub, 'the site lists notification subscriptions').toBeDefined();
    const name = t('notifications.subscriptions.toggleLabel', {
      topic: t(`notifications.topic.${sub!.topic}`),
      channel: t(`notifications.channel.${sub!.channel}`),
    });
    const toggle = page.getByRole('checkbox', { name, exact: true });
    await page.getByTestId('subscriptions-toggle').click();
    await expect(toggle).toBeChecked({ checked: sub!.enabled });
    await expect(toggle).toBeEnabled();
    await toggle.click();
    await expect(toggle).toBeChecked({ checked: !sub!.enabled });
    await page.reload();
    await openScreen(page, 'notifications');
    await page.getByTestId('subscriptions-toggle').click();
    await expect(toggle).toBeChecked({ checked: !sub!.enabled });
    await syncNow(page);
    await expect
      .poll(
        async () =>
          (await inbox()).notificationSubscriptions.find(
            (s) => s.topic === sub!.topic && s.channel === sub!.channel,
          )?.enabled,
        {
          timeout: 30_000,
        },
      )
      .toBe(!sub!.enabled);
    await page.reload();
    await openScreen(page, 'notifications');
    await page.getByTestId('subscriptions-toggle').click();
    await expect(toggle).toBeChecked({ checked: !sub!.enabled });
  });

  test('settings: the auto-sync interval is kept after a reload; token protection names its method', async ({
    page,
    context,
    host,
  }) => {
    test.setTimeout(120_000);
    await startDemo(page, context, host);
    await openScreen(page, 'settings');
    const select = page.getByTestId('auto-sync-select');
    const current = await select.inputValue();
    const values = await select
      .locator('option')
      .evaluateAll((os) => os.map((o) => o.getAttribute('value') ?? ''));
    const chosen = values.find((v) => v !== current && v !== '0');
    expect(chosen).toBeDefined();
    await select.selectOption(chosen!);
    await expect(select).toHaveValue(chosen!);
    await expect
      .poll(async () => {
        const r = await host.core.handlers['settings:get'](undefined);
        return r.ok ? r.value.autoSyncMinutes : null;
      })
      .toBe(Number(chosen));
    await page.reload();
    await openScreen(page, 'settings');
    await expect(page.getByTestId('auto-sync-select')).toHaveValue(chosen!);
    await expect(page.getByTestId('auto-sync-select').locator('option:checked')).toHaveText(
      t('settings.sync.minutes', { count: Number(chosen) }),
    );

    const r = await host.core.handlers['security:get-token-protection'](undefined);
    if (!r.ok) throw new Error(r.error.message);
    const protection = r.value;
    expect(protection.backend.length).toBeGreaterThan(0);
    const panel = page.getByTestId('token-protection');
    // The key store's internal name is there for support, under "Technical details".
    await expect(panel.locator('code')).toHaveText(protection.backend);
    // The core's own description names its cipher (for logs); the screen says the same in plain
    // words, from the facts reported (the browser host keeps its key in a file), never naming the
    // cipher.
    expect(protection.backend).toBe('node-aes-256-gcm-keyfile');
    expect(protection.description).toMatch(/AES-256-GCM/);
    await expect(panel.getByTestId('token-protection-description')).toHaveText(
      t('settings.security.describe.keyFile'),
    );
    await expect(panel).not.toContainText(/AES|GCM/);
    await expect(panel.locator('.state-badge')).toHaveText(
      protection.weak ? t('settings.security.weak') : t('settings.security.strong'),
    );
    await expect(panel.locator('dd').nth(1)).toHaveText(
      protection.persistent
        ? t('settings.security.persistentYes')
        : t('settings.security.persistentNo'),
    );
    await panel.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/settings-token-protection-en.png` });
  });

  test('sign-out while the site is down: the pending banner shows until the site is back and the revocation went through', async ({
    page,
    context,
    host,
  }) => {
    test.setTimeout(180_000);
    await startDemo(page, context, host);
    const label = await siteLabel(host);
    const grants = liveAppGrants(demoServer(host));
    expect(grants.length).toBeGreaterThan(0);

    await openScreen(page, 'settings');
    const rows = page.getByTestId('site-row');
    await expect(rows.nth(0)).toContainText(t('settings.sites.status.ready'));

    const demo = host.core.demo!;
    await demo.stop();
    await rows.nth(0).getByTestId('sign-out').click();
    await page.getByTestId('sign-out-dialog').getByTestId('confirm-sign-out').click();
    await expect(
      page.getByRole('status').filter({ hasText: t('settings.sites.signOutQueued') }),
    ).toBeVisible({ timeout: 30_000 });
    const pending = page.getByTestId('sign-out-pending');
    await expect(pending).toHaveText(t('sync.signOutPending'));
    await expect(rows.nth(0)).toContainText(t('settings.sites.status.sign-out-pending'));
    // Kept across a reload (the queue is in the vault), and the offline copy is still readable.
    await page.reload();
    await expect(pending).toBeVisible();
    await openScreen(page, 'library');
    await expect(page.getByTestId('course-card').first()).toBeVisible();
    await expect(pending).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/sign-out-pending-en.png` });

    await demo.start();
    // No click, and no signed-in site left: the app keeps asking the site, and sends the revocation
    // once it answers.
    await expect(pending).toBeHidden({ timeout: 90_000 });
    await expect(page.getByTestId('sign-in-again')).toContainText(
      t('sync.signedOut', { site: label }),
    );
    await expect(page.getByTestId('course-card').first()).toBeVisible();
    const server = demoServer(host);
    const live = server.db
      .prepare(
        `SELECT count(*) AS n FROM token_pairs WHERE grant_id IN (${grants.map(() => '?').join(',')}) AND revoked_at IS NULL`,
      )
      .get(...grants) as { n: number };
    expect(live.n).toBe(0);
    const reasons = server.db
      .prepare(
        `SELECT DISTINCT revoked_reason AS reason FROM token_pairs WHERE grant_id IN (${grants.map(() => '?').join(',')})`,
      )
      .all(...grants) as { reason: string }[];
    expect(reasons.map((r) => r.reason)).toEqual(['revoked-by-refresh-token']);
  });

  test('a grant ended at the site: the next sync asks to sign in again, and signing in again recovers', async ({
    page,
    context,
    host,
  }) => {
    test.setTimeout(150_000);
    await startDemo(page, context, host);
    const label = await siteLabel(host);
    const server = demoServer(host);
    const before = allAppGrants(server);
    expect(revokeAppGrantsAtSite(server)).toBeGreaterThan(0);

    await expect(page.getByTestId('sign-in-again')).toHaveCount(0);
    await page.getByTestId('sync-now').click();
    const banner = page.getByTestId('sign-in-again');
    await expect(banner).toBeVisible({ timeout: 30_000 });
    await expect(banner).toContainText(t('sync.signInNeeded', { site: label }));
    // The saved data stays readable meanwhile.
    await expect(page.getByTestId('course-card').first()).toBeVisible();
    await expect(page.getByTestId('sync-now')).toBeDisabled();
    await page.screenshot({ path: `${SHOTS}/sign-in-needed-en.png` });

    await signInThrough(page, context, () =>
      banner.getByRole('button', { name: t('sync.signInAgain'), exact: true }).click(),
    );
    await expect(banner).toBeHidden({ timeout: 30_000 });
    const fresh = liveAppGrants(server).filter((g) => !before.includes(g));
    expect(fresh.length).toBe(1);
    await syncNow(page);
    await expect(page.getByTestId('sign-in-again')).toHaveCount(0);
    await expect(page.getByTestId('sync-error')).toHaveCount(0);
    await expect(page.getByTestId('last-synced')).toBeVisible();
  });
});
