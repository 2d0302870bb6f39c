/**
 * The plan to finish a course before its access ends: what is left, the study days left, the pace
 * that fits, and this week's work against the student's goal or that pace. Pure arithmetic over
 * what the saved copy says; the screens, the reminders ("behind on the plan") and the calendar's
 * study blocks all read it from here.
 *
 * The pace honours lectures that unlock later: work that opens on day u can only be done from u on,
 * so the pace per study day is the largest, over now and every unlock day u, of (work opening at or
 * after u) / (study days from u to the end). That is the least steady pace that finishes in time (a
 * common deadline with release dates).
 */
import { accessDaysLeft, minutesLeft, parseSiteDate } from './facts';
import { dayLabel, localDay, mondayOf, weekdayOf } from './zoned-time';

/**
 * More than this many minutes of content a study day is no sensible pace (a working day of
 * watching).
 */
export const SENSIBLE_MINUTES_PER_DAY = 6 * 60;
/** The same for a course whose lectures have no length: lectures a study day. */
export const SENSIBLE_LECTURES_PER_DAY = 20;
/** Every day of the week (ISO weekdays): the study days of a student who named none. */
export const EVERY_DAY: readonly number[] = [1, 2, 3, 4, 5, 6, 7];

export type GoalUnit = 'minutes' | 'lectures';
export interface WeeklyGoal {
  readonly unit: GoalUnit;
  readonly amount: number;
}

export interface PlanLecture {
  readonly durationSeconds: number;
  readonly done: boolean;
  /** Locked now. */
  readonly isLocked: boolean;
  /** When a locked lecture opens (the site's date), or null. */
  readonly unlockAt: string | null;
}

export interface PlanInput {
  readonly now: number;
  readonly timeZone: string;
  readonly expireDate: string | null;
  readonly hasLifetimeAccess: boolean;
  readonly lectures: readonly PlanLecture[];
  /** Lectures this course's syncs first saw completed this week, and their length. */
  readonly doneThisWeek: { readonly lectures: number; readonly seconds: number };
  /** ISO weekdays the student studies on (1 Monday ... 7 Sunday); empty means every day. */
  readonly studyDays: readonly number[];
  readonly goal: WeeklyGoal | null;
  /**
   * When the app's record of this school's work began (its first sync): the week asks nothing of
   * the days before it, since work done then was not seen (a student who installs on Wednesday is
   * not behind for Monday).
   */
  readonly countedFrom?: number | null;
}

/**
 * Less than this far behind is on track: a week's share is rounded, and a few minutes are noise.
 */
export const BEHIND_MINUTES = 5;

/** Whether a week's work is behind what it asked by now (minutes: by BEHIND_MINUTES or more). */
export function isBehind(week: WeekPlan): boolean {
  return week.behindBy >= (week.target.unit === 'minutes' ? BEHIND_MINUTES : 1);
}

export type PlanStatus =
  /** Lifetime access or no end date: nothing to finish by (a goal is still tracked). */
  | 'no-end'
  | 'ended'
  | 'done'
  | 'on-track'
  | 'behind'
  /** Needs more than a sensible pace, or has lectures that open only after the access ends. */
  | 'cannot-finish';

export interface WeekPlan {
  /** The Monday of this week, YYYY-MM-DD in the student's zone. */
  readonly weekStart: string;
  /** What this week asks: the student's goal, or the pace needed (from the week's start). */
  readonly target: WeeklyGoal;
  readonly source: 'goal' | 'pace';
  /**
   * Done this week in the target's unit (minutes of lectures first seen completed, or lectures).
   */
  readonly done: number;
  /** What the target asks by the start of today (its share of the study days gone by). */
  readonly expectedByNow: number;
  readonly behindBy: number;
}

export interface CoursePlan {
  readonly status: PlanStatus;
  readonly daysLeft: number | null;
  /** Whole and part weeks to the end, one decimal (null without an end). */
  readonly weeksLeft: number | null;
  readonly studyDaysLeft: number | null;
  readonly lecturesLeft: number;
  readonly minutesLeft: number;
  /**
   * Lectures left whose length the school does not send: counted as lectures, not in the minutes.
   */
  readonly lecturesWithoutDuration: number;
  /**
   * Lectures left that open only after the access ends, or are locked with no date: they cannot be
   * placed.
   */
  readonly lecturesNeverOpen: number;
  /** The least steady pace that finishes in time (null without an end, or once done or ended). */
  readonly pace: {
    readonly minutesPerWeek: number;
    readonly lecturesPerWeek: number;
    readonly minutesPerStudyDay: number;
    readonly lecturesPerStudyDay: number;
    /**
     * The busiest stretch: lectures that open late must be watched between their opening and the
     * end, which may ask more a day than the average (what decides whether the course can be
     * finished at all).
     */
    readonly peakMinutesPerStudyDay: number;
  } | null;
  /** The student's goal is below that pace: keeping it will not finish the course in time. */
  readonly goalBelowPace: boolean;
  readonly week: WeekPlan | null;
}

interface Work {
  /** The day it can be started on. */
  readonly day: number;
  readonly seconds: number;
  readonly lectures: number;
}

/** The student's study days, cleaned: known weekdays, each once; none named is every day. */
export function studyDaysOf(days: readonly number[]): readonly number[] {
  const set = new Set(days.filter((d) => Number.isInteger(d) && d >= 1 && d <= 7));
  return set.size === 0 ? EVERY_DAY : [...set].sort();
}

/** Study days from `from` to `to` (inclusive day numbers). */
export function studyDaysBetween(from: number, to: number, days: readonly number[]): number {
  if (to < from) return 0;
  const span = to - from + 1;
  let n = Math.floor(span / 7) * days.length;
  for (let d = from + Math.floor(span / 7) * 7; d <= to; d++) if (days.includes(weekdayOf(d))) n++;
  return n;
}

interface Rate {
  readonly seconds: number;
  readonly lectures: number;
}

/**
 * Rates per study day (seconds, lectures) to do `work` by `lastDay`, starting no sooner than
 * `from`: the average (all of it over every study day left) and the peak, the least steady pace
 * that still finishes (the largest, over every day something opens, of what opens then or later
 * over the study days from then).
 */
function ratesOf(work: readonly Work[], from: number, lastDay: number, days: readonly number[]) {
  // Work by the day it opens (none before `from`), latest first, summed as it goes: what opens then
  // or later.
  const byDay = new Map<number, { seconds: number; lectures: number }>();
  for (const w of work) {
    const day = Math.max(from, w.day);
    const d = byDay.get(day) ?? { seconds: 0, lectures: 0 };
    byDay.set(day, { seconds: d.seconds + w.seconds, lectures: d.lectures + w.lectures });
  }
  if (!byDay.has(from)) byDay.set(from, { seconds: 0, lectures: 0 });
  let peak: Rate = { seconds: 0, lectures: 0 };
  let average: Rate = peak;
  let s = 0;
  let l = 0;
  for (const start of [...byDay.keys()].sort((a, b) => b - a)) {
    s += byDay.get(start)!.seconds;
    l += byDay.get(start)!.lectures;
    const span = studyDaysBetween(start, lastDay, days);
    const rate =
      l === 0
        ? { seconds: 0, lectures: 0 }
        : span === 0
          ? { seconds: Number.POSITIVE_INFINITY, lectures: Number.POSITIVE_INFINITY }
          : { seconds: s / span, lectures: l / span };
    if (start === from) average = rate;
    peak = {
      seconds: Math.max(peak.seconds, rate.seconds),
      lectures: Math.max(peak.lectures, rate.lectures),
    };
  }
  return { average, peak };
}

/** The lectures left as work that opens on a day; those that never open before `end` apart. */
function workLeft(input: PlanInput, today: number, end: number | null) {
  const work: Work[] = [];
  let never = 0;
  for (const l of input.lectures) {
    if (l.done) continue;
    let day = today;
    if (l.isLocked) {
      const at = parseSiteDate(l.unlockAt)?.getTime();
      if (at === undefined || (end !== null && at >= end)) {
        never++;
        continue;
      }
      day = Math.max(today, localDay(at, input.timeZone));
    }
    work.push({ day, seconds: Math.max(0, l.durationSeconds || 0), lectures: 1 });
  }
  return { work, never };
}

const round1 = (n: number) => Math.round(n * 10) / 10;

export function coursePlan(input: PlanInput): CoursePlan {
  const days = studyDaysOf(input.studyDays);
  const { now, timeZone } = input;
  const today = localDay(now, timeZone);
  const end = input.hasLifetimeAccess ? null : (parseSiteDate(input.expireDate)?.getTime() ?? null);
  const { work, never } = workLeft(input, today, end);
  const left = input.lectures.filter((l) => !l.done);
  const base = {
    lecturesLeft: left.length,
    minutesLeft: minutesLeft(left.reduce((s, l) => s + Math.max(0, l.durationSeconds || 0), 0)),
    lecturesWithoutDuration: left.filter((l) => !(l.durationSeconds > 0)).length,
    lecturesNeverOpen: never,
  };
  const week = (target: WeeklyGoal | null, source: WeekPlan['source'], lastDay: number | null) =>
    target === null ? null : weekPlan(input, days, today, target, source, lastDay);
  if (end === null)
    return {
      ...base,
      status: left.length === 0 ? 'done' : 'no-end',
      daysLeft: null,
      weeksLeft: null,
      studyDaysLeft: null,
      pace: null,
      goalBelowPace: false,
      week: week(input.goal, 'goal', null),
    };
  const daysLeft = accessDaysLeft(input.expireDate, now);
  const ended = end <= now;
  const lastDay = localDay(end - 1, timeZone);
  const common = {
    ...base,
    daysLeft,
    weeksLeft: ended ? 0 : round1((end - now) / (7 * 86_400_000)),
    studyDaysLeft: ended ? 0 : studyDaysBetween(today, lastDay, days),
  };
  if (ended || left.length === 0)
    return {
      ...common,
      status: ended ? 'ended' : 'done',
      pace: null,
      goalBelowPace: false,
      week: ended ? null : week(input.goal, 'goal', lastDay),
    };
  const { average: rate, peak } = ratesOf(work, today, lastDay, days);
  const perWeek = studyDaysBetween(0, 6, days);
  const pace = {
    minutesPerWeek: Math.ceil((rate.seconds * perWeek) / 60),
    lecturesPerWeek: Math.ceil(rate.lectures * perWeek),
    minutesPerStudyDay: Math.ceil(rate.seconds / 60),
    lecturesPerStudyDay: round1(rate.lectures),
    peakMinutesPerStudyDay: Math.ceil(peak.seconds / 60),
  };
  const impossible =
    never > 0 ||
    !Number.isFinite(peak.lectures) ||
    peak.seconds / 60 > SENSIBLE_MINUTES_PER_DAY ||
    (base.minutesLeft === 0 && peak.lectures > SENSIBLE_LECTURES_PER_DAY);
  const target = input.goal ?? paceTarget(input, days, today, lastDay);
  const w = week(target, input.goal ? 'goal' : 'pace', lastDay);
  const goalBelowPace =
    input.goal !== null &&
    (input.goal.unit === 'minutes'
      ? input.goal.amount < pace.minutesPerWeek
      : input.goal.amount < pace.lecturesPerWeek);
  return {
    ...common,
    status: impossible ? 'cannot-finish' : w !== null && isBehind(w) ? 'behind' : 'on-track',
    pace: Number.isFinite(rate.lectures) ? pace : null,
    goalBelowPace,
    week: w,
  };
}

/**
 * This week's share of the average pace, reckoned from the week's start (the work done this week is
 * put back as work open on Monday, so finishing early in the week does not shrink what the week
 * asked), and never more than what is open by the week's end: a lecture is placed in the week it
 * unlocks.
 */
function paceTarget(input: PlanInput, days: readonly number[], today: number, lastDay: number) {
  const monday = mondayOf(today);
  const weekEnd = Math.min(monday + 6, lastDay);
  const end = parseSiteDate(input.expireDate)?.getTime() ?? null;
  const { work } = workLeft(input, today, end);
  const doneWork: Work = {
    day: monday,
    seconds: input.doneThisWeek.seconds,
    lectures: input.doneThisWeek.lectures,
  };
  const all = input.doneThisWeek.lectures > 0 ? [doneWork, ...work] : work;
  const { average } = ratesOf(all, monday, lastDay, days);
  const share = studyDaysBetween(monday, weekEnd, days);
  const openByWeekEnd = all.filter((w) => w.day <= weekEnd);
  const cap = (unit: 'seconds' | 'lectures') => openByWeekEnd.reduce((n, w) => n + w[unit], 0);
  return all.some((w) => w.seconds > 0)
    ? {
        unit: 'minutes' as const,
        amount: Math.ceil(Math.min(average.seconds * share, cap('seconds')) / 60),
      }
    : {
        unit: 'lectures' as const,
        amount: Math.ceil(Math.min(average.lectures * share, cap('lectures'))),
      };
}

/**
 * This week against `target`: the share of it due by today's start, and how far the work done falls
 * short.
 */
export function weekPlan(
  input: Pick<PlanInput, 'doneThisWeek' | 'countedFrom' | 'timeZone'>,
  days: readonly number[],
  today: number,
  target: WeeklyGoal,
  source: WeekPlan['source'],
  lastDay: number | null,
): WeekPlan {
  const monday = mondayOf(today);
  const sunday = lastDay === null ? monday + 6 : Math.min(monday + 6, lastDay);
  const total = studyDaysBetween(monday, sunday, days);
  const from =
    typeof input.countedFrom === 'number' && Number.isFinite(input.countedFrom)
      ? Math.max(monday, localDay(input.countedFrom, input.timeZone))
      : monday;
  const gone = studyDaysBetween(from, Math.min(today - 1, sunday), days);
  const done =
    target.unit === 'minutes'
      ? Math.floor(input.doneThisWeek.seconds / 60)
      : input.doneThisWeek.lectures;
  const expectedByNow = total === 0 ? 0 : Math.round((target.amount * gone) / total);
  return {
    weekStart: dayLabel(monday),
    target,
    source,
    done,
    expectedByNow,
    behindBy: Math.max(0, expectedByNow - done),
  };
}
