import { expect, test } from './fixtures';
import { demoServer, openScreen, startDemo, translator } from './helpers-ui';

/**
 * The installed-app features as the browser host can show them: the same keyboard shortcuts as the
 * Electron menu (one table, electron/common/shortcuts.ts), the shortcuts list in Settings. The
 * Electron side of each item is in test/e2e/electron/desktop.spec.ts.
 */
const en = translator('en');

test.describe('browser host: desktop features', () => {
  test('Ctrl+1..6 open the screens, Ctrl+F focuses search, Ctrl+R syncs (not reloads), Ctrl+, opens Settings with the shortcuts list', async ({
    page,
    context,
    host,
  }) => {
    test.setTimeout(120_000);
    await startDemo(page, context, host);
    // A page reload would drop this marker: Ctrl+R must sync instead.
    await page.evaluate(() => ((globalThis as { __marker?: number }).__marker = 42));

    const screens = [
      'library',
      'notifications',
      'billing',
      'entitlements',
      'consulting',
      'profile',
    ] as const;
    for (const [i, screen] of [...screens.entries()].reverse()) {
      await page.keyboard.press(`Control+${i + 1}`);
      await expect(page.getByTestId(`nav-${screen}`)).toHaveAttribute('aria-current', 'page');
    }

    await page.keyboard.press('Control+f');
    await expect(page.getByTestId('search-input')).toBeFocused();
    await page.getByTestId('search-input').blur();

    const sites = await host.core.handlers['sites:list'](undefined);
    const site = sites.ok ? sites.value[0]! : null;
    const before = await host.core.handlers['sync:status']({ siteId: site!.id });
    const lastBefore = before.ok ? before.value.lastSyncedAt : null;
    await page.keyboard.press('Control+r');
    await expect
      .poll(
        async () => {
          const now = await host.core.handlers['sync:status']({ siteId: site!.id });
          return now.ok ? now.value.lastSyncedAt : null;
        },
        { timeout: 30_000 },
      )
      .not.toBe(lastBefore);
    expect(await page.evaluate(() => (globalThis as { __marker?: number }).__marker)).toBe(42);

    await page.keyboard.press('Control+,');
    await expect(page.getByTestId('nav-settings')).toHaveAttribute('aria-current', 'page');
    const list = page.getByTestId('shortcuts-settings');
    await expect(list.getByRole('heading')).toHaveText(en('desktop.shortcuts.title'));
    await expect(list.getByTestId('shortcut-go-billing')).toContainText(
      en('desktop.shortcuts.go', { screen: en('nav.billing') }),
    );
    await expect(list.getByTestId('shortcut-go-billing')).toContainText('Ctrl+3');
    await expect(list.getByTestId('shortcut-sync-now')).toContainText('Ctrl+R');
    await expect(list.getByTestId('shortcut-palette')).toContainText('Ctrl+K');
    // Six screens, search, the command palette, sync and Settings.
    await expect(list.locator('tbody tr')).toHaveCount(10);

    // Typing a plain digit in a field is typing, not a shortcut.
    await openScreen(page, 'library');
    await page.getByTestId('search-input').fill('');
    await page.getByTestId('search-input').press('3');
    await expect(page.getByTestId('nav-billing')).not.toHaveAttribute('aria-current', 'page');
  });

  test('Settings: updates are "not available in this host", so are the tray and start at login; notification kinds persist', async ({
    page,
    context,
    host,
  }) => {
    test.setTimeout(120_000);
    // The notification boxes are ticked and usable only once the browser allows notifications.
    await context.grantPermissions(['notifications'], { origin: host.origin });
    await startDemo(page, context, host);
    await openScreen(page, 'settings');
    await expect(page.getByTestId('update-status')).toHaveText(en('desktop.updates.off.host'));
    await expect(page.getByTestId('update-status')).toHaveAttribute('data-status', 'off');
    await expect(page.getByTestId('update-check')).toHaveCount(0);
    await expect(page.getByTestId('background-unavailable')).toHaveText(
      en('desktop.background.notInThisHost'),
    );

    const newNotices = page.getByTestId('notify-notifyNewNotices');
    await expect(newNotices).toBeChecked();
    await newNotices.uncheck();
    await expect
      .poll(async () => {
        const r = await host.core.handlers['settings:get'](undefined);
        return r.ok ? r.value.notifyNewNotices : null;
      })
      .toBe(false);
    // Saved, not just shown: a new page reads it back.
    await page.reload();
    await openScreen(page, 'settings');
    await expect(page.getByTestId('notify-notifyNewNotices')).not.toBeChecked();
    await expect(page.getByTestId('notify-notifyPaymentDue')).toBeChecked();
    await expect(page.getByTestId('notify-notifySignIn')).toBeChecked();
  });

  test('a notice that arrives with a sync is shown with the Web Notifications API; clicking it opens Notifications', async ({
    page,
    context,
    host,
  }) => {
    test.setTimeout(120_000);
    await context.grantPermissions(['notifications']);
    // What the page hands the browser's Notification (headless Chromium shows nothing one could
    // read back).
    await page.addInitScript(() => {
      // Runs in the page (DOM types are not part of the Node project that checks this file).
      type Options = { body?: string; tag?: string };
      type Ctor = new (
        title: string,
        options?: Options,
      ) => { onclick: ((e: unknown) => void) | null };
      const g = globalThis as unknown as {
        Notification: Ctor;
        __shown: { title: string; body: string; tag: string; click: () => void }[];
      };
      g.__shown = [];
      const Real = g.Notification;
      g.Notification = class extends Real {
        constructor(title: string, options: Options = {}) {
          super(title, options);
          g.__shown.push({
            title,
            body: options.body ?? '',
            tag: options.tag ?? '',
            click: () => this.onclick?.({ type: 'click' }),
          });
        }
      };
    });
    await startDemo(page, context, host);
    await openScreen(page, 'profile');

    const server = demoServer(host);
    const { school_id, user_id } = server.db
      .prepare("SELECT school_id, user_id FROM notifications WHERE id = 'ntf_demo_01'")
      .get() as {
      school_id: string;
      user_id: string;
    };
    server.db
      .prepare(
        'INSERT INTO notifications (id, school_id, user_id, kind, title, body, url, created_at, read_at) VALUES (?, ?, ?, ?, ?, ?, NULL, ?, NULL)',
      )
      .run(
        'ntf_e2e_new',
        school_id,
        user_id,
        'announcement',
        'Room change for Thursday',
        'Room 301',
        Date.now(),
      );
    await page.keyboard.press('Control+r');

    await expect
      .poll(
        () =>
          page.evaluate(() =>
            (globalThis as unknown as { __shown: { title: string }[] }).__shown.map((n) => n.title),
          ),
        { timeout: 30_000 },
      )
      .toEqual([expect.stringMatching(/^New notice from /)]);
    const [shown] = await page.evaluate(() =>
      (globalThis as unknown as { __shown: { body: string }[] }).__shown.map((n) => n.body),
    );
    expect(shown).toBe('Room change for Thursday');
    await page.evaluate(() =>
      (globalThis as unknown as { __shown: { click: () => void }[] }).__shown[0]!.click(),
    );
    await expect(page.getByTestId('nav-notifications')).toHaveAttribute('aria-current', 'page');
  });
});
