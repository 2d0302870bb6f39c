import type { CoreHandlers } from '../../common/ipc-contract';
import { isKnownTimeZone } from '../../common/zoned-time';
import { buildCoursePlan, type PlanChoices } from '../db/index';
import { CoreError } from '../errors';
import type { PlanPreferences } from '../settings/plan-preferences';
import type { PlanCache } from './plan-cache';
import type { AppServices } from './services';

type PlanChannels = 'plan:get' | 'plan:course' | 'plan:set-goal' | 'plan:set-study-days';

export interface PlanHandlerDeps extends Pick<AppServices, 'db' | 'clock' | 'sites'> {
  readonly prefs: PlanPreferences;
  /** Builds Today's plan and keeps it for the feed's study blocks. */
  readonly plans: PlanCache;
  /** Something the plan shows changed (a goal, the study days): the feed's study blocks follow. */
  readonly onChange?: () => void;
}

export function planChoices(prefs: PlanPreferences): PlanChoices {
  return {
    studyDays: prefs.studyDays(),
    overallGoal: prefs.overallGoal(),
    goalOf: (siteId, courseId) => prefs.goalOf(siteId, courseId),
    goalCourses: prefs.goalCourses(),
  };
}

function zone(timeZone: string): string {
  if (!isKnownTimeZone(timeZone))
    throw new CoreError('invalid-input', 'That is not a time zone this computer knows.');
  return timeZone;
}

/** The plan to finish each course in time, and the student's goals and study days. */
export function createPlanHandlers(d: PlanHandlerDeps): Pick<CoreHandlers, PlanChannels> {
  const known = () => new Set(d.sites.list().map((s) => s.id));
  const oldestSync = () => {
    const times = d.sites.list().map((s) => s.lastSyncedAt);
    if (times.length === 0 || times.some((t) => t === null)) return null;
    return (times as string[]).sort()[0] ?? null;
  };
  return {
    'plan:get': async ({ timeZone }) => {
      const view = d.plans.build(d.clock.now(), zone(timeZone), oldestSync());
      const sites = known();
      return { ...view, courses: view.courses.filter((c) => sites.has(c.siteId)) };
    },
    'plan:course': async ({ siteId, courseId, timeZone }) =>
      known().has(siteId)
        ? buildCoursePlan(
            d.db,
            planChoices(d.prefs),
            siteId,
            courseId,
            d.clock.now(),
            zone(timeZone),
          )
        : null,
    'plan:set-goal': async ({ siteId, courseId, goal }) => {
      if ((siteId === undefined) !== (courseId === undefined))
        throw new CoreError('invalid-input', 'A course goal names both the school and the course.');
      await d.prefs.setGoal(siteId ?? null, courseId ?? null, goal);
      d.onChange?.();
    },
    'plan:set-study-days': async ({ days }) => {
      await d.prefs.setStudyDays(days);
      d.onChange?.();
    },
  };
}
