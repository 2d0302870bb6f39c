/**
 * The one prompt a course shows (issue "take me to my lesson"): continue where the student stopped,
 * the next unlocked lecture once the last one is finished, "Locked until ..." when the next one is
 * not open yet, "Completed" with an offer to watch again, or "Access ended on ..." - never
 * "Continue watching" on a course that can no longer be watched, nor "Up next" for a lecture
 * already finished.
 */
import type { Database } from 'better-sqlite3';
import type {
  CourseNextStep,
  IsoDateTime,
  LectureRef,
  LectureState,
} from '../../common/view-models';
import { FINISHED_FRACTION, FINISHED_TAIL_SECONDS, lectureDone } from '../../common/facts';
import { siteText } from '../../common/site-values';
import { prepared } from './statements';

/** A lecture in the course's order (sections by position, then lectures by position). */
export interface OrderedLecture extends LectureRef {
  readonly state: LectureState;
  readonly isLocked: boolean;
  readonly unlockAt: IsoDateTime | null;
}

/** What a course's next step depends on besides its lectures. */
export interface NextStepFacts {
  readonly isExpired: boolean;
  readonly expireDate: IsoDateTime | null;
  readonly completedAt: IsoDateTime | null;
  readonly lastPositionSeconds: number | null;
}

export interface NextStepInput extends NextStepFacts {
  readonly lastLectureId: string | null;
  /** Every lecture of the course, in order. */
  readonly lectures: readonly OrderedLecture[];
}

/**
 * The only lectures of a course its next step can name or depend on. The library reads these four
 * per course from the stored order (nextStepLectures, migration 018) instead of every lecture of
 * the course.
 */
export interface NextStepLectures {
  /** The course's first lecture; null when the course has none. */
  readonly first: OrderedLecture | null;
  /** The last watched lecture, when it is still in the course. */
  readonly last: OrderedLecture | null;
  /** The first lecture not completed, in the course's order; null when every one is. */
  readonly firstToDo: OrderedLecture | null;
  /** The first lecture not completed after the last watched one. */
  readonly toDoAfterLast: OrderedLecture | null;
}

/**
 * "Finished" is the last 5% of a lecture or its last 30 seconds (one definition for every view:
 * common/facts.ts).
 */
export { isFinishedAt } from '../../common/facts';

/**
 * A lecture row's state as every view shows it: 'completed' once done (facts.ts lectureDone), never
 * "Started" then.
 */
export function shownLectureState(
  state: string,
  durationSeconds: number,
  lastPositionSeconds: number | null,
): string {
  return lectureDone({ state, durationSeconds, lastPositionSeconds }) ? 'completed' : state;
}

/**
 * The same rule in SQL, for the counts and the time left the views read in one statement over
 * course `c`: the lectures the school has not completed are counted from the covering index
 * lectures_left (migration 017), less the one lecture done here before the school says so: `c`'s
 * last watched lecture, watched into its finished tail (looked up by its key). TAIL_SECONDS_SQL is
 * that lecture's length, NULL when there is none.
 */
const TAIL_SECONDS_SQL = `(SELECT max(t.duration, 0) FROM lectures t
  WHERE t.site_id = c.site_id AND t.id = c.last_lecture_id AND t.course_id = c.id AND t.state <> 'completed' AND t.duration > 0
    AND (max(coalesce(c.last_position_seconds, 0), 0) >= t.duration * ${FINISHED_FRACTION}
      OR t.duration - max(coalesce(c.last_position_seconds, 0), 0) <= ${FINISHED_TAIL_SECONDS}))`;
/** 1 when `c`'s last watched lecture is done here but not yet completed at the school, else 0. */
const TAIL_DONE_SQL = `(${TAIL_SECONDS_SQL} IS NOT NULL)`;
/** Lectures of `c` not done (facts.ts lectureDone). */
const LECTURES_LEFT_SQL = `((SELECT count(*) FROM lectures x WHERE x.site_id = c.site_id AND x.course_id = c.id AND x.state <> 'completed')
  - ${TAIL_DONE_SQL})`;
/** Seconds of `c` not done. */
const SECONDS_LEFT_SQL = `((SELECT coalesce(sum(max(x.duration, 0)), 0) FROM lectures x
  WHERE x.site_id = c.site_id AND x.course_id = c.id AND x.state <> 'completed') - coalesce(${TAIL_SECONDS_SQL}, 0))`;
/** Seconds of `c` done. */
const SECONDS_DONE_SQL = `((SELECT coalesce(sum(max(x.duration, 0)), 0) FROM lectures x
  WHERE x.site_id = c.site_id AND x.course_id = c.id AND x.state = 'completed') + coalesce(${TAIL_SECONDS_SQL}, 0))`;
/** The fragments above, for the views over course `c`. */
export const LECTURES_SQL = {
  left: LECTURES_LEFT_SQL,
  secondsLeft: SECONDS_LEFT_SQL,
  tailDone: TAIL_DONE_SQL,
  secondsDone: SECONDS_DONE_SQL,
} as const;

/**
 * Open now: not locked, or locked until an instant that has passed (the school opens it on that
 * date; the copy synced before then still says locked). An unreadable unlock date keeps it locked.
 */
export function isOpenAt(
  lecture: Pick<OrderedLecture, 'isLocked' | 'unlockAt'>,
  now: number,
): boolean {
  if (!lecture.isLocked) return true;
  if (lecture.unlockAt === null) return false;
  const at = Date.parse(lecture.unlockAt);
  return Number.isFinite(at) && at <= now;
}

const ref = (l: OrderedLecture): LectureRef => ({
  lectureId: l.lectureId,
  title: l.title,
  sectionTitle: l.sectionTitle,
  durationSeconds: l.durationSeconds,
});

const firstToDoFrom = (lectures: readonly OrderedLecture[], from: number): OrderedLecture | null =>
  lectures.slice(Math.max(0, from)).find((l) => l.state !== 'completed') ?? null;

/**
 * The four lectures of NextStepLectures, picked from the whole ordered list (a course's detail
 * holds it anyway).
 */
export function lecturesForNextStep(
  lectures: readonly OrderedLecture[],
  lastLectureId: string | null,
): NextStepLectures {
  const lastIndex =
    lastLectureId === null ? -1 : lectures.findIndex((l) => l.lectureId === lastLectureId);
  return {
    first: lectures[0] ?? null,
    last: lastIndex >= 0 ? lectures[lastIndex]! : null,
    firstToDo: firstToDoFrom(lectures, 0),
    toDoAfterLast: lastIndex >= 0 ? firstToDoFrom(lectures, lastIndex + 1) : null,
  };
}

export function courseNextStep(input: NextStepInput, now: number): CourseNextStep {
  return nextStepOf(input, lecturesForNextStep(input.lectures, input.lastLectureId), now);
}

export function nextStepOf(
  facts: NextStepFacts,
  lectures: NextStepLectures,
  now: number,
): CourseNextStep {
  if (facts.isExpired) return { kind: 'expired', endedAt: facts.expireDate };
  const { first, last, firstToDo } = lectures;
  if (first === null) return { kind: 'none' };
  if (facts.completedAt !== null || firstToDo === null)
    return { kind: 'completed', again: ref(first) };

  const locked = (l: OrderedLecture): CourseNextStep => ({
    kind: 'locked',
    lecture: ref(l),
    unlockAt: l.unlockAt,
  });
  if (last !== null) {
    const position = Math.max(0, facts.lastPositionSeconds ?? 0);
    const finished = lectureDone({
      state: last.state,
      durationSeconds: last.durationSeconds,
      lastPositionSeconds: position,
    });
    if (!finished)
      return isOpenAt(last, now)
        ? { kind: 'resume', lecture: ref(last), positionSeconds: position }
        : locked(last);
    // Finished: the next lecture after it not yet completed; if every later one is done, the first
    // one left earlier.
    const todo = lectures.toDoAfterLast ?? firstToDo;
    // The last lecture left was the one just finished: the course is done, not "up next" again.
    if (todo.lectureId === last.lectureId) return { kind: 'completed', again: ref(first) };
    return isOpenAt(todo, now)
      ? { kind: 'next', lecture: ref(todo), finished: ref(last) }
      : locked(todo);
  }
  return isOpenAt(firstToDo, now) ? { kind: 'start', lecture: ref(firstToDo) } : locked(firstToDo);
}

interface OrderedLectureRow {
  course_id: string;
  id: string;
  title: string;
  section_title: string;
  duration: number;
  state: LectureState;
  is_locked: number;
  unlock_at: string | null;
}

const toOrdered = (r: OrderedLectureRow): OrderedLecture => ({
  lectureId: r.id,
  title: siteText(r.title),
  sectionTitle: siteText(r.section_title),
  durationSeconds: r.duration,
  state: r.state,
  isLocked: r.is_locked === 1,
  unlockAt: r.unlock_at,
});

/**
 * Every lecture of the given courses in each course's order (018's `ord`), one statement for all of
 * them.
 */
export function orderedLectures(
  db: Database,
  siteId: string,
  courseIds: readonly string[],
): Map<string, OrderedLecture[]> {
  const out = new Map<string, OrderedLecture[]>();
  if (courseIds.length === 0) return out;
  const rows = prepared<{ siteId: string; ids: string }, OrderedLectureRow>(
    db,
    `SELECT l.course_id, l.id, l.title, s.title AS section_title, l.duration, l.state, l.is_locked, l.unlock_at
       FROM lectures l JOIN sections s ON s.site_id = l.site_id AND s.id = l.section_id
      WHERE l.site_id = @siteId AND l.course_id IN (SELECT value FROM json_each(@ids))
      ORDER BY l.course_id, l.ord`,
  ).all({ siteId, ids: JSON.stringify(courseIds) });
  for (const r of rows) {
    const lecture = toOrdered(r);
    const list = out.get(r.course_id);
    if (list) list.push(lecture);
    else out.set(r.course_id, [lecture]);
  }
  return out;
}

/** A course without lectures (nextStepLectures answers nothing for it). */
export const NO_LECTURES: NextStepLectures = {
  first: null,
  last: null,
  firstToDo: null,
  toDoAfterLast: null,
};
const ROLES = ['first', 'last', 'firstToDo', 'toDoAfterLast'] as const;

/**
 * The NextStepLectures of the given courses of one site, one statement for all of them: each of the
 * four is one step down lectures_in_order or lectures_to_do (migration 018), so a page of 50
 * courses reads at most 200 lectures however long its courses are. The last watched lecture counts
 * only when it is in the same course, as in lecturesForNextStep.
 */
function nextStepLectures(
  db: Database,
  siteId: string,
  courseIds: readonly string[],
): Map<string, NextStepLectures> {
  const out = new Map<string, NextStepLectures>();
  if (courseIds.length === 0) return out;
  const rows = prepared<{ siteId: string; ids: string }, OrderedLectureRow & { role: number }>(
    db,
    // MATERIALIZED and CROSS JOIN fix the plan: from the page's ids outwards, never a scan of the
    // site's lectures.
    `WITH page(course_id) AS MATERIALIZED (SELECT DISTINCT value FROM json_each(@ids)),
     watched(course_id, ord, lecture_id) AS MATERIALIZED (
       SELECT p.course_id, lw.ord, lw.id FROM page p CROSS JOIN courses c CROSS JOIN lectures lw
        WHERE c.site_id = @siteId AND c.id = p.course_id
          AND lw.site_id = @siteId AND lw.id = c.last_lecture_id AND lw.course_id = p.course_id),
     picks(course_id, role, lecture_id) AS MATERIALIZED (
       SELECT p.course_id, 0, (SELECT n.id FROM lectures n WHERE n.site_id = @siteId AND n.course_id = p.course_id
                               ORDER BY n.ord LIMIT 1) FROM page p
       UNION ALL SELECT w.course_id, 1, w.lecture_id FROM watched w
       UNION ALL
       SELECT p.course_id, 2, (SELECT n.id FROM lectures n WHERE n.site_id = @siteId AND n.course_id = p.course_id
                                 AND n.state <> 'completed' ORDER BY n.ord LIMIT 1) FROM page p
       UNION ALL
       SELECT w.course_id, 3, (SELECT n.id FROM lectures n WHERE n.site_id = @siteId AND n.course_id = w.course_id
                                 AND n.state <> 'completed' AND n.ord > w.ord ORDER BY n.ord LIMIT 1) FROM watched w)
     SELECT picks.course_id, picks.role, l.id, l.title, s.title AS section_title, l.duration, l.state, l.is_locked, l.unlock_at
       FROM picks CROSS JOIN lectures l CROSS JOIN sections s
      WHERE l.site_id = @siteId AND l.id = picks.lecture_id AND s.site_id = l.site_id AND s.id = l.section_id`,
  ).all({ siteId, ids: JSON.stringify(courseIds) });
  for (const r of rows) {
    const role = ROLES[r.role];
    if (role === undefined) continue;
    out.set(r.course_id, { ...(out.get(r.course_id) ?? NO_LECTURES), [role]: toOrdered(r) });
  }
  return out;
}

/**
 * nextStepLectures for courses of several sites (a page of "All schools"), keyed by
 * `siteId \u0000 courseId`.
 */
export function nextStepLecturesOf(
  db: Database,
  courses: readonly { site_id: string; id: string }[],
): Map<string, NextStepLectures> {
  const bySite = new Map<string, string[]>();
  for (const c of courses) {
    const ids = bySite.get(c.site_id);
    if (ids) ids.push(c.id);
    else bySite.set(c.site_id, [c.id]);
  }
  const out = new Map<string, NextStepLectures>();
  for (const [site, ids] of bySite)
    for (const [courseId, picked] of nextStepLectures(db, site, ids))
      out.set(`${site}\u0000${courseId}`, picked);
  return out;
}

/**
 * The instants after which a course's next step may change by itself (a locked lecture's unlock
 * date).
 */
export function unlockBoundaries(lectures: readonly OrderedLecture[]): number[] {
  return lectures.flatMap((l) =>
    l.isLocked && l.unlockAt !== null && Number.isFinite(Date.parse(l.unlockAt))
      ? [Date.parse(l.unlockAt)]
      : [],
  );
}
