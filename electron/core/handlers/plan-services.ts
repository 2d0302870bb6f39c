/**
 * The plan, the reminders by rule and the calendar feed, built once by the composition root from
 * what it has:
 * their preferences (plan.json), the feed (file and loopback server), the rule reminders the
 * desktop services run, and the handlers of their channels.
 */
import { join } from 'node:path';
import { buildPlanView } from '../db/index';
import { CalendarFeed } from '../desktop/calendar-feed';
import { RuleReminders } from '../desktop/rule-reminders';
import { feedEvents, feedName, type FeedLanguage } from '../export/feed';
import { PlanPreferences } from '../settings/plan-preferences';
import { createCalendarFeedHandlers, type ChooseFolder } from './calendar-feed';
import { PlanCache } from './plan-cache';
import { createPlanHandlers, planChoices } from './plan';
import { createReminderRuleHandlers } from './reminder-rules';
import type { AppServices } from './services';

export interface PlanServicesDeps extends Pick<AppServices, 'db' | 'clock' | 'settings' | 'sites'> {
  readonly dataDir: string;
  readonly timeZone: string;
  readonly log: (line: string, error?: unknown) => void;
  /** The system's folder dialog for the kept .ics file (the app only). */
  readonly chooseFolder?: ChooseFolder;
}

export class PlanServices {
  readonly prefs: PlanPreferences;
  readonly feed: CalendarFeed;
  readonly plans: PlanCache;
  #deps: PlanServicesDeps;

  constructor(deps: PlanServicesDeps) {
    this.#deps = deps;
    const { db, clock, timeZone } = deps;
    this.prefs = new PlanPreferences({
      file: join(deps.dataDir, 'plan.json'),
      legacy: () => deps.settings.current(),
    });
    this.plans = new PlanCache({
      db,
      choices: () => planChoices(this.prefs),
      revision: () => this.prefs.revision(),
    });
    this.feed = new CalendarFeed({
      dataDir: deps.dataDir,
      now: () => clock.now(),
      timeZone: () => timeZone,
      name: () => feedName(this.#language()),
      events: (studyBlocks) => {
        const now = clock.now();
        // Today's plan when it is still the one a build now would make (plan-cache.ts).
        const plans = studyBlocks ? this.plans.forStudyBlocks(now, timeZone) : null;
        return feedEvents(db, {
          now,
          timeZone,
          language: this.#language(),
          plans,
          siteIds: new Set(deps.sites.list().map((x) => x.id)),
        });
      },
      settings: () => this.prefs.feed(),
      saveSettings: (patch) => this.prefs.setFeed(patch),
      log: deps.log,
      canChooseFolder: deps.chooseFolder !== undefined,
    });
  }

  /** The feed's words follow the app's language. */
  #language(): FeedLanguage {
    const l = this.#deps.settings.current().language;
    const tag = l === 'system' ? Intl.DateTimeFormat().resolvedOptions().locale : l;
    return /^zh\b/i.test(tag) ? 'zh-TW' : 'en';
  }

  /**
   * Reads plan.json and starts the feed's server (a failure to listen leaves the file alone
   * working).
   */
  async open(): Promise<void> {
    await this.prefs.load();
    await this.feed
      .start()
      .catch((error: unknown) => this.#deps.log('calendar feed: not listening', error));
  }

  /** The reminders by rule, for the desktop services. */
  ruleReminders(s: Pick<AppServices, 'sites' | 'writer'>): RuleReminders {
    const { db, clock } = this.#deps;
    return new RuleReminders({
      now: () => clock.now(),
      timeZone: () => this.#deps.timeZone,
      siteIds: () => s.sites.list().map((x) => x.id),
      siteLabel: (siteId) => s.sites.getSite(siteId)?.label ?? siteId,
      ruleOf: (siteId, kind) => this.prefs.ruleOf(siteId, kind),
      quietHours: () => this.prefs.quietHours(),
      plans: (now, zone) => buildPlanView(db, planChoices(this.prefs), now, zone, null).courses,
      run: (input) => s.writer.call('reminders:rules-run', input),
    });
  }

  handlers(s: Pick<AppServices, 'sites' | 'writer'>) {
    const { db, clock, settings } = this.#deps;
    return {
      ...createPlanHandlers({
        db,
        clock,
        sites: s.sites,
        prefs: this.prefs,
        plans: this.plans,
        onChange: () => void this.feed.refresh(),
      }),
      ...createCalendarFeedHandlers({
        feed: this.feed,
        saveSettings: (patch) => this.prefs.setFeed(patch),
        ...(this.#deps.chooseFolder ? { chooseFolder: this.#deps.chooseFolder } : {}),
      }),
      ...createReminderRuleHandlers({
        sites: s.sites,
        clock,
        writer: s.writer,
        settings,
        prefs: this.prefs,
      }),
    };
  }
}
