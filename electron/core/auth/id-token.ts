/**
 * id_token verification (OIDC Core §3.1.3.7; spec "id_token claims"): ES256 only, iss, aud = client_id, exp
 * with a small clock tolerance, nonce, and the signature by the `kid` key published at jwks_uri. When no
 * id_token is returned the profile comes from UserInfo (OIDC Core §5.3) with the bearer access token.
 */
import type { JSONWebKeySet, JWTPayload, JWTVerifyGetKey } from 'jose';
import { createLocalJWKSet, errors as joseErrors, jwtVerify } from 'jose';
import { z } from 'zod';
import { CoreError } from '../errors';
import type { Logger } from '../log';
import { silentLogger } from '../log';
import type { FetchLike } from '../net/http';
import { readJsonObject, request } from '../net/http';

export interface UserProfile {
  readonly sub: string;
  readonly email: string | null;
  readonly name: string | null;
  readonly picture: string | null;
  readonly orgId: string | null;
  readonly roles: readonly string[];
}

export interface JwksCache {
  readonly getKey: JWTVerifyGetKey;
  /** How many times the key set was fetched (diagnostics and tests). */
  readonly fetchCount: () => number;
}

/**
 * A key set read from jwks_uri with the injected fetch. On a `kid` it does not know it refetches once
 * (key rotation, OIDC Core §10.1.1). A kid that was still missing after a refetch is not looked up again for
 * `minRefetchMs`, so a bad token cannot make us hammer the site, while a real rotation right after an earlier
 * fetch still succeeds.
 */
export function createJwksCache(jwksUri: string, options: { fetch: FetchLike; clock?: { now(): number }; minRefetchMs?: number; timeoutMs?: number }): JwksCache {
  const clock = options.clock ?? Date;
  const minRefetchMs = options.minRefetchMs ?? 30_000;
  let local: JWTVerifyGetKey | null = null;
  let fetches = 0;
  let inflight: Promise<JWTVerifyGetKey> | null = null;

  async function load(): Promise<JWTVerifyGetKey> {
    inflight ??= (async () => {
      try {
        fetches += 1;
        const res = await request(jwksUri, { headers: { accept: 'application/json' } }, options);
        if (res.status !== 200) {
          await res.body?.cancel();
          throw new CoreError('id-token-invalid', `The site's signing keys could not be read (HTTP ${res.status}).`);
        }
        const body = await readJsonObject(res, 'server-error', "The site's signing keys are not valid JSON.");
        if (!Array.isArray(body.keys)) throw new CoreError('id-token-invalid', "The site's signing keys are malformed.");
        local = createLocalJWKSet(body as unknown as JSONWebKeySet);
        return local;
      } finally {
        inflight = null;
      }
    })();
    return inflight;
  }

  const missing = new Map<string, number>();
  const getKey: JWTVerifyGetKey = async (header, token) => {
    const set = local ?? (await load());
    try {
      return await set(header, token);
    } catch (error) {
      if (!(error instanceof joseErrors.JWKSNoMatchingKey)) throw error;
      const kid = header.kid ?? '';
      const lastMiss = missing.get(kid);
      if (lastMiss !== undefined && clock.now() - lastMiss < minRefetchMs) throw error;
      const fresh = await load();
      try {
        const key = await fresh(header, token);
        missing.delete(kid);
        return key;
      } catch (again) {
        if (again instanceof joseErrors.JWKSNoMatchingKey) missing.set(kid, clock.now());
        throw again;
      }
    }
  };
  return { getKey, fetchCount: () => fetches };
}

export interface VerifyIdTokenInput {
  readonly idToken: string;
  readonly issuer: string;
  readonly clientId: string;
  readonly nonce: string;
  readonly jwks: JwksCache;
  readonly clock?: { now(): number };
  /** Seconds of allowed clock skew for exp/iat/nbf. */
  readonly clockToleranceSec?: number;
}

function invalid(message: string, cause?: unknown): CoreError {
  return new CoreError('id-token-invalid', message, undefined, { cause });
}

/** Verifies the id_token and returns the profile it carries. Each failed rule has its own message. */
export async function verifyIdToken(input: VerifyIdTokenInput): Promise<UserProfile> {
  const clock = input.clock ?? Date;
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(input.idToken, input.jwks.getKey, {
      // The spec signs with ES256; refusing every other alg blocks alg-confusion (RFC 8725 §3.1).
      algorithms: ['ES256'],
      issuer: input.issuer,
      audience: input.clientId,
      currentDate: new Date(clock.now()),
      clockTolerance: input.clockToleranceSec ?? 60,
      requiredClaims: ['iss', 'aud', 'exp', 'iat', 'sub'],
    }));
  } catch (error) {
    throw mapJoseError(error);
  }
  // OIDC Core §3.1.3.7 rule 11: the nonce must equal the one sent in the authorization request.
  if (payload.nonce !== input.nonce) throw invalid('The sign-in answer does not belong to this sign-in attempt (nonce mismatch). Try again.');
  // OIDC Core §3.1.3.7 rules 4-5: with several audiences, azp must name us.
  if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== input.clientId) {
    throw invalid('The identity token was issued for several applications and does not name this one.');
  }
  return profileFromClaims(payload);
}

function mapJoseError(error: unknown): CoreError {
  if (error instanceof CoreError) return error;
  if (error instanceof joseErrors.JWTExpired) return invalid('The identity token has expired. Check your computer clock and sign in again.', error);
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    switch (error.claim) {
      case 'iss':
        return invalid('The identity token was issued by a different site.', error);
      case 'aud':
        return invalid('The identity token was issued for a different application.', error);
      case 'iat':
      case 'nbf':
        return invalid('The identity token is not valid yet. Check your computer clock.', error);
      default:
        return invalid(`The identity token is missing or has an invalid "${error.claim}" claim.`, error);
    }
  }
  if (error instanceof joseErrors.JOSEAlgNotAllowed) return invalid('The identity token is signed with an algorithm this app does not accept (ES256 is required).', error);
  if (error instanceof joseErrors.JWKSNoMatchingKey) return invalid("The identity token was signed with a key the site does not publish.", error);
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) return invalid('The identity token signature is not valid.', error);
  if (error instanceof joseErrors.JOSEError) return invalid('The identity token is malformed.', error);
  return invalid('The identity token could not be verified.', error);
}

const claimsSchema = z.looseObject({
  sub: z.string().min(1),
  email: z.string().optional().nullable(),
  name: z.string().optional().nullable(),
  picture: z.string().optional().nullable(),
  org_id: z.union([z.string(), z.number()]).optional().nullable(),
  roles: z.array(z.string()).optional().nullable(),
});

export function profileFromClaims(claims: unknown): UserProfile {
  const parsed = claimsSchema.safeParse(claims);
  if (!parsed.success) throw new CoreError('sign-in-failed', 'The site did not say who you are (no subject).');
  const c = parsed.data;
  const picture = c.picture && /^https?:\/\//i.test(c.picture) ? c.picture : null;
  return {
    sub: c.sub,
    email: c.email ?? null,
    name: c.name ?? null,
    picture,
    orgId: c.org_id === undefined || c.org_id === null ? null : String(c.org_id),
    roles: c.roles ?? [],
  };
}

/** UserInfo (OIDC Core §5.3) with the access token as a bearer credential (RFC 6750 §2.1). */
export async function fetchUserInfo(
  userinfoEndpoint: string,
  accessToken: string,
  options: { fetch: FetchLike; logger?: Logger; signal?: AbortSignal; timeoutMs?: number; expectedSub?: string },
): Promise<UserProfile> {
  const log = (options.logger ?? silentLogger).child('userinfo');
  const res = await request(userinfoEndpoint, { headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' } }, options);
  if (res.status !== 200) {
    await res.body?.cancel();
    log.warn('userinfo refused', { status: res.status });
    if (res.status === 401) throw new CoreError('sign-in-failed', 'The site did not accept the new sign-in when asked who you are. Try again.');
    throw new CoreError(res.status >= 500 ? 'server-unavailable' : 'sign-in-failed', `The site could not say who you are (HTTP ${res.status}).`);
  }
  const profile = profileFromClaims(await readJsonObject(res, 'sign-in-failed', 'The site answered "who are you" with something unreadable.'));
  // OIDC Core §5.3.2: the UserInfo sub must match the id_token sub when both exist.
  if (options.expectedSub !== undefined && profile.sub !== options.expectedSub) {
    throw new CoreError('sign-in-failed', 'The site described a different user than the one who signed in.');
  }
  return profile;
}
