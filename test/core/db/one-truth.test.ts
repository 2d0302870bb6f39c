import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { accessDaysLeft, lectureDone, minutesLeft } from '../../../electron/common/facts';
import type { LectureState } from '../../../electron/common/view-models';
import { getCourseDetail, getLibrary, getToday } from '../../../electron/core/db';
import { getProgressSummary } from '../../../electron/core/db/progress';
import { courseAccessEndCalendar } from '../../../electron/core/export/calendar';
import { daysUntil, formatLength } from '../../../renderer/src/ui/format';
import { course } from './fixtures';
import { closeDatabases, NOW, withSite } from './pages-scaffold';

afterEach(closeDatabases);

/**
 * The same fact, the same everywhere: for any course (lectures in any state, the last one watched
 * anywhere in it, access ending any time), My courses' card, the course screen's rows and next
 * step, Today, the progress summary's pace and the course's calendar file say the same about what
 * is done, what is left and how many days are left.
 */

interface Lecture {
  readonly state: LectureState;
  readonly duration: number;
}
interface Case {
  readonly lectures: readonly Lecture[];
  /** Index of the last watched lecture, or null. */
  readonly last: number | null;
  /** Seconds into it. */
  readonly position: number;
  /** Access ends this many minutes after NOW. */
  readonly endsInMinutes: number;
}

const caseArb: fc.Arbitrary<Case> = fc
  .record({
    lectures: fc.array(
      fc.record({
        state: fc.constantFrom<LectureState>('unread', 'read', 'completed'),
        duration: fc.integer({ min: 0, max: 4000 }),
      }),
      {
        minLength: 1,
        maxLength: 8,
      },
    ),
    lastPick: fc.option(fc.nat(), { nil: null }),
    positionFraction: fc.double({ min: 0, max: 1.05, noNaN: true }),
    endsInMinutes: fc.integer({ min: 1, max: 20 * 1440 }),
  })
  .map(({ lectures, lastPick, positionFraction, endsInMinutes }) => {
    const last = lastPick === null ? null : lastPick % lectures.length;
    const position = last === null ? 0 : Math.round(lectures[last]!.duration * positionFraction);
    return { lectures, last, position, endsInMinutes };
  });

function seeded(c: Case) {
  const ids = c.lectures.map((_, i) => `c1-l${i + 1}`);
  const expireDate = new Date(NOW.getTime() + c.endsInMinutes * 60_000).toISOString();
  const completed = c.lectures.filter((l) => l.state === 'completed').length;
  const record = course('c1', {
    hasLifetimeAccess: false,
    expireDate,
    detailProgress: {
      totalLectures: c.lectures.length,
      readLectures: c.lectures.filter((l) => l.state !== 'unread').length,
      completedLectures: completed,
      percent: Math.round((completed / c.lectures.length) * 100),
      completedAt: null,
    },
    lastWatchedLecture:
      c.last === null
        ? null
        : {
            lectureId: ids[c.last]!,
            positionSeconds: c.position,
            watchedAt: '2026-06-09T00:00:00.000Z',
          },
    sections: [
      {
        id: 'c1-s1',
        title: 'Section',
        position: 1,
        lectures: c.lectures.map((l, i) => ({
          lectureId: ids[i]!,
          title: `Lecture ${i + 1}`,
          position: i + 1,
          state: l.state,
          isLocked: false,
          unlockAt: null,
          duration: l.duration,
        })),
      },
    ],
  });
  return withSite({ courses: [record] });
}

/** "57 min", "1 hr 3 min" back to minutes (the renderer's card and pace). */
const minutesIn = (text: string) => {
  const n = [...text.matchAll(/(\d+)\s*(hr|min)/g)];
  return n.reduce((sum, [, v, unit]) => sum + Number(v) * (unit === 'hr' ? 60 : 1), 0);
};

describe('one function per derived fact, on every screen and in every export', () => {
  it('the card, the course screen, Today, the pace and the calendar file agree on done, left and days left', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const db = seeded(c);
        const card = getLibrary(db, 's', NOW)[0]!;
        const detail = getCourseDetail(db, 's', 'c1', NOW);
        const rows = detail.sections.flatMap((s) => s.lectures);
        const done = rows.filter((r) => r.state === 'completed');
        const left = rows.filter((r) => r.state !== 'completed');

        // Done or not: one rule (facts.ts lectureDone) for the rows, the counts and the time left.
        rows.forEach((r, i) =>
          expect(r.state === 'completed', `row ${i + 1}`).toBe(
            lectureDone({
              state: c.lectures[i]!.state,
              durationSeconds: c.lectures[i]!.duration,
              lastPositionSeconds: i === c.last ? c.position : null,
            }),
          ),
        );
        expect(card.completedLectures).toBe(done.length);
        expect(card.lecturesLeft).toBe(left.length);
        expect(detail.lecturesLeft).toBe(left.length);
        expect(card.secondsLeft).toBe(left.reduce((s, r) => s + r.durationSeconds, 0));
        // "You finished X": X's row says done; "Resume X": it does not.
        const step = card.nextStep;
        if (step.kind === 'next' && step.finished)
          expect(rows.find((r) => r.lectureId === step.finished!.lectureId)!.state).toBe(
            'completed',
          );
        if (step.kind === 'resume')
          expect(rows.find((r) => r.lectureId === step.lecture.lectureId)!.state).not.toBe(
            'completed',
          );
        if (left.length === 0) expect(step.kind).toBe('completed');
        expect(detail.nextStep).toEqual(step);

        // Time left: the card's length, the pace and the calendar file's minutes are one number.
        const ics = courseAccessEndCalendar(
          detail,
          { baseUrl: 'https://school.example', label: 'School' },
          { language: 'en', stamp: NOW },
        );
        const unfolded = ics.replace(/\r\n[ \t]/g, '');
        if (left.length === 0) expect(unfolded).toContain('Left: nothing');
        else {
          const m = /Left: (\d+) lectures?\\?, ((?:\d+ h ?)?(?:\d+ min)?)/.exec(unfolded);
          expect(m, unfolded).not.toBeNull();
          expect(Number(m![1])).toBe(card.lecturesLeft);
          const icsMinutes = [...m![2]!.matchAll(/(\d+) (h|min)/g)].reduce(
            (s, [, v, u]) => s + Number(v) * (u === 'h' ? 60 : 1),
            0,
          );
          expect(icsMinutes).toBe(Math.max(1, minutesLeft(card.secondsLeft)));
          expect(minutesIn(formatLength(card.secondsLeft, 'en'))).toBe(icsMinutes);
        }
        const pace = getProgressSummary(db, 's', NOW, 'UTC').pace.find((p) => p.courseId === 'c1');
        if (left.length > 0)
          expect(pace).toMatchObject({
            lecturesLeft: card.lecturesLeft,
            secondsLeft: card.secondsLeft,
          });
        else expect(pace).toBeUndefined();

        // Days of access left: Today's notice and My courses' line read one date through one
        // function.
        const today = getToday(db, NOW);
        const ending = today.attention.find((a) => a.kind === 'access-ending');
        if (ending && ending.kind === 'access-ending') expect(ending.endsAt).toBe(card.expireDate);
        expect(daysUntil(card.expireDate, NOW.getTime())).toBe(
          accessDaysLeft(card.expireDate, NOW.getTime()),
        );
        expect(accessDaysLeft(card.expireDate, NOW.getTime())).toBe(
          Math.ceil(c.endsInMinutes / 1440),
        );
        const continuing = today.continueLearning.find((x) => x.courseId === 'c1');
        if (continuing) expect(continuing.nextStep).toEqual(step);
        db.close();
      }),
      { numRuns: 60 },
    );
  });

  it('a lecture watched into its last 5% is done on its row, in the counts and in the time left (not "Started")', () => {
    const db = seeded({
      lectures: [
        { state: 'completed', duration: 600 },
        { state: 'read', duration: 600 },
        { state: 'unread', duration: 1200 },
      ],
      last: 1,
      position: 590,
      endsInMinutes: 3 * 1440 - 60,
    });
    const card = getLibrary(db, 's', NOW)[0]!;
    const rows = getCourseDetail(db, 's', 'c1', NOW).sections[0]!.lectures;
    expect(card.nextStep).toMatchObject({
      kind: 'next',
      finished: { lectureId: 'c1-l2' },
      lecture: { lectureId: 'c1-l3' },
    });
    expect(rows.map((r) => r.state)).toEqual(['completed', 'completed', 'unread']);
    expect(card).toMatchObject({ completedLectures: 2, lecturesLeft: 1, secondsLeft: 1200 });
    // 2 days and 23 hours: "3 days" on Today, My courses and the profile alike.
    expect(daysUntil(card.expireDate, NOW.getTime())).toBe(3);
  });
});
