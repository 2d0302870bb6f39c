import type { Database } from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openOfflineDatabase } from '../../../electron/core/db';
import { decideRuleReminders, snoozeReminder } from '../../../electron/core/db/reminder-decide';
import type { RuleKind, RunRule } from '../../../electron/core/db/reminder-run';
import { createSyncService } from '../../../electron/core/sync';
import { openTempDb, startSite } from '../sync/helpers/setup';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const ZONE = 'Asia/Taipei';
/** The demo seed's clock: Wednesday 2026-11-25 16:00 in Taipei. */
const T0 = Date.parse('2026-11-25T08:00:00.000Z');

type Rules = Partial<Record<RuleKind, RunRule>>;
const on = (...leadMinutes: number[]): RunRule => ({ enabled: true, leadMinutes });
const off: RunRule = { enabled: false, leadMinutes: [] };
const ONLY = (rules: Rules): Rules => ({
  'access-ending': off,
  'lecture-unlocked': off,
  'payment-due': off,
  'event-starting': off,
  'plan-behind': off,
  ...rules,
});

/**
 * The demo school synced over HTTP into a real offline database at T0: UX Writing (unfinished) ends
 * at T0 + 3 days, the live Q&A starts at T0 + 1 day, and two payment codes expire at T0 + 2 and + 3
 * days.
 */
async function synced() {
  const site = await startSite({ site: 'demo', clock: { now: () => T0 } });
  const opened = openTempDb();
  const sync = createSyncService({ db: opened.db, clock: () => T0, clientFor: () => site.client });
  expect((await sync.syncNow('demo')).outcome).toBe('completed');
  await sync.close();
  return opened;
}

function runner(
  db: Database,
  rules: Rules,
  quietHours: { start: string; end: string } | null = null,
) {
  return (now: number, syncedSiteId: string | null = null) =>
    decideRuleReminders(db, {
      now,
      syncedSiteId,
      rules: { demo: ONLY(rules) },
      quietHours,
      timeZone: ZONE,
      behind: [],
    });
}

describe('reminders by the student’s rules', () => {
  it('a lead time fires once when it comes, custom ones too, and the baseline says nothing', async () => {
    const { db } = await synced();
    const run = runner(db, { 'event-starting': on(720, 90) });
    expect(run(T0, 'demo')).toEqual([]);
    expect(run(T0 + 11 * HOUR)).toEqual([]);
    const twelve = run(T0 + 12 * HOUR + 5 * MIN);
    expect(twelve).toMatchObject([
      {
        kind: 'event-starting',
        count: 1,
        late: false,
        snoozed: false,
        leftMs: 12 * HOUR - 5 * MIN,
      },
    ]);
    expect(twelve[0]!.items).toEqual([{ siteId: 'demo', subjectId: 'reg_live_qa' }]);
    expect(run(T0 + 12 * HOUR + 10 * MIN)).toEqual([]);
    // The custom 90 minutes.
    expect(run(T0 + 22.6 * HOUR)).toMatchObject([{ kind: 'event-starting', leftMs: 1.4 * HOUR }]);
    expect(run(T0 + 23 * HOUR)).toEqual([]);
    const labels = db
      .prepare(
        "SELECT threshold FROM reminder_marks WHERE kind = 'event-starting' AND announced = 1",
      )
      .pluck()
      .all();
    expect(labels.sort()).toEqual(['12h', '90m']);
  });

  it('missed while the app was closed: fired late at the next start, saying so; several passed fire as one', async () => {
    const { db, file } = await synced();
    runner(db, {})(T0, 'demo');
    db.close();
    // The app comes back 2 days and 3 hours later: the 3-day and 1-day leads of UX Writing both
    // passed.
    const reopened = openOfflineDatabase(file).db;
    const run = runner(reopened, { 'access-ending': on(4320, 1440) });
    const late = run(T0 + 2 * DAY + 3 * HOUR);
    expect(late).toMatchObject([
      { kind: 'access-ending', count: 1, late: true, leftMs: 21 * HOUR },
    ]);
    expect(late[0]!.title).toContain('UX Writing');
    // Across a restart it is not said again.
    reopened.close();
    const again = openOfflineDatabase(file).db;
    expect(runner(again, { 'access-ending': on(4320, 1440) })(T0 + 2 * DAY + 4 * HOUR)).toEqual([]);
    again.close();
  });

  it('a moment inside quiet hours waits for their end, then fires on time, not late', async () => {
    const { db } = await synced();
    // 22:00 to 08:00 in Taipei. The 12-hour lead falls at 04:00 Taipei (T0 + 12 h).
    const run = runner(db, { 'event-starting': on(720) }, { start: '22:00', end: '08:00' });
    run(T0, 'demo');
    expect(run(T0 + 12 * HOUR + 5 * MIN)).toEqual([]);
    expect(
      db.prepare("SELECT count(*) FROM reminder_marks WHERE kind = 'event-starting'").pluck().get(),
    ).toBe(0);
    // 08:00 Taipei is T0 + 16 h.
    expect(run(T0 + 16 * HOUR)).toMatchObject([{ kind: 'event-starting', late: false }]);
  });

  it('a snooze holds an item until its time, reminds once more, and is dropped once the item is over', async () => {
    const { db } = await synced();
    const run = runner(db, { 'event-starting': on(720, 60) });
    run(T0, 'demo');
    expect(run(T0 + 12 * HOUR)).toHaveLength(1);
    const snooze = (untilMs: number, now: number) =>
      snoozeReminder(db, {
        siteId: 'demo',
        kind: 'event-starting',
        subjectId: 'reg_live_qa',
        untilMs,
        now,
      });
    snooze(T0 + 13 * HOUR, T0 + 12 * HOUR);
    expect(run(T0 + 12.5 * HOUR)).toEqual([]);
    expect(run(T0 + 13 * HOUR)).toMatchObject([
      { kind: 'event-starting', snoozed: true, late: false },
    ]);
    expect(run(T0 + 13.1 * HOUR)).toEqual([]);
    // The 1-hour lead is snoozed past the start: the event is over by then, so nothing is said, and
    // the row goes.
    expect(run(T0 + 23 * HOUR)).toHaveLength(1);
    snooze(T0 + 25 * HOUR, T0 + 23 * HOUR);
    expect(run(T0 + 25 * HOUR)).toEqual([]);
    expect(db.prepare('SELECT count(*) FROM reminder_snoozes').pluck().get()).toBe(0);
  });

  it('payment codes: the evening before, at the time chosen; a code paid is dropped', async () => {
    const { db } = await synced();
    const run = runner(db, { 'payment-due': on(720) });
    run(T0, 'demo');
    const codes = db
      .prepare(
        "SELECT id, expires_ms FROM payments WHERE code_no IS NOT NULL AND payment_state = 'not_paid' AND expires_ms > ? ORDER BY expires_ms",
      )
      .all(T0) as { id: string; expires_ms: number }[];
    expect(codes.length).toBeGreaterThan(1);
    const [first, second] = codes as [(typeof codes)[0], (typeof codes)[0]];
    expect(run(first.expires_ms - 720 * MIN)).toMatchObject([{ kind: 'payment-due', count: 1 }]);
    // The second code is paid before its reminder: never said.
    db.prepare("UPDATE payments SET payment_state = 'paid' WHERE id = ?").run(second.id);
    expect(run(second.expires_ms - 700 * MIN)).toEqual([]);
  });

  it('a kind switched off is marked in silence: switching it on later does not bring old news', async () => {
    const { db } = await synced();
    runner(db, {})(T0, 'demo');
    expect(
      runner(db, { 'event-starting': { enabled: false, leadMinutes: [720] } })(T0 + 12.1 * HOUR),
    ).toEqual([]);
    expect(runner(db, { 'event-starting': on(720) })(T0 + 12.2 * HOUR)).toEqual([]);
  });
});
