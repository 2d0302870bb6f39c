import type { Database } from 'better-sqlite3';
import type { webcrypto } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import { prepared } from '../store/statements';

type CryptoKey = webcrypto.CryptoKey;

/** id_tokens are signed with ES256 on P-256 (spec: "id_token string (JWT, ES256)"). */
export const ID_TOKEN_ALG = 'ES256';
/**
 * How long a retired key stays in the JWKS. Far longer than the 10-minute id_token lifetime, so a
 * token signed just before a rotation still verifies, and a client that cached the JWKS finds the
 * new kid on refetch.
 */
export const RETIRED_KEY_PUBLISHED_MS = 24 * 60 * 60 * 1000;

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

interface KeyRow {
  kid: string;
  private_jwk: string;
  public_jwk: string;
}

/** New key material; nothing stored yet (generation is async, storing is not). */
async function makeKey(): Promise<KeyRow> {
  const { privateKey, publicKey } = await generateKeyPair(ID_TOKEN_ALG, { extractable: true });
  const publicJwk = await exportJWK(publicKey);
  // RFC 7638 thumbprint as kid: stable, derived from the key itself, unique per key.
  const kid = await calculateJwkThumbprint(publicJwk, 'sha256');
  const pub = { ...publicJwk, kid, alg: ID_TOKEN_ALG, use: 'sig' };
  const priv = { ...(await exportJWK(privateKey)), kid, alg: ID_TOKEN_ALG };
  return { kid, private_jwk: JSON.stringify(priv), public_jwk: JSON.stringify(pub) };
}

function insertKey(db: Database, row: KeyRow, now: number): void {
  prepared(
    db,
    'INSERT INTO signing_keys (kid, alg, private_jwk, public_jwk, created_at) VALUES (?, ?, ?, ?, ?)',
  ).run(row.kid, ID_TOKEN_ALG, row.private_jwk, row.public_jwk, now);
}

async function generate(db: Database, now: number): Promise<KeyRow> {
  const row = await makeKey();
  insertKey(db, row, now);
  return row;
}

/**
 * Imported keys by kid, per database: importing a JWK and parsing the stored JSON on every id_token
 * cost more than signing it. The current key's row is still read on every call, so a rotation (by
 * this module or straight in the table) takes effect at once; only the immutable key material of a
 * kid is kept.
 */
const imported = new WeakMap<Database, Map<string, SigningKey>>();

async function toSigningKey(db: Database, row: KeyRow): Promise<SigningKey> {
  let cache = imported.get(db);
  if (!cache) imported.set(db, (cache = new Map()));
  let key = cache.get(row.kid);
  if (!key) {
    const privateKey = (await importJWK(
      JSON.parse(row.private_jwk) as JWK,
      ID_TOKEN_ALG,
    )) as CryptoKey;
    key = { kid: row.kid, privateKey, publicJwk: JSON.parse(row.public_jwk) as JWK };
    cache.set(row.kid, key);
  }
  return key;
}

const pendingGeneration = new WeakMap<Database, Promise<KeyRow>>();

/**
 * The current signing key, created on first use and persisted (a file database keeps it across
 * restarts).
 */
export async function currentSigningKey(db: Database, now: number): Promise<SigningKey> {
  let row = prepared(
    db,
    'SELECT kid, private_jwk, public_jwk FROM signing_keys WHERE retired_at IS NULL ORDER BY created_at DESC LIMIT 1',
  ).get() as KeyRow | undefined;
  if (!row) {
    // Key generation is async; one generation at a time so concurrent first requests share one key.
    let pending = pendingGeneration.get(db);
    if (!pending) {
      pending = generate(db, now).finally(() => pendingGeneration.delete(db));
      pendingGeneration.set(db, pending);
    }
    row = await pending;
  }
  return toSigningKey(db, row);
}

/**
 * Key rotation: a new key signs from now on; the old one is retired but stays published for
 * RETIRED_KEY_PUBLISHED_MS. Returns the new kid.
 */
export async function rotateSigningKey(db: Database, now: number): Promise<string> {
  await currentSigningKey(db, now); // make sure there is something to retire
  const row = await makeKey();
  // Retire and replace in one transaction: there is never a moment without exactly one current key.
  db.transaction(() => {
    prepared(
      db,
      'UPDATE signing_keys SET retired_at = ?, published_until = ? WHERE retired_at IS NULL',
    ).run(now, now + RETIRED_KEY_PUBLISHED_MS);
    insertKey(db, row, now + 1);
  })();
  return row.kid;
}

/**
 * Public keys for jwks_uri: the current key plus retired keys still inside their publication
 * window.
 */
export async function publishedJwks(db: Database, now: number): Promise<{ keys: JWK[] }> {
  await currentSigningKey(db, now);
  const rows = prepared(
    db,
    'SELECT public_jwk FROM signing_keys WHERE retired_at IS NULL OR published_until > ? ORDER BY created_at DESC',
  ).all(now) as { public_jwk: string }[];
  return { keys: rows.map((r) => JSON.parse(r.public_jwk) as JWK) };
}
