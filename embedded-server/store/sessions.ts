import type { Database } from 'better-sqlite3';

export interface BrowserSession {
  idHash: string;
  userId: string | null;
  expiresAt: number;
}

export function insertSession(db: Database, s: { idHash: string; userId: string | null; createdAt: number; expiresAt: number }): void {
  db.prepare('INSERT INTO browser_sessions (id_hash, user_id, created_at, expires_at) VALUES (@idHash, @userId, @createdAt, @expiresAt)').run(s);
}

export function getSession(db: Database, idHash: string, now: number): BrowserSession | undefined {
  return db
    .prepare('SELECT id_hash AS idHash, user_id AS userId, expires_at AS expiresAt FROM browser_sessions WHERE id_hash = ? AND expires_at > ?')
    .get(idHash, now) as BrowserSession | undefined;
}

export function deleteSession(db: Database, idHash: string): void {
  db.prepare('DELETE FROM browser_sessions WHERE id_hash = ?').run(idHash);
}

/** Housekeeping: expired sessions (their pending authorizations go with them) and expired pending requests. */
export function deleteExpiredSessions(db: Database, now: number): void {
  db.prepare('DELETE FROM browser_sessions WHERE expires_at <= ?').run(now);
  db.prepare('DELETE FROM pending_authorizations WHERE expires_at <= ?').run(now);
}

export interface PendingAuthorization {
  id: string;
  sessionHash: string;
  params: string;
  expiresAt: number;
}

export function insertPending(db: Database, p: PendingAuthorization & { createdAt: number }): void {
  db.prepare('INSERT INTO pending_authorizations (id, session_hash, params, created_at, expires_at) VALUES (@id, @sessionHash, @params, @createdAt, @expiresAt)').run(p);
}

export function getPending(db: Database, id: string, sessionHash: string, now: number): PendingAuthorization | undefined {
  return db
    .prepare(
      'SELECT id, session_hash AS sessionHash, params, expires_at AS expiresAt FROM pending_authorizations WHERE id = ? AND session_hash = ? AND expires_at > ?',
    )
    .get(id, sessionHash, now) as PendingAuthorization | undefined;
}

/** Single use: the consent decision deletes its pending request; false when it was already gone. */
export function takePending(db: Database, id: string, sessionHash: string): boolean {
  return db.prepare('DELETE FROM pending_authorizations WHERE id = ? AND session_hash = ?').run(id, sessionHash).changes === 1;
}

export function isFeatureEnabled(db: Database, schoolId: string, feature: string): boolean {
  return db.prepare('SELECT 1 FROM school_features WHERE school_id = ? AND feature = ?').get(schoolId, feature) !== undefined;
}

export function setFeature(db: Database, schoolId: string, feature: string, enabled: boolean, userId: string | null, now: number): void {
  if (enabled) {
    db.prepare('INSERT OR IGNORE INTO school_features (school_id, feature, enabled_by, enabled_at) VALUES (?, ?, ?, ?)').run(schoolId, feature, userId, now);
  } else {
    db.prepare('DELETE FROM school_features WHERE school_id = ? AND feature = ?').run(schoolId, feature);
  }
}
