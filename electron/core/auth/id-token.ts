/**
 * id_token verification (OIDC Core §3.1.3.7; spec "id_token claims"): an asymmetric algorithm the
 * site lists (ES256 when it lists none, as the spec signs), iss, aud = client_id, exp and iat with
 * a small clock tolerance, nonce, and the signature by the `kid` key published at jwks_uri. When no
 * id_token is returned the profile comes from UserInfo (OIDC Core §5.3) with the bearer access
 * token.
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
 * A key set read from jwks_uri with the injected fetch. On a `kid` it does not know it refetches
 * once (key rotation, OIDC Core §10.1.1). A kid that was still missing after a refetch is not
 * looked up again for `minRefetchMs`, so a bad token cannot make us hammer the site, while a real
 * rotation right after an earlier fetch still succeeds.
 */
export function createJwksCache(
  jwksUri: string,
  options: {
    fetch: FetchLike;
    clock?: { now(): number };
    minRefetchMs?: number;
    timeoutMs?: number;
  },
): JwksCache {
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
          throw new CoreError(
            'id-token-invalid',
            `The site's signing keys could not be read (HTTP ${res.status}).`,
          );
        }
        const body = await readJsonObject(
          res,
          'server-error',
          "The site's signing keys are not valid JSON.",
        );
        if (!Array.isArray(body.keys))
          throw new CoreError('id-token-invalid', "The site's signing keys are malformed.");
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
  /**
   * The site's id_token_signing_alg_values_supported; only the asymmetric ones in it are accepted.
   */
  readonly algorithms?: readonly string[];
}

/**
 * Signature algorithms an id_token may use: asymmetric only (RFC 8725 §3.1, §3.2). Never `none`,
 * never HMAC: a client verifying with a published key must not accept a MAC keyed by that public
 * key (alg confusion).
 */
const ASYMMETRIC_ALGS: ReadonlySet<string> = new Set([
  'ES256',
  'ES384',
  'ES512',
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'EdDSA',
  'Ed25519',
]);

/**
 * The algorithms accepted for a site: those it lists that are asymmetric; ES256 (the spec's) when
 * it lists none.
 */
export function acceptedIdTokenAlgs(listed: readonly string[] | undefined): string[] {
  if (listed === undefined || listed.length === 0) return ['ES256'];
  return listed.filter((a) => ASYMMETRIC_ALGS.has(a));
}

/**
 * An id_token is minted at the exchange that just happened: one issued more than this long ago is
 * refused.
 */
export const ID_TOKEN_MAX_AGE_SEC = 3600;

/**
 * What the student can do about a refused id_token: the renderer's
 * `errors.id-token-invalid.hints.<hint>`.
 */
export type IdTokenHint = 'clock' | 'algorithm' | 'site';

function invalid(message: string, cause?: unknown, hint: IdTokenHint = 'site'): CoreError {
  return new CoreError('id-token-invalid', message, { hint }, { cause });
}

/**
 * Verifies the id_token and returns the profile it carries. Each failed rule has its own message.
 */
export async function verifyIdToken(input: VerifyIdTokenInput): Promise<UserProfile> {
  const clock = input.clock ?? Date;
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(input.idToken, input.jwks.getKey, {
      // Only the asymmetric algorithms the site lists (RFC 8725 §3.1: alg confusion).
      algorithms: acceptedIdTokenAlgs(input.algorithms),
      issuer: input.issuer,
      audience: input.clientId,
      currentDate: new Date(clock.now()),
      clockTolerance: input.clockToleranceSec ?? 60,
      requiredClaims: ['iss', 'aud', 'exp', 'iat', 'sub'],
      // OIDC Core §3.1.3.7 rule 10: iat bounds the token's age; one from the future (beyond the
      // tolerance) or issued long ago (however far its exp) is refused.
      maxTokenAge: ID_TOKEN_MAX_AGE_SEC,
    }));
  } catch (error) {
    throw mapJoseError(error);
  }
  // OIDC Core §3.1.3.7 rule 11: the nonce must equal the one sent in the authorization request.
  if (payload.nonce !== input.nonce)
    throw invalid(
      'The sign-in answer does not belong to this sign-in attempt (nonce mismatch). Try again.',
    );
  // OIDC Core §3.1.3.7 rules 4-5: with several audiences, azp must name us.
  if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== input.clientId) {
    throw invalid(
      'The identity token was issued for several applications and does not name this one.',
    );
  }
  return profileFromClaims(payload);
}

function mapJoseError(error: unknown): CoreError {
  if (error instanceof CoreError) return error;
  if (error instanceof joseErrors.JWTExpired) {
    if (error.claim === 'iat')
      return invalid(
        'The identity token was issued too long ago. Check your computer clock and sign in again.',
        error,
        'clock',
      );
    return invalid(
      'The identity token has expired. Check your computer clock and sign in again.',
      error,
      'clock',
    );
  }
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    switch (error.claim) {
      case 'iss':
        return invalid('The identity token was issued by a different site.', error);
      case 'aud':
        return invalid('The identity token was issued for a different application.', error);
      case 'iat':
      case 'nbf':
        return invalid(
          'The identity token is not valid yet. Check your computer clock.',
          error,
          'clock',
        );
      default:
        return invalid(
          `The identity token is missing or has an invalid "${error.claim}" claim.`,
          error,
        );
    }
  }
  if (error instanceof joseErrors.JOSEAlgNotAllowed) {
    return invalid(
      'The identity token is signed with an algorithm the site does not list, or one this app never accepts (none or a shared secret).',
      error,
      'algorithm',
    );
  }
  if (error instanceof joseErrors.JWKSNoMatchingKey)
    return invalid('The identity token was signed with a key the site does not publish.', error);
  if (error instanceof joseErrors.JWSSignatureVerificationFailed)
    return invalid('The identity token signature is not valid.', error);
  if (error instanceof joseErrors.JOSEError)
    return invalid('The identity token is malformed.', error);
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
  if (!parsed.success)
    throw new CoreError('sign-in-failed', 'The site did not say who you are (no subject).');
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
  options: {
    fetch: FetchLike;
    logger?: Logger;
    signal?: AbortSignal;
    timeoutMs?: number;
    expectedSub?: string;
  },
): Promise<UserProfile> {
  const log = (options.logger ?? silentLogger).child('userinfo');
  const res = await request(
    userinfoEndpoint,
    { headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' } },
    options,
  );
  if (res.status !== 200) {
    await res.body?.cancel();
    log.warn('userinfo refused', { status: res.status });
    // 401/403: UserInfo refuses this token (e.g. one bound to the member API, RFC 8707): the caller
    // may ask elsewhere.
    if (res.status === 401 || res.status === 403) {
      throw new CoreError(
        'sign-in-failed',
        'The site did not accept the new sign-in when asked who you are. Try again.',
        {
          refused: true,
          hint: 'site',
        },
      );
    }
    throw new CoreError(
      res.status >= 500 ? 'server-unavailable' : 'sign-in-failed',
      `The site could not say who you are (HTTP ${res.status}).`,
      {
        hint: 'site',
      },
    );
  }
  const profile = profileFromClaims(
    await readJsonObject(
      res,
      'sign-in-failed',
      'The site answered "who are you" with something unreadable.',
    ),
  );
  // OIDC Core §5.3.2: the UserInfo sub must match the id_token sub when both exist.
  if (options.expectedSub !== undefined && profile.sub !== options.expectedSub) {
    throw new CoreError(
      'sign-in-failed',
      'The site described a different user than the one who signed in.',
    );
  }
  return profile;
}

const viewerSchema = z.looseObject({
  data: z.looseObject({
    viewer: z.looseObject({
      id: z.union([z.string().min(1), z.number()]).transform((v) => String(v)),
      name: z.string().nullable().optional(),
      email: z.string().nullable().optional(),
      avatar: z.string().nullable().optional(),
    }),
  }),
});

/**
 * The member API's `viewer` (spec "Member API: viewer": id, name, email, avatar) with the new
 * access token: who the token belongs to, where neither an id_token nor UserInfo can say (the token
 * is bound to the member API).
 */
export async function fetchViewer(
  endpoint: string,
  accessToken: string,
  options: { fetch: FetchLike; logger?: Logger; signal?: AbortSignal; timeoutMs?: number },
): Promise<UserProfile> {
  const log = (options.logger ?? silentLogger).child('viewer');
  const res = await request(
    endpoint,
    {
      method: 'POST',
      headers: {
        authorization: `Bearer ${accessToken}`,
        accept: 'application/json',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ query: 'query Identify { viewer { id name email avatar } }' }),
    },
    options,
  );
  if (res.status !== 200) {
    await res.body?.cancel();
    log.warn('viewer refused', { status: res.status });
    throw new CoreError(
      res.status >= 500 ? 'server-unavailable' : 'sign-in-failed',
      `The site could not say who you are (HTTP ${res.status}).`,
      {
        hint: 'site',
      },
    );
  }
  const parsed = viewerSchema.safeParse(
    await readJsonObject(
      res,
      'sign-in-failed',
      'The site answered "who are you" with something unreadable.',
    ),
  );
  if (!parsed.success)
    throw new CoreError('sign-in-failed', 'The site did not say who you are.', { hint: 'site' });
  const v = parsed.data.data.viewer;
  return profileFromClaims({
    sub: v.id,
    name: v.name ?? null,
    email: v.email ?? null,
    picture: v.avatar ?? null,
  });
}
