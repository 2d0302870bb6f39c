/**
 * Reminders by the student's rules as OS notifications: gathers the rules of every school, the
 * quiet hours and the courses behind on their plan, has the writer decide and remember
 * (db/reminder-decide.ts), and turns its groups into the notifications the hosts show (with the
 * items a Snooze button puts off).
 */
import type { DesktopNotification } from '../../common/desktop-notifications';
import type { QuietHours, ReminderRule, ReminderRuleKind } from '../../common/plan-contract';
import { mondayOf, localDay, dayLabel } from '../../common/zoned-time';
import type { RuleKind, RuleReminderGroup, RuleRunInput } from '../db/index';
import { RULE_KINDS } from '../db/index';
import type { ReminderSubject } from '../db/index';
import type { CoursePlanView } from '../../common/plan-contract';
import { REMINDER_TITLE_CHARS } from './reminders';

export interface RuleRemindersDeps {
  readonly now: () => number;
  readonly timeZone: () => string;
  readonly siteIds: () => readonly string[];
  readonly siteLabel: (siteId: string) => string;
  readonly ruleOf: (siteId: string, kind: ReminderRuleKind) => ReminderRule;
  readonly quietHours: () => QuietHours | null;
  /**
   * The plans of the courses with an end date ahead (db/plan-view.ts), for "behind on the plan".
   */
  readonly plans: (now: number, timeZone: string) => readonly CoursePlanView[];
  readonly run: (input: RuleRunInput) => Promise<readonly RuleReminderGroup[]>;
}

function clip(text: string): string {
  const chars = Array.from(text.replace(/\s+/g, ' ').trim());
  return chars.length <= REMINDER_TITLE_CHARS
    ? chars.join('')
    : `${chars.slice(0, REMINDER_TITLE_CHARS - 1).join('')}…`;
}

export class RuleReminders {
  #deps: RuleRemindersDeps;

  constructor(deps: RuleRemindersDeps) {
    this.#deps = deps;
  }

  /**
   * The run's input: every school's rule of every kind, and this week's courses behind (keyed by
   * the week).
   */
  input(syncedSiteId: string | null, now: number): RuleRunInput {
    const d = this.#deps;
    const timeZone = d.timeZone();
    const rules: Record<string, Partial<Record<RuleKind, ReminderRule>>> = {};
    for (const siteId of d.siteIds())
      rules[siteId] = Object.fromEntries(RULE_KINDS.map((k) => [k, d.ruleOf(siteId, k)]));
    const wantsPlan = Object.values(rules).some((r) => r['plan-behind']?.enabled);
    const week = dayLabel(mondayOf(localDay(now, timeZone)));
    const behind: ReminderSubject[] = wantsPlan
      ? d
          .plans(now, timeZone)
          .filter((c) => c.plan.status === 'behind')
          .map((c) => ({
            siteId: c.siteId,
            id: c.courseId,
            title: c.title,
            courseTitle: null,
            dueAt: week,
            dueMs: null,
          }))
      : [];
    return { now, syncedSiteId, rules, quietHours: d.quietHours(), timeZone, behind };
  }

  /** Decides and remembers what is due now; the notifications to show. */
  async due(syncedSiteId: string | null): Promise<DesktopNotification[]> {
    const now = this.#deps.now();
    const groups = await this.#deps.run(this.input(syncedSiteId, now));
    return groups.map((g) => this.#notification(g, now));
  }

  #notification(g: RuleReminderGroup, now: number): DesktopNotification {
    const base = {
      // Stable per run and kind, ending with the first item (a host replaces rather than stacks a
      // repeat).
      id: `${g.kind}:${g.siteId}:${now}:${g.items[0]?.subjectId ?? ''}`,
      siteId: g.siteId,
      siteLabel: this.#deps.siteLabel(g.siteId),
      noticeTitle: null,
      late: g.late,
      snoozed: g.snoozed,
      snooze: { kind: g.kind, items: g.items },
    };
    const minutesLeft = Math.max(1, Math.round(g.leftMs / 60_000));
    if (g.kind === 'payment-due')
      // The payment text counts hours left and the codes it stands for.
      return {
        ...base,
        kind: 'payment-due',
        count: Math.max(1, Math.floor(g.leftMs / 3_600_000)),
        codes: g.count,
        screen: 'billing',
      };
    return {
      ...base,
      kind: g.kind,
      count: g.count,
      reminder: {
        title: clip(g.title),
        courseTitle: g.courseTitle === null ? null : clip(g.courseTitle),
        minutesLeft,
      },
      screen: 'today',
    };
  }
}
