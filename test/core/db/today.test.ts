import { describe, expect, it } from 'vitest';
import { getLibrary, getToday } from '../../../electron/core/db';
import { createSyncService } from '../../../electron/core/sync';
import { openTempDb, startSite } from '../sync/helpers/setup';

const DAY = 86_400_000;

/** Both demo schools synced into one offline database, as the app keeps them. */
async function twoSchools() {
  const demo = await startSite({ site: 'demo' });
  const second = await startSite({ site: 'demo2' });
  const { db } = openTempDb();
  const sync = createSyncService({
    db,
    clientFor: (siteId) => (siteId === 'demo' ? demo.client : second.client),
  });
  expect((await sync.syncNow('demo')).outcome).toBe('completed');
  expect((await sync.syncNow('demo2')).outcome).toBe('completed');
  await sync.close();
  return { db, demo, second };
}

describe('the Today home, synced over HTTP from both demo schools', () => {
  it('continues the courses being watched across schools, most recently watched first, never an ended or finished one', async () => {
    const { db } = await twoSchools();
    const now = new Date();
    const today = getToday(db, now);
    expect(today.continueLearning.length).toBeGreaterThan(1);
    expect(new Set(today.continueLearning.map((c) => c.siteId))).toEqual(
      new Set(['demo', 'demo2']),
    );
    const watched = today.continueLearning.map((c) => Date.parse(c.lastWatchedAt!));
    expect(watched).toEqual([...watched].sort((a, b) => b - a));
    // The library's own verdict on each: still open, not completed, and the same next step.
    for (const c of today.continueLearning) {
      const course = getLibrary(db, c.siteId, now).find((l) => l.courseId === c.courseId)!;
      expect(course.isExpired).toBe(false);
      expect(course.nextStep).toEqual(c.nextStep);
      expect(['resume', 'next', 'start', 'locked']).toContain(c.nextStep.kind);
    }
    expect(today.continueLearning.some((c) => c.courseId === 'crs_photography')).toBe(false);
    expect(today.continueLearning.some((c) => c.courseId === 'crs_python')).toBe(false);
  });

  it('needs attention: access ending within 14 days, unpaid codes, events within 7 days, soonest first', async () => {
    const { db } = await twoSchools();
    const today = getToday(db, new Date());
    const kinds = today.attention.map(
      (a) =>
        `${a.kind}:${'courseId' in a ? a.courseId : 'tradeNo' in a ? a.tradeNo : 'registrationId' in a ? a.registrationId : ''}`,
    );
    expect(kinds).toContain('access-ending:crs_ux_writing');
    expect(kinds).toContain('payment-due:T202611000004');
    expect(kinds).toContain('payment-due:T202611000005');
    expect(kinds).toContain('event-soon:reg_live_qa');
    // The expired code, the past workshop and a course with a year left are not there.
    expect(kinds).not.toContain('payment-due:T202611000006');
    expect(kinds).not.toContain('event-soon:reg_workshop_taipei');
    expect(kinds).not.toContain('access-ending:crs_data_analysis');
    const due = today.attention.map((a) =>
      Date.parse(
        a.kind === 'access-ending'
          ? a.endsAt
          : a.kind === 'payment-due'
            ? a.expiresAt!
            : a.kind === 'event-soon'
              ? a.startsAt
              : a.unlockedAt,
      ),
    );
    expect(due).toEqual([...due].sort((a, b) => a - b));
  });

  it('says which locked lectures opened since the last sync (their date passed; the copy still says locked)', async () => {
    const { db } = await twoSchools();
    expect(getToday(db, new Date()).attention.filter((a) => a.kind === 'lecture-unlocked')).toEqual(
      [],
    );
    // Eight days on, without a sync: the first drip lecture of the machine-learning course (7 days)
    // is open.
    const later = getToday(db, new Date(Date.now() + 8 * DAY)).attention.filter(
      (a) => a.kind === 'lecture-unlocked',
    );
    expect(later).toHaveLength(1);
    expect(later[0]).toMatchObject({ siteId: 'demo', courseId: 'crs_machine_learning' });
    // Then they lead the list: they are open now.
    expect(getToday(db, new Date(Date.now() + 8 * DAY)).attention[0]?.kind).toBe(
      'lecture-unlocked',
    );
  });
});
