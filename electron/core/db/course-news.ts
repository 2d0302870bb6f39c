import type { Database } from 'better-sqlite3';
import { prepared } from './statements';
import { changingViews } from './view-cache';
import type { WritableDB } from './handles';

/**
 * "New since last sync": the lectures a course gained, read from the change record
 * (change-record.ts `lectures-new`, added up over syncs) until the student opens the course
 * (`course_seen_at`, migration 024). The record already leaves out a course new to the copy and the
 * first sync of a site: everything in them is new, so nothing stands out.
 */

/** The badge's count of course `c` (the alias the library's views use), over the partial index. */
export const NEW_LECTURES_SQL = `coalesce((SELECT sum(json_extract(r.detail, '$.count')) FROM change_record r
    WHERE r.site_id = c.site_id AND r.course_id = c.id AND r.kind = 'lectures-new' AND r.course_seen_at IS NULL), 0)`;

/**
 * A course gone from the saved copy takes its badge with it: should it come back, it comes back as
 * a course added, with no lectures new.
 */
export function forgetGoneCourses(db: Database, siteId: string, now: string): void {
  prepared<{ siteId: string; now: string }>(
    db,
    `UPDATE change_record SET course_seen_at = @now
     WHERE site_id = @siteId AND kind = 'lectures-new' AND course_seen_at IS NULL
       AND course_id NOT IN (SELECT id FROM courses WHERE site_id = @siteId)`,
  ).run({ siteId, now });
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
      prepared<{ siteId: string; courseId: string; now: string }>(
        db,
        `UPDATE change_record SET course_seen_at = @now
         WHERE site_id = @siteId AND course_id = @courseId AND kind = 'lectures-new'
           AND course_seen_at IS NULL`,
      ).run({ siteId, courseId, now: new Date().toISOString() }).changes > 0,
  );
}
