import { describe, expect, it } from 'vitest';
import { getCourseDetail, getLibrary } from '../../../electron/core/db';
import {
  courseNextStep,
  isFinishedAt,
  type NextStepInput,
  type OrderedLecture,
} from '../../../electron/core/db/next-step';
import { createSyncService } from '../../../electron/core/sync';
import { openTempDb, startSite } from '../sync/helpers/setup';

const NOW = Date.parse('2026-05-01T00:00:00.000Z');
const lecture = (id: string, overrides: Partial<OrderedLecture> = {}): OrderedLecture => ({
  lectureId: id,
  title: `Lecture ${id}`,
  sectionTitle: 'Section',
  durationSeconds: 600,
  state: 'unread',
  isLocked: false,
  unlockAt: null,
  ...overrides,
});
const input = (overrides: Partial<NextStepInput> = {}): NextStepInput => ({
  isExpired: false,
  expireDate: null,
  completedAt: null,
  lastLectureId: null,
  lastPositionSeconds: null,
  lectures: [lecture('a'), lecture('b'), lecture('c')],
  ...overrides,
});

describe('a course’s next step', () => {
  it('says access ended on an expired course, whatever was watched', () => {
    expect(
      courseNextStep(
        input({
          isExpired: true,
          expireDate: '2026-04-01T00:00:00.000Z',
          lastLectureId: 'b',
          lastPositionSeconds: 10,
        }),
        NOW,
      ),
    ).toEqual({
      kind: 'expired',
      endedAt: '2026-04-01T00:00:00.000Z',
    });
  });

  it('says completed (offering the first lecture again) when the course is done, never "up next"', () => {
    const done = input({
      lectures: [lecture('a', { state: 'completed' }), lecture('b', { state: 'completed' })],
      lastLectureId: 'b',
      lastPositionSeconds: 590,
    });
    expect(courseNextStep(done, NOW)).toMatchObject({
      kind: 'completed',
      again: { lectureId: 'a' },
    });
    expect(courseNextStep(input({ completedAt: '2026-04-20T00:00:00.000Z' }), NOW)).toMatchObject({
      kind: 'completed',
    });
  });

  it('resumes the last lecture where it stopped', () => {
    expect(
      courseNextStep(input({ lastLectureId: 'b', lastPositionSeconds: 200 }), NOW),
    ).toMatchObject({
      kind: 'resume',
      lecture: { lectureId: 'b' },
      positionSeconds: 200,
    });
  });

  it('suggests the next unlocked lecture within the final 5% or the last 30 s', () => {
    // 600 s: 5% is 30 s, so both rules meet at 570 s; 569 s is still "resume".
    expect(courseNextStep(input({ lastLectureId: 'a', lastPositionSeconds: 569 }), NOW).kind).toBe(
      'resume',
    );
    expect(
      courseNextStep(input({ lastLectureId: 'a', lastPositionSeconds: 570 }), NOW),
    ).toMatchObject({
      kind: 'next',
      lecture: { lectureId: 'b' },
      finished: { lectureId: 'a' },
    });
    // A long lecture: 5% of 3600 s is 180 s, reached first.
    expect(isFinishedAt(3420, 3600)).toBe(true);
    expect(isFinishedAt(3419, 3600)).toBe(false);
    // A short one: the last 30 s come before its last 5%.
    expect(isFinishedAt(60, 90)).toBe(true);
    expect(isFinishedAt(59, 90)).toBe(false);
    expect(isFinishedAt(0, 0)).toBe(false);
  });

  it('skips lectures already completed and says "locked until" when the next one is not open yet', () => {
    const lectures = [
      lecture('a'),
      lecture('b', { state: 'completed' }),
      lecture('c', { isLocked: true, unlockAt: '2026-05-08T00:00:00.000Z' }),
    ];
    expect(
      courseNextStep(input({ lectures, lastLectureId: 'a', lastPositionSeconds: 600 }), NOW),
    ).toEqual({
      kind: 'locked',
      lecture: {
        lectureId: 'c',
        title: 'Lecture c',
        sectionTitle: 'Section',
        durationSeconds: 600,
      },
      unlockAt: '2026-05-08T00:00:00.000Z',
    });
    // Once its date has passed it is open, though the saved copy still says locked.
    expect(
      courseNextStep(
        input({ lectures, lastLectureId: 'a', lastPositionSeconds: 600 }),
        Date.parse('2026-05-08T00:00:01.000Z'),
      ),
    ).toMatchObject({
      kind: 'next',
      lecture: { lectureId: 'c' },
    });
    // Locked without a date, or with one that cannot be read, stays locked.
    const undated = [
      lecture('a', { state: 'completed' }),
      lecture('b', { isLocked: true, unlockAt: 'soon' }),
    ];
    expect(courseNextStep(input({ lectures: undated }), NOW)).toMatchObject({
      kind: 'locked',
      lecture: { lectureId: 'b' },
    });
  });

  it('goes back to a lecture left earlier when every later one is done', () => {
    const lectures = [
      lecture('a'),
      lecture('b', { state: 'completed' }),
      lecture('c', { state: 'completed' }),
    ];
    expect(
      courseNextStep(input({ lectures, lastLectureId: 'c', lastPositionSeconds: 600 }), NOW),
    ).toMatchObject({
      kind: 'next',
      lecture: { lectureId: 'a' },
    });
  });

  it('starts with the first lecture not done when nothing was watched, and says nothing for an empty course', () => {
    expect(
      courseNextStep(
        input({ lectures: [lecture('a', { state: 'completed' }), lecture('b')] }),
        NOW,
      ),
    ).toMatchObject({
      kind: 'start',
      lecture: { lectureId: 'b' },
    });
    expect(courseNextStep(input({ lectures: [] }), NOW)).toEqual({ kind: 'none' });
  });
});

describe('next steps of the demo school, synced over HTTP', () => {
  it('match what the site holds: resume, completed, access ended, start', async () => {
    const site = await startSite();
    const { db } = openTempDb();
    const sync = createSyncService({ db, clientFor: () => site.client });
    expect((await sync.syncNow('demo')).outcome).toBe('completed');
    await sync.close();
    const now = new Date();
    const byId = new Map(getLibrary(db, 'demo', now).map((c) => [c.courseId, c.nextStep]));
    expect(byId.get('crs_data_analysis')).toMatchObject({ kind: 'resume', positionSeconds: 312 });
    expect(byId.get('crs_python')).toMatchObject({ kind: 'completed' });
    expect(byId.get('crs_photography')).toMatchObject({ kind: 'expired' });
    expect(byId.get('crs_finance')).toMatchObject({ kind: 'start' });
    // The course screen says the same as its card.
    for (const [courseId, step] of byId)
      expect(getCourseDetail(db, 'demo', courseId, now).nextStep).toEqual(step);
  });
});
