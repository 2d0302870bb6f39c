import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEmbeddedServer } from '../../../embedded-server/index';
import { getNotifications } from '../../../electron/core/db';
import { openTestStore } from '../../helpers/db';
import { createSyncService } from '../../../electron/core/sync';
import { getMemberToken, queryServer, siteClient } from './helpers/member-token';
import { noSleep, openTempDb, startSite, tempDir } from './helpers/setup';

const READ_AT = /* GraphQL */ `
  query {
    viewer {
      notifications(first: 100) {
        nodes {
          id
          readAt
        }
      }
      notificationSubscriptions {
        topic
        channel
        enabled
      }
    }
  }
`;
interface ServerInbox {
  viewer: {
    notifications: { nodes: { id: string; readAt: string | null }[] };
    notificationSubscriptions: { topic: string; channel: string; enabled: boolean }[];
  };
}

describe('outbox (service-spec "Scopes": account:write grants exactly three mutations)', () => {
  it('applies at once, survives an app restart while the site is down, and replays when the site is back', async () => {
    const dir = tempDir();
    const serverFile = join(dir, 'server.db');
    const appFile = join(dir, 'offline.db');
    let server = await createEmbeddedServer({ port: 0, seed: 'demo', database: serverFile });
    const port = server.port;
    const { accessToken } = await getMemberToken(server);
    const client = siteClient(server.url, accessToken);

    // 1. Synced while online.
    let opened = openTestStore(appFile);
    let sync = createSyncService({ db: opened.db, clientFor: () => client, sleep: noSleep });
    await sync.syncNow('demo');
    const unread = getNotifications(opened.db, 'demo').items.filter((n) => n.readAt === null);
    expect(unread.length).toBeGreaterThan(1);
    const target = unread[0]!;
    const subscription = getNotifications(opened.db, 'demo').subscriptions[0]!;

    // 2. The site goes away; the user marks a notification read and flips a subscription.
    await server.close();
    const changed: string[] = [];
    sync = createSyncService({
      db: opened.db,
      clientFor: () => client,
      sleep: noSleep,
      onDataChanged: (s) => changed.push(s),
    });
    await sync.markNotificationRead('demo', target.id);
    const updated = await sync.updateNotificationSubscription(
      'demo',
      subscription.topic,
      subscription.channel,
      !subscription.enabled,
    );
    expect(updated).toEqual({
      topic: subscription.topic,
      channel: subscription.channel,
      enabled: !subscription.enabled,
      pendingSync: true,
    });
    expect(changed).toContain('demo');
    let view = getNotifications(opened.db, 'demo');
    expect(view.items.find((n) => n.id === target.id)).toMatchObject({ pendingSync: true });
    expect(view.items.find((n) => n.id === target.id)!.readAt).not.toBeNull();
    expect(view.unreadCount).toBe(unread.length - 1);
    const report = await sync.replayOutbox('demo');
    expect(report).toMatchObject({ replayed: 0, failed: 0, pending: 2 });
    expect(report.stoppedBy?.code).toBe('site-unreachable');
    expect(sync.status('demo')).toMatchObject({
      pendingChanges: 2,
      failedChanges: [],
      online: false,
    });

    // 3. The app restarts (the outbox is durable).
    await sync.close();
    opened.db.close();
    opened = openTestStore(appFile);
    sync = createSyncService({ db: opened.db, clientFor: () => client, sleep: noSleep });
    expect(sync.status('demo').pendingChanges).toBe(2);
    expect(getNotifications(opened.db, 'demo').items.find((n) => n.id === target.id)).toMatchObject(
      { pendingSync: true },
    );

    // 4. The site comes back on the same file and origin; a sync replays first, then fetches.
    server = await createEmbeddedServer({ port, seed: 'demo', database: serverFile });
    try {
      const summary = await sync.syncNow('demo');
      expect(summary.outcome).toBe('completed');
      expect(sync.status('demo')).toMatchObject({
        pendingChanges: 0,
        failedChanges: [],
        online: true,
      });
      const onServer = await queryServer<ServerInbox>(server.url, accessToken, READ_AT);
      expect(
        onServer.viewer.notifications.nodes.find((n) => n.id === target.id)!.readAt,
      ).not.toBeNull();
      expect(
        onServer.viewer.notificationSubscriptions.find(
          (s) => s.topic === subscription.topic && s.channel === subscription.channel,
        )!.enabled,
      ).toBe(!subscription.enabled);
      view = getNotifications(opened.db, 'demo');
      expect(view.items.find((n) => n.id === target.id)).toMatchObject({ pendingSync: false });
      expect(
        view.subscriptions.find(
          (s) => s.topic === subscription.topic && s.channel === subscription.channel,
        ),
      ).toMatchObject({
        enabled: !subscription.enabled,
        pendingSync: false,
      });
    } finally {
      await sync.close();
      opened.db.close();
      await server.close();
    }
  });

  it('a pending mark-read stays applied on top of a fresh snapshot until it is replayed', async () => {
    const site = await startSite();
    const { db } = openTempDb();
    const sync = createSyncService({ db, clientFor: () => site.client, sleep: noSleep });
    await sync.syncNow('demo');
    const target = getNotifications(db, 'demo').items.find((n) => n.readAt === null)!;
    // Enqueue through the store (no background replay), then sync with a client whose mutations
    // cannot get through.
    const { enqueueChange } = await import('../../../electron/core/db');
    enqueueChange(
      db,
      'demo',
      { kind: 'mark-notification-read', notificationId: target.id },
      new Date(),
    );
    const blocked = createSyncService({
      db,
      sleep: noSleep,
      clientFor: () => ({
        endpoint: site.client.endpoint,
        fetch: async (input, init) => {
          if (String(init?.body).includes('mutation')) throw new TypeError('fetch failed');
          return site.client.fetch(input, init);
        },
      }),
    });
    const summary = await blocked.syncNow('demo');
    expect(summary.outcome).toBe('completed');
    const item = getNotifications(db, 'demo').items.find((n) => n.id === target.id)!;
    expect(item.readAt).not.toBeNull();
    expect(item.pendingSync).toBe(true);
    expect(blocked.status('demo').pendingChanges).toBe(1);
  });

  it('replaying twice is harmless, and mark-all marks everything read on the server', async () => {
    const site = await startSite();
    const { db } = openTempDb();
    const sync = createSyncService({ db, clientFor: () => site.client, sleep: noSleep });
    await sync.syncNow('demo');
    const { enqueueChange } = await import('../../../electron/core/db');
    const target = getNotifications(db, 'demo').items.find((n) => n.readAt === null)!;
    enqueueChange(
      db,
      'demo',
      { kind: 'mark-notification-read', notificationId: target.id },
      new Date(),
    );
    // The same change queued twice, as after a crash between the site's answer and our delete.
    enqueueChange(
      db,
      'demo',
      { kind: 'mark-notification-read', notificationId: target.id },
      new Date(),
    );
    enqueueChange(db, 'demo', { kind: 'mark-all-notifications-read' }, new Date());
    expect(getNotifications(db, 'demo').unreadCount).toBe(0);
    const report = await sync.replayOutbox('demo');
    expect(report).toMatchObject({ replayed: 3, failed: 0, pending: 0, stoppedBy: null });
    const onServer = await queryServer<ServerInbox>(site.server.url, site.accessToken, READ_AT);
    expect(onServer.viewer.notifications.nodes.every((n) => n.readAt !== null)).toBe(true);
    expect(getNotifications(db, 'demo').items.every((n) => !n.pendingSync)).toBe(true);
    expect((await sync.syncNow('demo')).outcome).toBe('completed');
    expect(getNotifications(db, 'demo').unreadCount).toBe(0);
  });

  it('NOT_FOUND from the site drops the entry with a report (failedChanges); it is not retried', async () => {
    const site = await startSite();
    const { db } = openTempDb();
    const sync = createSyncService({ db, clientFor: () => site.client, sleep: noSleep });
    await sync.syncNow('demo');
    const target = getNotifications(db, 'demo').items[0]!;
    site.server.db.prepare('DELETE FROM notifications WHERE id = ?').run(target.id);
    const { enqueueChange } = await import('../../../electron/core/db');
    enqueueChange(
      db,
      'demo',
      { kind: 'mark-notification-read', notificationId: target.id },
      new Date(),
    );
    const report = await sync.replayOutbox('demo');
    expect(report).toMatchObject({ replayed: 0, failed: 1, pending: 0 });
    const status = sync.status('demo');
    expect(status.pendingChanges).toBe(0);
    expect(status.failedChanges).toEqual([
      {
        id: expect.any(String),
        description: `Mark notification ${target.id} read`,
        error: 'The site no longer has this item.',
      },
    ]);
    expect(await sync.replayOutbox('demo')).toMatchObject({ replayed: 0, failed: 0, pending: 0 });
    await sync.syncNow('demo');
    expect(getNotifications(db, 'demo').items.some((n) => n.id === target.id)).toBe(false);
  });

  it('a token without account:write: the change is reported as failed with the missing scope, and the server value returns', async () => {
    const site = await startSite({}, 'openid profile email account:read');
    const { db } = openTempDb();
    const sync = createSyncService({ db, clientFor: () => site.client, sleep: noSleep });
    await sync.syncNow('demo');
    const target = getNotifications(db, 'demo').items.find((n) => n.readAt === null)!;
    const { enqueueChange } = await import('../../../electron/core/db');
    enqueueChange(
      db,
      'demo',
      { kind: 'mark-notification-read', notificationId: target.id },
      new Date(),
    );
    const summary = await sync.syncNow('demo');
    expect(summary).toMatchObject({ outcome: 'partial', missingScopes: ['account:write'] });
    expect(sync.status('demo').failedChanges).toHaveLength(1);
    expect(sync.status('demo').failedChanges[0]!.error).toContain('account:write');
    expect(getNotifications(db, 'demo').items.find((n) => n.id === target.id)).toMatchObject({
      readAt: null,
      pendingSync: false,
    });
  });
});
