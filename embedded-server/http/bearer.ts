import type { AccessTokenInfo, BearerVerdict, RequestContext } from './types';
import { sendJson, setNoStore } from './respond';
import { sha256Hex } from '../store/secrets';
import { getPairByAccessHash, recordFirstPresentation, type TokenPair } from '../store/tokens';

/** RFC 6750 §2.1: `Authorization: Bearer <b64token>`; the scheme is case-insensitive. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

function toInfo(pair: TokenPair): AccessTokenInfo {
  return {
    tokenId: pair.id,
    clientId: pair.clientId,
    userId: pair.userId,
    schoolId: pair.schoolId,
    scopes: pair.scope.split(' ').filter(Boolean),
    resource: pair.resource,
    audience: pair.audience,
    expiresAt: pair.accessExpiresAt,
  };
}

/**
 * The one bearer check every protected resource uses (UserInfo, /member/graphql, /mcp, admin API).
 *
 * Besides the verdict it applies the spec's token pair lifecycle: the FIRST time a refreshed access
 * token is presented here, the pair it was refreshed from (and any older ancestors) is revoked.
 * "Presented" means a request carrying the token that this check accepts (decision, README); a
 * rejected request changes nothing.
 */
export function checkBearer(ctx: RequestContext): BearerVerdict {
  const header = ctx.req.headers.authorization;
  if (header === undefined || header === '') return { kind: 'missing' };
  const match = BEARER.exec(header);
  if (!match)
    return { kind: 'invalid', description: 'the Authorization header is not a Bearer token' };
  const { server } = ctx;
  // Fault switch: a token was presented but the store cannot answer. Never a reason to accept it.
  if (server.faults.tokenStoreUnavailable) return { kind: 'unavailable' };
  try {
    const now = server.clock.now();
    const pair = getPairByAccessHash(server.db, sha256Hex(match[1]!));
    if (!pair) return { kind: 'invalid', description: 'the access token is not recognized' };
    if (pair.revokedAt !== null)
      return { kind: 'invalid', description: 'the access token has been revoked' };
    if (now >= pair.accessExpiresAt)
      return { kind: 'invalid', description: 'the access token has expired' };
    // Spec Authentication 3 + "Token response": a token without school_id, or bound to another
    // origin or another school, is refused as issued for a different organization.
    if (pair.schoolId === null)
      return {
        kind: 'wrong-resource',
        description: 'the access token carries no school_id (issued for a different organization)',
      };
    if (pair.schoolId !== server.site.schoolId)
      return {
        kind: 'wrong-resource',
        description: 'the access token was issued for a different organization',
      };
    if (pair.resource !== server.baseUrl)
      return {
        kind: 'wrong-resource',
        description: `the access token was not issued for ${server.baseUrl}`,
      };
    recordFirstPresentation(server.db, pair, now);
    return { kind: 'ok', token: toInfo(pair) };
  } catch {
    return { kind: 'unavailable' };
  }
}

/** RFC 6750 §3 quoted-string: strip what cannot sit between quotes. */
function quote(value: string): string {
  return value.replace(/["\\\r\n]/g, '');
}

export function resourceMetadataUrl(ctx: RequestContext): string {
  return `${ctx.server.baseUrl}/.well-known/oauth-protected-resource`;
}

/**
 * `WWW-Authenticate: Bearer error=..., error_description=..., resource_metadata=...` (RFC 6750 §3,
 * RFC 9728 §5.1).
 */
export function wwwAuthenticate(
  ctx: RequestContext,
  error: string,
  description: string,
  scope?: readonly string[],
): string {
  const parts = [`error="${quote(error)}"`, `error_description="${quote(description)}"`];
  if (scope && scope.length > 0) parts.push(`scope="${quote(scope.join(' '))}"`);
  parts.push(`resource_metadata="${resourceMetadataUrl(ctx)}"`);
  return `Bearer ${parts.join(', ')}`;
}

/**
 * Answers a failed bearer check. missing/invalid/wrong-resource: 401 invalid_token with
 * WWW-Authenticate carrying resource_metadata (spec "Protected resources"; a missing token is
 * answered the same way). unavailable: 503 temporarily_unavailable, no WWW-Authenticate (the client
 * retries). `scope` (RFC 6750 §3) names what a new token should carry, for clients that ask for
 * exactly that (MCP's scope selection reads it first).
 */
export function sendBearerError(
  ctx: RequestContext,
  verdict: Exclude<BearerVerdict, { kind: 'ok' }>,
  scope?: readonly string[],
): void {
  setNoStore(ctx.res);
  switch (verdict.kind) {
    case 'unavailable':
      sendJson(
        ctx.res,
        503,
        {
          error: 'temporarily_unavailable',
          error_description: 'the token could not be checked; retry later',
        },
        { 'Retry-After': '1' },
      );
      return;
    case 'missing':
    case 'invalid':
    case 'wrong-resource': {
      const description =
        verdict.kind === 'missing' ? 'an access token is required' : verdict.description;
      sendJson(
        ctx.res,
        401,
        { error: 'invalid_token', error_description: description },
        { 'WWW-Authenticate': wwwAuthenticate(ctx, 'invalid_token', description, scope) },
      );
      return;
    }
    default: {
      const never: never = verdict;
      throw new Error(`unexpected verdict ${JSON.stringify(never)}`);
    }
  }
}

/** 403 insufficient_scope naming the scopes that would do (RFC 6750 §3.1). */
export function sendInsufficientScope(
  ctx: RequestContext,
  scopes: readonly string[],
  description?: string,
): void {
  const text = description ?? `this request needs one of these scopes: ${scopes.join(' ')}`;
  setNoStore(ctx.res);
  sendJson(
    ctx.res,
    403,
    { error: 'insufficient_scope', error_description: text },
    { 'WWW-Authenticate': wwwAuthenticate(ctx, 'insufficient_scope', text, scopes) },
  );
}

/**
 * Convenience for handlers: the token when the check passes, otherwise the error is already sent
 * and null is returned. `requireAnyScope` answers 403 insufficient_scope when none of the scopes is
 * held.
 */
export function requireBearer(
  ctx: RequestContext,
  requireAnyScope?: readonly string[],
): AccessTokenInfo | null {
  const verdict = checkBearer(ctx);
  if (verdict.kind !== 'ok') {
    sendBearerError(ctx, verdict);
    return null;
  }
  if (
    requireAnyScope &&
    requireAnyScope.length > 0 &&
    !requireAnyScope.some((s) => verdict.token.scopes.includes(s))
  ) {
    sendInsufficientScope(ctx, requireAnyScope);
    return null;
  }
  return verdict.token;
}
