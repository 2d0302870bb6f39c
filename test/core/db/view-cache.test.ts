import { afterEach, describe, expect, it } from 'vitest';
import {
  enqueueChange,
  getBilling,
  getCourseDetail,
  getLibrary,
  getNotifications,
} from '../../../electron/core/db';
import { course, notification, snapshot } from './fixtures';
import { closeStores, commit, NOW, open, tempFile } from './store-scaffold';

// The memoised views (view-cache.ts) are never stale: clock boundaries, writes here and elsewhere.
afterEach(closeStores);

describe('memoised views (view-cache): never stale', () => {
  it('recomputes when the clock crosses an expiry or "expires soon" boundary', () => {
    const { db } = open(tempFile());
    commit(db, 's', {
      courses: [course('c1', { hasLifetimeAccess: false, expireDate: '2026-07-01T00:00:00.000Z' })],
    });
    const at = (iso: string) => getLibrary(db, 's', new Date(iso))[0]!;
    expect(at('2026-06-01T00:00:00.000Z')).toMatchObject({ isExpired: false, expiresSoon: false });
    expect(at('2026-06-20T00:00:00.000Z')).toMatchObject({ isExpired: false, expiresSoon: true });
    expect(at('2026-07-01T00:00:00.000Z')).toMatchObject({ isExpired: true, expiresSoon: false });
    expect(at('2026-06-02T00:00:00.000Z')).toMatchObject({ isExpired: false, expiresSoon: false });
    expect(getCourseDetail(db, 's', 'c1', new Date('2026-07-02T00:00:00.000Z')).isExpired).toBe(
      true,
    );
  });

  it('recomputes after a write on this connection and after a commit by another connection', () => {
    const file = tempFile();
    const { db } = open(file);
    commit(db, 's', snapshot('s'));
    expect(getNotifications(db, 's').unreadCount).toBe(1);
    enqueueChange(db, 's', { kind: 'mark-all-notifications-read' }, NOW);
    expect(getNotifications(db, 's').unreadCount).toBe(0);
    const other = open(file).db;
    commit(other, 's', { notifications: [notification('x1'), notification('x2')] });
    // The pending mark-all is re-applied by the other connection's commit too.
    expect(
      getNotifications(db, 's')
        .items.map((n) => n.id)
        .sort(),
    ).toEqual(['x1', 'x2']);
    other.prepare("DELETE FROM outbox WHERE site_id = 's'").run();
    other.prepare("UPDATE notifications SET read_at = NULL WHERE site_id = 's'").run();
    expect(getNotifications(db, 's').unreadCount).toBe(2);
  });

  it('a write rebuilds only the views that read what it changed, on its own site', () => {
    const { db } = open(tempFile());
    commit(db, 's', snapshot('s'));
    commit(db, 't', snapshot('t'));
    const before = {
      library: getLibrary(db, 's', NOW),
      billing: getBilling(db, 's', NOW),
      notices: getNotifications(db, 's'),
      other: getNotifications(db, 't'),
    };
    enqueueChange(db, 's', { kind: 'mark-all-notifications-read' }, NOW);
    // Same objects: the mark-read did not cost a billing or library rebuild, nor the other site's
    // inbox.
    expect(getLibrary(db, 's', NOW)).toBe(before.library);
    expect(getBilling(db, 's', NOW)).toBe(before.billing);
    expect(getNotifications(db, 't')).toBe(before.other);
    expect(getNotifications(db, 's')).not.toBe(before.notices);
    expect(getNotifications(db, 's').unreadCount).toBe(0);

    // A commit that rewrites only the courses rebuilds the library, keeps billing.
    const billing = getBilling(db, 's', NOW);
    commit(db, 's', { courses: [course('c9')] });
    expect(getLibrary(db, 's', NOW).map((c) => c.courseId)).toEqual(['c9']);
    expect(getBilling(db, 's', NOW)).toBe(billing);
  });

  it('a write no writer accounted for drops every memoised view (fail-safe)', () => {
    const { db } = open(tempFile());
    commit(db, 's', snapshot('s'));
    const billing = getBilling(db, 's', NOW);
    expect(getNotifications(db, 's').unreadCount).toBe(1);
    db.prepare(
      "UPDATE notifications SET read_at = '2026-06-01T00:00:00.000Z' WHERE site_id = 's'",
    ).run();
    expect(getNotifications(db, 's').unreadCount).toBe(0);
    expect(getBilling(db, 's', NOW)).not.toBe(billing);
  });
});
