import type { Database } from 'better-sqlite3';
import type { Audience } from './clients';
import { prepared } from './statements';

/** One access+refresh pair with one revocation stamp (spec: Token pair lifecycle). */
export interface TokenPair {
  id: string;
  grantId: string;
  parentId: string | null;
  accessHash: string;
  refreshHash: string;
  clientId: string;
  userId: string;
  schoolId: string | null;
  scope: string;
  resource: string | null;
  audience: Audience;
  createdAt: number;
  accessExpiresAt: number;
  refreshExpiresAt: number;
  firstPresentedAt: number | null;
  revokedAt: number | null;
}

const COLUMNS = `id, grant_id AS grantId, parent_id AS parentId, access_hash AS accessHash, refresh_hash AS refreshHash,
  client_id AS clientId, user_id AS userId, school_id AS schoolId, scope, resource, audience, created_at AS createdAt,
  access_expires_at AS accessExpiresAt, refresh_expires_at AS refreshExpiresAt, first_presented_at AS firstPresentedAt,
  revoked_at AS revokedAt`;

export function insertTokenPair(
  db: Database,
  t: Omit<TokenPair, 'firstPresentedAt' | 'revokedAt'>,
): void {
  prepared(
    db,
    `INSERT INTO token_pairs (id, grant_id, parent_id, access_hash, refresh_hash, client_id, user_id, school_id, scope, resource, audience,
       created_at, access_expires_at, refresh_expires_at)
     VALUES (@id, @grantId, @parentId, @accessHash, @refreshHash, @clientId, @userId, @schoolId, @scope, @resource, @audience,
       @createdAt, @accessExpiresAt, @refreshExpiresAt)`,
  ).run(t);
}

export function getPairByAccessHash(db: Database, hash: string): TokenPair | undefined {
  return prepared(db, `SELECT ${COLUMNS} FROM token_pairs WHERE access_hash = ?`).get(hash) as
    TokenPair | undefined;
}

export function getPairByRefreshHash(db: Database, hash: string): TokenPair | undefined {
  return prepared(db, `SELECT ${COLUMNS} FROM token_pairs WHERE refresh_hash = ?`).get(hash) as
    TokenPair | undefined;
}

export function getPair(db: Database, id: string): TokenPair | undefined {
  return prepared(db, `SELECT ${COLUMNS} FROM token_pairs WHERE id = ?`).get(id) as
    TokenPair | undefined;
}

/** Stamps the pair revoked (both tokens at once). Idempotent: an earlier stamp is kept. */
export function revokePair(db: Database, id: string, now: number, reason: string): boolean {
  return (
    prepared(
      db,
      'UPDATE token_pairs SET revoked_at = ?, revoked_reason = ? WHERE id = ? AND revoked_at IS NULL',
    ).run(now, reason, id).changes === 1
  );
}

/**
 * Revokes every pair descending from one authorization code (RFC 6749 §4.1.2, RFC 9700 §4.2.4: code
 * replay).
 */
export function revokeGrant(db: Database, grantId: string, now: number, reason: string): number {
  return prepared(
    db,
    'UPDATE token_pairs SET revoked_at = ?, revoked_reason = ? WHERE grant_id = ? AND revoked_at IS NULL',
  ).run(now, reason, grantId).changes;
}

/**
 * Records the first presentation of a pair's access token at a protected resource. When this is the
 * first time and the pair came from a refresh, its ancestors (the pair it was refreshed from, and
 * theirs) are revoked (spec: "old pair after a refresh -> New access token first presented to an
 * API -> revoked"). Returns the number of pairs revoked.
 */
export function recordFirstPresentation(
  db: Database,
  pair: Pick<TokenPair, 'id' | 'parentId' | 'firstPresentedAt'>,
  now: number,
): number {
  if (pair.firstPresentedAt !== null) return 0;
  return db.transaction(() => {
    const first = prepared(
      db,
      'UPDATE token_pairs SET first_presented_at = ? WHERE id = ? AND first_presented_at IS NULL',
    ).run(now, pair.id);
    if (first.changes === 0) return 0; // a concurrent request got there first
    let revoked = 0;
    let parentId = pair.parentId;
    const getParent = prepared(db, 'SELECT parent_id AS parentId FROM token_pairs WHERE id = ?');
    while (parentId !== null) {
      if (revokePair(db, parentId, now, 'superseded')) revoked++;
      const row = getParent.get(parentId) as { parentId: string | null } | undefined;
      parentId = row ? row.parentId : null;
    }
    return revoked;
  })();
}

/**
 * Fault injection (README, decision "Fault injection"): every live access token ends now, as if its
 * lifetime had passed; refresh tokens are untouched, so a client's next call refreshes. Returns the
 * number of tokens ended.
 */
export function expireLiveAccessTokens(db: Database, now: number): number {
  return prepared(
    db,
    'UPDATE token_pairs SET access_expires_at = ? WHERE revoked_at IS NULL AND access_expires_at > ?',
  ).run(now, now).changes;
}
