import type { Database } from 'better-sqlite3';
import { prepared } from './statements';

export interface BrowserSession {
  idHash: string;
  userId: string | null;
  expiresAt: number;
}

export function insertSession(
  db: Database,
  s: { idHash: string; userId: string | null; createdAt: number; expiresAt: number },
): void {
  prepared(
    db,
    'INSERT INTO browser_sessions (id_hash, user_id, created_at, expires_at) VALUES (@idHash, @userId, @createdAt, @expiresAt)',
  ).run(s);
}

export function getSession(db: Database, idHash: string, now: number): BrowserSession | undefined {
  return prepared(
    db,
    'SELECT id_hash AS idHash, user_id AS userId, expires_at AS expiresAt FROM browser_sessions WHERE id_hash = ? AND expires_at > ?',
  ).get(idHash, now) as BrowserSession | undefined;
}

export function deleteSession(db: Database, idHash: string): void {
  prepared(db, 'DELETE FROM browser_sessions WHERE id_hash = ?').run(idHash);
}

/**
 * Housekeeping: expired sessions (their pending authorizations go with them) and expired pending
 * requests.
 */
export function deleteExpiredSessions(db: Database, now: number): void {
  prepared(db, 'DELETE FROM browser_sessions WHERE expires_at <= ?').run(now);
  prepared(db, 'DELETE FROM pending_authorizations WHERE expires_at <= ?').run(now);
}

export interface PendingAuthorization {
  id: string;
  sessionHash: string;
  params: string;
  expiresAt: number;
}

export function insertPending(db: Database, p: PendingAuthorization & { createdAt: number }): void {
  prepared(
    db,
    'INSERT INTO pending_authorizations (id, session_hash, params, created_at, expires_at) VALUES (@id, @sessionHash, @params, @createdAt, @expiresAt)',
  ).run(p);
}

export function getPending(
  db: Database,
  id: string,
  sessionHash: string,
  now: number,
): PendingAuthorization | undefined {
  return prepared(
    db,
    'SELECT id, session_hash AS sessionHash, params, expires_at AS expiresAt FROM pending_authorizations WHERE id = ? AND session_hash = ? AND expires_at > ?',
  ).get(id, sessionHash, now) as PendingAuthorization | undefined;
}

/** Single use: the consent decision deletes its pending request; false when it was already gone. */
export function takePending(db: Database, id: string, sessionHash: string): boolean {
  return (
    prepared(db, 'DELETE FROM pending_authorizations WHERE id = ? AND session_hash = ?').run(
      id,
      sessionHash,
    ).changes === 1
  );
}

export function isFeatureEnabled(db: Database, schoolId: string, feature: string): boolean {
  return (
    prepared(db, 'SELECT 1 FROM school_features WHERE school_id = ? AND feature = ?').get(
      schoolId,
      feature,
    ) !== undefined
  );
}

export function setFeature(
  db: Database,
  schoolId: string,
  feature: string,
  enabled: boolean,
  userId: string | null,
  now: number,
): void {
  if (enabled) {
    prepared(
      db,
      'INSERT OR IGNORE INTO school_features (school_id, feature, enabled_by, enabled_at) VALUES (?, ?, ?, ?)',
    ).run(schoolId, feature, userId, now);
  } else {
    prepared(db, 'DELETE FROM school_features WHERE school_id = ? AND feature = ?').run(
      schoolId,
      feature,
    );
  }
}
