/**
 * `npm run bench plan-feed`: the plan (db/plan-view.ts: every course with an end date, planned) and
 * the calendar feed (export/feed.ts + ics.ts: every event, serialized) at 8x the large seed's data
 * spread over 5 schools, as Today and a subscriber's refresh read them (the feed's study blocks
 * from the plan Today built, handlers/plan-cache.ts, and cold: the plan built for the feed alone);
 * and one rules run of the reminders. Target: plan and feed <= 50 ms.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openOfflineDatabase } from '../../electron/core/db';
import { buildPlanView } from '../../electron/core/db/plan-view';
import { decideRuleReminders } from '../../electron/core/db/reminder-decide';
import { RULE_KINDS } from '../../electron/core/db/reminder-run';
import { feedEvents } from '../../electron/core/export/feed';
import { serializeCalendar } from '../../electron/core/export/ics';
import { PlanCache } from '../../electron/core/handlers/plan-cache';
import { createSyncService } from '../../electron/core/sync';
import { createEmbeddedServer } from '../../embedded-server/index';
import { DEFAULT_LARGE } from '../../embedded-server/seed/content';
import { getMemberToken, siteClient } from '../core/sync/helpers/member-token';
import { readWrite } from '../helpers/db';
import { collectGarbage, percentile, type BenchResult } from './types';

const SCHOOLS = ['s1', 's2', 's3', 's4', 's5'];
const RUNS = 100;
const ZONE = 'Asia/Taipei';
const CHOICES = { studyDays: [1, 3, 5], overallGoal: null, goalOf: () => null, goalCourses: [] };

function timed(fn: () => unknown): number[] {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  return times;
}

export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'ld-bench-plan-'));
  // 8x the large seed in all: each of 5 schools holds 8/5 of it.
  const large = {
    ...DEFAULT_LARGE,
    courses: Math.ceil((DEFAULT_LARGE.courses * 8) / 5),
    payments: Math.ceil((DEFAULT_LARGE.payments * 8) / 5),
    notifications: Math.ceil((DEFAULT_LARGE.notifications * 8) / 5),
  };
  const server = await createEmbeddedServer({ port: 0, seed: 'large', seedOptions: { large } });
  try {
    const { accessToken } = await getMemberToken(server);
    const db = readWrite(openOfflineDatabase(join(dir, 'offline.db')).db);
    const sync = createSyncService({ db, clientFor: () => siteClient(server.url, accessToken) });
    for (const s of SCHOOLS) {
      const summary = await sync.syncNow(s);
      if (summary.outcome !== 'completed') throw new Error(`sync ${s}: ${summary.outcome}`);
    }
    await sync.close();
    const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    const lectures = count('SELECT count(*) AS n FROM lectures');
    const courses = count('SELECT count(*) AS n FROM courses');
    const now = Date.now();
    const sites = new Set(SCHOOLS);
    collectGarbage();
    let planned = 0;
    const plan = timed(() => {
      planned = buildPlanView(db, CHOICES, now, ZONE, null).courses.length;
    });
    let events = 0;
    let bytes = 0;
    const buildFeed = (plans: ReturnType<typeof buildPlanView>) => {
      const list = feedEvents(db, { now, timeZone: ZONE, language: 'en', plans, siteIds: sites });
      events = list.length;
      bytes = serializeCalendar(list, { stamp: new Date(now), timeZone: ZONE }).length;
    };
    const cache = new PlanCache({ db, choices: () => CHOICES, revision: () => 0 });
    cache.build(now, ZONE, null);
    const feed = timed(() => buildFeed(cache.forStudyBlocks(now, ZONE)));
    const cold = timed(() => buildFeed(buildPlanView(db, CHOICES, now, ZONE, null)));
    const rule = { enabled: true, leadMinutes: [10080, 4320, 1440, 720, 60] };
    const rules = Object.fromEntries(
      SCHOOLS.map((s) => [s, Object.fromEntries(RULE_KINDS.map((k) => [k, rule]))]),
    );
    for (const s of SCHOOLS)
      decideRuleReminders(db, {
        now,
        syncedSiteId: s,
        rules,
        quietHours: null,
        timeZone: ZONE,
        behind: [],
      });
    let minute = 0;
    const remind = timed(() =>
      decideRuleReminders(db, {
        now: now + ++minute * 60_000,
        syncedSiteId: null,
        rules,
        quietHours: { start: '23:00', end: '07:00' },
        timeZone: ZONE,
        behind: [],
      }),
    );
    db.close();
    const note = `${SCHOOLS.length} schools, ${courses} courses, ${lectures} lectures`;
    return [
      {
        name: 'plan p95: every course planned (Today)',
        value: percentile(plan, 95),
        unit: 'ms',
        note: `${planned} planned; ${note}; target <= 50 ms`,
      },
      { name: 'plan median', value: percentile(plan, 50), unit: 'ms' },
      {
        name: "calendar feed p95: built and serialized, Today's plan kept",
        value: percentile(feed, 95),
        unit: 'ms',
        note: `${events} events, ${Math.round(bytes / 1024)} KiB; target <= 50 ms`,
      },
      { name: 'calendar feed median', value: percentile(feed, 50), unit: 'ms' },
      {
        name: 'calendar feed p95, cold: the plan built for it',
        value: percentile(cold, 95),
        unit: 'ms',
        note: 'no plan kept (data or preferences changed since Today)',
      },
      { name: 'calendar feed median, cold', value: percentile(cold, 50), unit: 'ms' },
      {
        name: 'reminders by rule p95: a run on the timer',
        value: percentile(remind, 95),
        unit: 'ms',
        note: '5 lead times, every kind, 5 schools',
      },
    ];
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
