/**
 * Progress you can see: a week's work per school, the active-weeks streak, and the pace each course
 * needs.
 */
import type { IsoDateTime, SiteId } from './base';

/**
 * One week (the student's local week, Monday to Sunday): lectures first seen completed in it, and
 * their length.
 */
export interface WeekProgress {
  /** The Monday the week starts on, as YYYY-MM-DD in the student's time zone. */
  readonly weekStart: string;
  readonly lectures: number;
  /**
   * The lectures' length in seconds (minutes of content, not time spent watching: the site does not
   * send that).
   */
  readonly seconds: number;
}

/**
 * A course with an end date still to finish: what is left and when access ends (the screen works
 * out the pace).
 */
export interface CoursePace {
  readonly courseId: string;
  readonly title: string;
  readonly lecturesLeft: number;
  readonly secondsLeft: number;
  readonly expireDate: IsoDateTime;
}

export interface ProgressSummary {
  readonly siteId: SiteId;
  /** The zone the weeks were counted in. */
  readonly timeZone: string;
  readonly thisWeek: WeekProgress;
  readonly lastWeek: WeekProgress;
  /**
   * Weeks in a row with at least one lecture completed, up to this week (a week not over yet does
   * not break the streak: counted up to last week until this week has one).
   */
  readonly streakWeeks: number;
  /** The last 12 weeks, newest first (this week included). */
  readonly weeks: readonly WeekProgress[];
  /** Courses with an end date, not finished nor expired, soonest end first. */
  readonly pace: readonly CoursePace[];
}
