import type { CoreHandlers } from '../../common/ipc-contract';
import {
  REMINDER_RULE_KINDS,
  type ReminderPrefsView,
  type ReminderRule,
  type ReminderRuleKind,
} from '../../common/plan-contract';
import { isKnownTimeZone, localDay, localInstant } from '../../common/zoned-time';
import { CoreError } from '../errors';
import { PlanPreferences } from '../settings/plan-preferences';
import { requireSite, type AppServices } from './services';

type Channels =
  'reminders:prefs' | 'reminders:set-rule' | 'reminders:set-quiet-hours' | 'reminders:snooze';

export interface ReminderRuleHandlerDeps extends Pick<
  AppServices,
  'sites' | 'clock' | 'writer' | 'settings'
> {
  readonly prefs: PlanPreferences;
}

/** "Tomorrow morning": 08:00 of the next day in the student's zone. */
export const MORNING_HOUR = 8;

export function snoozeUntil(until: 'hour' | 'morning', now: number, timeZone: string): number {
  if (until === 'hour') return now + 3_600_000;
  return localInstant(localDay(now, timeZone) + 1, MORNING_HOUR * 60, timeZone);
}

function rulesOf(prefs: PlanPreferences, siteId: string | null) {
  return Object.fromEntries(
    REMINDER_RULE_KINDS.map((k) => [k, siteId ? prefs.ruleOf(siteId, k) : prefs.defaultRule(k)]),
  ) as Record<ReminderRuleKind, ReminderRule>;
}

/** Which reminders, per kind and school, with which lead times; quiet hours; snoozes. */
export function createReminderRuleHandlers(
  d: ReminderRuleHandlerDeps,
): Pick<CoreHandlers, Channels> {
  const view = (): ReminderPrefsView => ({
    defaults: rulesOf(d.prefs, null),
    sites: d.sites.list().map((s) => ({
      siteId: s.id,
      label: s.label,
      rules: rulesOf(d.prefs, s.id),
      own: d.prefs.ownKinds(s.id),
    })),
    quietHours: d.prefs.quietHours(),
  });
  return {
    'reminders:prefs': async () => view(),
    'reminders:set-rule': async ({ siteId, kind, rule }) => {
      if (siteId !== undefined) requireSite(d, siteId);
      // A lecture's unlock and a week behind have one moment each: their lead is 0.
      const fixed = kind === 'lecture-unlocked' || kind === 'plan-behind';
      if (rule === null && siteId === undefined)
        throw new CoreError('invalid-input', 'The default rule of a kind cannot be removed.');
      // The default's on/off of a kind with a Settings switch is that switch.
      const setting = PlanPreferences.SWITCHES[kind];
      if (siteId === undefined && rule && setting)
        await d.settings.update({ [setting]: rule.enabled });
      await d.prefs.setRule(
        siteId ?? '*',
        kind,
        rule && (fixed ? { enabled: rule.enabled, leadMinutes: [0] } : rule),
      );
      return view();
    },
    'reminders:set-quiet-hours': async ({ quietHours }) => {
      await d.prefs.setQuietHours(quietHours);
      return view();
    },
    'reminders:snooze': async ({ kind, items, until, timeZone }) => {
      if (!isKnownTimeZone(timeZone))
        throw new CoreError('invalid-input', 'That is not a time zone this computer knows.');
      const now = d.clock.now();
      const untilMs = snoozeUntil(until, now, timeZone);
      for (const item of items)
        if (kind !== 'consulting')
          await d.writer.call('reminders:snooze', {
            siteId: item.siteId,
            kind,
            subjectId: item.subjectId,
            untilMs,
            now,
          });
      return { until: new Date(untilMs).toISOString() };
    },
  };
}
