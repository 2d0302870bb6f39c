import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CoursePlanView, PlanView } from '../../electron/common/plan-contract';
import type { SiteSummary } from '../../electron/common/view-models';
import type { AppCore } from '../../electron/core/app-core';
import type { EmbeddedServer } from '../../embedded-server/index';
import { setLectureProgress } from '../../embedded-server/store/content-courses';
import { invoke, syncedDemo, valueOf, type SyncedDemo } from '../helpers/test-core';

const ZONE = 'Asia/Taipei';

/**
 * The plan over the demo seed synced by a real core (real HTTP, real SQLite): UX Writing, half
 * done, ends three days after the seed's clock. A lecture the student completes on the site counts
 * this week once a sync sees it.
 */
describe('the plan to finish before access ends, over a synced school', () => {
  let server: EmbeddedServer;
  let demo: SyncedDemo;
  let core: AppCore;
  let site: SiteSummary;

  beforeAll(async () => {
    demo = await syncedDemo({ prefix: 'ld-plan-', timeZone: ZONE });
    ({ server, core, site } = demo);
  }, 60_000);
  afterAll(async () => demo?.close());

  const plan = async () =>
    valueOf(await invoke(core.handlers, 'plan:get', { timeZone: ZONE })) as PlanView;
  const ux = async () => (await plan()).courses.find((c) => c.courseId === 'crs_ux_writing')!;

  it('plans every course with an end date ahead, soonest first, from the lectures left', async () => {
    const view = await plan();
    expect(view.courses.length).toBeGreaterThan(0);
    const ends = view.courses.map((c) => Date.parse(c.expireDate!));
    expect(ends).toEqual([...ends].sort((a, b) => a - b));
    const course = await ux();
    const left = server.db
      .prepare(
        `SELECT count(*) AS n, coalesce(sum(l.duration), 0) AS s FROM lectures l
           LEFT JOIN lecture_progress p ON p.lecture_id = l.id AND p.user_id = 'usr_student'
          WHERE l.course_id = 'crs_ux_writing' AND (p.state IS NULL OR p.state <> 'completed')`,
      )
      .get() as { n: number; s: number };
    expect(course.plan.lecturesLeft).toBe(left.n);
    expect(course.plan.minutesLeft).toBe(Math.ceil(left.s / 60));
    expect(course.plan.daysLeft).toBe(3);
    expect(course.plan.pace?.minutesPerStudyDay).toBe(
      Math.ceil(left.s / 60 / course.plan.studyDaysLeft!),
    );
    expect(Date.parse(view.syncedAt!)).toBeGreaterThan(0);
  });

  it('a lecture the next sync sees completed counts its length this week, against the goal', async () => {
    valueOf(
      await invoke(core.handlers, 'plan:set-goal', {
        siteId: site.id,
        courseId: 'crs_ux_writing',
        goal: { unit: 'minutes', amount: 600 },
      }),
    );
    expect((await ux()).plan.week).toMatchObject({ done: 0, source: 'goal' });
    const open = server.db
      .prepare(
        `SELECT l.id, l.duration FROM lectures l LEFT JOIN lecture_progress p ON p.lecture_id = l.id AND p.user_id = 'usr_student'
          WHERE l.course_id = 'crs_ux_writing' AND (p.state IS NULL OR p.state <> 'completed') AND l.unlock_at IS NULL
          ORDER BY l.section_id, l.position LIMIT 1`,
      )
      .get() as { id: string; duration: number };
    setLectureProgress(
      server.db,
      'usr_student',
      'crs_ux_writing',
      open.id,
      'completed',
      server.clock.now(),
    );
    valueOf(await invoke(core.handlers, 'sync:now', { siteId: site.id }));
    const after = await ux();
    expect(after.goal).toEqual({ unit: 'minutes', amount: 600 });
    expect(after.plan.week).toMatchObject({
      done: Math.floor(open.duration / 60),
      target: { unit: 'minutes', amount: 600 },
    });
    // The course screen reads the same plan.
    const one = valueOf(
      await invoke(core.handlers, 'plan:course', {
        siteId: site.id,
        courseId: 'crs_ux_writing',
        timeZone: ZONE,
      }),
    ) as CoursePlanView;
    expect(one.plan).toEqual(after.plan);
  });

  it('an overall goal counts every course; study days and goals survive a restart (plan.json)', async () => {
    valueOf(
      await invoke(core.handlers, 'plan:set-goal', { goal: { unit: 'lectures', amount: 5 } }),
    );
    valueOf(await invoke(core.handlers, 'plan:set-study-days', { days: [6, 1, 3] }));
    const view = await plan();
    expect(view.overall).toMatchObject({ target: { unit: 'lectures', amount: 5 }, done: 1 });
    expect(view.studyDays).toEqual([1, 3, 6]);
    const saved = JSON.parse(readFileSync(join(demo.dataDir, 'plan.json'), 'utf8'));
    expect(saved.overallGoal).toEqual({ unit: 'lectures', amount: 5 });
    expect(saved.studyDays).toEqual([1, 3, 6]);
    // Removing the course goal leaves the plan to the pace.
    valueOf(
      await invoke(core.handlers, 'plan:set-goal', {
        siteId: site.id,
        courseId: 'crs_ux_writing',
        goal: null,
      }),
    );
    expect((await ux()).plan.week?.source).toBe('pace');
  });

  it('refuses a zone it does not know and a half-named course goal', async () => {
    expect((await invoke(core.handlers, 'plan:get', { timeZone: 'Mars/Olympus' })).ok).toBe(false);
    const half = await invoke(core.handlers, 'plan:set-goal', {
      siteId: site.id,
      goal: { unit: 'minutes', amount: 10 },
    });
    expect(half.ok).toBe(false);
  });
});
