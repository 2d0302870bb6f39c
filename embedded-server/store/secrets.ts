import { createHash, randomBytes, scrypt, scryptSync, timingSafeEqual } from 'node:crypto';

/** SHA-256 hex digest: how every token, code, client secret and session id is stored. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** 256 bits from the CSPRNG, base64url, with a readable type prefix (at_, rt_, ac_, cs_ ...). */
export function randomSecret(prefix: string, bytes = 32): string {
  return `${prefix}${randomBytes(bytes).toString('base64url')}`;
}

/** Short random id for rows (not a secret). */
export function randomId(prefix: string): string {
  return `${prefix}${randomBytes(12).toString('base64url')}`;
}

/** Constant-time comparison of two strings (lengths may differ: both are hashed first). */
export function constantTimeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a, 'utf8').digest();
  const hb = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(ha, hb);
}

/** Constant-time check of a presented secret against its stored SHA-256 hex digest. */
export function secretMatchesHash(presented: string, storedHex: string): boolean {
  const a = createHash('sha256').update(presented, 'utf8').digest();
  const b = Buffer.from(storedHex, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

// Passwords: scrypt (RFC 7914) with N=2^14, r=8, p=1 (the OWASP minimum cost for scrypt), 16-byte
// salt.
const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 } as const;

/** `salt` is only passed by the deterministic seed; everything else gets 16 fresh random bytes. */
export function hashPassword(password: string, salt: Buffer = randomBytes(16)): string {
  const hash = scryptSync(password, salt, SCRYPT.keylen, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p });
  return [
    'scrypt',
    SCRYPT.N,
    SCRYPT.r,
    SCRYPT.p,
    salt.toString('base64url'),
    hash.toString('base64url'),
  ].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, n, r, p, saltB64, hashB64] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(hashB64, 'base64url');
  const actual = await new Promise<Buffer>((resolve, reject) => {
    scrypt(
      password,
      Buffer.from(saltB64, 'base64url'),
      expected.length,
      { N: Number(n), r: Number(r), p: Number(p) },
      (err, key) => (err ? reject(err) : resolve(key)),
    );
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
