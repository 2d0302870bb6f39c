import { describe, expect, it } from 'vitest';
import { coursePlan, type PlanInput, type PlanLecture } from '../../electron/common/plan';
import { localDay, mondayOf, startOfDay } from '../../electron/common/zoned-time';

const DAY = 86_400_000;
/** Wednesday 2026-12-02 10:00 in Taipei (UTC+8, no daylight saving). */
const NOW = Date.parse('2026-12-02T02:00:00.000Z');
const TPE = 'Asia/Taipei';

const open = (minutes: number, done = false): PlanLecture => ({
  durationSeconds: minutes * 60,
  done,
  isLocked: false,
  unlockAt: null,
});
const locked = (minutes: number, unlockAt: string | null): PlanLecture => ({
  durationSeconds: minutes * 60,
  done: false,
  isLocked: true,
  unlockAt,
});

function plan(overrides: Partial<PlanInput>) {
  return coursePlan({
    now: NOW,
    timeZone: TPE,
    expireDate: new Date(NOW + 21 * DAY).toISOString(),
    hasLifetimeAccess: false,
    lectures: [open(60), open(60), open(60, true)],
    doneThisWeek: { lectures: 0, seconds: 0 },
    studyDays: [],
    goal: null,
    ...overrides,
  });
}

describe('the plan to finish before access ends', () => {
  it('counts what is left from durations and states, and the pace that fits the days left', () => {
    const p = plan({});
    expect(p).toMatchObject({ lecturesLeft: 2, minutesLeft: 120, lecturesWithoutDuration: 0 });
    expect(p.daysLeft).toBe(21);
    expect(p.weeksLeft).toBe(3);
    // From Wednesday 10:00 to the 10:00 three weeks on: today, the 20 days after it and the morning
    // of the last.
    expect(p.studyDaysLeft).toBe(22);
    expect(p.pace).toEqual({
      minutesPerWeek: 39,
      lecturesPerWeek: 1,
      minutesPerStudyDay: 6,
      lecturesPerStudyDay: 0.1,
      peakMinutesPerStudyDay: 6,
    });
    // This week asked for 7 of the 24 days' share since Monday (35 min); by Wednesday 2 days of it
    // were due.
    expect(p.week).toMatchObject({ source: 'pace', target: { amount: 35 }, expectedByNow: 10 });
    expect(p.status).toBe('behind');
    expect(plan({ doneThisWeek: { lectures: 1, seconds: 900 } }).status).toBe('on-track');
  });

  it('counts lectures without a duration as lectures and says so, never as minutes', () => {
    const p = plan({ lectures: [open(30), open(0), open(0)] });
    expect(p).toMatchObject({ lecturesLeft: 3, minutesLeft: 30, lecturesWithoutDuration: 2 });
    // Nothing with a length: the week asks for lectures.
    const none = plan({ lectures: [open(0), open(0)] });
    expect(none.minutesLeft).toBe(0);
    expect(none.week?.target.unit).toBe('lectures');
  });

  it('places a locked lecture when it unlocks: late content makes the pace steeper than the average', () => {
    const unlock = new Date(NOW + 19 * DAY).toISOString();
    const p = plan({ lectures: [open(60), open(60), locked(600, unlock)] });
    // 720 minutes over 22 days is 33 a day; but 600 of them open only for the last 3 days.
    expect(p.pace?.minutesPerStudyDay).toBe(33);
    expect(p.pace?.peakMinutesPerStudyDay).toBe(200);
    // This week asks at most what is open by Sunday: the two open lectures.
    expect(p.week?.target.amount).toBeLessThanOrEqual(120);
    const allLate = plan({ lectures: [locked(600, unlock)] });
    expect(allLate.week?.target.amount).toBe(0);
    expect(allLate.status).toBe('on-track');
    expect(p.lecturesNeverOpen).toBe(0);
  });

  it('a lecture that opens only after the access ends (or has no date) cannot be placed: it says so', () => {
    const after = plan({
      lectures: [open(60), locked(60, new Date(NOW + 30 * DAY).toISOString())],
    });
    expect(after).toMatchObject({ lecturesNeverOpen: 1, status: 'cannot-finish' });
    const undated = plan({ lectures: [open(60), locked(60, null)] });
    expect(undated).toMatchObject({ lecturesNeverOpen: 1, status: 'cannot-finish' });
  });

  it('cannot be finished at any sensible pace: 50 hours in 3 days', () => {
    const p = plan({
      expireDate: new Date(NOW + 3 * DAY).toISOString(),
      lectures: Array.from({ length: 50 }, () => open(60)),
    });
    expect(p.status).toBe('cannot-finish');
    expect(p.pace?.minutesPerStudyDay).toBeGreaterThan(6 * 60);
  });

  it('ended access is ended, a finished course done, lifetime access has no end', () => {
    expect(plan({ expireDate: new Date(NOW - DAY).toISOString() })).toMatchObject({
      status: 'ended',
      pace: null,
      week: null,
    });
    expect(plan({ lectures: [open(10, true)] }).status).toBe('done');
    expect(plan({ hasLifetimeAccess: true })).toMatchObject({ status: 'no-end', pace: null });
  });

  it('study days: the pace per study day counts only the days named', () => {
    // Monday and Thursday only: 21 days from a Wednesday hold 6 of them.
    const p = plan({ studyDays: [1, 4], lectures: [open(60), open(60), open(60)] });
    expect(p.studyDaysLeft).toBe(6);
    expect(p.pace?.minutesPerStudyDay).toBe(30);
    expect(p.pace?.minutesPerWeek).toBe(60);
  });

  it('a goal in minutes: behind by what the study days gone this week asked, on track once done', () => {
    const goal = { unit: 'minutes' as const, amount: 140 };
    // Wednesday: Monday and Tuesday are gone, 2 of 7 study days: 40 minutes were due.
    const behind = plan({ goal });
    expect(behind.week).toMatchObject({
      weekStart: '2026-11-30',
      source: 'goal',
      target: goal,
      done: 0,
      expectedByNow: 40,
      behindBy: 40,
    });
    expect(behind.status).toBe('behind');
    const caught = plan({ goal, doneThisWeek: { lectures: 1, seconds: 45 * 60 } });
    expect(caught.week?.behindBy).toBe(0);
    expect(caught.status).toBe('on-track');
  });

  it('a school first synced on Wednesday is not behind for Monday and Tuesday; a minute short is not behind', () => {
    const goal = { unit: 'minutes' as const, amount: 140 };
    expect(plan({ goal, countedFrom: NOW - 3_600_000 }).week).toMatchObject({
      expectedByNow: 0,
      behindBy: 0,
    });
    // From Tuesday: one day of seven was due (20 min); 16 done is within the few minutes of noise.
    const tuesday = plan({
      goal,
      countedFrom: NOW - DAY,
      doneThisWeek: { lectures: 1, seconds: 16 * 60 },
    });
    expect(tuesday.week).toMatchObject({ expectedByNow: 20, behindBy: 4 });
    expect(tuesday.status).toBe('on-track');
  });

  it('a goal in lectures, and a goal below the pace needed says keeping it will not finish', () => {
    const p = plan({
      goal: { unit: 'lectures', amount: 1 },
      expireDate: new Date(NOW + 7 * DAY).toISOString(),
      lectures: Array.from({ length: 10 }, () => open(10)),
    });
    expect(p.week?.target).toEqual({ unit: 'lectures', amount: 1 });
    expect(p.goalBelowPace).toBe(true);
  });

  it('without a goal, the week asks for its share of the pace, reckoned from Monday', () => {
    const p = plan({ doneThisWeek: { lectures: 1, seconds: 3600 } });
    // 180 minutes from Monday over 24 days (Mon 30 Nov to Wed 23 Dec): 7 days' share.
    expect(p.week).toMatchObject({ source: 'pace', target: { unit: 'minutes', amount: 53 } });
    expect(p.week?.done).toBe(60);
    expect(p.status).toBe('on-track');
  });
});

describe('weeks in the student’s zone', () => {
  it('Asia/Taipei: Monday 00:30 local is still Sunday in UTC, and already the new week', () => {
    const t = Date.parse('2026-11-29T16:30:00.000Z');
    expect(new Date(mondayOf(localDay(t, TPE)) * DAY).toISOString().slice(0, 10)).toBe(
      '2026-11-30',
    );
    expect(new Date(mondayOf(localDay(t, 'UTC')) * DAY).toISOString().slice(0, 10)).toBe(
      '2026-11-23',
    );
    expect(new Date(startOfDay(localDay(t, TPE), TPE)).toISOString()).toBe(
      '2026-11-29T16:00:00.000Z',
    );
  });

  it('a zone with daylight saving: the week after the clocks go back starts an hour later in UTC', () => {
    const NY = 'America/New_York';
    // 2026-11-01 02:00 EDT becomes 01:00 EST.
    const before = startOfDay(localDay(Date.parse('2026-10-28T12:00:00Z'), NY) - 2, NY);
    const after = startOfDay(localDay(Date.parse('2026-11-04T12:00:00Z'), NY) - 2, NY);
    expect(new Date(before).toISOString()).toBe('2026-10-26T04:00:00.000Z');
    expect(new Date(after).toISOString()).toBe('2026-11-02T05:00:00.000Z');
    // A week across the change is 7 days and an hour long.
    expect(after - before).toBe(7 * DAY + 3_600_000);
    // Late Sunday evening local is still last week, though UTC is on Monday.
    const sunday = Date.parse('2026-11-09T03:30:00Z');
    expect(new Date(mondayOf(localDay(sunday, NY)) * DAY).toISOString().slice(0, 10)).toBe(
      '2026-11-02',
    );
  });

  it('a plan’s week in New York is Monday to Sunday local', () => {
    const p = coursePlan({
      now: Date.parse('2026-11-09T03:30:00Z'),
      timeZone: 'America/New_York',
      expireDate: '2026-11-30T00:00:00Z',
      hasLifetimeAccess: false,
      lectures: [open(60)],
      doneThisWeek: { lectures: 0, seconds: 0 },
      studyDays: [],
      goal: { unit: 'minutes', amount: 70 },
    });
    // Sunday: six of seven days gone.
    expect(p.week).toMatchObject({ weekStart: '2026-11-02', expectedByNow: 60, behindBy: 60 });
  });
});
