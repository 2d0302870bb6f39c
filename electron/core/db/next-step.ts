/**
 * The one prompt a course shows (issue "take me to my lesson"): continue where the student stopped, the next unlocked
 * lecture once the last one is finished, "Locked until ..." when the next one is not open yet, "Completed" with an
 * offer to watch again, or "Access ended on ..." - never "Continue watching" on a course that can no longer be
 * watched, nor "Up next" for a lecture already finished.
 */
import type { Database } from 'better-sqlite3';
import type { CourseNextStep, IsoDateTime, LectureRef, LectureState } from '../../common/view-models';
import { prepared } from './statements';

/** A lecture in the course's order (sections by position, then lectures by position). */
export interface OrderedLecture extends LectureRef {
  readonly state: LectureState;
  readonly isLocked: boolean;
  readonly unlockAt: IsoDateTime | null;
}

export interface NextStepInput {
  readonly isExpired: boolean;
  readonly expireDate: IsoDateTime | null;
  readonly completedAt: IsoDateTime | null;
  readonly lastLectureId: string | null;
  readonly lastPositionSeconds: number | null;
  /** Every lecture of the course, in order. */
  readonly lectures: readonly OrderedLecture[];
}

/** "Finished" is the last 5% of a lecture or its last 30 seconds, whichever is reached first. */
export const FINISHED_FRACTION = 0.95;
export const FINISHED_TAIL_SECONDS = 30;

export function isFinishedAt(positionSeconds: number, durationSeconds: number): boolean {
  if (durationSeconds <= 0) return false;
  return positionSeconds >= durationSeconds * FINISHED_FRACTION || durationSeconds - positionSeconds <= FINISHED_TAIL_SECONDS;
}

/**
 * Open now: not locked, or locked until an instant that has passed (the school opens it on that date; the copy
 * synced before then still says locked). An unreadable unlock date keeps it locked.
 */
export function isOpenAt(lecture: Pick<OrderedLecture, 'isLocked' | 'unlockAt'>, now: number): boolean {
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

/** The first lecture from `from` on that is not completed: open -> next/start, locked -> locked. */
function firstToDo(lectures: readonly OrderedLecture[], from: number, now: number): { lecture: OrderedLecture; open: boolean } | null {
  for (let i = from; i < lectures.length; i++) {
    const l = lectures[i]!;
    if (l.state === 'completed') continue;
    return { lecture: l, open: isOpenAt(l, now) };
  }
  return null;
}

export function courseNextStep(input: NextStepInput, now: number): CourseNextStep {
  if (input.isExpired) return { kind: 'expired', endedAt: input.expireDate };
  const { lectures } = input;
  if (lectures.length === 0) return { kind: 'none' };
  const allDone = lectures.every((l) => l.state === 'completed');
  if (input.completedAt !== null || allDone) return { kind: 'completed', again: ref(lectures[0]!) };

  const lastIndex = input.lastLectureId === null ? -1 : lectures.findIndex((l) => l.lectureId === input.lastLectureId);
  const locked = (l: OrderedLecture): CourseNextStep => ({ kind: 'locked', lecture: ref(l), unlockAt: l.unlockAt });
  if (lastIndex >= 0) {
    const last = lectures[lastIndex]!;
    const position = Math.max(0, input.lastPositionSeconds ?? 0);
    const finished = last.state === 'completed' || isFinishedAt(position, last.durationSeconds);
    if (!finished) return isOpenAt(last, now) ? { kind: 'resume', lecture: ref(last), positionSeconds: position } : locked(last);
    // Finished: the next lecture after it not yet completed; if every later one is done, the first one left earlier.
    const todo = firstToDo(lectures, lastIndex + 1, now) ?? firstToDo(lectures, 0, now);
    if (!todo) return { kind: 'completed', again: ref(lectures[0]!) };
    return todo.open ? { kind: 'next', lecture: ref(todo.lecture), finished: ref(last) } : locked(todo.lecture);
  }
  const todo = firstToDo(lectures, 0, now);
  if (!todo) return { kind: 'completed', again: ref(lectures[0]!) };
  return todo.open ? { kind: 'start', lecture: ref(todo.lecture) } : locked(todo.lecture);
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

/** Every lecture of the given courses in each course's order, one statement for all of them. */
export function orderedLectures(db: Database, siteId: string, courseIds: readonly string[]): Map<string, OrderedLecture[]> {
  const out = new Map<string, OrderedLecture[]>();
  if (courseIds.length === 0) return out;
  const rows = prepared<{ siteId: string; ids: string }, OrderedLectureRow>(
    db,
    `SELECT l.course_id, l.id, l.title, s.title AS section_title, l.duration, l.state, l.is_locked, l.unlock_at
       FROM lectures l JOIN sections s ON s.site_id = l.site_id AND s.id = l.section_id
      WHERE l.site_id = @siteId AND l.course_id IN (SELECT value FROM json_each(@ids))
      ORDER BY l.course_id, s.position, l.position`,
  ).all({ siteId, ids: JSON.stringify(courseIds) });
  for (const r of rows) {
    const lecture: OrderedLecture = {
      lectureId: r.id,
      title: r.title,
      sectionTitle: r.section_title,
      durationSeconds: r.duration,
      state: r.state,
      isLocked: r.is_locked === 1,
      unlockAt: r.unlock_at,
    };
    const list = out.get(r.course_id);
    if (list) list.push(lecture);
    else out.set(r.course_id, [lecture]);
  }
  return out;
}

/** The instants after which a course's next step may change by itself (a locked lecture's unlock date). */
export function unlockBoundaries(lectures: readonly OrderedLecture[]): number[] {
  return lectures.flatMap((l) => (l.isLocked && l.unlockAt !== null && Number.isFinite(Date.parse(l.unlockAt)) ? [Date.parse(l.unlockAt)] : []));
}
