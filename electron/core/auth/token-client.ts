/**
 * The token endpoint and the revocation endpoint (RFC 6749 §4.1.3, §6; RFC 7009; RFC 7636 §4.5; RFC
 * 8707 §2.2). Client authentication is `none` for public clients and `client_secret_post` for
 * confidential ones (spec, Authentication 1): the secret goes in the form body, never in a header
 * or a URL.
 */
import { z } from 'zod';
import { CoreError } from '../errors';
import type { Logger } from '../log';
import { redactString, rememberSecrets, silentLogger } from '../log';
import type { FetchLike } from '../net/http';
import { readJsonObject, readStart, request } from '../net/http';
import { MAX_ERROR_BYTES } from '../net/site-data';

export interface ClientCredentials {
  readonly clientId: string;
  /** Confidential clients only. */
  readonly clientSecret: string | null;
}

export interface TokenSet {
  readonly accessToken: string;
  readonly refreshToken: string | null;
  readonly tokenType: string;
  /** ms since the epoch, or null when expires_in was not given. */
  readonly expiresAt: number | null;
  /**
   * ms since the epoch when the answer arrived: with expiresAt, the token's lifetime (the refresh
   * margin).
   */
  readonly obtainedAt: number;
  readonly scopes: readonly string[];
  readonly schoolId: string;
  readonly schoolSubdomain: string | null;
  readonly idToken: string | null;
}

export interface TokenClientOptions {
  readonly fetch: FetchLike;
  readonly clock?: { now(): number };
  readonly logger?: Logger;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

/**
 * An error answer from an OAuth endpoint (RFC 6749 §5.2). `error` is kept to decide what to do
 * next.
 */
export class OAuthResponseError extends CoreError {
  constructor(
    code: CoreError['code'],
    message: string,
    readonly oauthError: string,
    readonly status: number,
    hint?: string,
  ) {
    super(
      code,
      message,
      hint === undefined ? { oauthError, status } : { oauthError, status, hint },
    );
  }
}

const idOrString = z.union([z.string().min(1), z.number()]).transform((v) => String(v));

// RFC 6749 §5.1 plus the spec's extra fields; unknown fields are allowed (loose).
const tokenResponseSchema = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.string().min(1),
  expires_in: z.number().nonnegative().optional(),
  refresh_token: z.string().min(1).optional(),
  scope: z.string().optional(),
  id_token: z.string().min(1).optional(),
  school_id: idOrString.optional(),
  school_subdomain: z.string().optional(),
  created_at: z.number().optional(),
});

/**
 * What the student can do about an OAuth error (RFC 6749 §4.1.2.1, §5.2): the renderer's
 * `errors.sign-in-failed.hints.<hint>`. The application ID is only worth checking when the site
 * says it is wrong.
 */
export function signInFailedHint(oauthError: string): 'client' | 'server' | 'scope' | 'site' {
  switch (oauthError) {
    case 'invalid_client':
    case 'unauthorized_client':
    case 'invalid_redirect_uri':
      return 'client';
    case 'server_error':
    case 'temporarily_unavailable':
      return 'server';
    case 'invalid_scope':
      return 'scope';
    default:
      return 'site';
  }
}

/**
 * Keeps only printable text of a server's error_description (RFC 6749 §5.2: %x20-21 / %x23-5B /
 * %x5D-7E).
 */
export function sanitizeDescription(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const clean = value
    .replace(/[^\x20-\x7E]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200);
  return clean === '' ? null : clean;
}

async function postForm(
  url: string,
  form: Record<string, string | null | undefined>,
  options: TokenClientOptions,
): Promise<Response> {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(form)) if (v !== null && v !== undefined) body.set(k, v);
  // The secrets this request carries are masked wherever they might be echoed back (see log.ts).
  rememberSecrets(
    form.code,
    form.code_verifier,
    form.client_secret,
    form.refresh_token,
    form.token,
  );
  return request(
    url,
    {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: body.toString(),
    },
    options,
  );
}

async function readError(res: Response): Promise<{ error: string; description: string | null }> {
  try {
    // Only the start of an error answer is read (RFC 6749 §5.2 errors are a few hundred bytes).
    const body = JSON.parse(await readStart(res, MAX_ERROR_BYTES)) as Record<string, unknown>;
    // A site may quote what it was sent (the code, the refresh token) in its answer: that text
    // reaches the user's screen and the logs, so remembered secrets are masked out of it.
    const error =
      typeof body.error === 'string' && /^[\x20-\x7E]{1,64}$/.test(body.error)
        ? body.error
        : 'unknown_error';
    const description = sanitizeDescription(body.error_description);
    return {
      error: redactString(error) === error ? error : 'unknown_error',
      description: description === null ? null : redactString(description),
    };
  } catch {
    return { error: 'unknown_error', description: null };
  }
}

/**
 * The tokens of an answer the app will not keep, read before its checks so that they can be
 * revoked.
 */
function unkeptPair(raw: Record<string, unknown>): UnkeptPair | null {
  const accessToken =
    typeof raw.access_token === 'string' && raw.access_token !== '' ? raw.access_token : null;
  const refreshToken =
    typeof raw.refresh_token === 'string' && raw.refresh_token !== '' ? raw.refresh_token : null;
  rememberSecrets(
    accessToken,
    refreshToken,
    typeof raw.id_token === 'string' ? raw.id_token : null,
  );
  return accessToken === null && refreshToken === null ? null : { accessToken, refreshToken };
}

function parseTokenResponse(
  raw: Record<string, unknown>,
  requestedScopes: readonly string[],
  clock: { now(): number },
  previous?: { schoolId: string | null },
): TokenSet {
  const parsed = tokenResponseSchema.safeParse(raw);
  if (!parsed.success)
    throw new CoreError(
      'sign-in-failed',
      'The site answered the sign-in with an incomplete token response.',
    );
  const t = parsed.data;
  rememberSecrets(t.access_token, t.refresh_token, t.id_token);
  // RFC 6750: only bearer tokens are supported.
  if (t.token_type.toLowerCase() !== 'bearer') {
    throw new CoreError(
      'sign-in-failed',
      `The site issued a ${t.token_type} token; only Bearer tokens are supported.`,
    );
  }
  // Spec "Token response": a token whose school_id is absent is refused as issued for a different
  // organization; "A refresh copies the value it already has": a refresh answer that leaves it out
  // keeps the pair's own value.
  const schoolId = t.school_id ?? previous?.schoolId ?? null;
  if (schoolId === null) {
    throw new CoreError(
      'wrong-organization',
      'These tokens were issued for a different organization (the site did not say which school they belong to). Sign in to the school you added.',
    );
  }
  // A different value than the pair's own means a token for another school.
  if (previous?.schoolId != null && previous.schoolId !== schoolId) {
    throw new CoreError(
      'wrong-organization',
      'The site returned tokens for a different school than the one you signed in to. Sign in again.',
    );
  }
  return {
    accessToken: t.access_token,
    refreshToken: t.refresh_token ?? null,
    tokenType: 'Bearer',
    expiresAt: t.expires_in === undefined ? null : clock.now() + t.expires_in * 1000,
    obtainedAt: clock.now(),
    // RFC 6749 §5.1: scope omitted means identical to the requested scope.
    scopes: t.scope === undefined ? [...requestedScopes] : t.scope.split(' ').filter(Boolean),
    schoolId,
    schoolSubdomain: t.school_subdomain ?? null,
    idToken: t.id_token ?? null,
  };
}

/**
 * Parses a 200 token answer; when the app refuses it (another organization, not Bearer,
 * incomplete), the tokens it carries are revoked before the refusal is thrown: the site issued a
 * live pair the app will never use (RFC 7009 §2.1; ARCHITECTURE "whatever the app receives and does
 * not keep, it revokes").
 */
async function acceptOrRevoke(
  raw: Record<string, unknown>,
  parse: () => TokenSet,
  input: ClientCredentials & { readonly revocationEndpoint?: string | null },
  options: TokenClientOptions,
): Promise<TokenSet> {
  try {
    return parse();
  } catch (error) {
    const pair = unkeptPair(raw);
    if (pair !== null)
      await revokeUnkept(
        pair,
        { ...input, revocationEndpoint: input.revocationEndpoint ?? null },
        options,
      );
    throw error;
  }
}

/** Tokens the app received and will not keep. */
export interface UnkeptPair {
  readonly accessToken: string | null;
  readonly refreshToken: string | null;
}

const DISCARD_TIMEOUT_MS = 5_000;

/**
 * Revokes a pair that will not be kept, so it does not stay live at the site unseen (RFC 7009
 * §2.1): with the refresh token when there is one (the spec ends a pair with it; an expired access
 * token revokes nothing), else the access token. Best effort and bounded in time, never masking the
 * caller's own error: a site without a revocation endpoint, or one that cannot be reached, lets the
 * tokens expire on their own. True when revoked.
 */
export async function revokeUnkept(
  pair: UnkeptPair,
  input: ClientCredentials & { readonly revocationEndpoint: string | null },
  options: TokenClientOptions,
): Promise<boolean> {
  const log = (options.logger ?? silentLogger).child('token');
  const token = pair.refreshToken ?? pair.accessToken;
  if (input.revocationEndpoint === null || token === null) return false;
  try {
    await revokeToken(
      {
        revocationEndpoint: input.revocationEndpoint,
        token,
        tokenTypeHint: pair.refreshToken !== null ? 'refresh_token' : 'access_token',
        clientId: input.clientId,
        clientSecret: input.clientSecret,
      },
      {
        fetch: options.fetch,
        clock: options.clock,
        logger: options.logger,
        signal: AbortSignal.timeout(DISCARD_TIMEOUT_MS),
      },
    );
    return true;
  } catch (error) {
    log.warn('could not revoke a pair that is not kept', { error });
    return false;
  }
}

export interface ExchangeCodeInput extends ClientCredentials {
  readonly tokenEndpoint: string;
  readonly code: string;
  readonly redirectUri: string;
  readonly codeVerifier: string;
  /** RFC 8707 §2.2: the resource sent at authorization is repeated here (null: none was sent). */
  readonly resource: string | null;
  readonly requestedScopes: readonly string[];
  /** Where a pair the app refuses is revoked (RFC 7009); null when the site has none. */
  readonly revocationEndpoint?: string | null;
}

/** RFC 6749 §4.1.3 with PKCE (RFC 7636 §4.5) and a resource indicator (RFC 8707). */
export async function exchangeCode(
  input: ExchangeCodeInput,
  options: TokenClientOptions,
): Promise<TokenSet> {
  const log = (options.logger ?? silentLogger).child('token');
  const res = await postForm(
    input.tokenEndpoint,
    {
      grant_type: 'authorization_code',
      code: input.code,
      redirect_uri: input.redirectUri,
      client_id: input.clientId,
      code_verifier: input.codeVerifier,
      resource: input.resource,
      client_secret: input.clientSecret,
    },
    options,
  );
  if (res.status !== 200) {
    const e = await readError(res);
    log.warn('code exchange refused', { status: res.status, error: e.error });
    if (res.status >= 500)
      throw new OAuthResponseError(
        'server-unavailable',
        'The site could not complete the sign-in right now. Try again later.',
        e.error,
        res.status,
      );
    throw new OAuthResponseError(
      'sign-in-failed',
      `The site refused to complete the sign-in (${e.error}${e.description ? `: ${e.description}` : ''}). Try again.`,
      e.error,
      res.status,
      signInFailedHint(e.error),
    );
  }
  const raw = await readJsonObject(
    res,
    'sign-in-failed',
    'The site answered the sign-in with something that is not a token response.',
  );
  const tokens = await acceptOrRevoke(
    raw,
    () => parseTokenResponse(raw, input.requestedScopes, options.clock ?? Date),
    input,
    options,
  );
  log.info('code exchanged', {
    scopes: tokens.scopes,
    hasRefreshToken: tokens.refreshToken !== null,
    hasIdToken: tokens.idToken !== null,
  });
  return tokens;
}

export interface RefreshInput extends ClientCredentials {
  readonly tokenEndpoint: string;
  readonly refreshToken: string;
  readonly resource: string | null;
  readonly previousScopes: readonly string[];
  readonly schoolId: string | null;
  /** Where a pair the app refuses is revoked (RFC 7009); null when the site has none. */
  readonly revocationEndpoint?: string | null;
}

/**
 * RFC 6749 §6. `invalid_grant` means the refresh token is dead: the site needs a new sign-in
 * (CoreError 'sign-in-needed'). Network failures surface as 'site-unreachable' and change nothing.
 */
export async function refreshTokens(
  input: RefreshInput,
  options: TokenClientOptions,
): Promise<TokenSet> {
  const log = (options.logger ?? silentLogger).child('token');
  const res = await postForm(
    input.tokenEndpoint,
    {
      grant_type: 'refresh_token',
      refresh_token: input.refreshToken,
      client_id: input.clientId,
      client_secret: input.clientSecret,
      resource: input.resource,
    },
    options,
  );
  if (res.status !== 200) {
    const e = await readError(res);
    log.warn('refresh refused', { status: res.status, error: e.error });
    if (
      e.error === 'invalid_grant' ||
      e.error === 'invalid_client' ||
      e.error === 'unauthorized_client'
    ) {
      throw new OAuthResponseError(
        'sign-in-needed',
        'Your sign-in to this site has ended. Sign in again; your offline data is kept.',
        e.error,
        res.status,
      );
    }
    if (res.status >= 500)
      throw new OAuthResponseError(
        'server-unavailable',
        'The site could not renew your sign-in right now. Try again later.',
        e.error,
        res.status,
      );
    throw new OAuthResponseError(
      'server-error',
      `The site refused to renew your sign-in (${e.error}).`,
      e.error,
      res.status,
    );
  }
  const raw = await readJsonObject(
    res,
    'server-error',
    'The site answered the renewal with something that is not a token response.',
  );
  const tokens = await acceptOrRevoke(
    raw,
    () =>
      parseTokenResponse(raw, input.previousScopes, options.clock ?? Date, {
        schoolId: input.schoolId,
      }),
    input,
    options,
  );
  log.info('tokens refreshed', { hasRefreshToken: tokens.refreshToken !== null });
  return tokens;
}

export interface RevokeInput extends ClientCredentials {
  readonly revocationEndpoint: string;
  readonly token: string;
  readonly tokenTypeHint: 'refresh_token' | 'access_token';
}

/**
 * RFC 7009 §2.1. Resolves on 200 (also for a token that was already invalid, §2.2). Throws
 * 'site-unreachable' when the site cannot be reached (the caller queues the revocation) and
 * 'server-unavailable' on 5xx/503.
 */
export async function revokeToken(input: RevokeInput, options: TokenClientOptions): Promise<void> {
  const log = (options.logger ?? silentLogger).child('token');
  const res = await postForm(
    input.revocationEndpoint,
    {
      token: input.token,
      token_type_hint: input.tokenTypeHint,
      client_id: input.clientId,
      client_secret: input.clientSecret,
    },
    options,
  );
  if (res.status === 200) {
    await res.body?.cancel();
    log.info('token revoked', { hint: input.tokenTypeHint });
    return;
  }
  const e = await readError(res);
  log.warn('revocation refused', { status: res.status, error: e.error });
  if (res.status >= 500)
    throw new OAuthResponseError(
      'server-unavailable',
      'The site could not sign you out right now; it will be retried.',
      e.error,
      res.status,
    );
  throw new OAuthResponseError(
    'server-error',
    `The site refused the sign-out (${e.error}).`,
    e.error,
    res.status,
  );
}
