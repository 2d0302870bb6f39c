/**
 * The channels and views of the plan, the reminder preferences and the calendar feed: spread into
 * the one IPC contract (ipc-contract.ts), kept here so that file stays one map of the older areas.
 */
import { z } from 'zod';
import type { CoursePlan, WeekPlan, WeeklyGoal } from './plan';
import type { IsoDateTime, SiteId } from './views/base';

/** The reminder kinds, each on or off per school with its own lead times. */
export const REMINDER_RULE_KINDS = [
  'access-ending',
  'lecture-unlocked',
  'payment-due',
  'event-starting',
  'consulting',
  'plan-behind',
] as const;
export type ReminderRuleKind = (typeof REMINDER_RULE_KINDS)[number];

/** The lead times offered, in minutes: 1 hour, 12 hours, 1 day, 3 days, 1 week. */
export const LEAD_PRESETS_MINUTES = [60, 720, 1440, 4320, 10080] as const;
/** A custom lead time: at most 60 days. */
export const LEAD_MAX_MINUTES = 60 * 1440;
/** Lead times per kind and school, at most. */
export const LEADS_MAX = 6;

export interface ReminderRule {
  readonly enabled: boolean;
  /**
   * Minutes before the moment (0: at the moment, the only one of lecture-unlocked and plan-behind).
   */
  readonly leadMinutes: readonly number[];
}

/** HH:MM to HH:MM in the student's zone; an end before the start runs over midnight. */
export interface QuietHours {
  readonly start: string;
  readonly end: string;
}

export interface ReminderPrefsView {
  /** Every school's rules (those it does not set follow `defaults`). */
  readonly defaults: Readonly<Record<ReminderRuleKind, ReminderRule>>;
  readonly sites: readonly {
    readonly siteId: SiteId;
    readonly label: string;
    readonly rules: Readonly<Record<ReminderRuleKind, ReminderRule>>;
    /** The kinds this school sets itself (the rest follow the defaults). */
    readonly own: readonly ReminderRuleKind[];
  }[];
  readonly quietHours: QuietHours | null;
}

export interface CoursePlanView {
  readonly siteId: SiteId;
  readonly courseId: string;
  readonly title: string;
  readonly expireDate: IsoDateTime | null;
  /** The student's own goal for this course, if any. */
  readonly goal: WeeklyGoal | null;
  readonly plan: CoursePlan;
}

export interface PlanView {
  readonly now: IsoDateTime;
  readonly timeZone: string;
  readonly studyDays: readonly number[];
  readonly overallGoal: WeeklyGoal | null;
  /** This week's work across every course and school against the overall goal. */
  readonly overall: WeekPlan | null;
  /** Courses with an end date ahead (and any with a goal), soonest end first. */
  readonly courses: readonly CoursePlanView[];
  /** The oldest of the schools' last syncs: the week's work is only as fresh as that. */
  readonly syncedAt: IsoDateTime | null;
}

export interface CalendarFeedView {
  /** The folder the .ics file is kept in, or null (not kept). */
  readonly folder: string | null;
  /** The file's full path, and when it was last written. */
  readonly file: string | null;
  readonly writtenAt: IsoDateTime | null;
  readonly lastError: string | null;
  /**
   * webcal:// address of the feed while the app runs (loopback only), or null when it could not
   * listen.
   */
  readonly webcalUrl: string | null;
  readonly httpUrl: string | null;
  readonly studyBlocks: boolean;
  readonly items: number;
  /**
   * Whether the host can show the system's folder dialog (the app); the browser host cannot, and
   * the folder is typed.
   */
  readonly canChooseFolder: boolean;
}

const siteId = z.string().min(1).max(100);
const courseId = z.string().min(1).max(200);
const timeZone = z.string().min(1).max(64);
const goal = z
  .object({
    unit: z.enum(['minutes', 'lectures']),
    amount: z
      .number()
      .int()
      .min(1)
      .max(7 * 24 * 60),
  })
  .strict();
const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/);
const rule = z
  .object({
    enabled: z.boolean(),
    leadMinutes: z.array(z.number().int().min(0).max(LEAD_MAX_MINUTES)).max(LEADS_MAX),
  })
  .strict();

function channel<O>() {
  return <I extends z.ZodType>(input: I) => ({ input }) as { input: I; __output?: O };
}

export const planChannels = {
  /**
   * The plans of every course with an end date ahead, and this week against the goals, weeks in
   * `timeZone`.
   */
  'plan:get': channel<PlanView>()(z.object({ timeZone }).strict()),
  /** One course's plan (the course screen), whatever its end. */
  'plan:course': channel<CoursePlanView | null>()(
    z.object({ siteId, courseId, timeZone }).strict(),
  ),
  /** A weekly goal for one course, or overall (no course); null removes it. */
  'plan:set-goal': channel<void>()(
    z
      .object({ siteId: siteId.optional(), courseId: courseId.optional(), goal: goal.nullable() })
      .strict(),
  ),
  /** The days of the week the student studies on (ISO: 1 Monday ... 7 Sunday); none: every day. */
  'plan:set-study-days': channel<void>()(
    z.object({ days: z.array(z.number().int().min(1).max(7)).max(7) }).strict(),
  ),
} as const;

export const reminderChannels = {
  'reminders:prefs': channel<ReminderPrefsView>()(z.undefined()),
  /**
   * A kind's rule for one school, or the default for every school (no siteId); `inherit` drops a
   * school's own.
   */
  'reminders:set-rule': channel<ReminderPrefsView>()(
    z
      .object({
        siteId: siteId.optional(),
        kind: z.enum(REMINDER_RULE_KINDS),
        rule: rule.nullable(),
      })
      .strict(),
  ),
  'reminders:set-quiet-hours': channel<ReminderPrefsView>()(
    z.object({ quietHours: z.object({ start: hhmm, end: hhmm }).strict().nullable() }).strict(),
  ),
  /**
   * Puts off a reminder's items (those of one notification, or one row of Today): an hour, or to
   * 08:00 tomorrow.
   */
  'reminders:snooze': channel<{ until: IsoDateTime }>()(
    z
      .object({
        kind: z.enum(REMINDER_RULE_KINDS),
        items: z
          .array(z.object({ siteId, subjectId: z.string().min(1).max(200) }).strict())
          .min(1)
          .max(20),
        until: z.enum(['hour', 'morning']),
        timeZone,
      })
      .strict(),
  ),
  /**
   * The system's folder dialog, then the folder kept as by calendar:set-feed; null when the student
   * cancelled. Refused where there is no dialog (the browser host).
   */
  'calendar:choose-folder': channel<CalendarFeedView | null>()(z.undefined()),
} as const;

export const feedChannels = {
  'calendar:feed': channel<CalendarFeedView>()(z.undefined()),
  /**
   * Where the kept .ics file goes (an absolute folder; null stops keeping it), and whether study
   * blocks go in.
   */
  'calendar:set-feed': channel<CalendarFeedView>()(
    z
      .object({
        folder: z.string().min(1).max(1024).nullable().optional(),
        studyBlocks: z.boolean().optional(),
      })
      .strict(),
  ),
} as const;
