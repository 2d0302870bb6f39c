/**
 * The plan as the screens show it: every course with an end date ahead (and any with a goal of its
 * own), each planned by common/plan.ts, and this week's work across them all against the overall
 * goal.
 */
import type { Database } from 'better-sqlite3';
import { coursePlan, studyDaysOf, weekPlan, type WeeklyGoal } from '../../common/plan';
import type { CoursePlanView, PlanView } from '../../common/plan-contract';
import { localDay } from '../../common/zoned-time';
import { firstSyncedAt, getPlanCourse, getPlanCourses, type PlanCourseRow } from './plan';

/** What the student chose (settings/plan-preferences.ts), as plain data. */
export interface PlanChoices {
  readonly studyDays: readonly number[];
  readonly overallGoal: WeeklyGoal | null;
  readonly goalOf: (siteId: string, courseId: string) => WeeklyGoal | null;
  readonly goalCourses: readonly { siteId: string; courseId: string }[];
}

function planned(row: PlanCourseRow, choices: PlanChoices, now: number, timeZone: string) {
  const goal = choices.goalOf(row.siteId, row.courseId);
  const view: CoursePlanView = {
    siteId: row.siteId,
    courseId: row.courseId,
    title: row.title,
    expireDate: row.hasLifetimeAccess ? null : row.expireDate,
    goal,
    plan: coursePlan({
      now,
      timeZone,
      expireDate: row.expireDate,
      hasLifetimeAccess: row.hasLifetimeAccess,
      lectures: row.lectures,
      doneThisWeek: row.doneThisWeek,
      studyDays: choices.studyDays,
      goal,
      countedFrom: row.countedFrom,
    }),
  };
  return view;
}

export function buildPlanView(
  db: Database,
  choices: PlanChoices,
  now: number,
  timeZone: string,
  syncedAt: string | null,
): PlanView {
  const { courses, done } = getPlanCourses(db, now, timeZone, choices.goalCourses);
  const all = { lectures: 0, seconds: 0 };
  for (const d of done.values()) {
    all.lectures += d.lectures;
    all.seconds += d.seconds;
  }
  const overall =
    choices.overallGoal === null
      ? null
      : weekPlan(
          { doneThisWeek: all, countedFrom: firstSyncedAt(db), timeZone },
          studyDaysOf(choices.studyDays),
          localDay(now, timeZone),
          choices.overallGoal,
          'goal',
          null,
        );
  return {
    now: new Date(now).toISOString(),
    timeZone,
    studyDays: choices.studyDays,
    overallGoal: choices.overallGoal,
    overall,
    courses: courses.map((row) => planned(row, choices, now, timeZone)),
    syncedAt,
  };
}

export function buildCoursePlan(
  db: Database,
  choices: PlanChoices,
  siteId: string,
  courseId: string,
  now: number,
  timeZone: string,
): CoursePlanView | null {
  const row = getPlanCourse(db, siteId, courseId, now, timeZone);
  return row ? planned(row, choices, now, timeZone) : null;
}
