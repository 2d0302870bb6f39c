import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { commitSnapshot, ensureSite } from '../../../electron/core/db';
import { PlanCache } from '../../../electron/core/handlers/plan-cache';
import { feedEvents } from '../../../electron/core/export/feed';
import { serializeCalendar } from '../../../electron/core/export/ics';
import { openTestDatabase } from '../../helpers/db';
import { course } from '../db/fixtures';

const ZONE = 'Asia/Taipei';
// A Monday, 10:00 in Taipei.
const NOW = Date.parse('2026-06-08T02:00:00.000Z');
const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((f) => f()));

function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'ld-plan-cache-'));
  const file = join(dir, 'offline.db');
  const db = openTestDatabase(file);
  const other = new Database(file);
  cleanups.push(() => {
    other.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  ensureSite(db, 's');
  const ending = (id: string, days: number) =>
    course(id, {
      hasLifetimeAccess: false,
      expireDate: new Date(NOW + days * 86_400_000).toISOString(),
      detailProgress: {
        totalLectures: 2,
        readLectures: 0,
        completedLectures: 0,
        percent: 0,
        completedAt: null,
      },
      lastWatchedLecture: null,
    });
  commitSnapshot(db, 's', { courses: [ending('soon', 0.25), ending('later', 30)] });
  let revision = 0;
  const choices = { studyDays: [], overallGoal: null, goalOf: () => null, goalCourses: [] };
  const cache = new PlanCache({ db, choices: () => choices, revision: () => revision });
  const feed = (now: number) =>
    serializeCalendar(
      feedEvents(db, {
        now,
        timeZone: ZONE,
        language: 'en',
        plans: cache.forStudyBlocks(now, ZONE),
        siteIds: new Set(['s']),
      }),
      { stamp: new Date(now), timeZone: ZONE },
    );
  return { db, other, cache, feed, bump: () => revision++ };
}

describe("the plan kept for the feed's study blocks", () => {
  it('is reused only while a plan built now would be the same', () => {
    const { other, cache, bump } = setup();
    const today = cache.build(NOW, ZONE, null);
    expect(today.courses.map((c) => c.courseId)).toEqual(['soon', 'later']);
    expect(cache.forStudyBlocks(NOW + 60_000, ZONE)).toBe(today);
    // Another zone, the preferences changed, another connection's commit: built again.
    expect(cache.forStudyBlocks(NOW, 'Europe/Paris')).not.toBe(today);
    const paris = cache.forStudyBlocks(NOW, 'Europe/Paris');
    expect(cache.forStudyBlocks(NOW, 'Europe/Paris')).toBe(paris);
    bump();
    expect(cache.forStudyBlocks(NOW, 'Europe/Paris')).not.toBe(paris);
    const before = cache.forStudyBlocks(NOW, ZONE);
    other.prepare("UPDATE courses SET title = 'Renamed' WHERE id = 'later'").run();
    const changed = cache.forStudyBlocks(NOW, ZONE);
    expect(changed).not.toBe(before);
    expect(changed.courses.map((c) => c.title)).toEqual(['Course soon', 'Renamed']);
  });

  it('is built again once a planned course has ended, and the next day', () => {
    const { cache } = setup();
    const today = cache.build(NOW, ZONE, null);
    // 'soon' ends at 16:00 in Taipei: after it the list of courses is another.
    const after = cache.forStudyBlocks(NOW + 7 * 3_600_000, ZONE);
    expect(after).not.toBe(today);
    expect(after.courses.map((c) => c.courseId)).toEqual(['later']);
    const tomorrow = cache.forStudyBlocks(NOW + 86_400_000, ZONE);
    expect(tomorrow).not.toBe(after);
  });

  it('gives the feed the same bytes as a plan built for it', () => {
    const { feed, cache } = setup();
    const later = NOW + 3 * 3_600_000;
    cache.build(NOW, ZONE, null);
    const kept = feed(later);
    // The same feed from a plan built at that moment.
    cache.build(later, ZONE, null);
    expect(feed(later)).toBe(kept);
    expect(kept).toContain('SUMMARY:Study: Course later');
  });
});
