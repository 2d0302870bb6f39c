import { SignJWT } from 'jose';
import type { ServerContext } from '../http/types';
import { ID_TOKEN_TTL_S } from '../oauth/settings';
import { currentSigningKey, ID_TOKEN_ALG } from './keys';
import type { MemberClaims } from './claims';

/**
 * ES256 id_token (OpenID Connect Core §2, spec "id_token claims"): iss = issuer, aud = client_id,
 * exp = iat + 10 minutes, nonce echoed when sent, kid header naming a key at jwks_uri.
 */
export async function signIdToken(
  server: ServerContext,
  input: {
    clientId: string;
    claims: MemberClaims;
    nonce: string | null;
    authTime: number;
    issuedAt: number;
  },
): Promise<string> {
  const key = await currentSigningKey(server.db, server.clock.now());
  const iat = Math.floor(input.issuedAt / 1000);
  const { sub, ...rest } = input.claims;
  const payload: Record<string, unknown> = {
    ...rest,
    auth_time: Math.floor(input.authTime / 1000),
  };
  if (input.nonce !== null) payload.nonce = input.nonce;
  return new SignJWT(payload)
    .setProtectedHeader({ alg: ID_TOKEN_ALG, kid: key.kid, typ: 'JWT' })
    .setIssuer(server.baseUrl)
    .setSubject(sub)
    .setAudience(input.clientId)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ID_TOKEN_TTL_S)
    .sign(key.privateKey);
}
