import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ICAL from 'ical.js';
import { expect, expectAccessible, test } from './fixtures';
import { SHOTS, openScreen, startDemo, translator } from './helpers-ui';

/**
 * Finishing in time, in the browser host against the demo school, in both languages: a weekly goal
 * set on Today and on a course, lead times chosen for payment codes, a reminder snoozed from Today,
 * and the calendar subscription (its webcal:// address answers valid iCalendar; the file is kept in
 * a folder).
 */
for (const lng of ['en', 'zh-TW'] as const) {
  test.describe(lng, () => {
    test.use({ locale: lng === 'en' ? 'en-US' : 'zh-TW', timezoneId: 'Asia/Taipei' });
    test(`plan, reminders and calendar subscription (${lng}), axe-clean`, async ({
      page,
      context,
      host,
    }) => {
      test.setTimeout(180_000);
      const t = translator(lng);
      await startDemo(page, context, host);
      await page.getByTestId('nav-today').click();

      // The plan on Today: UX Writing ends in 3 days and says where it stands.
      const plan = page.getByTestId('plan-section');
      const ux = plan.locator('[data-testid="plan-course"][data-course-id="crs_ux_writing"]');
      await expect(ux.getByTestId('plan-status')).toBeVisible();
      await expect(plan.getByTestId('plan-source')).toBeVisible();
      // A weekly goal across every course.
      await plan.getByTestId('plan-overall').getByTestId('plan-goal-open').click();
      await plan.getByTestId('plan-goal-amount').fill('90');
      await plan.getByRole('button', { name: t('plan.goal.save') }).click();
      await expect(plan.getByTestId('plan-overall')).toContainText(
        t('plan.amount.minutes', { count: 90 }),
      );
      await expectAccessible(page, `today with the plan (${lng})`);
      await plan.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/plan-today-${lng}.png` });

      // A goal of the course's own, in lectures, on the course screen.
      await ux.getByRole('button', { name: t('today.openCourse') }).click();
      const block = page.getByTestId('course-plan');
      await block.getByTestId('plan-goal-open').click();
      await block.getByTestId('plan-goal-amount').fill('3');
      await block.getByTestId('plan-goal-unit').selectOption('lectures');
      await block.getByRole('button', { name: t('plan.goal.save') }).click();
      await expect(block.getByTestId('plan-week')).toContainText(
        t('plan.amount.lectures', { count: 3 }),
      );
      await expectAccessible(page, `course plan (${lng})`);

      // Snooze a payment code's reminder from Today.
      await page.getByTestId('nav-today').click();
      const due = page.locator('[data-testid="today-attention"][data-kind="payment-due"]').first();
      await due.getByTestId('snooze-hour').click();
      await expect(due.getByTestId('snoozed-until')).toBeVisible();

      // Lead times: payment codes 12 hours and a custom 2 days before.
      await openScreen(page, 'settings');
      await page.getByTestId('settings-nav-notifications').click();
      const rules = page.getByTestId('reminder-rules');
      const payment = rules.getByTestId('rule-payment-due');
      // Each change is saved before the box shows it: click, then see it ticked.
      await payment.getByTestId('lead-720').click();
      await expect(payment.getByTestId('lead-720')).toBeChecked();
      await payment.getByTestId('lead-custom').fill('2');
      await payment
        .getByRole('combobox', { name: t('reminderRules.customUnit') })
        .selectOption('1440');
      await payment.getByTestId('lead-custom-add').click();
      await expect(payment.getByTestId('lead-2880')).toBeChecked();
      await expect(payment.getByTestId('lead-720')).toBeChecked();
      // Consulting: no switch, and the reason (the school never says which meetings are yours).
      const consulting = rules.getByTestId('rule-consulting-unavailable');
      await expect(consulting).toContainText(t('reminderRules.consultingUnavailable'));
      await expect(rules.getByTestId('rule-consulting-on')).toHaveCount(0);
      await rules.getByTestId('quiet-on').click();
      await expect(rules.getByTestId('quiet-hours').locator('input[type="time"]')).toHaveCount(2);

      // The subscription: a webcal:// address on this computer, the note on web calendars, the
      // file.
      const feed = page.getByTestId('feed-settings');
      await expect(feed.getByTestId('feed-web-note')).toHaveText(t('feed.webCalendars'));
      const address = await feed.getByTestId('feed-url').inputValue();
      expect(address).toMatch(/^webcal:\/\/127\.0\.0\.1:\d+\//);
      const res = await fetch(address.replace(/^webcal:/, 'http:'));
      expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
      const cal = new ICAL.Component(ICAL.parse(await res.text()));
      expect(cal.getAllSubcomponents('vevent').length).toBeGreaterThan(0);
      const folder = mkdtempSync(join(tmpdir(), 'ld-e2e-feed-'));
      try {
        // The browser host has no folder dialog: the folder is typed.
        await expect(feed.getByTestId('feed-folder-choose')).toHaveCount(0);
        await feed.getByTestId('feed-folder').fill(folder);
        await feed.getByTestId('feed-folder-save').click();
        await expect(feed.getByTestId('feed-file')).toContainText('learning-desktop.ics');
        expect(existsSync(join(folder, 'learning-desktop.ics'))).toBe(true);
        ICAL.parse(readFileSync(join(folder, 'learning-desktop.ics'), 'utf8'));
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
      await expectAccessible(page, `reminder rules and subscription (${lng})`);
      await rules.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/plan-settings-${lng}.png`, fullPage: false });
    });
  });
}
