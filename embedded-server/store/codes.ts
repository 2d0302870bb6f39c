import type { Database } from 'better-sqlite3';
import type { Audience } from './clients';
import { prepared } from './statements';

export interface AuthorizationCode {
  id: string;
  codeHash: string;
  clientId: string;
  userId: string;
  schoolId: string;
  redirectUri: string;
  scope: string;
  resource: string | null;
  codeChallenge: string;
  nonce: string | null;
  audience: Audience;
  authTime: number;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
}

export function insertCode(db: Database, c: Omit<AuthorizationCode, 'usedAt'>): void {
  prepared(
    db,
    `INSERT INTO authorization_codes (id, code_hash, client_id, user_id, school_id, redirect_uri, scope, resource, code_challenge, nonce, audience, auth_time, created_at, expires_at)
     VALUES (@id, @codeHash, @clientId, @userId, @schoolId, @redirectUri, @scope, @resource, @codeChallenge, @nonce, @audience, @authTime, @createdAt, @expiresAt)`,
  ).run(c);
}

export function getCodeByHash(db: Database, codeHash: string): AuthorizationCode | undefined {
  return prepared(
    db,
    `SELECT id, code_hash AS codeHash, client_id AS clientId, user_id AS userId, school_id AS schoolId, redirect_uri AS redirectUri,
              scope, resource, code_challenge AS codeChallenge, nonce, audience, auth_time AS authTime, created_at AS createdAt,
              expires_at AS expiresAt, used_at AS usedAt
       FROM authorization_codes WHERE code_hash = ?`,
  ).get(codeHash) as AuthorizationCode | undefined;
}

/**
 * Marks a code used; false when it already was (the caller treats that as a replay). Atomic in
 * SQLite.
 */
export function consumeCode(db: Database, id: string, now: number): boolean {
  return (
    prepared(db, 'UPDATE authorization_codes SET used_at = ? WHERE id = ? AND used_at IS NULL').run(
      now,
      id,
    ).changes === 1
  );
}
