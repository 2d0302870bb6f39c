import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  commitSnapshot,
  ensureSite,
  getAllSitesLibraryPage,
  getCourseDetail,
  getLibraryPage,
  getToday,
} from '../../../electron/core/db';
import { courseNextStep, type OrderedLecture } from '../../../electron/core/db/next-step';
import type { LectureState } from '../../../electron/common/view-models';
import type { CourseRecord } from '../../../electron/core/db/records';
import { course } from './fixtures';
import {
  closeDatabases,
  databaseAt,
  NOW,
  openDb,
  recording,
  tempFile,
  withSite,
} from './pages-scaffold';

afterEach(closeDatabases);

const PAST = '2026-05-01T00:00:00.000Z';
const FUTURE = '2026-07-01T00:00:00.000Z';

/**
 * The course's order as the spec's data says it, independent of the database: sections, then
 * lectures, by position.
 */
function referenceOrder(c: CourseRecord): OrderedLecture[] {
  const byPosition = <T extends { position: number }>(xs: readonly T[]) =>
    [...xs].sort((a, b) => a.position - b.position);
  return byPosition(c.sections).flatMap((s) =>
    byPosition(s.lectures).map((l) => ({
      lectureId: l.lectureId,
      title: l.title,
      sectionTitle: s.title,
      durationSeconds: l.duration,
      state: l.state as LectureState,
      isLocked: l.isLocked,
      unlockAt: l.unlockAt,
    })),
  );
}

const expected = (c: CourseRecord) =>
  courseNextStep(
    {
      isExpired:
        !c.hasLifetimeAccess && c.expireDate !== null && Date.parse(c.expireDate) <= NOW.getTime(),
      expireDate: c.expireDate,
      completedAt: c.detailProgress.completedAt,
      lastLectureId: c.lastWatchedLecture?.lectureId ?? null,
      lastPositionSeconds: c.lastWatchedLecture?.positionSeconds ?? null,
      lectures: referenceOrder(c),
    },
    NOW.getTime(),
  );

/**
 * Courses with every shape a site may send: tied and unsorted positions, every state, locks, a last
 * lecture anywhere.
 */
const courses = fc
  .array(
    fc.record({
      sections: fc.array(
        fc.record({
          position: fc.integer({ min: 0, max: 3 }),
          lectures: fc.array(
            fc.record({
              position: fc.integer({ min: 0, max: 3 }),
              state: fc.constantFrom('unread', 'read', 'completed', 'completed', 'in_progress'),
              isLocked: fc.boolean(),
              unlockAt: fc.constantFrom(null, PAST, FUTURE, 'not a date'),
              duration: fc.constantFrom(0, 60, 600),
            }),
            { maxLength: 5 },
          ),
        }),
        { maxLength: 3 },
      ),
      last: fc.option(
        fc.record({
          pick: fc.nat(),
          course: fc.constantFrom('own', 'own', 'own', 'other', 'gone'),
          position: fc.integer({ min: 0, max: 700 }),
        }),
      ),
      completed: fc.boolean(),
      access: fc.constantFrom('lifetime', 'open', 'ended'),
    }),
    { minLength: 1, maxLength: 4 },
  )
  .map((shapes) => {
    const records = shapes.map((shape, ci): CourseRecord => {
      const id = `c${ci}`;
      return course(id, {
        hasLifetimeAccess: shape.access === 'lifetime',
        expireDate: shape.access === 'lifetime' ? null : shape.access === 'open' ? FUTURE : PAST,
        detailProgress: {
          totalLectures: 0,
          readLectures: 0,
          completedLectures: 0,
          percent: 10,
          completedAt: shape.completed ? PAST : null,
        },
        lastWatchedLecture: null,
        sections: shape.sections.map((s, si) => ({
          id: `${id}-s${si}`,
          title: `Section ${si}`,
          position: s.position,
          lectures: s.lectures.map((l, li) => ({
            lectureId: `${id}-s${si}-l${li}`,
            title: `Lecture ${si}.${li}`,
            ...l,
            state: l.state as 'read',
          })),
        })),
      });
    });
    // The last watched lecture: one of the course's own, another course's, or one the site no
    // longer has.
    return records.map((c, ci): CourseRecord => {
      const { last } = shapes[ci]!;
      if (last === null) return c;
      const pool =
        last.course === 'own'
          ? referenceOrder(c)
          : last.course === 'other'
            ? records.filter((o) => o !== c).flatMap(referenceOrder)
            : [];
      const lectureId =
        pool.length === 0 ? 'lecture-gone' : pool[last.pick % pool.length]!.lectureId;
      return {
        ...c,
        lastWatchedLecture: { lectureId, positionSeconds: last.position, watchedAt: PAST },
      };
    });
  });

describe('next steps from the stored lecture order (migration 018)', () => {
  it('the library pages (one school, all schools), the course detail and Today give the next step the whole ordered course gives', () => {
    fc.assert(
      fc.property(courses, (records) => {
        const db = withSite({ courses: records });
        // A second school with the same course ids, nothing watched there: "All schools" must not
        // mix them up.
        const unwatched = records.map((c) => ({ ...c, lastWatchedLecture: null }));
        ensureSite(db, 't', NOW);
        commitSnapshot(db, 't', { courses: unwatched });
        try {
          const all = new Map(
            getAllSitesLibraryPage(db, NOW).items.map((c) => [
              `${c.siteId}/${c.courseId}`,
              c.nextStep,
            ]),
          );
          for (const c of records) expect(all.get(`s/${c.id}`), c.id).toEqual(expected(c));
          for (const c of unwatched) expect(all.get(`t/${c.id}`), c.id).toEqual(expected(c));
          const page = new Map(
            getLibraryPage(db, 's', NOW).items.map((c) => [c.courseId, c.nextStep]),
          );
          const today = new Map(
            getToday(db, NOW).continueLearning.map((c) => [c.courseId, c.nextStep]),
          );
          for (const c of records) {
            const want = expected(c);
            expect(page.get(c.id), c.id).toEqual(want);
            expect(getCourseDetail(db, 's', c.id, NOW).nextStep, c.id).toEqual(want);
            if (today.has(c.id)) expect(today.get(c.id), c.id).toEqual(want);
          }
        } finally {
          closeDatabases();
        }
      }),
      { numRuns: 150 },
    );
  });

  it('reads each card’s lectures down the order indexes, never every lecture of the page’s courses', () => {
    const db = withSite({ courses: [course('c1'), course('c2')] });
    const { db: spy, sql: statements } = recording(db);
    expect(getLibraryPage(spy, 's', NOW).items.map((c) => c.nextStep.kind)).toEqual([
      'resume',
      'resume',
    ]);
    const picks = statements.filter((text) => text.includes('picks(course_id'));
    expect(picks).toHaveLength(1);
    const plan = db
      .prepare(`EXPLAIN QUERY PLAN ${picks[0]!}`)
      .all({ siteId: 's', ids: '["c1"]' })
      .map((r) => (r as { detail: string }).detail);
    // Every read of lectures, courses and sections goes by key: a page's id, a course's lectures in
    // order, a row's id.
    const tableSteps = plan.filter((d) => /^(SCAN|SEARCH) (n|l|lw|c|s)\b/.test(d));
    expect(tableSteps.length, plan.join('\n')).toBeGreaterThanOrEqual(7);
    for (const d of tableSteps) {
      expect(d, plan.join('\n')).toMatch(
        /^SEARCH (n USING INDEX (lectures_in_order|lectures_to_do) \(site_id=\? AND course_id=\?( AND ord>\?)?\)|(l|lw|c|s) USING INDEX sqlite_autoindex_(lectures|courses|sections)_1 \(site_id=\? AND id=\?\))$/,
      );
    }
    expect(plan.filter((d) => d.includes('lectures_to_do'))).toHaveLength(2);
  });

  it('numbers the lectures of a database from before it in the order the views showed, and keeps its next steps', () => {
    const file = tempFile();
    const v17 = databaseAt(17, file);
    // Rows written out of order: section 2 before section 1, and lecture positions descending.
    v17.exec(`INSERT INTO sites (id, created_at) VALUES ('s', '2026-01-01T00:00:00.000Z');
      INSERT INTO courses (site_id, id, position, slug, title, enrolled_at, has_lifetime_access, total_lectures, read_lectures,
        completed_lectures, percent, last_lecture_id, last_position_seconds, display)
        VALUES ('s', 'c1', 0, 'c1', 'C', '2026-01-01T00:00:00.000Z', 1, 4, 0, 1, 25, 'a2', 600, '{}');
      INSERT INTO sections (site_id, id, course_id, title, position) VALUES ('s', 'b', 'c1', 'Second', 2), ('s', 'a', 'c1', 'First', 1);
      INSERT INTO lectures (site_id, id, course_id, section_id, title, position, state, is_locked, unlock_at, duration) VALUES
        ('s', 'b2', 'c1', 'b', 'B2', 2, 'unread', 0, NULL, 600),
        ('s', 'b1', 'c1', 'b', 'B1', 1, 'unread', 0, NULL, 600),
        ('s', 'a2', 'c1', 'a', 'A2', 2, 'read', 0, NULL, 600),
        ('s', 'a1', 'c1', 'a', 'A1', 1, 'completed', 0, NULL, 600);`);
    v17.close();

    const db = openDb(file);
    expect(db.prepare('SELECT id FROM lectures ORDER BY ord').pluck().all()).toEqual([
      'a1',
      'a2',
      'b1',
      'b2',
    ]);
    expect(db.prepare('SELECT ord FROM lectures ORDER BY ord').pluck().all()).toEqual([1, 2, 3, 4]);
    // a2 watched to its end: up next is b1, the first lecture after it not done.
    expect(getLibraryPage(db, 's', NOW).items[0]!.nextStep).toMatchObject({
      kind: 'next',
      lecture: { lectureId: 'b1', sectionTitle: 'Second' },
      finished: { lectureId: 'a2' },
    });
    expect(getCourseDetail(db, 's', 'c1', NOW).nextStep).toMatchObject({
      kind: 'next',
      lecture: { lectureId: 'b1' },
    });
  });
});
