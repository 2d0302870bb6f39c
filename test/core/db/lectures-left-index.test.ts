import { afterEach, describe, expect, it } from 'vitest';
import { getLibraryPage, getPacePage, getProgressSummary } from '../../../electron/core/db';
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
        .all({ siteId: 's', now: NOW.getTime(), offset: 0, limit: 50, ids: '["c1"]' })
        .map((r) => (r as { detail: string }).detail);
      const lectureReads = plan.filter((d) => / x /.test(` ${d} `));
      expect(lectureReads.length, text).toBeGreaterThan(0);
      for (const d of lectureReads) expect(d).toContain('USING COVERING INDEX lectures_left');
    }
  });
});

describe('a page of the paces (the assistant reads a few courses of thousands)', () => {
  const ends = ['2026-09-01', '2026-07-01', '2026-08-01', '2026-07-15', '2026-10-01'];
  const courses = ends.map((d, i) =>
    course(`c${i + 1}`, { hasLifetimeAccess: false, expireDate: `${d}T00:00:00.000Z` }),
  );
  // c4's one open lecture is done: no pace, and the pages go past it.
  const done = course('c4', { hasLifetimeAccess: false, expireDate: '2026-07-15T00:00:00.000Z' });
  const allDone = {
    ...done,
    sections: done.sections.map((s) => ({
      ...s,
      lectures: s.lectures.map((l) => ({ ...l, state: 'completed' })),
    })),
  };

  it('pages through the same paces as the summary, soonest end first, and says when more follow', () => {
    const { db } = recording(
      withSite({ courses: courses.map((c) => (c.id === 'c4' ? allDone : c)) }),
    );
    const all = getProgressSummary(db, 's', NOW, 'UTC').pace;
    expect(all.map((p) => p.courseId)).toEqual(['c2', 'c3', 'c1', 'c5']);
    const first = getPacePage(db, 's', NOW, { offset: 0, limit: 2 });
    const second = getPacePage(db, 's', NOW, { offset: 2, limit: 2 });
    expect(first.more).toBe(true);
    expect(second.more).toBe(false);
    expect([...first.items, ...second.items]).toEqual(all);
    expect(getPacePage(db, 's', NOW, { offset: 0, limit: 4 })).toEqual({ items: all, more: false });
  });
});
