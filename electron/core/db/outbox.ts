import type { Database } from 'better-sqlite3';
import type { OutboxChange } from './outbox-change';
import { applyChangeLocally } from './notifications';
import { ensureSite } from './sites';
import { json, prepared } from './statements';
import { changingViews } from './view-cache';
import type { AnyDB, ReadableDB, WritableDB } from './handles';

/**
 * The outbox: mutations (`account:write`, spec "Scopes") made while offline or before the site
 * answered. Each change is applied to the local rows at once and kept here until the site accepts
 * it; replay goes in id order. After a sync replaces the rows with the server's, pending changes
 * are applied again on top.
 */
export type { OutboxChange } from './outbox-change';

export interface OutboxEntry {
  readonly id: number;
  readonly siteId: string;
  readonly change: OutboxChange;
  readonly description: string;
  readonly createdAt: string;
  readonly status: 'pending' | 'failed';
  readonly attempts: number;
  readonly lastError: string | null;
}

interface OutboxRow {
  id: number;
  site_id: string;
  kind: OutboxChange['kind'];
  payload: string;
  description: string;
  created_at: string;
  status: 'pending' | 'failed';
  attempts: number;
  last_error: string | null;
  last_attempt_at: string | null;
}
export type RawOutboxRow = OutboxRow;

function toEntry(row: OutboxRow): OutboxEntry {
  return {
    id: row.id,
    siteId: row.site_id,
    change: { kind: row.kind, ...(JSON.parse(row.payload) as object) } as OutboxChange,
    description: row.description,
    createdAt: row.created_at,
    status: row.status,
    attempts: row.attempts,
    lastError: row.last_error,
  };
}

export function describeChange(change: OutboxChange): string {
  switch (change.kind) {
    case 'mark-notification-read':
      return `Mark notification ${change.notificationId} read`;
    case 'mark-all-notifications-read':
      return 'Mark all notifications read';
    case 'update-notification-subscription':
      return `${change.enabled ? 'Turn on' : 'Turn off'} ${change.topic} notifications by ${change.channel}`;
  }
}

/**
 * Applies the change to the local rows and queues it, in one transaction: the views show it at
 * once.
 */
export function enqueueChange(
  db: WritableDB,
  siteId: string,
  change: OutboxChange,
  now: Date,
): OutboxEntry {
  return changingViews(
    db,
    siteId,
    ['notifications'],
    db.transaction(() => {
      ensureSite(db, siteId, now);
      const { kind, ...payload } = change;
      const createdAt = now.toISOString();
      const { lastInsertRowid } = prepared<{
        siteId: string;
        kind: string;
        payload: string;
        description: string;
        createdAt: string;
      }>(
        db,
        `INSERT INTO outbox (site_id, kind, payload, description, created_at)
         VALUES (@siteId, @kind, @payload, @description, @createdAt)`,
      ).run({
        siteId,
        kind,
        payload: json(payload),
        description: describeChange(change),
        createdAt,
      });
      applyChangeLocally(db, siteId, change, createdAt);
      return getEntry(db, Number(lastInsertRowid))!;
    }),
  );
}

export function getEntry(db: Database, id: number): OutboxEntry | null {
  const row = prepared<{ id: number }, OutboxRow>(db, 'SELECT * FROM outbox WHERE id = @id').get({
    id,
  });
  return row ? toEntry(row) : null;
}

export function pendingEntries(db: AnyDB, siteId: string): OutboxEntry[] {
  return prepared<{ siteId: string }, OutboxRow>(
    db,
    "SELECT * FROM outbox WHERE site_id = @siteId AND status = 'pending' ORDER BY id",
  )
    .all({ siteId })
    .map(toEntry);
}

export function failedEntries(db: ReadableDB, siteId: string): OutboxEntry[] {
  return prepared<{ siteId: string }, OutboxRow>(
    db,
    "SELECT * FROM outbox WHERE site_id = @siteId AND status = 'failed' ORDER BY id",
  )
    .all({ siteId })
    .map(toEntry);
}

export function countPending(db: ReadableDB, siteId: string): number {
  return prepared<{ siteId: string }, { n: number }>(
    db,
    "SELECT count(*) AS n FROM outbox WHERE site_id = @siteId AND status = 'pending'",
  ).get({
    siteId,
  })!.n;
}

/** The site accepted the change: it leaves the queue. */
export function removeEntry(db: WritableDB, entry: Pick<OutboxEntry, 'id' | 'siteId'>): void {
  changingViews(db, entry.siteId, ['notifications'], () => {
    prepared<{ id: number }>(db, 'DELETE FROM outbox WHERE id = @id').run({ id: entry.id });
  });
}

/** A transient failure (network, 503): kept pending for the next replay. */
export function recordAttempt(
  db: WritableDB,
  entry: Pick<OutboxEntry, 'id' | 'siteId'>,
  error: string,
  now: Date,
): void {
  changingViews(db, entry.siteId, [], () => {
    prepared<{ id: number; error: string; at: string }>(
      db,
      'UPDATE outbox SET attempts = attempts + 1, last_error = @error, last_attempt_at = @at WHERE id = @id',
    ).run({ id: entry.id, error, at: now.toISOString() });
  });
}

/** The site refused the change for good: kept as 'failed' to be reported, never retried. */
export function markFailed(
  db: WritableDB,
  entry: Pick<OutboxEntry, 'id' | 'siteId'>,
  error: string,
  now: Date,
): void {
  changingViews(db, entry.siteId, ['notifications'], () => {
    prepared<{ id: number; error: string; at: string }>(
      db,
      "UPDATE outbox SET status = 'failed', attempts = attempts + 1, last_error = @error, last_attempt_at = @at WHERE id = @id",
    ).run({ id: entry.id, error, at: now.toISOString() });
  });
}

/** The user dismissed a reported failure. */
export function dismissFailed(db: WritableDB, siteId: string, id: number): void {
  changingViews(db, siteId, ['notifications'], () => {
    prepared<{ id: number; siteId: string }>(
      db,
      "DELETE FROM outbox WHERE id = @id AND site_id = @siteId AND status = 'failed'",
    ).run({ id, siteId });
  });
}

/**
 * After a snapshot replaced the rows: pending changes go back on top, in order (a queued mark-read
 * stays read).
 */
export function reapplyPending(db: WritableDB, siteId: string): void {
  for (const entry of pendingEntries(db, siteId))
    applyChangeLocally(db, siteId, entry.change, entry.createdAt);
}

/** For recovery: every outbox row of a (possibly damaged) database, as stored. */
export function readOutboxRowsRaw(db: Database): RawOutboxRow[] {
  return db.prepare('SELECT * FROM outbox ORDER BY id').all() as RawOutboxRow[];
}

/**
 * For recovery: puts salvaged rows into a fresh database (ids and order kept). Returns how many.
 */
export function restoreOutboxRows(db: WritableDB, rows: readonly RawOutboxRow[]): number {
  const insert = db.prepare(
    `INSERT INTO outbox (id, site_id, kind, payload, description, created_at, status, attempts, last_error, last_attempt_at)
     VALUES (@id, @site_id, @kind, @payload, @description, @created_at, @status, @attempts, @last_error, @last_attempt_at)`,
  );
  let restored = 0;
  db.transaction(() => {
    for (const row of rows) {
      try {
        ensureSite(db, row.site_id);
        insert.run(row);
        restored += 1;
      } catch {
        // A damaged row is dropped; the rest are kept.
      }
    }
  })();
  return restored;
}
