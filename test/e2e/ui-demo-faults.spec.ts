import type { Page } from '@playwright/test';
import { expect, expectAccessible, SHOTS, signInThrough, test } from './fixtures';
import { demoServer, englishLeftovers, openScreen, startDemo, translator } from './helpers-ui';

/**
 * Settings > Demo and the sign-in doctor, as a person trying the demo sees them: each switch is
 * driven from the panel, the app's visible reaction is checked, then the switch is turned off and
 * the app recovers. The faults act on the real embedded demo sites (embedded-server README decision
 * 26).
 */

const en = translator('en');

async function openPanel(page: Page) {
  await openScreen(page, 'settings');
  const panel = page.getByTestId('demo-faults');
  await expect(panel).toBeVisible();
  return panel;
}

async function switchFault(page: Page, testId: string, on: boolean): Promise<void> {
  const panel = await openPanel(page);
  const box = panel.getByTestId(testId);
  if (on) await box.check();
  else await box.uncheck();
  await expect(panel.getByTestId('demo-faults-status')).toContainText(en('demoFaults.saved'));
}

test.describe('demo fault panel and sign-in doctor', () => {
  test('the panel: shown in demo mode, accessible, every switch reaches the demo sites', async ({
    page,
    context,
    host,
  }) => {
    await startDemo(page, context, host);
    const panel = await openPanel(page);
    await expectAccessible(page, 'settings with the demo fault panel');
    await panel.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/demo-faults-en.png`, fullPage: true });
    const server = demoServer(host);
    await panel.getByTestId('demo-fault-latency').selectOption('1500');
    await expect(panel.getByTestId('demo-faults-status')).toContainText(en('demoFaults.saved'));
    await panel.getByTestId('demo-fault-clock').selectOption('-15');
    await expect.poll(() => server.faults.clockSkewMs).toBe(-15 * 60_000);
    expect(server.faults.latencyMs).toBe(1500);
    await panel.getByTestId('demo-fault-latency').selectOption('0');
    await panel.getByTestId('demo-fault-clock').selectOption('0');
    await expect.poll(() => server.faults.clockSkewMs).toBe(0);
    const kidsBefore = (
      server.db.prepare('SELECT COUNT(*) AS n FROM signing_keys').get() as { n: number }
    ).n;
    await panel.getByTestId('demo-fault-rotate').click();
    await expect(panel.getByTestId('demo-faults-status')).toContainText(
      en('demoFaults.rotated', { count: 1 }),
    );
    expect(
      (server.db.prepare('SELECT COUNT(*) AS n FROM signing_keys').get() as { n: number }).n,
    ).toBe(kidsBefore + 1);
  });

  test('site offline: the school not answering, a change queued, sent when the site is back', async ({
    page,
    context,
    host,
  }) => {
    test.setTimeout(120_000);
    await startDemo(page, context, host);
    await switchFault(page, 'demo-fault-offline', true);
    await expect(page.getByTestId('not-answering-banner')).toBeVisible({ timeout: 30_000 });
    await openScreen(page, 'notifications');
    const row = page.locator('[data-testid="notification-row"][data-unread="true"]').first();
    const id = await row.getAttribute('data-notification-id');
    await row.getByTestId('mark-read').click();
    await expect(page.getByTestId('pending-changes')).toBeVisible();
    await switchFault(page, 'demo-fault-offline', false);
    await expect(page.getByTestId('not-answering-banner')).toBeHidden({ timeout: 30_000 });
    await expect(page.getByTestId('pending-changes')).toBeHidden({ timeout: 30_000 });
    // The queued change reached the site.
    const readAt = demoServer(host)
      .db.prepare('SELECT read_at AS readAt FROM notifications WHERE id = ?')
      .get(id) as { readAt: number | null } | undefined;
    expect(readAt?.readAt ?? null).not.toBeNull();
  });

  test('member API 503: the sync fails and the app shows it; it recovers when switched off', async ({
    page,
    context,
    host,
  }) => {
    test.setTimeout(120_000);
    await startDemo(page, context, host);
    await switchFault(page, 'demo-fault-memberApiUnavailable', true);
    await expect(page.getByTestId('not-answering-banner')).toBeVisible({ timeout: 45_000 });
    await expect(
      page.getByTestId('course-card').or(page.getByTestId('sites-settings')).first(),
    ).toBeVisible();
    await switchFault(page, 'demo-fault-memberApiUnavailable', false);
    await expect(page.getByTestId('not-answering-banner')).toBeHidden({ timeout: 45_000 });
  });

  test('slow network: a sync visibly takes its time, then completes', async ({
    page,
    context,
    host,
  }) => {
    test.setTimeout(120_000);
    await startDemo(page, context, host);
    const panel = await openPanel(page);
    await panel.getByTestId('demo-fault-latency').selectOption('3000');
    await expect(panel.getByTestId('demo-faults-status')).toContainText(en('demoFaults.saved'));
    const status = page.getByTestId('sync-status');
    // The panel starts a sync of the demo sites: it is seen running, then it ends with a fresh
    // "last synced".
    await expect(status).toHaveAttribute('data-running', 'true', { timeout: 10_000 });
    await expect(status).toHaveAttribute('data-running', 'false', { timeout: 60_000 });
    await expect(page.getByTestId('not-answering-banner')).toBeHidden();
    await panel.getByTestId('demo-fault-latency').selectOption('0');
    await expect.poll(() => demoServer(host).faults.latencyMs).toBe(0);
  });

  test('refresh refused: "sign in again", then a new sign-in once switched off', async ({
    page,
    context,
    host,
  }) => {
    test.setTimeout(120_000);
    await startDemo(page, context, host);
    await switchFault(page, 'demo-fault-refreshRefused', true);
    const banner = page.getByTestId('sign-in-again');
    await expect(banner).toBeVisible({ timeout: 30_000 });
    // The saved data stays readable.
    await openScreen(page, 'library');
    await expect(page.getByTestId('course-card').first()).toBeVisible();
    await switchFault(page, 'demo-fault-refreshRefused', false);
    await signInThrough(page, context, () => banner.getByRole('button').click());
    await expect(banner).toBeHidden({ timeout: 30_000 });
  });

  test('clock skew: the sign-in fails, "What went wrong?" finds the clock, copyable for support; fixed, it works', async ({
    page,
    context,
    host,
  }) => {
    test.setTimeout(150_000);
    await startDemo(page, context, host);
    const panel = await openPanel(page);
    await panel.getByTestId('demo-fault-clock').selectOption('-15');
    await expect.poll(() => demoServer(host).faults.clockSkewMs).toBe(-15 * 60_000);
    // Sign out (keeping the data), then sign in again: the site's id_token is already expired by
    // this clock.
    const rows = page.getByTestId('site-row');
    await rows.first().getByTestId('sign-out').click();
    await page.getByTestId('sign-out-dialog').getByTestId('confirm-sign-out').click();
    const again = page.getByTestId('sign-in-again');
    await expect(again).toBeVisible({ timeout: 30_000 });
    await signInThrough(page, context, () => again.getByRole('button').click());
    const failed = page.getByTestId('sign-in-error');
    await expect(failed).toBeVisible({ timeout: 30_000 });
    await expect(failed.getByTestId('error-state')).toHaveAttribute(
      'data-error-code',
      'id-token-invalid',
    );

    await failed.getByTestId('doctor-run').click();
    const doctor = failed.getByTestId('doctor');
    await expect(doctor.getByTestId('doctor-summary')).toBeVisible({ timeout: 30_000 });
    const clock = doctor.locator('[data-testid="doctor-check"][data-check="clock"]');
    await expect(clock).toHaveAttribute('data-status', 'problem');
    await expect(clock).toContainText(
      en('doctor.finding.clockComputerAhead.what', { minutes: 15 }),
    );
    await expect(clock).toContainText(en('doctor.finding.clockComputerAhead.todo'));
    await expect(
      doctor.locator('[data-testid="doctor-check"][data-check="browser"]'),
    ).toHaveAttribute('data-status', 'ok');
    await expect(
      doctor.locator('[data-testid="doctor-check"][data-check="discovery"]'),
    ).toHaveAttribute('data-status', 'ok');
    await expect(doctor.getByTestId('doctor-check')).toHaveCount(7);
    // The report for support: readable, with the site and the finding, and no secret the app holds.
    await doctor.locator('summary').click();
    const text = await doctor.getByTestId('doctor-report-text').innerText();
    expect(text).toContain(host.core.demo!.origins()!.demo);
    expect(text).toContain('id-token-invalid');
    expect(text).toContain(en('doctor.finding.clockComputerAhead.what', { minutes: 15 }));
    expect(text).not.toMatch(/\b(at|rt)_[A-Za-z0-9_-]{20,}/);
    expect(text).not.toContain('student-demo');
    await doctor.getByTestId('doctor-copy').click();
    await expect(doctor.getByTestId('doctor-copy-status')).toContainText(en('common.copied'));
    await expectAccessible(page, 'sign-in doctor');
    await doctor.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/sign-in-doctor-en.png`, fullPage: true });

    // Fixed: the clock is right again, and the same "Try again" signs in.
    await panel.getByTestId('demo-fault-clock').selectOption('0');
    await expect.poll(() => demoServer(host).faults.clockSkewMs).toBe(0);
    await signInThrough(page, context, () => failed.getByTestId('sign-in-retry').click());
    await expect(failed).toBeHidden({ timeout: 30_000 });
    await expect(again).toBeHidden({ timeout: 30_000 });
  });

  test('a site that cannot be added: "What went wrong?" says the address does not answer, and the listener is fine', async ({
    page,
    host,
  }) => {
    await page.setViewportSize({ width: 1100, height: 800 });
    await page.goto(host.launchUrl());
    const form = page.getByTestId('add-site-form');
    // Port 9 (discard) on this computer: nothing listens there.
    await form.getByLabel(en('sites.add.baseUrl')).fill('http://127.0.0.1:9');
    await form.getByText(en('sites.add.haveId'), { exact: true }).click();
    await form.getByLabel(en('sites.add.clientId')).fill('demo-desktop');
    await form.getByRole('button', { name: en('sites.add.submit') }).click();
    await expect(form.getByTestId('error-state')).toBeVisible({ timeout: 30_000 });
    await form.getByTestId('doctor-run').click();
    const doctor = form.getByTestId('doctor');
    await expect(doctor.getByTestId('doctor-summary')).toBeVisible({ timeout: 30_000 });
    const discovery = doctor.locator('[data-testid="doctor-check"][data-check="discovery"]');
    await expect(discovery).toHaveAttribute('data-finding', 'discoveryUnreachable');
    await expect(discovery).toContainText(
      en('doctor.finding.discoveryUnreachable.what', { origin: 'http://127.0.0.1:9' }),
    );
    await expect(
      doctor.locator('[data-testid="doctor-check"][data-check="loopback"]'),
    ).toHaveAttribute('data-status', 'ok');
    await expect(
      doctor.locator('[data-testid="doctor-check"][data-check="browser"]'),
    ).toHaveAttribute('data-finding', 'browserNoAttempt');
    await expectAccessible(page, 'add-site doctor');
  });

  test('zh-TW: the doctor and the panel speak Traditional Chinese', async ({
    page,
    context,
    host,
  }) => {
    test.setTimeout(150_000);
    await startDemo(page, context, host);
    await openScreen(page, 'settings');
    await page.getByTestId('language-select').selectOption('zh-TW');
    const zh = translator('zh-TW');
    const panel = page.getByTestId('demo-faults');
    await expect(panel.getByRole('heading')).toHaveText(zh('demoFaults.title'));
    await panel.getByTestId('demo-fault-clock').selectOption('-15');
    await expect.poll(() => demoServer(host).faults.clockSkewMs).toBe(-15 * 60_000);
    await page.getByTestId('site-row').first().getByTestId('sign-out').click();
    await page.getByTestId('sign-out-dialog').getByTestId('confirm-sign-out').click();
    const again = page.getByTestId('sign-in-again');
    await expect(again).toBeVisible({ timeout: 30_000 });
    await signInThrough(page, context, () => again.getByRole('button').click());
    const failed = page.getByTestId('sign-in-error');
    await expect(failed).toBeVisible({ timeout: 30_000 });
    await failed.getByTestId('doctor-run').click();
    const clock = failed.locator('[data-testid="doctor-check"][data-check="clock"]');
    await expect(clock).toContainText(
      zh('doctor.finding.clockComputerAhead.what', { minutes: 15 }),
      { timeout: 30_000 },
    );
    expect(await englishLeftovers(page)).toEqual([]);
    await expectAccessible(page, 'sign-in doctor zh-TW');
    await page.screenshot({ path: `${SHOTS}/sign-in-doctor-zh-TW.png`, fullPage: true });
  });
});
