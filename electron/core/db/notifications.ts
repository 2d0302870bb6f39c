import type { Database } from 'better-sqlite3';
import type {
  NotificationChannel,
  NotificationKind,
  NotificationsView,
  NotificationSubscriptionView,
  NotificationTopic,
  NotificationView,
} from '../../common/view-models';
import type { OutboxChange } from './outbox';
import type { NotificationRecord, SubscriptionRecord } from './records';
import { bool, prepared } from './statements';
import { cachedView, changingViews } from './view-cache';

// ------------------------------------------------------------------ writes (one sync batch, inside its transaction)

export function replaceNotifications(db: Database, siteId: string, records: readonly NotificationRecord[]): void {
  prepared<{ siteId: string }>(db, 'DELETE FROM notifications WHERE site_id = @siteId').run({ siteId });
  const insert = prepared<Record<string, unknown>>(
    db,
    `INSERT INTO notifications (site_id, id, kind, title, body, url, created_at, read_at, server_read_at)
     VALUES (@siteId, @id, @kind, @title, @body, @url, @createdAt, @readAt, @readAt)`,
  );
  for (const n of records) {
    insert.run({ siteId, id: n.id, kind: n.kind, title: n.title, body: n.body, url: n.url, createdAt: n.createdAt, readAt: n.readAt });
  }
}

export function replaceSubscriptions(db: Database, siteId: string, records: readonly SubscriptionRecord[]): void {
  prepared<{ siteId: string }>(db, 'DELETE FROM notification_subscriptions WHERE site_id = @siteId').run({ siteId });
  const insert = prepared<Record<string, unknown>>(
    db,
    `INSERT INTO notification_subscriptions (site_id, topic, channel, enabled, server_enabled)
     VALUES (@siteId, @topic, @channel, @enabled, @enabled)`,
  );
  for (const s of records) insert.run({ siteId, topic: s.topic, channel: s.channel, enabled: bool(s.enabled) });
}

/** Local values back to the server's (before pending changes are applied again). */
export function resetNotificationOverlay(db: Database, siteId: string): void {
  prepared<{ siteId: string }>(db, 'UPDATE notifications SET read_at = server_read_at WHERE site_id = @siteId AND read_at IS NOT server_read_at').run({ siteId });
}

export function resetSubscriptionOverlay(db: Database, siteId: string): void {
  prepared<{ siteId: string }>(db, 'UPDATE notification_subscriptions SET enabled = server_enabled WHERE site_id = @siteId AND enabled IS NOT server_enabled').run({
    siteId,
  });
}

/** The local effect of a queued change (also re-applied on top of each fresh snapshot). */
export function applyChangeLocally(db: Database, siteId: string, change: OutboxChange, at: string): void {
  switch (change.kind) {
    case 'mark-notification-read':
      prepared<{ siteId: string; id: string; at: string }>(
        db,
        'UPDATE notifications SET read_at = coalesce(read_at, @at) WHERE site_id = @siteId AND id = @id',
      ).run({ siteId, id: change.notificationId, at });
      return;
    case 'mark-all-notifications-read':
      // The server marks every notification existing when the change is replayed, so all local ones match.
      prepared<{ siteId: string; at: string }>(db, 'UPDATE notifications SET read_at = @at WHERE site_id = @siteId AND read_at IS NULL').run({
        siteId,
        at,
      });
      return;
    case 'update-notification-subscription':
      prepared<Record<string, unknown>>(
        db,
        `INSERT INTO notification_subscriptions (site_id, topic, channel, enabled, server_enabled)
         VALUES (@siteId, @topic, @channel, @enabled, @notEnabled)
         ON CONFLICT (site_id, topic, channel) DO UPDATE SET enabled = excluded.enabled`,
      ).run({ siteId, topic: change.topic, channel: change.channel, enabled: bool(change.enabled), notEnabled: bool(!change.enabled) });
      return;
  }
}

/** The site accepted a mark-read: its answer becomes the server's value. */
export function acceptNotificationRead(db: Database, siteId: string, id: string, readAt: string | null): void {
  changingViews(db, siteId, ['notifications'], () => {
    prepared<{ siteId: string; id: string; readAt: string | null }>(
      db,
      'UPDATE notifications SET server_read_at = @readAt, read_at = coalesce(@readAt, read_at) WHERE site_id = @siteId AND id = @id',
    ).run({ siteId, id, readAt });
  });
}

export function acceptAllNotificationsRead(db: Database, siteId: string): void {
  changingViews(db, siteId, ['notifications'], () => {
    prepared<{ siteId: string }>(
      db,
      'UPDATE notifications SET server_read_at = read_at WHERE site_id = @siteId AND read_at IS NOT NULL AND server_read_at IS NULL',
    ).run({ siteId });
  });
}

export function acceptSubscription(db: Database, siteId: string, record: SubscriptionRecord): void {
  changingViews(db, siteId, ['notifications'], () => {
    prepared<Record<string, unknown>>(
      db,
      `INSERT INTO notification_subscriptions (site_id, topic, channel, enabled, server_enabled)
       VALUES (@siteId, @topic, @channel, @enabled, @enabled)
       ON CONFLICT (site_id, topic, channel) DO UPDATE SET server_enabled = excluded.server_enabled`,
    ).run({ siteId, topic: record.topic, channel: record.channel, enabled: bool(record.enabled) });
  });
}

// ------------------------------------------------------------------ view

interface NotificationRow {
  id: string;
  kind: NotificationKind;
  title: string;
  body: string;
  url: string | null;
  created_at: string;
  read_at: string | null;
  server_read_at: string | null;
}

interface SubscriptionRow {
  topic: NotificationTopic;
  channel: NotificationChannel;
  enabled: number;
}

const TOPIC_ORDER: readonly NotificationTopic[] = ['announcements', 'course_updates', 'payments', 'events', 'marketing'];
const CHANNEL_ORDER: readonly NotificationChannel[] = ['in_app', 'email', 'push'];

/** The inbox, newest first, with queued local changes shown and flagged (pendingSync). */
export function getNotifications(db: Database, siteId: string): NotificationsView {
  // Nothing here depends on the clock: only a data change invalidates.
  return cachedView(db, 'notifications', siteId, '', EPOCH, () => ({ value: computeNotifications(db, siteId), validUntil: Number.POSITIVE_INFINITY }));
}
const EPOCH = new Date(0);

function computeNotifications(db: Database, siteId: string): NotificationsView {
  const pending = prepared<{ siteId: string }, { kind: OutboxChange['kind']; payload: string }>(
    db,
    "SELECT kind, payload FROM outbox WHERE site_id = @siteId AND status = 'pending' ORDER BY id",
  ).all({ siteId });
  const pendingRead = new Set<string>();
  const pendingSubscriptions = new Set<string>();
  let pendingAll = false;
  for (const p of pending) {
    const payload = JSON.parse(p.payload) as { notificationId?: string; topic?: string; channel?: string };
    if (p.kind === 'mark-notification-read') pendingRead.add(payload.notificationId ?? '');
    else if (p.kind === 'mark-all-notifications-read') pendingAll = true;
    else pendingSubscriptions.add(`${payload.topic}\u0000${payload.channel}`);
  }

  const items = prepared<{ siteId: string }, NotificationRow>(
    db,
    `SELECT id, kind, title, body, url, created_at, read_at, server_read_at FROM notifications
     WHERE site_id = @siteId ORDER BY created_at DESC, id DESC`,
  )
    .all({ siteId })
    .map(
      (r): NotificationView => ({
        id: r.id,
        kind: r.kind,
        title: r.title,
        body: r.body,
        url: r.url,
        createdAt: r.created_at,
        readAt: r.read_at,
        pendingSync: r.server_read_at === null && r.read_at !== null && (pendingAll || pendingRead.has(r.id)),
      }),
    );
  const unreadCount = prepared<{ siteId: string }, { n: number }>(
    db,
    'SELECT count(*) AS n FROM notifications WHERE site_id = @siteId AND read_at IS NULL',
  ).get({ siteId })!.n;
  const subscriptions = prepared<{ siteId: string }, SubscriptionRow>(
    db,
    'SELECT topic, channel, enabled FROM notification_subscriptions WHERE site_id = @siteId',
  )
    .all({ siteId })
    .map(
      (s): NotificationSubscriptionView => ({
        topic: s.topic,
        channel: s.channel,
        enabled: s.enabled === 1,
        pendingSync: pendingSubscriptions.has(`${s.topic}\u0000${s.channel}`),
      }),
    )
    .sort((a, b) => TOPIC_ORDER.indexOf(a.topic) - TOPIC_ORDER.indexOf(b.topic) || CHANNEL_ORDER.indexOf(a.channel) - CHANNEL_ORDER.indexOf(b.channel));
  return { items, unreadCount, subscriptions };
}

export function getSubscription(db: Database, siteId: string, topic: NotificationTopic, channel: NotificationChannel): NotificationSubscriptionView | null {
  return getNotifications(db, siteId).subscriptions.find((s) => s.topic === topic && s.channel === channel) ?? null;
}
