/**
 * The facts every screen and export derives from the same stored values, each by one function: the
 * days of access left, the minutes of a course left to watch, and whether a lecture is done. Today,
 * My courses, the course screen, the progress summary, the course's calendar file and the cards all
 * call these, so they can never say two things about one fact ("2 days left" on one screen and
 * "Expires in 3 days" on another).
 */

const DAY_MS = 86_400_000;

/**
 * The instant a site's date names, or null when it names none (unparseable, not a string, out of
 * Date's range).
 */
export function parseSiteDate(iso: unknown): Date | null {
  if (typeof iso !== 'string' || iso.length === 0 || iso.length > 64) return null;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d;
}

/**
 * Days of access left until `end`, rounded up: 2 days and 3 hours left is "3 days" (the access ends
 * within 3 days), an hour left is "1 day", an end passed is 0. Null when the site's date cannot be
 * read.
 */
export function accessDaysLeft(end: unknown, now: number): number | null {
  const at = parseSiteDate(end)?.getTime();
  return at === undefined ? null : Math.max(0, Math.ceil((at - now) / DAY_MS));
}

/**
 * Minutes of content left, rounded up: never "0 min" while a second of it is left, and 0 only when
 * nothing is.
 */
export function minutesLeft(seconds: number): number {
  return Number.isFinite(seconds) && seconds > 0 ? Math.max(1, Math.ceil(seconds / 60)) : 0;
}

/**
 * A lecture watched into its last 5% or its last 30 seconds, whichever comes first, is finished.
 */
export const FINISHED_FRACTION = 0.95;
export const FINISHED_TAIL_SECONDS = 30;

export function isFinishedAt(positionSeconds: number, durationSeconds: number): boolean {
  if (durationSeconds <= 0) return false;
  return (
    positionSeconds >= durationSeconds * FINISHED_FRACTION ||
    durationSeconds - positionSeconds <= FINISHED_TAIL_SECONDS
  );
}

/**
 * Done: the school marked the lecture completed, or it is the course's last watched lecture and the
 * student watched it into its finished tail (the school may mark it only later). What the course's
 * next step calls "finished", its row says "Completed", and the counts and the time left leave out.
 */
export function lectureDone(lecture: {
  readonly state: string;
  readonly durationSeconds: number;
  /**
   * The course's last position in this lecture, when it is the last watched one; null otherwise.
   */
  readonly lastPositionSeconds: number | null;
}): boolean {
  if (lecture.state === 'completed') return true;
  return (
    lecture.lastPositionSeconds !== null &&
    isFinishedAt(Math.max(0, lecture.lastPositionSeconds), lecture.durationSeconds)
  );
}
