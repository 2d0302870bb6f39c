/**
 * The student's choices for the plan, the reminders and the calendar feed, in `dataDir/plan.json`
 * (not secrets, except the feed's path token, which only unlocks what the calendar file holds
 * anyway; the file is 0600). Reminder rules before this file existed were three switches in
 * Settings (remindAccessEnding, ...): the defaults are read from them until the student changes a
 * rule, with the lead times those switches always used.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { WeeklyGoal } from '../../common/plan';
import {
  LEAD_MAX_MINUTES,
  LEADS_MAX,
  REMINDER_RULE_KINDS,
  type QuietHours,
  type ReminderRule,
  type ReminderRuleKind,
} from '../../common/plan-contract';
import type { Settings } from '../../common/view-models';
import { CoreError } from '../errors';
import { writeFileAtomic } from '../fs/atomic-file';
import { createKeyedQueue } from '../fs/keyed-queue';

const goalSchema = z.object({
  unit: z.enum(['minutes', 'lectures']),
  amount: z.number().int().min(1).max(10080),
});
const ruleSchema = z.object({
  enabled: z.boolean(),
  leadMinutes: z.array(z.number().int().min(0).max(LEAD_MAX_MINUTES)).max(LEADS_MAX),
});
const kindRules = z.partialRecord(z.enum(REMINDER_RULE_KINDS), ruleSchema);
const fileSchema = z.object({
  studyDays: z.array(z.number().int().min(1).max(7)).max(7).catch([]),
  overallGoal: goalSchema.nullable().catch(null),
  /** Per course, keyed by the JSON pair [siteId, courseId] (either id may hold any character). */
  goals: z.record(z.string(), goalSchema).catch({}),
  /** The defaults ('*') and each school's own, by kind. */
  rules: z.record(z.string(), kindRules.catch({})).catch({}),
  quietHours: z
    .object({ start: z.string().regex(/^\d\d:\d\d$/), end: z.string().regex(/^\d\d:\d\d$/) })
    .nullable()
    .catch(null),
  feed: z
    .object({
      folder: z.string().max(1024).nullable().catch(null),
      token: z.string().regex(/^[A-Za-z0-9_-]{32,64}$/),
      port: z.number().int().min(0).max(65535).catch(0),
      studyBlocks: z.boolean().catch(false),
    })
    .nullable()
    .catch(null),
});
type PlanFile = z.infer<typeof fileSchema>;
export type FeedPrefs = NonNullable<PlanFile['feed']>;

const EMPTY: PlanFile = {
  studyDays: [],
  overallGoal: null,
  goals: {},
  rules: {},
  quietHours: null,
  feed: null,
};

/** The lead times the switches of Settings always meant (db/reminders.ts before rules). */
export const LEGACY_LEADS: Readonly<Record<ReminderRuleKind, readonly number[]>> = {
  'access-ending': [30 * 1440, 7 * 1440, 1440],
  'lecture-unlocked': [0],
  'payment-due': [1440],
  'event-starting': [1440, 60],
  consulting: [1440, 60],
  'plan-behind': [0],
};

export type LegacySwitches = Pick<
  Settings,
  'remindAccessEnding' | 'remindLectureUnlocked' | 'remindEventStarting' | 'notifyPaymentDue'
>;

const goalKey = (siteId: string, courseId: string) => JSON.stringify([siteId, courseId]);

export interface PlanPreferencesDeps {
  readonly file: string;
  /** Settings in force: the old switches are the defaults until the student sets a rule here. */
  readonly legacy: () => LegacySwitches;
}

export class PlanPreferences {
  #deps: PlanPreferencesDeps;
  #state: PlanFile = EMPTY;
  #revision = 0;
  #queue = createKeyedQueue();

  constructor(deps: PlanPreferencesDeps) {
    this.#deps = deps;
  }

  /** Reads the file; a missing or damaged one is the defaults (the next change writes it anew). */
  async load(): Promise<void> {
    try {
      this.#state = fileSchema.parse(JSON.parse(await readFile(this.#deps.file, 'utf8')));
    } catch {
      this.#state = EMPTY;
    }
    this.#revision++;
  }

  /** Grows with every change of the preferences: what was computed from older ones is stale. */
  revision(): number {
    return this.#revision;
  }

  studyDays(): readonly number[] {
    return this.#state.studyDays;
  }

  overallGoal(): WeeklyGoal | null {
    return this.#state.overallGoal;
  }

  goalOf(siteId: string, courseId: string): WeeklyGoal | null {
    return this.#state.goals[goalKey(siteId, courseId)] ?? null;
  }

  /** The courses with a goal of their own. */
  goalCourses(): { siteId: string; courseId: string }[] {
    return Object.keys(this.#state.goals).flatMap((k) => {
      const pair: unknown = JSON.parse(k);
      return Array.isArray(pair) && typeof pair[0] === 'string' && typeof pair[1] === 'string'
        ? [{ siteId: pair[0], courseId: pair[1] }]
        : [];
    });
  }

  /**
   * The rule every school follows unless it has its own. Kinds that had a switch in Settings keep
   * it as their on/off (so the switch and this never disagree); their lead times are the old fixed
   * ones until changed here.
   */
  defaultRule(kind: ReminderRuleKind): ReminderRule {
    const own = this.#state.rules['*']?.[kind];
    const legacy = this.#deps.legacy();
    const switched: Partial<Record<ReminderRuleKind, boolean>> = {
      'access-ending': legacy.remindAccessEnding,
      'lecture-unlocked': legacy.remindLectureUnlocked,
      'event-starting': legacy.remindEventStarting,
      'payment-due': legacy.notifyPaymentDue,
    };
    return {
      // The kinds new with rules (behind on the plan) start off: the student asks for them.
      enabled: switched[kind] ?? own?.enabled ?? false,
      leadMinutes: own?.leadMinutes ?? LEGACY_LEADS[kind],
    };
  }

  /** Kinds whose on/off is a Settings switch (the default rule's `enabled` is written there). */
  static readonly SWITCHES: Partial<Record<ReminderRuleKind, keyof LegacySwitches>> = {
    'access-ending': 'remindAccessEnding',
    'lecture-unlocked': 'remindLectureUnlocked',
    'event-starting': 'remindEventStarting',
    'payment-due': 'notifyPaymentDue',
  };

  ruleOf(siteId: string, kind: ReminderRuleKind): ReminderRule {
    return this.#state.rules[siteId]?.[kind] ?? this.defaultRule(kind);
  }

  ownKinds(siteId: string): ReminderRuleKind[] {
    const own = this.#state.rules[siteId] ?? {};
    return REMINDER_RULE_KINDS.filter((k) => own[k] !== undefined);
  }

  quietHours(): QuietHours | null {
    return this.#state.quietHours;
  }

  /** The feed's settings, made (and saved) on first use: a 256-bit path token nobody can guess. */
  async feed(): Promise<FeedPrefs> {
    if (this.#state.feed) return this.#state.feed;
    const feed = {
      folder: null,
      token: randomBytes(32).toString('base64url'),
      port: 0,
      studyBlocks: false,
    };
    await this.#save({ ...this.#state, feed });
    return feed;
  }

  async setGoal(siteId: string | null, courseId: string | null, goal: WeeklyGoal | null) {
    const goals = { ...this.#state.goals };
    if (siteId !== null && courseId !== null) {
      if (goal) goals[goalKey(siteId, courseId)] = goal;
      else delete goals[goalKey(siteId, courseId)];
      return this.#save({ ...this.#state, goals });
    }
    return this.#save({ ...this.#state, overallGoal: goal });
  }

  setStudyDays(days: readonly number[]) {
    return this.#save({ ...this.#state, studyDays: [...new Set(days)].sort() });
  }

  /** A kind's rule for one school ('*': the default); null drops the school's own. */
  setRule(siteId: string, kind: ReminderRuleKind, rule: ReminderRule | null) {
    const own = { ...(this.#state.rules[siteId] ?? {}) };
    if (rule) {
      const leads = [...new Set(rule.leadMinutes)].sort((a, b) => b - a);
      own[kind] = { enabled: rule.enabled, leadMinutes: leads };
    } else delete own[kind];
    return this.#save({ ...this.#state, rules: { ...this.#state.rules, [siteId]: own } });
  }

  setQuietHours(quietHours: QuietHours | null) {
    return this.#save({ ...this.#state, quietHours });
  }

  async setFeed(patch: Partial<FeedPrefs>): Promise<FeedPrefs> {
    const feed = { ...(await this.feed()), ...patch };
    await this.#save({ ...this.#state, feed });
    return feed;
  }

  async #save(next: PlanFile): Promise<void> {
    const body = JSON.stringify(next, null, 2);
    await this.#queue('plan', () => writeFileAtomic(this.#deps.file, body, 0o600)).catch(
      (cause: unknown) => {
        throw new CoreError('storage-error', 'Your plan settings could not be saved.', undefined, {
          cause,
        });
      },
    );
    this.#state = next;
    this.#revision++;
  }
}
