import type { Page } from '@playwright/test';
import { join } from 'node:path';
import { startBrowserHost, type BrowserHost } from '../../electron/browser-host/server';
import { createAppCore } from '../../electron/core/app-core';
import { expect, expectAccessible, packageVersion, test as base } from './fixtures';
import { openScreen, startDemo, translator } from './helpers-ui';

/**
 * Reminders in the browser host, shown with Web Notifications: the app's clock is moved forward
 * (the core takes an injected clock) and the scheduler's timed run is called at once, so what the
 * demo school has due tomorrow comes due now. `new Notification(...)` is observed by an init script
 * that wraps the page's constructor.
 */
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const en = translator('en');
const zh = translator('zh-TW');

const test = base.extend<{ clock: { offset: number } }>({
  // eslint-disable-next-line no-empty-pattern
  clock: async ({}, use) => use({ offset: 0 }),
  host: async ({ dataDir, clock }, use) => {
    const host = await startBrowserHost({
      rendererDir: join(process.cwd(), 'out/renderer'),
      createCore: ({ openExternal, deliverFile }) =>
        createAppCore({
          dataDir,
          version: packageVersion,
          host: 'browser',
          openExternal,
          deliverFile,
          clock: { now: () => Date.now() + clock.offset },
        }),
    });
    await use(host);
    await host.close();
  },
});

/** Records every notification the page makes (and keeps it, so its click can be played). */
const WRAP_NOTIFICATION = `(() => {
  const Real = globalThis.Notification;
  if (!Real) return;
  globalThis.__notifications = [];
  function Recorded(title, options) {
    let made;
    try { made = new Real(title, options); } catch { made = { close() {} }; }
    globalThis.__notifications.push({ title, body: options && options.body, instance: made });
    return made;
  }
  Object.defineProperty(Recorded, 'permission', { get: () => Real.permission });
  Recorded.requestPermission = (...args) => Real.requestPermission(...args);
  globalThis.Notification = Recorded;
})();`;

const shown = (page: Page) =>
  page.evaluate(() =>
    (
      (globalThis as unknown as { __notifications: { title: string; body: string }[] })
        .__notifications ?? []
    ).map((n) => ({
      title: n.title,
      body: n.body,
    })),
  );

/**
 * A sync run to its end, its reminders included (the first one is the baseline), then the clock
 * moved and the timer's run.
 */
async function comeDue(
  host: BrowserHost,
  clock: { offset: number },
  offset: number,
): Promise<void> {
  const sites = await host.core.handlers['sites:list'](undefined);
  const site = sites.ok ? sites.value[0]! : null;
  const synced = await host.core.handlers['sync:now']({ siteId: site!.id });
  expect(synced.ok && synced.value.outcome).toBe('completed');
  clock.offset = offset;
  await host.core.desktop.remind(null);
}

test.describe('browser host: reminders', () => {
  test('turning a kind on asks nothing more of a browser that allows; the event tomorrow is announced an hour before, and leads to Today', async ({
    page,
    context,
    host,
    clock,
  }) => {
    test.setTimeout(120_000);
    await context.grantPermissions(['notifications'], { origin: host.origin });
    await page.addInitScript(WRAP_NOTIFICATION);
    await startDemo(page, context, host);

    await openScreen(page, 'settings');
    await page.getByTestId('settings-nav-notifications').click();
    const card = page.getByTestId('reminder-settings');
    await expect(card.getByRole('heading')).toHaveText(en('reminders.title'));
    const event = card.getByTestId('remind-remindEventStarting');
    await expect(event).toBeChecked();
    await expect(card.getByLabel(en('reminders.eventStarting'))).toBeChecked();
    // Off, then on again with the keyboard: saved each time.
    await event.uncheck();
    await expect
      .poll(async () =>
        ((r) => r.ok && r.value.remindEventStarting)(
          await host.core.handlers['settings:get'](undefined),
        ),
      )
      .toBe(false);
    await event.focus();
    await page.keyboard.press('Space');
    await expect(event).toBeChecked();
    await expect
      .poll(async () =>
        ((r) => r.ok && r.value.remindEventStarting)(
          await host.core.handlers['settings:get'](undefined),
        ),
      )
      .toBe(true);
    await expectAccessible(page, 'settings: reminders');

    // Nothing for what the first sync found; 23.5 hours on, the live Q&A starts within the hour.
    await comeDue(host, clock, 0);
    expect(await shown(page)).toEqual([]);
    await comeDue(host, clock, 23.5 * HOUR);
    await expect
      .poll(() => shown(page))
      .toEqual([
        {
          title: 'An event starts soon',
          // The clock jumps past the moment with no run between: the reminder says it comes late.
          body: expect.stringMatching(
            /^“Live Q&A.*” at .+ starts in \d+ minutes\. This reminder comes late: .+$/,
          ),
        },
      ]);
    await expect(page.getByTestId('reminder-prompt')).toHaveCount(0);

    // A click on it opens Today.
    await page.evaluate(() =>
      (
        globalThis as unknown as {
          __notifications: { instance: { onclick: (() => void) | null } }[];
        }
      ).__notifications[0]!.instance.onclick?.(),
    );
    await expect(page.getByTestId('nav-today')).toHaveAttribute('aria-current', 'page');
    // ... and lands on the event's row, its snooze buttons focused (the snooze a notification
    // offers only on macOS).
    const row = page.locator('[data-testid="today-attention"][data-kind="event-soon"]');
    await expect(row.getByTestId('snooze-hour')).toBeFocused();
  });

  test('in Chinese, at the first reminder the page asks (politely, in the page) before the browser shows anything', async ({
    page,
    context,
    host,
    clock,
  }) => {
    test.setTimeout(120_000);
    await page.addInitScript(WRAP_NOTIFICATION);
    await startDemo(page, context, host);
    const changed = await host.core.handlers['settings:update']({ language: 'zh-TW' });
    expect(changed.ok).toBe(true);
    await expect(page.getByTestId('nav-today')).toHaveText(zh('nav.today'));

    // Eight days on: Machine Learning's first drip lecture opened. The browser was never asked: the
    // page asks now.
    await comeDue(host, clock, 8 * DAY);
    const prompt = page.getByTestId('reminder-prompt');
    await expect(prompt).toContainText(zh('reminders.prompt.text'));
    expect(await shown(page)).toEqual([]);
    await expectAccessible(page, 'reminder prompt (zh-TW)');
    await context.grantPermissions(['notifications'], { origin: host.origin });
    await prompt.getByRole('button', { name: zh('reminders.prompt.allow') }).click();
    await expect
      .poll(() => shown(page))
      .toEqual([
        {
          title: '有單元解鎖了',
          body: expect.stringMatching(
            /「Machine Learning.*」的「.+」已經可以觀看。這則提醒晚到了：.+$/,
          ),
        },
      ]);
    await expect(prompt).toHaveCount(0);

    await openScreen(page, 'settings');
    await page.getByTestId('settings-nav-notifications').click();
    await expect(page.getByTestId('reminder-settings').getByRole('heading')).toHaveText(
      zh('reminders.title'),
    );
    await expect(
      page.getByTestId('reminder-settings').getByLabel(zh('reminders.lectureUnlocked')),
    ).toBeChecked();
    await expectAccessible(page, 'settings: reminders (zh-TW)');
  });
});
