import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReminderPrefsView } from '../../electron/common/plan-contract';
import type { SiteSummary } from '../../electron/common/view-models';
import type { AppCore } from '../../electron/core/app-core';
import { snoozeUntil } from '../../electron/core/handlers/reminder-rules';
import { PlanPreferences } from '../../electron/core/settings/plan-preferences';
import { DEFAULT_SETTINGS } from '../../electron/core/settings/settings-store';
import type { Channel } from '../../electron/common/ipc-contract';
import {
  invoke,
  syncedDemo,
  valueOf,
  type ChannelArgs,
  type SyncedDemo,
} from '../helpers/test-core';

describe('reminder rules: the old switches migrate, per school and kind', () => {
  it('until a rule is set, the Settings switches are the defaults, with the lead times they meant', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ld-rules-'));
    try {
      const legacy = { ...DEFAULT_SETTINGS, remindEventStarting: false };
      const prefs = new PlanPreferences({ file: join(dir, 'plan.json'), legacy: () => legacy });
      await prefs.load();
      expect(prefs.ruleOf('s1', 'event-starting')).toEqual({
        enabled: false,
        leadMinutes: [1440, 60],
      });
      expect(prefs.ruleOf('s1', 'access-ending')).toEqual({
        enabled: true,
        leadMinutes: [43200, 10080, 1440],
      });
      expect(prefs.ruleOf('s1', 'payment-due')).toEqual({ enabled: true, leadMinutes: [1440] });
      await prefs.setRule('s1', 'event-starting', { enabled: true, leadMinutes: [60, 720, 60] });
      expect(prefs.ruleOf('s1', 'event-starting')).toEqual({
        enabled: true,
        leadMinutes: [720, 60],
      });
      // Another school still follows the default, and the file keeps the choice across a restart.
      expect(prefs.ruleOf('s2', 'event-starting').enabled).toBe(false);
      const again = new PlanPreferences({ file: join(dir, 'plan.json'), legacy: () => legacy });
      await again.load();
      expect(again.ruleOf('s1', 'event-starting')).toEqual({
        enabled: true,
        leadMinutes: [720, 60],
      });
      expect(again.ownKinds('s1')).toEqual(['event-starting']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('snooze: an hour on, or tomorrow 08:00 in the student’s zone', () => {
    const now = Date.parse('2026-12-02T15:30:00Z'); // 23:30 in Taipei
    expect(snoozeUntil('hour', now, 'Asia/Taipei')).toBe(now + 3_600_000);
    expect(new Date(snoozeUntil('morning', now, 'Asia/Taipei')).toISOString()).toBe(
      '2026-12-03T00:00:00.000Z',
    );
    // New York the night the clocks go back: 08:00 EST.
    const ny = Date.parse('2026-11-01T03:00:00Z'); // Oct 31, 23:00 EDT
    expect(new Date(snoozeUntil('morning', ny, 'America/New_York')).toISOString()).toBe(
      '2026-11-01T13:00:00.000Z',
    );
  });
});

describe('reminder rules over the contract', () => {
  let demo: SyncedDemo;
  let core: AppCore;
  let site: SiteSummary;
  beforeAll(async () => {
    demo = await syncedDemo({ prefix: 'ld-rule-core-' });
    ({ core, site } = demo);
  }, 60_000);
  afterAll(async () => demo?.close());

  const call = async <C extends Channel>(channel: C, ...input: ChannelArgs<C>) =>
    valueOf(await invoke(core.handlers, channel, ...input));

  it('a school’s own lead times, quiet hours, and a snooze kept in the offline database', async () => {
    const before = (await call('reminders:prefs')) as ReminderPrefsView;
    expect(before.sites.map((s) => s.siteId)).toEqual([site.id]);
    expect(before.defaults['event-starting'].leadMinutes).toEqual([1440, 60]);
    const after = (await call('reminders:set-rule', {
      siteId: site.id,
      kind: 'payment-due',
      rule: { enabled: true, leadMinutes: [720, 4320] },
    })) as ReminderPrefsView;
    expect(after.sites[0]!.rules['payment-due']).toEqual({
      enabled: true,
      leadMinutes: [4320, 720],
    });
    expect(after.sites[0]!.own).toEqual(['payment-due']);
    // A lecture's unlock has one moment.
    const lecture = (await call('reminders:set-rule', {
      kind: 'lecture-unlocked',
      rule: { enabled: true, leadMinutes: [60] },
    })) as ReminderPrefsView;
    expect(lecture.defaults['lecture-unlocked'].leadMinutes).toEqual([0]);
    const quiet = (await call('reminders:set-quiet-hours', {
      quietHours: { start: '22:00', end: '07:30' },
    })) as ReminderPrefsView;
    expect(quiet.quietHours).toEqual({ start: '22:00', end: '07:30' });
    expect(JSON.parse(readFileSync(join(demo.dataDir, 'plan.json'), 'utf8')).quietHours).toEqual({
      start: '22:00',
      end: '07:30',
    });
    const snoozed = (await call('reminders:snooze', {
      kind: 'event-starting',
      items: [{ siteId: site.id, subjectId: 'reg_live_qa' }],
      until: 'hour',
      timeZone: 'Asia/Taipei',
    })) as { until: string };
    expect(Date.parse(snoozed.until)).toBeGreaterThan(0);
    const bad = await invoke(core.handlers, 'reminders:set-quiet-hours', {
      quietHours: { start: '25:00', end: '07:00' },
    });
    expect(bad.ok).toBe(false);
  });
});
