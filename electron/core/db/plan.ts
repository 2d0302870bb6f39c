/**
 * The plans' inputs read from the saved copy: each course with an end date still ahead (or one
 * asked for by id), its lectures (length, done, locked, unlock date) and what its syncs first saw
 * completed this week (lecture_completions, 013). The arithmetic is common/plan.ts; this only
 * reads, in three bounded statements for every school at once, so Today's plans cost the same
 * whatever the number of schools.
 */
import type { Database } from 'better-sqlite3';
import { lectureDone } from '../../common/facts';
import type { PlanLecture } from '../../common/plan';
import { siteText } from '../../common/site-values';
import { localDay, mondayOf, startOfDay } from '../../common/zoned-time';
import { prepared } from './statements';

/** At most this many courses are planned in one read (soonest end first). */
export const PLANNED_COURSES_MAX = 200;

export interface PlanCourseRow {
  readonly siteId: string;
  readonly courseId: string;
  readonly title: string;
  readonly expireDate: string | null;
  readonly hasLifetimeAccess: boolean;
  readonly lectures: PlanLecture[];
  readonly doneThisWeek: { lectures: number; seconds: number };
  /** When the school was first synced here (ms): the record of its work starts then. */
  readonly countedFrom: number | null;
}

interface CourseRow {
  site_id: string;
  id: string;
  title: string;
  expire_date: string | null;
  has_lifetime_access: number;
  last_lecture_id: string | null;
  last_position_seconds: number | null;
  site_created_at: string | null;
}

const COURSE_COLUMNS = `c.site_id, c.id, c.title, c.expire_date, c.has_lifetime_access, c.last_lecture_id,
  c.last_position_seconds, (SELECT s.created_at FROM sites s WHERE s.id = c.site_id) AS site_created_at`;

/** The courses a plan is made for: an end date not passed, not finished (soonest end first). */
function coursesEnding(db: Database, now: number): CourseRow[] {
  return prepared<{ now: number; limit: number }, CourseRow>(
    db,
    `SELECT ${COURSE_COLUMNS} FROM courses c
      WHERE c.has_lifetime_access = 0 AND c.expires_ms > @now AND c.completed_at IS NULL AND c.percent < 100
      ORDER BY c.expires_ms, c.site_id, c.position LIMIT @limit`,
  ).all({ now, limit: PLANNED_COURSES_MAX });
}

function courseById(db: Database, siteId: string, courseId: string): CourseRow | undefined {
  return prepared<{ siteId: string; courseId: string }, CourseRow>(
    db,
    `SELECT ${COURSE_COLUMNS} FROM courses c WHERE c.site_id = @siteId AND c.id = @courseId`,
  ).get({ siteId, courseId });
}

const key = (siteId: string, courseId: string) => `${siteId}\u0000${courseId}`;

/**
 * Every lecture of the courses named, by course (one statement over a JSON list of keys). Rows come
 * back as arrays naming their course by its place in the list, and the last watched lecture is
 * compared in SQL: at 200 courses (some 12,000 lectures) building a keyed object of six strings a
 * row took most of Today's plan.
 */
function lecturesOf(db: Database, courses: readonly CourseRow[]): Map<string, PlanLecture[]> {
  const out = new Map<string, PlanLecture[]>();
  if (courses.length === 0) return out;
  type LectureRow = [
    index: number,
    state: string,
    isLast: number | null,
    isLocked: number,
    unlockAt: string | null,
    duration: number,
  ];
  const rows = prepared<{ keys: string }, LectureRow>(
    db,
    `SELECT k.key, l.state, l.id = k.value ->> 2, l.is_locked, l.unlock_at, l.duration
       FROM json_each(@keys) k
       -- CROSS JOIN keeps the list of courses the outer loop: each course's lectures by lectures_by_course.
       CROSS JOIN lectures l ON l.site_id = k.value ->> 0 AND l.course_id = k.value ->> 1`,
  )
    .raw(true)
    .all({ keys: JSON.stringify(courses.map((c) => [c.site_id, c.id, c.last_lecture_id])) });
  const lists = courses.map(() => [] as PlanLecture[]);
  for (const [index, state, isLast, isLocked, unlockAt, rawDuration] of rows) {
    const c = courses[index]!;
    const duration = Number.isFinite(rawDuration) ? Math.max(0, rawDuration) : 0;
    lists[index]!.push({
      durationSeconds: duration,
      done: lectureDone({
        state,
        durationSeconds: duration,
        lastPositionSeconds: isLast === 1 ? (c.last_position_seconds ?? 0) : null,
      }),
      isLocked: isLocked === 1,
      unlockAt,
    });
  }
  courses.forEach((c, i) => {
    if (lists[i]!.length > 0) out.set(key(c.site_id, c.id), lists[i]!);
  });
  return out;
}

/** The instant this week started (Monday 00:00 in `timeZone`). */
export function weekStartMs(now: number, timeZone: string): number {
  return startOfDay(mondayOf(localDay(now, timeZone)), timeZone);
}

/** When the first school was synced here (ms), or null: the overall week counts from then. */
export function firstSyncedAt(db: Database): number | null {
  const at = prepared<object, { at: string | null }>(
    db,
    'SELECT min(created_at) AS at FROM sites',
  ).get({})?.at;
  return typeof at === 'string' ? Date.parse(at) || null : null;
}

/**
 * Lectures first seen completed this week, per course and in all: the syncs' record (an unstamped
 * row is the commit just made, read as now). Only as fresh as the last sync: the school sends no
 * time of its own.
 */
export function doneThisWeek(
  db: Database,
  now: number,
  timeZone: string,
): Map<string, { lectures: number; seconds: number }> {
  const rows = prepared<
    { from: number; now: number },
    { site_id: string; course_id: string; lectures: number; seconds: number }
  >(
    db,
    `SELECT site_id, course_id, count(*) AS lectures, coalesce(sum(max(duration, 0)), 0) AS seconds
       FROM lecture_completions
      WHERE baseline = 0 AND (seen_ms IS NULL OR (seen_ms >= @from AND seen_ms <= @now))
      GROUP BY site_id, course_id`,
  ).all({ from: weekStartMs(now, timeZone), now });
  return new Map(rows.map((r) => [key(r.site_id, r.course_id), r]));
}

function toRows(
  db: Database,
  courses: readonly CourseRow[],
  done: Map<string, { lectures: number; seconds: number }>,
): PlanCourseRow[] {
  const lectures = lecturesOf(db, courses);
  return courses.map((c) => {
    const k = key(c.site_id, c.id);
    const d = done.get(k);
    return {
      siteId: c.site_id,
      courseId: c.id,
      title: siteText(c.title),
      expireDate: c.expire_date,
      hasLifetimeAccess: c.has_lifetime_access === 1,
      lectures: lectures.get(k) ?? [],
      doneThisWeek: { lectures: d?.lectures ?? 0, seconds: d?.seconds ?? 0 },
      countedFrom: c.site_created_at === null ? null : Date.parse(c.site_created_at) || null,
    };
  });
}

/**
 * Every school's courses with an end date ahead, and any others named (courses with a goal of their
 * own).
 */
export function getPlanCourses(
  db: Database,
  now: number,
  timeZone: string,
  also: readonly { siteId: string; courseId: string }[] = [],
): { courses: PlanCourseRow[]; done: Map<string, { lectures: number; seconds: number }> } {
  const ending = coursesEnding(db, now);
  const seen = new Set(ending.map((c) => key(c.site_id, c.id)));
  for (const a of also.slice(0, PLANNED_COURSES_MAX)) {
    if (seen.has(key(a.siteId, a.courseId))) continue;
    const c = courseById(db, a.siteId, a.courseId);
    if (!c) continue;
    ending.push(c);
    seen.add(key(a.siteId, a.courseId));
  }
  const done = doneThisWeek(db, now, timeZone);
  return { courses: toRows(db, ending, done), done };
}

/** One course's inputs, whatever its end (the course screen). */
export function getPlanCourse(
  db: Database,
  siteId: string,
  courseId: string,
  now: number,
  timeZone: string,
): PlanCourseRow | null {
  const c = courseById(db, siteId, courseId);
  return c ? toRows(db, [c], doneThisWeek(db, now, timeZone))[0]! : null;
}
