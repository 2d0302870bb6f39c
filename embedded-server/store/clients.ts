import type { Database } from 'better-sqlite3';
import { prepared } from './statements';

export type Audience = 'member' | 'operator';
export type ClientOrigin = 'admin' | 'vendor' | 'loopback-registration' | 'metadata-document';

/** A client as the OAuth endpoints see it, whatever its origin (table row or metadata document). */
export interface OAuthClient {
  clientId: string;
  schoolId: string | null;
  name: string;
  audience: Audience;
  origin: ClientOrigin;
  confidential: boolean;
  secretHash: string | null;
  redirectUris: string[];
  applicationType: string;
  createdAt: number;
}

interface RawClient {
  client_id: string;
  school_id: string | null;
  name: string;
  audience: Audience;
  origin: ClientOrigin;
  confidential: number;
  secret_hash: string | null;
  redirect_uris: string;
  application_type: string;
  created_at: number;
}

const toClient = (r: RawClient): OAuthClient => ({
  clientId: r.client_id,
  schoolId: r.school_id,
  name: r.name,
  audience: r.audience,
  origin: r.origin,
  confidential: r.confidential === 1,
  secretHash: r.secret_hash,
  redirectUris: JSON.parse(r.redirect_uris) as string[],
  applicationType: r.application_type,
  createdAt: r.created_at,
});

export function insertClient(
  db: Database,
  c: Omit<OAuthClient, 'origin'> & { origin: Exclude<ClientOrigin, 'metadata-document'> },
): void {
  prepared(
    db,
    `INSERT INTO oauth_clients (client_id, school_id, name, audience, origin, confidential, secret_hash, redirect_uris, application_type, created_at)
     VALUES (@clientId, @schoolId, @name, @audience, @origin, @confidential, @secretHash, @redirectUris, @applicationType, @createdAt)`,
  ).run({
    ...c,
    confidential: c.confidential ? 1 : 0,
    redirectUris: JSON.stringify(c.redirectUris),
  });
}

export function getClient(db: Database, clientId: string): OAuthClient | undefined {
  const r = prepared(db, 'SELECT * FROM oauth_clients WHERE client_id = ?').get(clientId) as
    RawClient | undefined;
  return r && toClient(r);
}

/** Member OAuth applications of one school (admin Developers page), oldest first. */
export function listSchoolClients(db: Database, schoolId: string): OAuthClient[] {
  const rows = prepared(
    db,
    "SELECT * FROM oauth_clients WHERE school_id = ? AND origin = 'admin' ORDER BY created_at, client_id",
  ).all(schoolId) as RawClient[];
  return rows.map(toClient);
}

/**
 * Deletes a member application of a school. Its codes and token pairs go with it: a deleted
 * client's tokens must stop working at once, so they are removed rather than left to expire.
 */
export function deleteSchoolClient(db: Database, schoolId: string, clientId: string): boolean {
  return db.transaction(() => {
    const info = prepared(
      db,
      "DELETE FROM oauth_clients WHERE client_id = ? AND school_id = ? AND origin = 'admin'",
    ).run(clientId, schoolId);
    if (info.changes === 0) return false;
    prepared(db, 'DELETE FROM token_pairs WHERE client_id = ?').run(clientId);
    prepared(db, 'DELETE FROM authorization_codes WHERE client_id = ?').run(clientId);
    return true;
  })();
}

export interface VendorPlatform {
  id: string;
  clientName: string;
  clientId: string;
}

export function insertVendorPlatform(db: Database, v: VendorPlatform, now: number): void {
  prepared(
    db,
    'INSERT INTO vendor_platforms (id, client_name, client_id, allowlisted, created_at) VALUES (@id, @clientName, @clientId, 1, @now)',
  ).run({ ...v, now });
}

/** Allowlist match on client_name (exact, case-sensitive: decision in README). */
export function findAllowlistedVendor(
  db: Database,
  clientName: string,
): VendorPlatform | undefined {
  return prepared(
    db,
    'SELECT id, client_name AS clientName, client_id AS clientId FROM vendor_platforms WHERE client_name = ? AND allowlisted = 1',
  ).get(clientName) as VendorPlatform | undefined;
}

export function getCachedMetadataDocument(db: Database, clientId: string, now: number): unknown {
  const r = prepared(
    db,
    'SELECT document FROM client_metadata_cache WHERE client_id = ? AND expires_at > ?',
  ).get(clientId, now) as { document: string } | undefined;
  return r ? (JSON.parse(r.document) as unknown) : undefined;
}

export function putCachedMetadataDocument(
  db: Database,
  clientId: string,
  document: unknown,
  now: number,
  ttlMs: number,
): void {
  prepared(
    db,
    `INSERT INTO client_metadata_cache (client_id, document, fetched_at, expires_at) VALUES (?, ?, ?, ?)
     ON CONFLICT(client_id) DO UPDATE SET document = excluded.document, fetched_at = excluded.fetched_at, expires_at = excluded.expires_at`,
  ).run(clientId, JSON.stringify(document), now, now + ttlMs);
}

/**
 * Loopback registrations made since `since` (the registration quota), and when the oldest of them
 * was made.
 */
export function recentLoopbackRegistrations(
  db: Database,
  since: number,
): { count: number; oldest: number | null } {
  return prepared(
    db,
    "SELECT count(*) AS count, min(created_at) AS oldest FROM oauth_clients WHERE origin = 'loopback-registration' AND created_at > ?",
  ).get(since) as { count: number; oldest: number | null };
}

const UNUSED = `NOT EXISTS (SELECT 1 FROM token_pairs t WHERE t.client_id = oauth_clients.client_id)
  AND NOT EXISTS (SELECT 1 FROM authorization_codes c WHERE c.client_id = oauth_clients.client_id)`;

/**
 * Deletes loopback registrations made before `before` that never got a code or a token. Returns how
 * many.
 */
export function purgeUnusedLoopbackClients(db: Database, before: number): number {
  return prepared(
    db,
    `DELETE FROM oauth_clients WHERE origin = 'loopback-registration' AND created_at < ? AND ${UNUSED}`,
  ).run(before).changes;
}

/** True when the client never got a code or a token (an unused registration). */
export function clientUnused(db: Database, clientId: string): boolean {
  return (
    prepared(db, `SELECT 1 FROM oauth_clients WHERE client_id = ? AND ${UNUSED}`).get(clientId) !==
    undefined
  );
}
