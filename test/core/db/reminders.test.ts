import type { ReadWriteDB } from '../../helpers/db';
import { describe, expect, it } from 'vitest';
import {
  decideReminders,
  REMINDER_SUBJECTS_PER_RUN,
  type ReminderKind,
} from '../../../electron/core/db';
import { createSyncService } from '../../../electron/core/sync';
import { openTempDb, startSite } from '../sync/helpers/setup';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ALL_ON: Record<ReminderKind, boolean> = {
  'access-ending': true,
  'lecture-unlocked': true,
  'event-starting': true,
};

/**
 * The demo school seeded at a fixed instant T0 and synced over HTTP into a real offline database:
 * UX Writing (half done) ends at T0 + 3 days, the live Q&A starts at T0 + 1 day, Machine Learning's
 * last section unlocks at T0 + 7, 14 and 21 days.
 */
async function synced(sites: readonly ('demo' | 'demo2')[] = ['demo']) {
  const T0 = Date.parse('2026-11-25T08:00:00.000Z');
  const clock = { now: () => T0 };
  const started = new Map<string, Awaited<ReturnType<typeof startSite>>>();
  for (const site of sites) started.set(site, await startSite({ site, clock }));
  const { db } = openTempDb();
  const sync = createSyncService({
    db,
    clock: () => T0,
    clientFor: (siteId) => started.get(siteId)!.client,
  });
  for (const site of sites) expect((await sync.syncNow(site)).outcome).toBe('completed');
  await sync.close();
  return { db, T0 };
}

const run = (db: ReadWriteDB, now: number, syncedSiteId: string | null = null, enabled = ALL_ON) =>
  decideReminders(db, { now, syncedSiteId, enabled });

describe('reminders over the synced demo school', () => {
  it('says nothing for what the student already had at the first sync of a site', async () => {
    const { db, T0 } = await synced();
    // Due at the first sync: UX Writing within 7 days, the Q&A within a day. Marked, not announced.
    expect(run(db, T0 + 60_000, 'demo')).toEqual([]);
    expect(run(db, T0 + 120_000, 'demo')).toEqual([]);
    const marks = db
      .prepare(
        "SELECT kind, subject_id, threshold, announced FROM reminder_marks WHERE kind != 'lecture-locked' ORDER BY kind, subject_id, threshold",
      )
      .all();
    expect(marks).toEqual([
      { kind: 'access-ending', subject_id: 'crs_ux_writing', threshold: '30d', announced: 0 },
      { kind: 'access-ending', subject_id: 'crs_ux_writing', threshold: '7d', announced: 0 },
      { kind: 'event-starting', subject_id: 'reg_live_qa', threshold: '1d', announced: 0 },
    ]);
    // And the lectures locked then, to tell later which of them the site opened.
    const seen = db
      .prepare(
        "SELECT subject_id FROM reminder_marks WHERE kind = 'lecture-locked' ORDER BY subject_id",
      )
      .pluck()
      .all();
    expect(seen).toEqual(
      db.prepare('SELECT id FROM lectures WHERE is_locked = 1 ORDER BY id').pluck().all(),
    );
    expect(seen.length).toBeGreaterThan(0);
  });

  it('a run on the timer before any sync decides nothing (no baseline yet)', async () => {
    const { db, T0 } = await synced();
    expect(run(db, T0 + 2.5 * DAY, null)).toEqual([]);
    expect(db.prepare('SELECT count(*) AS n FROM reminder_marks').get()).toEqual({ n: 0 });
  });

  it('each threshold fires once, as time passes: access 1 day before, the event 1 hour before, the lecture once open', async () => {
    const { db, T0 } = await synced();
    run(db, T0, 'demo');
    // 23 h 30 min on: the Q&A starts within the hour.
    const soon = run(db, T0 + 23.5 * HOUR);
    expect(soon).toEqual([
      {
        kind: 'event-starting',
        count: 1,
        siteId: 'demo',
        title: expect.stringContaining('Live Q&A'),
        courseTitle: null,
        dueAt: expect.any(String),
        leftMs: 30 * 60_000,
      },
    ]);
    expect(run(db, T0 + 23.6 * HOUR)).toEqual([]);
    // 2.5 days on: UX Writing ends within a day (12 hours left).
    const ending = run(db, T0 + 2.5 * DAY);
    expect(ending).toMatchObject([
      {
        kind: 'access-ending',
        count: 1,
        siteId: 'demo',
        title: expect.stringContaining('UX Writing'),
        leftMs: 12 * HOUR,
      },
    ]);
    expect(run(db, T0 + 2.6 * DAY)).toEqual([]);
    // A past event and a past end are never announced: nothing at 4 days.
    expect(run(db, T0 + 4 * DAY)).toEqual([]);
    // 8 days on: the first drip lecture opened.
    const open = run(db, T0 + 8 * DAY);
    expect(open).toMatchObject([
      {
        kind: 'lecture-unlocked',
        count: 1,
        siteId: 'demo',
        courseTitle: expect.stringContaining('Machine Learning'),
        leftMs: 0,
      },
    ]);
    expect(run(db, T0 + 8 * DAY, 'demo')).toEqual([]);
  });

  it('a lecture seen locked that the site then sends open (early, or without a date) is announced once', async () => {
    const { db, T0 } = await synced();
    run(db, T0, 'demo');
    // The second drip lecture (due at T0 + 14 days) is opened early; the third loses its date and
    // opens too.
    const locked = db
      .prepare(
        "SELECT id, unlock_at FROM lectures WHERE course_id = 'crs_machine_learning' AND is_locked = 1 ORDER BY unlock_at",
      )
      .all() as {
      id: string;
    }[];
    expect(locked.length).toBeGreaterThanOrEqual(3);
    db.prepare('UPDATE lectures SET is_locked = 0 WHERE id = ?').run(locked[1]!.id);
    db.prepare('UPDATE lectures SET is_locked = 0, unlock_at = NULL WHERE id = ?').run(
      locked[2]!.id,
    );
    expect(run(db, T0 + HOUR)).toMatchObject([{ kind: 'lecture-unlocked', count: 2 }]);
    expect(run(db, T0 + 2 * HOUR)).toEqual([]);
    // When the early one's date comes, it is not announced again; the first drip lecture, on its
    // date, is.
    expect(run(db, T0 + 15 * DAY)).toMatchObject([{ kind: 'lecture-unlocked', count: 1 }]);
    const opened = db
      .prepare(
        "SELECT subject_id FROM reminder_marks WHERE kind = 'lecture-unlocked' AND announced = 1 ORDER BY subject_id",
      )
      .pluck()
      .all();
    expect(opened).toEqual([locked[0]!.id, locked[1]!.id, locked[2]!.id].sort());
    // A lecture that was never seen locked (a course bought already open) is not news.
    db.prepare("UPDATE lectures SET is_locked = 0 WHERE course_id = 'crs_data_analysis'").run();
    expect(run(db, T0 + 15 * DAY + HOUR)).toEqual([]);
  });

  it('only unfinished courses: a finished one is never reminded of', async () => {
    const { db, T0 } = await synced();
    run(db, T0, 'demo');
    db.prepare(
      "UPDATE courses SET completed_at = @at, percent = 100 WHERE id = 'crs_ux_writing'",
    ).run({ at: new Date(T0).toISOString() });
    expect(run(db, T0 + 2.5 * DAY)).toEqual([]);
  });

  it('groups one notification per kind per run, the soonest named, and says how many', async () => {
    const { db, T0 } = await synced();
    run(db, T0, 'demo');
    // Three more unfinished courses get an end 5 and 6 days away (as a later sync would bring).
    const setEnd = db.prepare('UPDATE courses SET expire_date = @iso WHERE id = @id');
    for (const [id, days] of [
      ['crs_data_analysis', 6],
      ['crs_machine_learning', 5],
      ['crs_marketing', 6],
    ] as const)
      setEnd.run({ id, iso: new Date(T0 + days * DAY).toISOString() });
    const groups = run(db, T0 + HOUR);
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({
      kind: 'access-ending',
      count: 3,
      title: expect.stringContaining('Machine Learning'),
    });
  });

  it('caps the subjects one run reads; the rest come at the next run, still one notification per kind', async () => {
    const { db, T0 } = await synced();
    run(db, T0, 'demo');
    const insert = db.prepare(
      `INSERT INTO event_registrations (site_id, id, position, event_id, title, starts_at, ends_at, is_online, ticket_name, registered_at)
       VALUES ('demo', @id, 100, 'evt_x', @title, @starts, @starts, 1, 'Seat', @starts)`,
    );
    const starts = new Date(T0 + 5 * HOUR).toISOString();
    for (let i = 0; i < REMINDER_SUBJECTS_PER_RUN + 50; i++)
      insert.run({ id: `reg_many_${String(i).padStart(4, '0')}`, title: `Talk ${i}`, starts });
    const first = run(db, T0 + HOUR);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ kind: 'event-starting', count: REMINDER_SUBJECTS_PER_RUN });
    expect(run(db, T0 + HOUR)).toMatchObject([{ kind: 'event-starting', count: 50 }]);
    expect(run(db, T0 + HOUR)).toEqual([]);
  });

  it('a kind switched off is remembered in silence: switching it on does not announce old news', async () => {
    const { db, T0 } = await synced();
    run(db, T0, 'demo');
    const off = { ...ALL_ON, 'event-starting': false };
    expect(run(db, T0 + 23.5 * HOUR, null, off)).toEqual([]);
    expect(run(db, T0 + 23.6 * HOUR, null, ALL_ON)).toEqual([]);
    // The other kinds were not affected by the switch.
    expect(run(db, T0 + 2.5 * DAY, null, off)).toMatchObject([{ kind: 'access-ending' }]);
  });

  it('an access end moved to a new date is reminded of again', async () => {
    const { db, T0 } = await synced();
    run(db, T0, 'demo');
    const iso = new Date(T0 + 20 * DAY).toISOString();
    db.prepare("UPDATE courses SET expire_date = @iso WHERE id = 'crs_ux_writing'").run({ iso });
    expect(run(db, T0 + HOUR)).toMatchObject([{ kind: 'access-ending', count: 1, dueAt: iso }]);
  });

  it('a school added later has its own baseline; the first school goes on being reminded', async () => {
    const { db, T0 } = await synced(['demo', 'demo2']);
    run(db, T0, 'demo');
    // The second school is first decided a day later: what it has due then is old news.
    const later = run(db, T0 + 2.5 * DAY, 'demo2');
    expect(later.every((g) => g.siteId === 'demo')).toBe(true);
    expect(later).toMatchObject([{ kind: 'access-ending', siteId: 'demo' }]);
    const silent = db
      .prepare("SELECT count(*) AS n FROM reminder_marks WHERE site_id = 'demo2' AND announced = 1")
      .get();
    expect(silent).toEqual({ n: 0 });
  });

  it('forgets a removed site with it', async () => {
    const { db, T0 } = await synced();
    run(db, T0, 'demo');
    db.prepare("DELETE FROM sites WHERE id = 'demo'").run();
    expect(
      db
        .prepare(
          'SELECT (SELECT count(*) FROM reminder_marks) + (SELECT count(*) FROM reminder_sites) AS n',
        )
        .get(),
    ).toEqual({ n: 0 });
  });
});
