import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SiteSummary } from '../../electron/common/view-models';
import type { AppCore } from '../../electron/core/app-core';
import { weekCounter } from '../../electron/core/db';
import type { ExportFile } from '../../electron/core/export/service';
import type { EmbeddedServer } from '../../embedded-server/index';
import { setLectureProgress } from '../../embedded-server/store/content-courses';
import { readCsv } from './export/read-csv';
import { closeDatabases, databaseAt, openDb, tempFile } from './db/pages-scaffold';
import { syncedDemo, valueOf, type SyncedDemo, invoke } from '../helpers/test-core';

const DAY = 86_400_000;
const ZONE = 'Asia/Taipei';

/**
 * Progress you can see, over the demo seed synced by a real core: the week's lectures and minutes
 * come from the lectures the app's syncs found newly completed (the service sends no completion
 * time), in the student's local week (Monday start), with the streak, the paces and the exports.
 */
describe('progress: weekly summary, streak, pace and export over the demo seed', () => {
  let server: EmbeddedServer;
  let demo: SyncedDemo;
  let core: AppCore;
  let site: SiteSummary;
  let delivered: ExportFile[];
  // The app's clock runs ahead of the site's by `ahead` ms (the test moves the student through the
  // weeks).
  let ahead = 0;

  beforeAll(async () => {
    demo = await syncedDemo({ prefix: 'ld-progress-', timeZone: ZONE, aheadMs: () => ahead });
    ({ server, core, site, delivered } = demo);
  }, 60_000);

  afterAll(async () => demo?.close());

  const summary = async (timeZone = ZONE) =>
    valueOf(await invoke(core.handlers, 'progress:summary', { siteId: site.id, timeZone }));
  const unread = (courseId: string): { id: string; duration: number }[] =>
    server.db
      .prepare(
        `SELECT l.id, l.duration FROM lectures l LEFT JOIN lecture_progress p ON p.lecture_id = l.id AND p.user_id = 'usr_student'
         WHERE l.course_id = ? AND (p.state IS NULL OR p.state <> 'completed') AND l.unlock_at IS NULL ORDER BY l.section_id, l.position`,
      )
      .all(courseId) as { id: string; duration: number }[];
  /** The student completes lectures on the site; the app learns of it at its next sync. */
  const complete = async (courseId: string, n: number): Promise<number> => {
    const lectures = unread(courseId).slice(0, n);
    for (const l of lectures)
      setLectureProgress(server.db, 'usr_student', courseId, l.id, 'completed', server.clock.now());
    valueOf(await invoke(core.handlers, 'sync:now', { siteId: site.id }));
    return lectures.reduce((s, l) => s + l.duration, 0);
  };

  it('the first sync is the baseline: lectures completed before it count in no week', async () => {
    const s = await summary();
    expect(s.thisWeek).toMatchObject({ lectures: 0, seconds: 0 });
    expect(s.streakWeeks).toBe(0);
    expect(s.weeks).toHaveLength(12);
  });

  it('lectures a sync finds newly completed count this week, with their minutes; the streak starts', async () => {
    const seconds = await complete('crs_data_analysis', 2);
    const s = await summary();
    expect(s.thisWeek).toMatchObject({ lectures: 2, seconds });
    expect(s.streakWeeks).toBe(1);
    // A sync that finds nothing new adds nothing.
    valueOf(await invoke(core.handlers, 'sync:now', { siteId: site.id }));
    expect((await summary()).thisWeek).toMatchObject({ lectures: 2, seconds });
  });

  it('next week: last week keeps its work, the streak holds until this week ends, then grows with new work', async () => {
    const before = await summary();
    ahead += 7 * DAY;
    const s = await summary();
    expect(s.thisWeek.lectures).toBe(0);
    expect(s.lastWeek).toEqual(before.thisWeek);
    expect(s.streakWeeks).toBe(1);
    await complete('crs_calligraphy', 1);
    expect((await summary()).streakWeeks).toBe(2);
    // A week with nothing breaks it: two weeks on, only this (empty) week and an empty last week.
    ahead += 14 * DAY;
    expect((await summary()).streakWeeks).toBe(0);
  });

  it('each course with an end date gets what is left and when access ends, soonest first', async () => {
    const s = await summary();
    const now = server.clock.now() + ahead;
    expect(s.pace.length).toBeGreaterThan(0);
    for (const p of s.pace) {
      expect(Date.parse(p.expireDate)).toBeGreaterThan(now);
      expect(p.lecturesLeft).toBeGreaterThan(0);
    }
    expect(s.pace.map((p) => Date.parse(p.expireDate))).toEqual(
      [...s.pace.map((p) => Date.parse(p.expireDate))].sort((a, b) => a - b),
    );
    // Lifetime and finished courses have no pace.
    expect(s.pace.map((p) => p.courseId)).not.toContain('crs_python');
    expect(s.pace.map((p) => p.courseId)).not.toContain('crs_finance');
  });

  it('a time zone the computer does not know is a clear error', async () => {
    const r = await invoke(core.handlers, 'progress:summary', {
      siteId: site.id,
      timeZone: 'Mars/Olympus',
    });
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
  });

  it('the progress CSV: one row per course, formula-like titles written as text', async () => {
    server.db
      .prepare("UPDATE courses SET title = '=HYPERLINK(\"http://x\")' WHERE id = 'crs_finance'")
      .run();
    valueOf(await invoke(core.handlers, 'sync:now', { siteId: site.id }));
    delivered.length = 0;
    valueOf(
      await invoke(core.handlers, 'export:progress-csv', { siteId: site.id, language: 'en' }),
    );
    const file = delivered[0]!;
    expect(file.fileName).toMatch(/^progress-127\.0\.0\.1-\d{4}-\d{2}-\d{2}\.csv$/);
    const rows = readCsv(file.body);
    expect(rows[0]!.slice(0, 2)).toEqual(['School', 'Course']);
    const library = valueOf(await invoke(core.handlers, 'library:list', { siteId: site.id }));
    expect(rows.length - 1).toBe(library.length);
    expect(rows.find((r) => r[1]!.includes('HYPERLINK'))![1]).toBe('\'=HYPERLINK("http://x")');
    const data = rows.find((r) => r[1]!.startsWith('Intro to Data Analysis'))!;
    expect(Number(data[5])).toBeGreaterThan(0);
  });

  it('the printable page: student, courses and the last weeks, escaped, in both languages', async () => {
    delivered.length = 0;
    valueOf(
      await invoke(core.handlers, 'export:progress-report', {
        siteId: site.id,
        language: 'zh-TW',
      }),
    );
    const file = delivered[0]!;
    expect(file.kind).toBe('receipt');
    expect(file.body).toContain('<h1>學習進度</h1>');
    expect(file.body).toContain('=HYPERLINK(&quot;http://x&quot;)');
    expect(file.body).not.toContain('<script');
    expect(file.printView).toContain('<script src=');
    expect(file.body.match(/<tr><td>\d{4}-\d{2}-\d{2}<\/td>/g)).toHaveLength(12);
  });
});

describe('the student’s week: Monday start, in their time zone', () => {
  it('Sunday 23:30 and Monday 00:30 in Taipei are different weeks; the same instants are one week in UTC', () => {
    const taipei = weekCounter('Asia/Taipei');
    const utc = weekCounter('UTC');
    // 2026-11-29 is a Sunday. 23:30 Taipei = 15:30Z; Monday 00:30 Taipei = 16:30Z the same UTC day.
    const sundayLate = Date.parse('2026-11-29T15:30:00Z');
    const mondayEarly = Date.parse('2026-11-29T16:30:00Z');
    expect(taipei(mondayEarly) - taipei(sundayLate)).toBe(7);
    expect(utc(mondayEarly)).toBe(utc(sundayLate));
    expect(new Date(taipei(mondayEarly) * DAY).toISOString().slice(0, 10)).toBe('2026-11-30');
    expect(new Date(utc(sundayLate) * DAY).toISOString().slice(0, 10)).toBe('2026-11-23');
  });
});

describe('migration 013 (lecture completions)', () => {
  afterEach(closeDatabases);
  it('what was completed before the upgrade is the baseline: in no week, never counted later', () => {
    const file = tempFile();
    const v11 = databaseAt(12, file);
    v11
      .prepare("INSERT INTO sites (id, created_at) VALUES ('s1', '2026-01-01T00:00:00.000Z')")
      .run();
    v11.exec(`INSERT INTO courses (site_id, id, position, slug, title, enrolled_at, has_lifetime_access, total_lectures, read_lectures,
        completed_lectures, percent) VALUES ('s1', 'c1', 0, 'c', 'C', '2026-01-01T00:00:00.000Z', 1, 2, 0, 1, 50)`);
    v11.exec(
      "INSERT INTO sections (site_id, id, course_id, title, position) VALUES ('s1', 'x1', 'c1', 'S', 1)",
    );
    v11.exec(`INSERT INTO lectures (site_id, id, course_id, section_id, title, position, state, is_locked, duration)
        VALUES ('s1', 'l1', 'c1', 'x1', 'A', 1, 'completed', 0, 120), ('s1', 'l2', 'c1', 'x1', 'B', 2, 'unread', 0, 60)`);
    v11.close();
    const db = openDb(file);
    expect(
      db
        .prepare(
          'SELECT site_id, lecture_id, course_id, duration, baseline, seen_ms FROM lecture_completions',
        )
        .all(),
    ).toEqual([
      {
        site_id: 's1',
        lecture_id: 'l1',
        course_id: 'c1',
        duration: 120,
        baseline: 1,
        seen_ms: null,
      },
    ]);
  });
});
