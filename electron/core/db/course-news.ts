import type { Database } from 'better-sqlite3';
import type { CourseRecord } from './records';
import { prepared } from './statements';
import { changingViews } from './view-cache';
import type { WritableDB } from './handles';

/**
 * "New since last sync": the lectures a course gained at a sync, counted against what the saved
 * copy held before that sync (by lecture id), and kept (added up over later syncs) until the
 * student opens the course. A course new to the copy, and the first sync of a site, mark nothing:
 * everything in them is new, so nothing stands out.
 */

/** The saved copy's courses and their lecture ids, read before a sync rewrites them. */
export type LecturesBefore = ReadonlyMap<string, ReadonlySet<string>>;

export function lecturesBefore(db: Database, siteId: string): LecturesBefore {
  const before = new Map<string, Set<string>>();
  for (const c of prepared<{ siteId: string }, { id: string }>(
    db,
    'SELECT id FROM courses WHERE site_id = @siteId',
  ).all({ siteId })) {
    before.set(c.id, new Set());
  }
  for (const l of prepared<{ siteId: string }, { courseId: string; id: string }>(
    db,
    'SELECT course_id AS courseId, id FROM lectures WHERE site_id = @siteId',
  ).all({ siteId })) {
    before.get(l.courseId)?.add(l.id);
  }
  return before;
}

/**
 * After the rewrite: adds each kept course's gained lectures, and forgets courses no longer in the
 * copy.
 */
export function noteNewLectures(
  db: Database,
  siteId: string,
  before: LecturesBefore,
  records: readonly CourseRecord[],
): void {
  const add = prepared<{ siteId: string; courseId: string; n: number }>(
    db,
    `INSERT INTO course_news (site_id, course_id, new_lectures) VALUES (@siteId, @courseId, @n)
     ON CONFLICT (site_id, course_id) DO UPDATE SET new_lectures = new_lectures + excluded.new_lectures`,
  );
  for (const c of records) {
    const had = before.get(c.id);
    if (!had) continue;
    let gained = 0;
    for (const s of c.sections) for (const l of s.lectures) if (!had.has(l.lectureId)) gained++;
    if (gained > 0) add.run({ siteId, courseId: c.id, n: gained });
  }
  prepared<{ siteId: string }>(
    db,
    'DELETE FROM course_news WHERE site_id = @siteId AND course_id NOT IN (SELECT id FROM courses WHERE site_id = @siteId)',
  ).run({ siteId });
}

/**
 * The student opened the course: its new lectures are seen. True when there was something to clear.
 */
export function markCourseSeen(db: WritableDB, siteId: string, courseId: string): boolean {
  return changingViews(
    db,
    siteId,
    (cleared: boolean) => (cleared ? ['library'] : []),
    () =>
      prepared<{ siteId: string; courseId: string }>(
        db,
        'DELETE FROM course_news WHERE site_id = @siteId AND course_id = @courseId',
      ).run({
        siteId,
        courseId,
      }).changes > 0,
  );
}
