import { afterEach, describe, expect, it } from 'vitest';
import {
  commitSnapshot,
  enqueueChange,
  ensureSite,
  getCourseDetail,
  getLibrary,
  getNotifications,
  getProfile,
  listSiteIds,
  removeSiteData,
  search,
} from '../../../electron/core/db';
import { course, notification, snapshot } from './fixtures';
import { closeStores, commit, NOW, open, tempFile } from './store-scaffold';

// Committing a site's snapshot: one transaction per site, sites kept apart, pending changes
// re-applied.
afterEach(closeStores);

describe('sites never mix (every row belongs to a site)', () => {
  it('keeps two sites apart in views and search, and removeSiteData deletes only one', () => {
    const { db } = open(tempFile());
    commit(db, 'a', snapshot('a'));
    commit(db, 'b', snapshot('b'));
    expect(getLibrary(db, 'a', NOW).map((c) => c.courseId)).toEqual(['a-c1', 'a-c2']);
    expect(getLibrary(db, 'b', NOW).map((c) => c.courseId)).toEqual(['b-c1', 'b-c2']);
    expect(search(db, 'a', 'cooking').map((h) => h.id)).toEqual(['a-c1']);
    expect(() => getCourseDetail(db, 'a', 'b-c1', NOW)).toThrow(/not in your offline library/);

    removeSiteData(db, 'a');
    expect(listSiteIds(db)).toEqual(['b']);
    for (const table of [
      'courses',
      'sections',
      'lectures',
      'payments',
      'notifications',
      'profile',
      'schools',
      'search_index',
    ]) {
      expect(db.prepare(`SELECT count(*) AS n FROM ${table} WHERE site_id = 'a'`).get()).toEqual({
        n: 0,
      });
    }
    expect(getProfile(db, 'b').email).toBe('b@example.com');
  });
});

describe('commitSnapshot (one transaction per site)', () => {
  it('replaces parts given, keeps parts left out, and a throwing commit changes nothing', () => {
    const { db } = open(tempFile());
    commit(db, 's', snapshot('s'));
    // Courses refused (left out): they stay; notifications given: replaced (n2 disappears).
    commit(db, 's', { notifications: [notification('s-n1')] });
    expect(getLibrary(db, 's', NOW)).toHaveLength(2);
    expect(getNotifications(db, 's').items.map((n) => n.id)).toEqual(['s-n1']);
    // Duplicate ids violate the primary key half way through: the whole commit rolls back.
    expect(() =>
      commit(db, 's', { notifications: [], courses: [course('x'), course('x')] }),
    ).toThrow();
    expect(getLibrary(db, 's', NOW)).toHaveLength(2);
    expect(getNotifications(db, 's').items.map((n) => n.id)).toEqual(['s-n1']);
  });

  it('skips rewriting a part identical to the last commit (digest); local changes no longer pending go back to the server values', () => {
    const { db } = open(tempFile());
    ensureSite(db, 's', NOW);
    expect(commitSnapshot(db, 's', snapshot('s'))).toEqual([
      'profile',
      'courses',
      'digitalProducts',
      'eventRegistrations',
      'consultingServices',
      'payments',
      'notifications',
      'subscriptions',
    ]);
    expect(commitSnapshot(db, 's', snapshot('s'))).toEqual([]);
    // A local mark-read the site refused (entry now 'failed', not pending): the next commit shows
    // the server's value even though the inbox part did not change.
    const entry = enqueueChange(
      db,
      's',
      { kind: 'mark-notification-read', notificationId: 's-n1' },
      NOW,
    );
    enqueueChange(
      db,
      's',
      {
        kind: 'update-notification-subscription',
        topic: 'announcements',
        channel: 'email',
        enabled: false,
      },
      NOW,
    );
    db.prepare("UPDATE outbox SET status = 'failed' WHERE id = ?").run(entry.id);
    expect(commitSnapshot(db, 's', snapshot('s'))).toEqual([]);
    const inbox = getNotifications(db, 's');
    expect(inbox.items.find((n) => n.id === 's-n1')).toMatchObject({
      readAt: null,
      pendingSync: false,
    });
    expect(inbox.subscriptions).toEqual([
      { topic: 'announcements', channel: 'email', enabled: false, pendingSync: true },
    ]);
    const changed = { ...snapshot('s'), courses: [course('s-c1', { title: 'Baking bread' })] };
    expect(commitSnapshot(db, 's', changed)).toEqual(['courses']);
    expect(getLibrary(db, 's', NOW).map((c) => c.title)).toEqual(['Baking bread']);
    expect(search(db, 's', 'baking').map((h) => h.id)).toEqual(['s-c1']);
    expect(search(db, 's', 'cooking')).toEqual([]);
    expect(
      search(db, 's', 'notice')
        .map((h) => h.id)
        .sort(),
    ).toEqual(['s-n1', 's-n2']);
  });

  it('re-applies pending outbox changes on top of fresh data (a queued mark-read keeps showing read)', () => {
    const { db } = open(tempFile());
    ensureSite(db, 's');
    commit(db, 's', snapshot('s'));
    enqueueChange(db, 's', { kind: 'mark-notification-read', notificationId: 's-n1' }, NOW);
    commit(db, 's', { notifications: [notification('s-n1'), notification('s-n3')] });
    const view = getNotifications(db, 's');
    expect(view.items.find((n) => n.id === 's-n1')).toMatchObject({
      readAt: NOW.toISOString(),
      pendingSync: true,
    });
    expect(view.items.find((n) => n.id === 's-n3')).toMatchObject({
      readAt: null,
      pendingSync: false,
    });
    expect(view.unreadCount).toBe(1);
  });
});
