import { createHash } from 'node:crypto';
import type { RequestContext, Route, ServerContext } from '../http/types';
import {
  InvalidClientError,
  InvalidGrantError,
  InvalidRequestError,
  InvalidScopeError,
  InvalidTargetError,
  UnsupportedGrantTypeError,
} from '../http/errors';
import { readForm } from '../http/body';
import { sendJson, setNoStore } from '../http/respond';
import type { OAuthClient } from '../store/clients';
import { consumeCode, getCodeByHash, type AuthorizationCode } from '../store/codes';
import { getSchool } from '../store/identity';
import { constantTimeEqual, randomId, randomSecret, sha256Hex } from '../store/secrets';
import {
  getPairByRefreshHash,
  insertTokenPair,
  revokeGrant,
  type TokenPair,
} from '../store/tokens';
import { memberClaims } from '../oidc/claims';
import { signIdToken } from '../oidc/id-token';
import { authenticateClient, refuseHttpBasic, resolveClient } from './client-auth';
import { parseScope } from './scopes';
import { ACCESS_TOKEN_TTL_S, PATHS, REFRESH_TOKEN_TTL_S, signsIdTokens } from './settings';

/** Token response (RFC 6749 §5.1) plus the spec's stable extra fields. */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
  school_id: string | null;
  school_subdomain: string | null;
  created_at: number;
  id_token?: string;
}

function issuePair(
  server: ServerContext,
  input: {
    grantId: string;
    parentId: string | null;
    clientId: string;
    userId: string;
    schoolId: string | null;
    scope: string;
    resource: string | null;
    audience: TokenPair['audience'];
  },
): { pair: TokenPair; accessToken: string; refreshToken: string } {
  const now = server.clock.now();
  const accessToken = randomSecret('at_');
  const refreshToken = randomSecret('rt_');
  const pair: TokenPair = {
    id: randomId('tok_'),
    ...input,
    accessHash: sha256Hex(accessToken),
    refreshHash: sha256Hex(refreshToken),
    createdAt: now,
    accessExpiresAt: now + ACCESS_TOKEN_TTL_S * 1000,
    refreshExpiresAt: now + REFRESH_TOKEN_TTL_S * 1000,
    firstPresentedAt: null,
    revokedAt: null,
  };
  insertTokenPair(server.db, pair);
  return { pair, accessToken, refreshToken };
}

function responseFor(
  server: ServerContext,
  issued: { pair: TokenPair; accessToken: string; refreshToken: string },
): TokenResponse {
  const school = issued.pair.schoolId ? getSchool(server.db, issued.pair.schoolId) : undefined;
  return {
    access_token: issued.accessToken,
    token_type: 'Bearer',
    expires_in: ACCESS_TOKEN_TTL_S,
    refresh_token: issued.refreshToken,
    scope: issued.pair.scope,
    school_id: issued.pair.schoolId,
    school_subdomain: school?.subdomain ?? null,
    created_at: Math.floor(issued.pair.createdAt / 1000),
  };
}

// --- authorization_code grant: one check per function (RFC 6749 §4.1.3, RFC 7636 §4.6, RFC 8707
// §2.2) ---

function findCode(
  server: ServerContext,
  form: Record<string, string>,
  client: OAuthClient,
): AuthorizationCode {
  if (!form.code) throw new InvalidRequestError('code is required');
  const code = getCodeByHash(server.db, sha256Hex(form.code));
  if (!code) throw new InvalidGrantError('the authorization code is invalid');
  // RFC 6749 §4.1.3: the code must have been issued to the authenticated client.
  if (code.clientId !== client.clientId)
    throw new InvalidGrantError('the authorization code was issued to another client');
  return code;
}

function refuseReplay(server: ServerContext, code: AuthorizationCode): never {
  // RFC 6749 §4.1.2 / RFC 9700 §4.2.4: a code is single-use. A second redemption is refused and
  // every pair issued from the code is revoked, since one of the two redeemers is an attacker.
  revokeGrant(server.db, code.id, server.clock.now(), 'code-replay');
  throw new InvalidGrantError('the authorization code was already used');
}

function checkUnusedAndFresh(server: ServerContext, code: AuthorizationCode): void {
  if (code.usedAt !== null) refuseReplay(server, code);
  if (server.clock.now() >= code.expiresAt)
    throw new InvalidGrantError('the authorization code has expired');
}

/**
 * Consumed only once every check passed (a failed attempt does not burn the legitimate client's
 * code).
 */
function consume(server: ServerContext, code: AuthorizationCode): void {
  // lost a race
  if (!consumeCode(server.db, code.id, server.clock.now())) refuseReplay(server, code);
}

function checkRedirectUri(form: Record<string, string>, code: AuthorizationCode): void {
  // RFC 6749 §4.1.3: identical to the value sent to the authorization endpoint.
  if (form.redirect_uri !== code.redirectUri)
    throw new InvalidGrantError('redirect_uri does not match the authorization request');
}

function checkVerifier(form: Record<string, string>, code: AuthorizationCode): void {
  const verifier = form.code_verifier;
  if (!verifier) throw new InvalidRequestError('code_verifier is required (PKCE)');
  // RFC 7636 §4.1: 43..128 unreserved characters.
  if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier))
    throw new InvalidGrantError('code_verifier is malformed');
  const challenge = createHash('sha256').update(verifier, 'ascii').digest('base64url');
  if (!constantTimeEqual(challenge, code.codeChallenge))
    throw new InvalidGrantError('code_verifier does not match the code_challenge');
}

function checkResource(form: Record<string, string>, code: AuthorizationCode): void {
  // Spec "Token request": resource must repeat the authorization value for member tokens (RFC 8707
  // §2.2).
  if (code.audience === 'member' && form.resource === undefined)
    throw new InvalidTargetError('resource is required and must repeat the authorization value');
  if (form.resource !== undefined && form.resource !== code.resource)
    throw new InvalidTargetError('resource does not match the authorization request');
}

async function authorizationCodeGrant(
  ctx: RequestContext,
  form: Record<string, string>,
): Promise<TokenResponse> {
  const { server } = ctx;
  const client = await authenticateClient(server, form, ctx.req.headers.authorization, 'token');
  const code = findCode(server, form, client);
  checkUnusedAndFresh(server, code);
  checkRedirectUri(form, code);
  checkVerifier(form, code);
  checkResource(form, code);

  // Consume and issue in one transaction: a replay can never slip between them and miss the new
  // pair.
  const issued = server.db.transaction(() => {
    consume(server, code);
    return issuePair(server, {
      grantId: code.id,
      parentId: null,
      clientId: client.clientId,
      userId: code.userId,
      schoolId: code.schoolId,
      scope: code.scope,
      resource: code.resource,
      audience: code.audience,
    });
  })();
  const body = responseFor(server, issued);
  // Spec "Token response": id_token exactly when openid was granted and discovery lists alg values
  // + jwks_uri.
  if (parseScope(code.scope).includes('openid') && signsIdTokens(server)) {
    const claims = memberClaims(server, code.userId, code.schoolId);
    if (!claims) throw new InvalidGrantError('the member no longer exists');
    body.id_token = await signIdToken(server, {
      clientId: client.clientId,
      claims,
      nonce: code.nonce,
      authTime: code.authTime,
      issuedAt: issued.pair.createdAt,
    });
  }
  return body;
}

// --- refresh_token grant (RFC 6749 §6, spec "Token pair lifecycle") ---

async function refreshClient(
  ctx: RequestContext,
  form: Record<string, string>,
  pair: TokenPair | undefined,
): Promise<OAuthClient> {
  refuseHttpBasic(ctx.server, ctx.req.headers.authorization);
  if (form.client_id !== undefined)
    return authenticateClient(ctx.server, form, ctx.req.headers.authorization, 'token');
  // Spec: the refresh grant's other parameters are "not shown". Decision: a public client may omit
  // client_id (the refresh token names it); a confidential client must authenticate (RFC 6749 §6).
  if (!pair) throw new InvalidGrantError('the refresh token is invalid');
  const client = await resolveClient(ctx.server, pair.clientId);
  if (!client) throw new InvalidGrantError('the refresh token is invalid');
  if (client.confidential)
    throw new InvalidClientError(
      'this client is confidential: client_id and client_secret are required',
    );
  return client;
}

async function refreshTokenGrant(
  ctx: RequestContext,
  form: Record<string, string>,
): Promise<TokenResponse> {
  const { server } = ctx;
  if (!form.refresh_token) throw new InvalidRequestError('refresh_token is required');
  // Fault switch (README "Fault injection"): the site refuses every refresh, as after an operator
  // ended the sessions.
  if (server.faults.refreshRefused)
    throw new InvalidGrantError('the refresh token is no longer valid; sign in again');
  const refreshHash = sha256Hex(form.refresh_token);
  const client = await refreshClient(ctx, form, getPairByRefreshHash(server.db, refreshHash));
  // Read the pair again after the only await (client resolution can fetch a metadata document): a
  // revocation, a code replay or a first presentation that landed meanwhile must be seen. From here
  // to issuePair nothing yields, so the checks and the new pair are one step for every other
  // request (better-sqlite3 is synchronous).
  const pair = getPairByRefreshHash(server.db, refreshHash);
  const now = server.clock.now();
  if (!pair || pair.clientId !== client.clientId)
    throw new InvalidGrantError('the refresh token is invalid');
  if (pair.revokedAt !== null) throw new InvalidGrantError('the refresh token has been revoked');
  if (now >= pair.refreshExpiresAt) throw new InvalidGrantError('the refresh token has expired');

  let scope = pair.scope;
  if (form.scope !== undefined) {
    // RFC 6749 §6: a narrower scope may be asked for, never a wider one.
    const granted = parseScope(pair.scope);
    const asked = parseScope(form.scope);
    if (asked.length === 0 || asked.some((s) => !granted.includes(s)))
      throw new InvalidScopeError('scope exceeds what was granted');
    scope = asked.join(' ');
  }
  if (form.resource !== undefined && form.resource !== pair.resource)
    throw new InvalidTargetError('resource does not match the token');

  // The old pair stays live until the new access token is first presented (spec lifecycle;
  // http/bearer.ts).
  const issued = issuePair(server, {
    grantId: pair.grantId,
    parentId: pair.id,
    clientId: pair.clientId,
    userId: pair.userId,
    schoolId: pair.schoolId,
    scope,
    resource: pair.resource,
    audience: pair.audience,
  });
  return responseFor(server, issued); // never an id_token on refresh (spec "Token response")
}

/** POST /api/oauth/token */
async function token(ctx: RequestContext): Promise<void> {
  setNoStore(ctx.res); // RFC 6749 §5.1, also on errors
  const form = await readForm(ctx.req);
  let body: TokenResponse;
  switch (form.grant_type) {
    case 'authorization_code':
      body = await authorizationCodeGrant(ctx, form);
      break;
    case 'refresh_token':
      body = await refreshTokenGrant(ctx, form);
      break;
    case undefined:
      throw new InvalidRequestError('grant_type is required');
    default:
      throw new UnsupportedGrantTypeError(`grant_type ${form.grant_type} is not supported`);
  }
  sendJson(ctx.res, 200, body);
}

export const tokenRoutes: Route[] = [{ method: 'POST', path: PATHS.token, handler: token }];
