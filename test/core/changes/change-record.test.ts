import { afterEach, describe, expect, it } from 'vitest';
import type { ChangeKind } from '../../../electron/common/view-models';
import { commitSnapshot, ensureSite } from '../../../electron/core/db';
import {
  CHANGE_RECORD_KEPT,
  getUnseenChanges,
  markChangesSeen,
} from '../../../electron/core/db/change-record';
import { MIGRATIONS } from '../../../electron/core/db/migrations';
import type {
  DigitalProductRecord,
  EventRegistrationRecord,
  SiteSnapshot,
} from '../../../electron/core/db/records';
import { course, payment } from '../db/fixtures';
import { closeDatabases, NOW, openDb } from '../db/pages-scaffold';

afterEach(closeDatabases);

const product = (id: string): DigitalProductRecord => ({
  id,
  title: `Workbook ${id}`,
  description: null,
  format: 'pdf',
  deliveredAt: '2026-01-01T00:00:00.000Z',
  expireDate: null,
  downloadUrl: null,
});
const event = (id: string): EventRegistrationRecord => ({
  id,
  eventId: `ev-${id}`,
  title: `Meetup ${id}`,
  startsAt: '2026-07-01T10:00:00.000Z',
  endsAt: '2026-07-01T12:00:00.000Z',
  location: null,
  isOnline: true,
  joinUrl: null,
  ticketName: 'General',
  registeredAt: '2026-01-01T00:00:00.000Z',
});
const lecture = (id: string, isLocked = false) => ({
  lectureId: id,
  title: `Lecture ${id}`,
  position: 9,
  state: 'unread' as const,
  isLocked,
  unlockAt: null,
  duration: 60,
});

function site(first: SiteSnapshot) {
  const db = openDb();
  ensureSite(db, 's', NOW);
  commitSnapshot(db, 's', first);
  const kinds = () =>
    getUnseenChanges(db, ['s'])
      .flatMap((g) => g.changes)
      .map((c) => [c.kind, c.itemId] as [ChangeKind, string])
      .sort();
  return { db, kinds, sync: (s: SiteSnapshot) => commitSnapshot(db, 's', s) };
}

const base: SiteSnapshot = {
  courses: [
    course('c1'),
    course('c2', { expireDate: '2026-12-31T00:00:00.000Z', hasLifetimeAccess: false }),
  ],
  payments: [
    payment('p1', { paymentState: 'not_paid' }),
    payment('p2'),
    payment('p3', { paymentState: 'not_paid' }),
  ],
  digitalProducts: [product('d1')],
  eventRegistrations: [event('e1')],
};

describe('the change record', () => {
  it('is numbered after the notes, found by name', () => {
    const names = MIGRATIONS.map((m) => m.name);
    expect(names.findIndex((n) => n.endsWith('-change-record'))).toBeGreaterThan(
      names.findIndex((n) => n.endsWith('-notes')),
    );
  });

  it('records nothing at the first sync, nor at one that changes nothing', () => {
    const s = site(base);
    expect(s.kinds()).toEqual([]);
    s.sync(base);
    expect(s.kinds()).toEqual([]);
  });

  it('records each kind a student acts on', () => {
    const s = site(base);
    const c1 = course('c1');
    s.sync({
      courses: [
        {
          ...c1,
          sections: [
            {
              ...c1.sections[0]!,
              lectures: [
                ...c1.sections[0]!.lectures.map((l) => ({ ...l, isLocked: false })),
                lecture('c1-new'),
              ],
            },
          ],
        },
        course('c2', { expireDate: '2027-06-30T00:00:00.000Z', hasLifetimeAccess: false }),
        course('c3'),
      ],
      payments: [
        payment('p1'),
        payment('p2', { refundingState: 'refunded', refundedAmount: 1000 }),
        payment('p3', { paymentState: 'expired' }),
      ],
      digitalProducts: [product('d1'), product('d2')],
      eventRegistrations: [event('e1'), event('e2')],
    });
    expect(s.kinds()).toEqual(
      [
        ['lectures-new', 'c1'],
        ['lectures-unlocked', 'c1'],
        ['access-moved', 'c2'],
        ['course-added', 'c3'],
        ['payment-paid', 'p1'],
        ['payment-refunded', 'p2'],
        ['payment-expired', 'p3'],
        ['product-new', 'd2'],
        ['event-new', 'e2'],
      ].sort(),
    );
    const [group] = getUnseenChanges(s.db, ['s']);
    const moved = group!.changes.find((c) => c.kind === 'access-moved')!;
    expect(moved).toMatchObject({
      from: '2026-12-31T00:00:00.000Z',
      to: '2027-06-30T00:00:00.000Z',
    });
    expect(group!.changes.find((c) => c.kind === 'lectures-new')).toMatchObject({ count: 1 });
    expect(group!.changes.find((c) => c.kind === 'payment-paid')).toMatchObject({
      tradeNo: 'T-p1',
      title: 'Plan p1',
    });

    // Seen: cleared; a course gone and access ended are recorded at the next sync.
    markChangesSeen(s.db, ['s'], Math.max(...group!.changes.map((c) => c.id)), NOW.toISOString());
    expect(s.kinds()).toEqual([]);
    s.sync({
      ...base,
      courses: [course('c2', { expireDate: '2026-01-01T00:00:00.000Z', hasLifetimeAccess: false })],
    });
    expect(s.kinds()).toEqual([
      ['access-ended', 'c2'],
      ['course-gone', 'c1'],
      ['course-gone', 'c3'],
    ]);
  });

  it('keeps a bounded history per site', () => {
    const s = site({ digitalProducts: [] });
    for (let round = 0; round < 3; round++)
      s.sync({
        digitalProducts: Array.from({ length: 100 * (round + 1) }, (_, i) => product(`d${i}`)),
      });
    const rows = s.db.prepare("SELECT count(*) AS n FROM change_record WHERE site_id = 's'").get();
    expect(rows).toEqual({ n: CHANGE_RECORD_KEPT });
    // The newest are the ones kept.
    expect(getUnseenChanges(s.db, ['s'], 1)[0]!.changes[0]!.itemId).toBe('d299');
  });

  it('goes with the site', () => {
    const s = site(base);
    s.sync({ ...base, digitalProducts: [product('d1'), product('d9')] });
    expect(s.kinds()).toEqual([['product-new', 'd9']]);
    s.db.prepare("DELETE FROM sites WHERE id = 's'").run();
    expect(s.db.prepare('SELECT count(*) AS n FROM change_record').get()).toEqual({ n: 0 });
  });
});
