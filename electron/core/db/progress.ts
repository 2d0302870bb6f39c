import type { Database } from 'better-sqlite3';
import type { CoursePace, ProgressSummary, WeekProgress } from '../../common/view-models';
import { siteNumber, siteText } from '../../common/site-values';
import { CoreError } from '../errors';
import { LECTURES_SQL } from './next-step';
import { prepared } from './statements';
import type { ReadableDB } from './handles';
import { isKnownTimeZone, localDay, mondayOf as mondayOfDay } from '../../common/zoned-time';

const DAY_MS = 86_400_000;
/** How many weeks the summary (and the progress export) lists. */
export const WEEKS_SHOWN = 12;

/**
 * "This week" is the student's local week, Monday to Sunday (ISO 8601 weeks), in `timeZone`: the
 * key of a week is the day number (days since 1970-01-01) of its Monday in that zone. A lecture
 * counts in the week the app first saw it completed (lecture_completions, stamped by the sync that
 * saw it), the only time the app has for it.
 */
export function weekCounter(timeZone: string): (ms: number) => number {
  if (!isKnownTimeZone(timeZone))
    throw new CoreError(
      'invalid-input',
      `"${timeZone.slice(0, 64)}" is not a time zone this computer knows.`,
    );
  // The plan counts its weeks with the same function (common/zoned-time.ts).
  return (ms) => mondayOfDay(localDay(ms, timeZone));
}

const mondayOf = (week: number) => new Date(week * DAY_MS).toISOString().slice(0, 10);

/**
 * The weeks with their work, from the stamped completions (an unstamped row is the commit just
 * made: now).
 */
export function completedWeeks(
  db: Database,
  siteId: string,
  now: Date,
  timeZone: string,
): { weekOf: (ms: number) => number; byWeek: Map<number, WeekProgress> } {
  const weekOf = weekCounter(timeZone);
  const t = now.getTime();
  const rows = prepared<{ siteId: string; now: number }, { ms: number; duration: number }>(
    db,
    `SELECT coalesce(seen_ms, @now) AS ms, duration FROM lecture_completions
     WHERE site_id = @siteId AND baseline = 0 AND coalesce(seen_ms, @now) <= @now`,
  ).all({ siteId, now: t });
  const byWeek = new Map<number, WeekProgress>();
  for (const r of rows) {
    const week = weekOf(r.ms);
    const w = byWeek.get(week) ?? { weekStart: mondayOf(week), lectures: 0, seconds: 0 };
    byWeek.set(week, {
      ...w,
      lectures: w.lectures + 1,
      seconds: w.seconds + Math.max(0, r.duration),
    });
  }
  return { weekOf, byWeek };
}

/** The courses with an end date still ahead and no completion, soonest end first (ids only). */
function paceCandidates(db: Database, siteId: string, now: number): string[] {
  return prepared<{ siteId: string; now: number }, { id: string }>(
    db,
    `SELECT c.id FROM courses c
     WHERE c.site_id = @siteId AND c.has_lifetime_access = 0 AND c.expires_ms > @now AND c.completed_at IS NULL
     ORDER BY c.expires_ms, c.id`,
  )
    .all({ siteId, now })
    .map((r) => r.id);
}

/**
 * What is left of the named courses (the lectures_left index, migration 017), in `ids`' order.
 * CROSS JOIN keeps the list outside: the planner otherwise walks every course of the site for each
 * id.
 */
function paceOf(db: Database, siteId: string, ids: readonly string[]): CoursePace[] {
  return prepared<
    { siteId: string; ids: string },
    { id: string; title: string; expire_date: string; left_lectures: number; left_seconds: number }
  >(
    db,
    `SELECT c.id, c.title, c.expire_date,
       ${LECTURES_SQL.left} AS left_lectures,
       ${LECTURES_SQL.secondsLeft} AS left_seconds
     FROM json_each(@ids) j CROSS JOIN courses c ON c.site_id = @siteId AND c.id = j.value
     ORDER BY j.key`,
  )
    .all({ siteId, ids: JSON.stringify(ids) })
    .filter((r) => r.left_lectures > 0)
    .map((r) => ({
      courseId: r.id,
      title: siteText(r.title),
      lecturesLeft: siteNumber(r.left_lectures),
      secondsLeft: siteNumber(r.left_seconds),
      expireDate: r.expire_date,
    }));
}

/**
 * One page of the paces: the courses with an end date ahead and lectures left, soonest end first.
 * Only the courses up to the page's end are counted (the candidates are read by id and end date
 * alone, then counted a page at a time), so a page costs the same at any number of courses.
 */
export function getPacePage(
  db: ReadableDB,
  siteId: string,
  now: Date,
  page: { readonly offset: number; readonly limit: number },
): { items: CoursePace[]; more: boolean } {
  const ids = paceCandidates(db, siteId, now.getTime());
  const wanted = page.offset + page.limit + 1;
  const found: CoursePace[] = [];
  // A course whose lectures are all done has no pace; it is skipped and the next chunk read.
  for (let at = 0; at < ids.length && found.length < wanted;) {
    const chunk = ids.slice(at, at + Math.max(wanted - found.length, 20));
    at += chunk.length;
    found.push(...paceOf(db, siteId, chunk));
  }
  const items = found.slice(page.offset, page.offset + page.limit);
  return { items, more: found.length > page.offset + page.limit };
}

/** Courses with an end date still ahead and lectures left, soonest end first. */
function coursesWithPace(db: Database, siteId: string, now: number): CoursePace[] {
  return paceOf(db, siteId, paceCandidates(db, siteId, now));
}

/** A school's week and streak at `now`, weeks counted in the student's `timeZone` (no paces). */
export function getWeekProgress(
  db: ReadableDB,
  siteId: string,
  now: Date,
  timeZone: string,
): Omit<ProgressSummary, 'pace'> {
  const { weekOf, byWeek } = completedWeeks(db, siteId, now, timeZone);
  const current = weekOf(now.getTime());
  const week = (w: number): WeekProgress =>
    byWeek.get(w) ?? { weekStart: mondayOf(w), lectures: 0, seconds: 0 };
  let streakWeeks = 0;
  // This week, not over yet, keeps the streak of the weeks before it alive.
  let w = byWeek.has(current) ? current : current - 7;
  while (byWeek.has(w)) {
    streakWeeks++;
    w -= 7;
  }
  return {
    siteId,
    timeZone,
    thisWeek: week(current),
    lastWeek: week(current - 7),
    streakWeeks,
    weeks: Array.from({ length: WEEKS_SHOWN }, (_, i) => week(current - 7 * i)),
  };
}

/** A school's week, streak and paces at `now`, weeks counted in the student's `timeZone`. */
export function getProgressSummary(
  db: ReadableDB,
  siteId: string,
  now: Date,
  timeZone: string,
): ProgressSummary {
  return {
    ...getWeekProgress(db, siteId, now, timeZone),
    pace: coursesWithPace(db, siteId, now.getTime()),
  };
}

/**
 * One course's progress as the export writes it: the site's counts, and lengths summed from its
 * lectures.
 */
export interface CourseProgressRow {
  readonly courseId: string;
  readonly title: string;
  readonly instructorName: string | null;
  readonly enrolledAt: string;
  readonly expireDate: string | null;
  readonly hasLifetimeAccess: boolean;
  readonly totalLectures: number;
  readonly completedLectures: number;
  readonly percent: number;
  readonly completedAt: string | null;
  readonly totalSeconds: number;
  readonly completedSeconds: number;
}

/**
 * Every course of the site, in the library's order, with what is done of it (the progress export).
 */
export function getCourseProgressRows(db: ReadableDB, siteId: string): CourseProgressRow[] {
  return prepared<{ siteId: string }, Record<string, unknown>>(
    db,
    `SELECT c.id, c.title, c.instructor_name, c.enrolled_at, c.expire_date, c.has_lifetime_access, c.total_lectures,
       min(c.total_lectures, c.completed_lectures + ${LECTURES_SQL.tailDone}) AS completed_lectures, c.percent, c.completed_at,
       (SELECT coalesce(sum(max(x.duration, 0)), 0) FROM lectures x WHERE x.site_id = c.site_id AND x.course_id = c.id) AS total_seconds,
       ${LECTURES_SQL.secondsDone} AS completed_seconds
     FROM courses c WHERE c.site_id = @siteId ORDER BY c.position`,
  )
    .all({ siteId })
    .map((r) => ({
      courseId: String(r['id']),
      title: siteText(r['title']),
      instructorName: typeof r['instructor_name'] === 'string' ? r['instructor_name'] : null,
      enrolledAt: siteText(r['enrolled_at']),
      expireDate: typeof r['expire_date'] === 'string' ? r['expire_date'] : null,
      hasLifetimeAccess: r['has_lifetime_access'] === 1,
      totalLectures: siteNumber(r['total_lectures']),
      completedLectures: siteNumber(r['completed_lectures']),
      percent: siteNumber(r['percent']),
      completedAt: typeof r['completed_at'] === 'string' ? r['completed_at'] : null,
      totalSeconds: siteNumber(r['total_seconds']),
      completedSeconds: siteNumber(r['completed_seconds']),
    }));
}
