import { afterEach, describe, expect, it } from 'vitest';
import { getLibraryPage, getProgressSummary } from '../../../electron/core/db';
import { course } from './fixtures';
import { closeDatabases, NOW, recording, withSite } from './pages-scaffold';

afterEach(closeDatabases);

/**
 * Migration 017: what is left of a course (its open lectures and their length) is counted from
 * lectures_left alone, never from the table's rows: the progress summary's paces and the library's
 * cards read it for every course.
 */
describe('what is left of a course, read from an index alone (migration 017)', () => {
  const courses = [
    course('c1', { hasLifetimeAccess: false, expireDate: '2026-07-01T00:00:00.000Z' }),
    course('c2', { hasLifetimeAccess: false, expireDate: '2026-08-01T00:00:00.000Z' }),
  ];

  it('gives the same counts, and the plan of every statement that counts them uses the covering index', () => {
    const { db, sql } = recording(withSite({ courses }));
    const summary = getProgressSummary(db, 's', NOW, 'UTC');
    // Each fixture course has one completed lecture (60 s) and one open (300 s).
    expect(summary.pace.map((p) => [p.courseId, p.lecturesLeft, p.secondsLeft])).toEqual([
      ['c1', 1, 300],
      ['c2', 1, 300],
    ]);
    expect(getLibraryPage(db, 's', NOW).items.map((c) => c.courseId)).toEqual(['c1', 'c2']);

    const counting = sql.filter((text) => text.includes("x.state <> 'completed'"));
    expect(counting.length).toBeGreaterThanOrEqual(2);
    for (const text of counting) {
      const plan = db
        .prepare(`EXPLAIN QUERY PLAN ${text}`)
        .all({ siteId: 's', now: NOW.getTime(), offset: 0, limit: 50 })
        .map((r) => (r as { detail: string }).detail);
      const lectureReads = plan.filter((d) => / x /.test(` ${d} `));
      expect(lectureReads.length, text).toBeGreaterThan(0);
      for (const d of lectureReads) expect(d).toContain('USING COVERING INDEX lectures_left');
    }
  });
});
