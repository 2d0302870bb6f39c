import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  notificationText,
  type DesktopNotification,
} from '../../electron/common/desktop-notifications';
import type { EventName, IpcEvents } from '../../electron/common/ipc-contract';
import type { AppCore } from '../../electron/core/app-core';
import { createEmbeddedServer, type EmbeddedServer } from '../../embedded-server/index';
import { createTestCore, signedInSite, systemBrowser, valueOf, caller } from '../helpers/test-core';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * Reminders through the composition root, over the demo school (embedded server on 127.0.0.1, real
 * SQLite): the sign-in's sync is the baseline, the scheduler's timer announces what comes due later
 * with the app's clock moved, once, one notification per kind, and a kind switched off in Settings
 * stays silent.
 */
describe('app core: reminders after the first sync and on the timer', () => {
  let server: EmbeddedServer;
  let dataDir: string;
  let core: AppCore;
  let offset = 0;
  const shown: DesktopNotification[] = [];
  const call = caller(() => core.handlers);
  const reminders = () => shown.filter((n) => n.screen === 'today');

  beforeAll(async () => {
    const T0 = Date.now();
    server = await createEmbeddedServer({
      port: 0,
      seed: 'demo',
      site: 'demo',
      clock: { now: () => T0 },
    });
    dataDir = mkdtempSync(join(tmpdir(), 'ld-core-reminders-'));
    core = await createTestCore({
      dataDir,
      clock: { now: () => T0 + offset },
      // The scheduler's timer runs every 5 of these "minutes": 40 ms.
      minuteMs: 8,
      signInTimeoutMs: 20_000,
      openExternal: systemBrowser(() => ({ decision: 'approve' })),
    });
    core.onEvent(<E extends EventName>(event: E, payload: IpcEvents[E]) => {
      if (event === 'desktop:notification') shown.push(payload as DesktopNotification);
    });
    const site = await signedInSite(core, server.url);
    // A sync run to its end, its reminders included: the first one decided is the baseline.
    expect(valueOf(await core.handlers['sync:now']({ siteId: site.id })).outcome).toBe('completed');
    await core.desktop.remind(null);
  });
  afterAll(async () => {
    await core?.close();
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('the first sync announces nothing: UX Writing ending in 3 days and the Q&A tomorrow were already there', () => {
    expect(reminders()).toEqual([]);
  });

  it('on the timer, 23.5 hours on: the Q&A starts within the hour, said once, leading to Today', async () => {
    offset = 23.5 * HOUR;
    await expect.poll(() => reminders().length, { timeout: 10_000 }).toBe(1);
    const [n] = reminders();
    expect(n).toMatchObject({
      kind: 'event-starting',
      count: 1,
      siteLabel: expect.any(String),
      screen: 'today',
    });
    expect(n!.reminder).toMatchObject({
      title: expect.stringContaining('Live Q&A'),
      minutesLeft: 30,
    });
    // The clock jumped past the 1-hour mark with no run in between: it comes late, and says so.
    expect(n!.late).toBe(true);
    expect(notificationText(n!, 'en')).toEqual({
      title: 'An event starts soon',
      body: expect.stringMatching(/starts in 30 minutes\. This reminder comes late/),
    });
    expect(notificationText(n!, 'zh-TW')).toEqual({
      title: '活動即將開始',
      body: expect.stringMatching(/將在 30 分鐘後開始。這則提醒晚到了/),
    });
    // Several more ticks: still one.
    await new Promise((r) => setTimeout(r, 300));
    expect(reminders()).toHaveLength(1);
  });

  it('a kind switched off in Settings stays silent; the others go on', async () => {
    valueOf(await call('settings:update', { remindAccessEnding: false }));
    expect(valueOf(await call('settings:get'))).toMatchObject({
      remindAccessEnding: false,
      remindLectureUnlocked: true,
      remindEventStarting: true,
    });
    offset = 2.5 * DAY;
    await new Promise((r) => setTimeout(r, 300));
    expect(reminders().filter((n) => n.kind === 'access-ending')).toEqual([]);
    // Eight days on, the first drip lecture of Machine Learning opened.
    offset = 8 * DAY;
    await expect
      .poll(() => reminders().filter((n) => n.kind === 'lecture-unlocked').length, {
        timeout: 10_000,
      })
      .toBe(1);
    const unlocked = reminders().find((n) => n.kind === 'lecture-unlocked')!;
    expect(unlocked.reminder?.courseTitle).toContain('Machine Learning');
    expect(notificationText(unlocked, 'en').title).toBe('A lecture is unlocked');
  });
});
