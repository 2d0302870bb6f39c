import type { Database } from 'better-sqlite3';
import { keyset, pageParams, stmt, toPage, type Page, type PageRequest } from './content-sql';
import { contentMemo } from './content-memo';
import type { NotificationKind } from '../member-api/schema-types';

/** Data access for the notification inbox and subscriptions (migration 002). */

export interface NotificationRow {
  id: string;
  school_id: string;
  user_id: string;
  kind: NotificationKind;
  title: string;
  body: string;
  url: string | null;
  created_at: number;
  read_at: number | null;
}

export interface SubscriptionRow {
  topic: string;
  channel: string;
  enabled: number;
}

export function listNotifications(
  db: Database,
  req: PageRequest & { unreadOnly: boolean },
): Page<NotificationRow> {
  const params = { ...pageParams(req), unread: req.unreadOnly ? 1 : 0 };
  const rows = stmt<object, NotificationRow>(
    db,
    `SELECT * FROM notifications WHERE school_id = :school AND user_id = :user AND (:unread = 0 OR read_at IS NULL)
        AND ${keyset('created_at', 'id')}
      ORDER BY created_at DESC, id DESC LIMIT :limit`,
  ).all(params);
  return toPage(rows, req, countNotifications(db, req.schoolId, req.userId, req.unreadOnly));
}

/**
 * The totalCount of every inbox page, memoised against the `notifications` generation
 * (store/content-memo.ts), which an insert, a delete or a change of read_at raises: counting a
 * 2,000-notice inbox cost ~0.1 ms a page.
 */
function countNotifications(
  db: Database,
  schoolId: string,
  userId: string,
  unreadOnly: boolean,
): number {
  return contentMemo<number>(db, 'notifications').getOrRemember(
    `${schoolId}\u0000${userId}\u0000${unreadOnly ? 1 : 0}`,
    () =>
      stmt<object, { n: number }>(
        db,
        'SELECT count(*) AS n FROM notifications WHERE school_id = :school AND user_id = :user AND (:unread = 0 OR read_at IS NULL)',
      ).get({ school: schoolId, user: userId, unread: unreadOnly ? 1 : 0 })!.n,
  );
}

export function countUnread(db: Database, schoolId: string, userId: string): number {
  return stmt<object, { n: number }>(
    db,
    'SELECT count(*) AS n FROM notifications WHERE school_id = :school AND user_id = :user AND read_at IS NULL',
  ).get({
    school: schoolId,
    user: userId,
  })!.n;
}

export function getNotification(
  db: Database,
  schoolId: string,
  id: string,
): NotificationRow | undefined {
  return stmt<object, NotificationRow>(
    db,
    'SELECT * FROM notifications WHERE school_id = :school AND id = :id',
  ).get({ school: schoolId, id });
}

/**
 * Idempotent: a read notification keeps its first read time. Scoped to the owner, so another user's
 * id changes nothing.
 */
export function markRead(
  db: Database,
  schoolId: string,
  userId: string,
  id: string,
  at: number,
): NotificationRow | undefined {
  stmt(
    db,
    'UPDATE notifications SET read_at = coalesce(read_at, :at) WHERE school_id = :school AND user_id = :user AND id = :id',
  ).run({
    school: schoolId,
    user: userId,
    id,
    at,
  });
  const row = getNotification(db, schoolId, id);
  return row && row.user_id === userId ? row : undefined;
}

export function markAllRead(db: Database, schoolId: string, userId: string, at: number): number {
  return stmt(
    db,
    'UPDATE notifications SET read_at = :at WHERE school_id = :school AND user_id = :user AND read_at IS NULL',
  ).run({
    school: schoolId,
    user: userId,
    at,
  }).changes;
}

export function insertNotification(db: Database, row: NotificationRow): void {
  stmt(
    db,
    `INSERT INTO notifications (id, school_id, user_id, kind, title, body, url, created_at, read_at)
     VALUES (:id, :school_id, :user_id, :kind, :title, :body, :url, :created_at, :read_at)`,
  ).run(row);
}

export function deleteNotification(db: Database, schoolId: string, id: string): boolean {
  return (
    stmt(db, 'DELETE FROM notifications WHERE school_id = :school AND id = :id').run({
      school: schoolId,
      id,
    }).changes > 0
  );
}

export function listSchoolNotifications(
  db: Database,
  schoolId: string,
  limit: number,
  offset: number,
): { rows: NotificationRow[]; total: number } {
  const rows = stmt<object, NotificationRow>(
    db,
    'SELECT * FROM notifications WHERE school_id = :school ORDER BY created_at DESC, id DESC LIMIT :limit OFFSET :offset',
  ).all({ school: schoolId, limit, offset });
  const total = stmt<object, { n: number }>(
    db,
    'SELECT count(*) AS n FROM notifications WHERE school_id = :school',
  ).get({ school: schoolId })!.n;
  return { rows, total };
}

/** Explicit rows only; the resolver fills in defaults for topic/channel pairs never touched. */
export function listSubscriptions(
  db: Database,
  schoolId: string,
  userId: string,
): SubscriptionRow[] {
  return stmt<object, SubscriptionRow>(
    db,
    'SELECT topic, channel, enabled FROM notification_subscriptions WHERE school_id = :school AND user_id = :user',
  ).all({ school: schoolId, user: userId });
}

export function upsertSubscription(
  db: Database,
  schoolId: string,
  userId: string,
  row: SubscriptionRow,
): void {
  stmt(
    db,
    `INSERT INTO notification_subscriptions (school_id, user_id, topic, channel, enabled) VALUES (:school, :user, :topic, :channel, :enabled)
     ON CONFLICT (school_id, user_id, topic, channel) DO UPDATE SET enabled = excluded.enabled`,
  ).run({ school: schoolId, user: userId, ...row });
}
