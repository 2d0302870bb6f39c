import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import {
  getBillingSummary,
  getNotificationsPage,
  getNotificationsSummary,
} from '../../../electron/core/db';
import { notification, payment, snapshot } from '../db/fixtures';
import { NOW, open } from './writer-scaffold';

// The read connection's view cache is told which views a write in the worker changed
// (view-cache.ts).

describe('view cache of the read connection: told which views a worker write changed (view-cache.ts)', () => {
  it('a queued mark-read drops only the inbox views; a commit drops what it rewrote; nothing else is recomputed', async () => {
    const { writer, db } = await open();
    const now = new Date(NOW);
    await writer.call('site:ensure', { siteId: 's', now: NOW });
    await writer.call('snapshot:commit', {
      siteId: 's',
      snapshot: { ...snapshot('a'), notifications: [notification('n1'), notification('n2')] },
    });
    const billing = getBillingSummary(db, 's', now);
    const inbox = getNotificationsSummary(db, 's');
    expect(inbox.unreadCount).toBe(2);

    await writer.call('outbox:enqueue', {
      siteId: 's',
      change: { kind: 'mark-notification-read', notificationId: 'n1' },
      now: NOW,
    });
    // the same memoised object: not recomputed
    expect(getBillingSummary(db, 's', now)).toBe(billing);
    expect(getNotificationsSummary(db, 's').unreadCount).toBe(1); // recomputed, and right

    await writer.call('snapshot:commit', {
      siteId: 's',
      snapshot: { payments: [payment('p-new')] },
    });
    const after = getBillingSummary(db, 's', now);
    expect(after).not.toBe(billing);
    expect(after.paymentCount).toBe(1);
  });

  it('a commit by a connection nobody announced still drops every memoised view (data_version)', async () => {
    const { db, file, writer } = await open();
    await writer.call('site:ensure', { siteId: 's', now: NOW });
    await writer.call('snapshot:commit', {
      siteId: 's',
      snapshot: { notifications: [notification('n1')] },
    });
    const inbox = getNotificationsSummary(db, 's');
    const other = new Database(file);
    other
      .prepare("UPDATE notifications SET read_at = '2026-01-01T00:00:00.000Z' WHERE id = 'n1'")
      .run();
    other.close();
    const again = getNotificationsSummary(db, 's');
    expect(again).not.toBe(inbox);
    expect(again.unreadCount).toBe(0);
  });

  // The demo's first sync under load: the read connection memoised nothing until a screen asked
  // while the commit was on its way, and the run's record (a write that changes no view) answered
  // before the next read. The summary said "No unread notifications" beside a list of three unread,
  // for good.
  it('a view first memoised while a commit is on its way is recomputed once it lands, even when a no-view write answers first', async () => {
    const { writer, db, file } = await open();
    // Another connection holds the write lock: the run's first write waits for it (busy_timeout),
    // and the calls sent after it wait in the worker's queue, so this thread reads before the
    // commit lands.
    const blocker = new Database(file);
    blocker.exec('BEGIN IMMEDIATE');
    let commit: Promise<{ rewritten: readonly string[] }>;
    try {
      const ensured = writer.call('site:ensure', { siteId: 's', now: NOW });
      const begun = writer.call('stage:begin', { stageId: 'st', siteId: 's' });
      const paged = writer.call('stage:page', {
        stageId: 'st',
        part: 'notifications',
        nodes: [notification('n1'), notification('n2'), notification('n3')],
      });
      commit = writer.call('stage:commit', { stageId: 'st', siteId: 's' });
      void Promise.all([ensured, begun, paged]).catch(() => undefined);
      expect(getNotificationsSummary(db, 's').unreadCount).toBe(0); // before the commit: memoised
    } finally {
      blocker.exec('ROLLBACK');
      blocker.close();
    }
    expect((await commit).rewritten).toContain('notifications');
    await writer.call('sync:record-run', {
      summary: {
        siteId: 's',
        startedAt: NOW,
        finishedAt: NOW,
        outcome: 'completed',
        counts: {},
        missingScopes: [],
        error: null,
      },
    });
    const unreadListed = getNotificationsPage(db, 's', { offset: 0, limit: 100 }).items.filter(
      (n) => n.readAt === null,
    ).length;
    expect(unreadListed).toBe(3);
    expect(getNotificationsSummary(db, 's').unreadCount).toBe(3);
  });

  it('a commit nobody announced, then a no-view write answered before any read, still drops the memoised views', async () => {
    const { db, file, writer } = await open();
    await writer.call('site:ensure', { siteId: 's', now: NOW });
    await writer.call('snapshot:commit', {
      siteId: 's',
      snapshot: { notifications: [notification('n1')] },
    });
    expect(getNotificationsSummary(db, 's').unreadCount).toBe(1);
    const other = new Database(file);
    other
      .prepare("UPDATE notifications SET read_at = '2026-01-01T00:00:00.000Z' WHERE id = 'n1'")
      .run();
    other.close();
    await writer.call('search:index-step', { maxRows: 10 });
    expect(getNotificationsSummary(db, 's').unreadCount).toBe(0);
  });
});
