import type { Database } from 'better-sqlite3';
import type {
  NotificationChannel,
  NotificationKind,
  NotificationsSummary,
  NotificationsView,
  NotificationSubscriptionView,
  NotificationTopic,
  NotificationView,
  Page,
} from '../../common/view-models';
import type { OutboxChange } from './outbox-change';
import { knownOr, siteParagraphs, siteText } from '../../common/site-values';
import type { NotificationRecord, SubscriptionRecord } from './records';
import { nextOffset, pageOf, type PageRequest } from './paging';
import { bool, prepared } from './statements';
import { cachedView, changingViews } from './view-cache';
import type { ReadableDB, WritableDB } from './handles';

// ------------------------------------------------------------------ writes (one sync batch, inside
// its transaction)

export function replaceNotifications(
  db: Database,
  siteId: string,
  records: readonly NotificationRecord[],
): void {
  prepared<{ siteId: string }>(db, 'DELETE FROM notifications WHERE site_id = @siteId').run({
    siteId,
  });
  const insert = prepared<Record<string, unknown>>(
    db,
    `INSERT INTO notifications (site_id, id, kind, title, body, url, created_at, read_at, server_read_at)
     VALUES (@siteId, @id, @kind, @title, @body, @url, @createdAt, @readAt, @readAt)`,
  );
  for (const n of records) {
    insert.run({
      siteId,
      id: n.id,
      kind: n.kind,
      title: n.title,
      body: n.body,
      url: n.url,
      createdAt: n.createdAt,
      readAt: n.readAt,
    });
  }
}

export function replaceSubscriptions(
  db: Database,
  siteId: string,
  records: readonly SubscriptionRecord[],
): void {
  prepared<{ siteId: string }>(
    db,
    'DELETE FROM notification_subscriptions WHERE site_id = @siteId',
  ).run({ siteId });
  const insert = prepared<Record<string, unknown>>(
    db,
    `INSERT INTO notification_subscriptions (site_id, topic, channel, enabled, server_enabled)
     VALUES (@siteId, @topic, @channel, @enabled, @enabled)`,
  );
  for (const s of records)
    insert.run({ siteId, topic: s.topic, channel: s.channel, enabled: bool(s.enabled) });
}

/** Local values back to the server's (before pending changes are applied again). */
export function resetNotificationOverlay(db: Database, siteId: string): void {
  prepared<{ siteId: string }>(
    db,
    'UPDATE notifications SET read_at = server_read_at WHERE site_id = @siteId AND read_at IS NOT server_read_at',
  ).run({ siteId });
}

export function resetSubscriptionOverlay(db: Database, siteId: string): void {
  prepared<{ siteId: string }>(
    db,
    'UPDATE notification_subscriptions SET enabled = server_enabled WHERE site_id = @siteId AND enabled IS NOT server_enabled',
  ).run({
    siteId,
  });
}

/** The local effect of a queued change (also re-applied on top of each fresh snapshot). */
export function applyChangeLocally(
  db: Database,
  siteId: string,
  change: OutboxChange,
  at: string,
): void {
  switch (change.kind) {
    case 'mark-notification-read':
      prepared<{ siteId: string; id: string; at: string }>(
        db,
        'UPDATE notifications SET read_at = coalesce(read_at, @at) WHERE site_id = @siteId AND id = @id',
      ).run({ siteId, id: change.notificationId, at });
      return;
    case 'mark-all-notifications-read':
      // The server marks every notification existing when the change is replayed, so all local ones
      // match.
      prepared<{ siteId: string; at: string }>(
        db,
        'UPDATE notifications SET read_at = @at WHERE site_id = @siteId AND read_at IS NULL',
      ).run({
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
      ).run({
        siteId,
        topic: change.topic,
        channel: change.channel,
        enabled: bool(change.enabled),
        notEnabled: bool(!change.enabled),
      });
      return;
  }
}

/** The site accepted a mark-read: its answer becomes the server's value. */
export function acceptNotificationRead(
  db: WritableDB,
  siteId: string,
  id: string,
  readAt: string | null,
): void {
  changingViews(db, siteId, ['notifications'], () => {
    prepared<{ siteId: string; id: string; readAt: string | null }>(
      db,
      'UPDATE notifications SET server_read_at = @readAt, read_at = coalesce(@readAt, read_at) WHERE site_id = @siteId AND id = @id',
    ).run({ siteId, id, readAt });
  });
}

export function acceptAllNotificationsRead(db: WritableDB, siteId: string): void {
  changingViews(db, siteId, ['notifications'], () => {
    prepared<{ siteId: string }>(
      db,
      'UPDATE notifications SET server_read_at = read_at WHERE site_id = @siteId AND read_at IS NOT NULL AND server_read_at IS NULL',
    ).run({ siteId });
  });
}

export function acceptSubscription(
  db: WritableDB,
  siteId: string,
  record: SubscriptionRecord,
): void {
  changingViews(db, siteId, ['notifications'], () => {
    prepared<Record<string, unknown>>(
      db,
      `INSERT INTO notification_subscriptions (site_id, topic, channel, enabled, server_enabled)
       VALUES (@siteId, @topic, @channel, @enabled, @enabled)
       ON CONFLICT (site_id, topic, channel) DO UPDATE SET server_enabled = excluded.server_enabled`,
    ).run({ siteId, topic: record.topic, channel: record.channel, enabled: bool(record.enabled) });
  });
}

// ------------------------------------------------------------------ views

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

const TOPIC_ORDER: readonly NotificationTopic[] = [
  'announcements',
  'course_updates',
  'payments',
  'events',
  'marketing',
];
const CHANNEL_ORDER: readonly NotificationChannel[] = ['in_app', 'email', 'push'];

/** Topic/channel pairs with a queued subscription change (shown as "not sent yet"). */
function pendingSubscriptions(db: Database, siteId: string): ReadonlySet<string> {
  return new Set(
    prepared<{ siteId: string }, { topic: string; channel: string }>(
      db,
      `SELECT json_extract(payload, '$.topic') AS topic, json_extract(payload, '$.channel') AS channel FROM outbox
       WHERE site_id = @siteId AND status = 'pending' AND kind = 'update-notification-subscription'`,
    )
      .all({ siteId })
      .map((r) => `${r.topic}\u0000${r.channel}`),
  );
}

/**
 * Which of these notices have a queued mark-read (or a queued mark-all). For a page, the outbox is
 * asked about the page's ids only, so a page costs the same however many changes wait for the site;
 * for longer lists (the whole inbox) every queued mark-read is read once.
 */
function pendingReads(
  db: Database,
  siteId: string,
  ids: readonly string[],
): { readonly all: boolean; readonly read: ReadonlySet<string> } {
  const few = ids.length <= 100;
  const rows = prepared<
    { siteId: string; ids: string },
    { kind: OutboxChange['kind']; id: string | null }
  >(
    db,
    `SELECT kind, json_extract(payload, '$.notificationId') AS id FROM outbox
     WHERE site_id = @siteId AND status = 'pending' AND (kind = 'mark-all-notifications-read' OR (kind = 'mark-notification-read'${
       few
         ? " AND json_extract(payload, '$.notificationId') IN (SELECT value FROM json_each(@ids))"
         : ''
     }))`,
  ).all({ siteId, ids: few ? JSON.stringify(ids) : '[]' });
  return {
    all: rows.some((r) => r.kind === 'mark-all-notifications-read'),
    read: new Set(rows.flatMap((r) => (r.id === null ? [] : [r.id]))),
  };
}

/**
 * Rows read locally but not by the server can only be so through a queued change: only those are
 * looked up.
 */
function toNotificationViews(
  db: Database,
  siteId: string,
  rows: readonly NotificationRow[],
): NotificationView[] {
  const local = rows
    .filter((r) => r.server_read_at === null && r.read_at !== null)
    .map((r) => r.id);
  const pending = local.length === 0 ? null : pendingReads(db, siteId, local);
  return rows.map((r): NotificationView => {
    const local = r.server_read_at === null && r.read_at !== null;
    return {
      id: r.id,
      kind: knownOr(r.kind, NOTIFICATION_KINDS),
      title: siteText(r.title),
      body: siteParagraphs(r.body),
      url: r.url,
      createdAt: r.created_at,
      readAt: r.read_at,
      pendingSync: local && (pending!.all || pending!.read.has(r.id)),
    };
  });
}

/** The kinds this version knows; any other is 'unknown' (site-values.ts). */
const NOTIFICATION_KINDS: readonly NotificationKind[] = [
  'announcement',
  'course_update',
  'payment',
  'event',
  'consulting',
];

const NOTIFICATION_COLUMNS = 'id, kind, title, body, url, created_at, read_at, server_read_at';

/**
 * A page of the inbox, newest first, with queued local changes shown and flagged (pendingSync).
 * `onlyUnread` walks the partial index of unread rows, so a page of unread notices costs the same
 * as any other page.
 */
export function getNotificationsPage(
  db: ReadableDB,
  siteId: string,
  request: PageRequest & { readonly onlyUnread?: boolean } = {},
): Page<NotificationView> {
  const { offset, limit } = pageOf(request);
  const unread = request.onlyUnread === true ? ' AND read_at IS NULL' : '';
  const rows = prepared<{ siteId: string; offset: number; limit: number }, NotificationRow>(
    db,
    `SELECT ${NOTIFICATION_COLUMNS} FROM notifications
     WHERE site_id = @siteId${unread} ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset`,
  ).all({ siteId, offset, limit: limit ?? -1 });
  const total = prepared<{ siteId: string }, { n: number }>(
    db,
    `SELECT count(*) AS n FROM notifications WHERE site_id = @siteId${unread}`,
  ).get({
    siteId,
  })!.n;
  const items = toNotificationViews(db, siteId, rows);
  return { items, total, nextOffset: nextOffset(offset, items.length, limit, total) };
}

/**
 * Counts and subscriptions: the head of the inbox (and the unread badge). Memoised until the inbox
 * changes.
 */
export function getNotificationsSummary(db: ReadableDB, siteId: string): NotificationsSummary {
  // Nothing here depends on the clock: only a data change invalidates.
  return cachedView(db, 'notifications', siteId, 'summary', EPOCH, () => {
    const total = prepared<{ siteId: string }, { n: number }>(
      db,
      'SELECT count(*) AS n FROM notifications WHERE site_id = @siteId',
    ).get({
      siteId,
    })!.n;
    const unreadCount = prepared<{ siteId: string }, { n: number }>(
      db,
      'SELECT count(*) AS n FROM notifications WHERE site_id = @siteId AND read_at IS NULL',
    ).get({ siteId })!.n;
    return {
      value: { total, unreadCount, subscriptions: subscriptionsOf(db, siteId) },
      validUntil: Number.POSITIVE_INFINITY,
    };
  });
}

function subscriptionsOf(db: Database, siteId: string): NotificationSubscriptionView[] {
  const rows = prepared<{ siteId: string }, SubscriptionRow>(
    db,
    'SELECT topic, channel, enabled FROM notification_subscriptions WHERE site_id = @siteId',
  ).all({
    siteId,
  });
  const pending = rows.length === 0 ? new Set<string>() : pendingSubscriptions(db, siteId);
  // A topic or channel this version does not know has no switch to show (and none to send back):
  // left out.
  return rows
    .filter((s) => TOPIC_ORDER.includes(s.topic) && CHANNEL_ORDER.includes(s.channel))
    .map((s): NotificationSubscriptionView => ({
      topic: s.topic,
      channel: s.channel,
      enabled: s.enabled === 1,
      pendingSync: pending.has(`${s.topic}\u0000${s.channel}`),
    }))
    .sort(
      (a, b) =>
        TOPIC_ORDER.indexOf(a.topic) - TOPIC_ORDER.indexOf(b.topic) ||
        CHANNEL_ORDER.indexOf(a.channel) - CHANNEL_ORDER.indexOf(b.channel),
    );
}

/**
 * The whole inbox at once (tests, the `notifications:list` channel); the screen reads the summary
 * and pages.
 */
export function getNotifications(db: ReadableDB, siteId: string): NotificationsView {
  return cachedView(db, 'notifications', siteId, '', EPOCH, () => {
    const { unreadCount, subscriptions } = getNotificationsSummary(db, siteId);
    return {
      value: { items: getNotificationsPage(db, siteId).items, unreadCount, subscriptions },
      validUntil: Number.POSITIVE_INFINITY,
    };
  });
}
const EPOCH = new Date(0);

export function getSubscription(
  db: ReadableDB,
  siteId: string,
  topic: NotificationTopic,
  channel: NotificationChannel,
): NotificationSubscriptionView | null {
  return (
    getNotificationsSummary(db, siteId).subscriptions.find(
      (s) => s.topic === topic && s.channel === channel,
    ) ?? null
  );
}
