/**
 * PKCE (RFC 7636) and the other one-time values of an authorization request. All come from the
 * CSPRNG.
 */
import { createHash, randomBytes } from 'node:crypto';

/**
 * RFC 7636 §4.1: 32 random octets, base64url -> a 43-character verifier from the unreserved
 * alphabet.
 */
export function createCodeVerifier(): string {
  return randomBytes(32).toString('base64url');
}

/** RFC 7636 §4.2: S256 challenge = BASE64URL(SHA256(ASCII(code_verifier))). */
export function codeChallengeS256(verifier: string): string {
  if (!/^[A-Za-z0-9\-._~]{43,128}$/.test(verifier))
    throw new Error('PKCE verifier must be 43-128 unreserved characters (RFC 7636 §4.1)');
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** state (RFC 6749 §10.12) and nonce (OIDC Core §3.1.2.1): 128+ bits each, unguessable. */
export function randomToken(bytes = 24): string {
  return randomBytes(bytes).toString('base64url');
}
