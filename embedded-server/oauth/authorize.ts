import type { RequestContext, Route, ServerContext } from '../http/types';
import {
  AccessDeniedError,
  InvalidRequestError,
  InvalidScopeError,
  InvalidTargetError,
  OAuthError,
  RequestNotSupportedError,
  RequestUriNotSupportedError,
  UnsupportedResponseTypeError,
} from '../http/errors';
import { paramsToRecord, readForm } from '../http/body';
import { redirect, sendHtml } from '../http/respond';
import type { OAuthClient } from '../store/clients';
import { insertCode } from '../store/codes';
import { getUserById, isOperator, rolesAt } from '../store/identity';
import { randomId, randomSecret, sha256Hex } from '../store/secrets';
import { getPending, insertPending, takePending } from '../store/sessions';
import { csrfValid, currentSession } from './browser-session';
import { resolveClient } from './client-auth';
import { consentPage, errorPage } from './pages';
import { redirectUriMatches } from './redirect-uris';
import { parseScope, scopesForAudience, scopesForUnreviewedMetadataClient } from './scopes';
import { CODE_TTL_S, PATHS, PENDING_AUTHORIZATION_TTL_S } from './settings';

/** A validated authorization request, kept while the member signs in and decides. */
export interface AuthorizationRequest {
  clientId: string;
  clientName: string;
  audience: OAuthClient['audience'];
  /**
   * The client named itself (loopback registration or metadata document): the consent page says so.
   */
  unverified: boolean;
  redirectUri: string;
  scopes: string[];
  state: string;
  codeChallenge: string;
  nonce: string | null;
  resource: string | null;
}

/** An error that must not be redirected (unknown client, bad redirect URI): RFC 6749 §4.1.2.1. */
class PageError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
  }
}

/** An error returned to the client through its (verified) redirect URI. */
class RedirectError extends Error {
  constructor(
    readonly redirectUri: string,
    readonly state: string | undefined,
    readonly reason: OAuthError,
  ) {
    super(reason.description);
  }
}

/** Builds the redirect back to the client. RFC 9207: every response carries `iss`. */
export function clientRedirect(
  server: ServerContext,
  redirectUri: string,
  params: Record<string, string | undefined>,
): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  url.searchParams.set('iss', server.baseUrl);
  return url.href;
}

// --- The pipeline: one check per function, in the order the RFCs require. ---

function checkSingleValued(query: URLSearchParams): Record<string, string> {
  try {
    return paramsToRecord(query);
  } catch (err) {
    // RFC 6749 §3.1: repeated parameters. Which redirect_uri would we trust? None: show a page.
    throw new PageError('invalid_request', (err as Error).message);
  }
}

async function checkClient(server: ServerContext, q: Record<string, string>): Promise<OAuthClient> {
  if (!q.client_id) throw new PageError('invalid_request', 'client_id is missing');
  const client = await resolveClient(server, q.client_id);
  if (!client) throw new PageError('invalid_client', 'this application is not known to this site');
  return client;
}

function checkRedirectUri(client: OAuthClient, q: Record<string, string>): string {
  // Spec: redirect_uri is required; RFC 8252 §7.3 lets a loopback redirect carry any port.
  if (!q.redirect_uri) throw new PageError('invalid_request', 'redirect_uri is missing');
  if (!redirectUriMatches(client.redirectUris, q.redirect_uri)) {
    throw new PageError(
      'invalid_request',
      'redirect_uri does not match a redirect URI registered for this application',
    );
  }
  return q.redirect_uri;
}

function checkResponseType(q: Record<string, string>): void {
  if (q.response_type !== 'code')
    throw new UnsupportedResponseTypeError('response_type must be code');
}

function checkUnsupportedParameters(q: Record<string, string>): void {
  // Discovery lists response_modes_supported ["query"] and request(_uri)_parameter_supported false.
  if (q.response_mode !== undefined && q.response_mode !== 'query')
    throw new InvalidRequestError('response_mode must be query');
  if (q.request !== undefined)
    throw new RequestNotSupportedError('request objects are not supported');
  if (q.request_uri !== undefined)
    throw new RequestUriNotSupportedError('request_uri is not supported');
}

function checkState(q: Record<string, string>): string {
  // Spec "Authorization request": state is required (CSRF protection of the client's callback).
  if (!q.state) throw new InvalidRequestError('state is required');
  return q.state;
}

function checkPkce(q: Record<string, string>): string {
  // RFC 7636 + RFC 9700 §2.1.1: PKCE required, S256 only (plain is refused, not downgraded).
  if (!q.code_challenge) throw new InvalidRequestError('code_challenge is required (PKCE, S256)');
  if (q.code_challenge_method !== 'S256')
    throw new InvalidRequestError('code_challenge_method must be S256');
  // RFC 7636 §4.2: BASE64URL(SHA256(verifier)) is exactly 43 characters.
  if (!/^[A-Za-z0-9_-]{43}$/.test(q.code_challenge))
    throw new InvalidRequestError('code_challenge is not a base64url S256 value');
  return q.code_challenge;
}

function checkScopes(client: OAuthClient, q: Record<string, string>): string[] {
  if (!q.scope) throw new InvalidRequestError('scope is required');
  const scopes = parseScope(q.scope);
  // Spec Authentication 7: account:read is reserved to member clients; operator scopes to operator
  // clients.
  const allowed =
    client.origin === 'metadata-document'
      ? scopesForUnreviewedMetadataClient()
      : scopesForAudience(client.audience);
  const refused = scopes.filter((s) => !allowed.includes(s));
  if (refused.length > 0) {
    const why =
      client.origin === 'metadata-document'
        ? 'an unreviewed metadata-document client may request identity and read scopes only'
        : client.audience === 'operator' && refused.some((s) => s.startsWith('account:'))
          ? 'reserved to member clients, which a site operator creates under Developers > OAuth applications (registered clients are operator clients)'
          : `not available to ${client.audience} clients`;
    throw new InvalidScopeError(`scope ${refused.join(' ')} is ${why}`);
  }
  return scopes;
}

function checkResource(
  server: ServerContext,
  client: OAuthClient,
  q: Record<string, string>,
): string | null {
  // RFC 8707 + spec Authentication 3: member tokens are bound to this origin; resource is required
  // for them.
  if (client.audience === 'member') {
    if (!q.resource)
      throw new InvalidTargetError(
        `resource is required for member tokens and must be ${server.baseUrl}`,
      );
    if (q.resource !== server.baseUrl)
      throw new InvalidTargetError(`resource must be ${server.baseUrl}`);
    return q.resource;
  }
  // Operator clients: this origin is the only resource served here; when omitted it is implied
  // (decision, README).
  if (q.resource !== undefined && q.resource !== server.baseUrl)
    throw new InvalidTargetError(`resource must be ${server.baseUrl}`);
  return server.baseUrl;
}

/** Runs the whole pipeline. Throws PageError (never redirected) or RedirectError. */
export async function validateAuthorizationRequest(
  server: ServerContext,
  query: URLSearchParams,
): Promise<AuthorizationRequest> {
  const q = checkSingleValued(query);
  const client = await checkClient(server, q);
  const redirectUri = checkRedirectUri(client, q);
  // From here the redirect URI is trusted: errors go back to the client with state and iss.
  try {
    checkResponseType(q);
    checkUnsupportedParameters(q);
    const state = checkState(q);
    const codeChallenge = checkPkce(q);
    const scopes = checkScopes(client, q);
    const resource = checkResource(server, client, q);
    return {
      clientId: client.clientId,
      clientName: client.name,
      audience: client.audience,
      unverified:
        client.origin === 'loopback-registration' || client.origin === 'metadata-document',
      redirectUri,
      scopes,
      state,
      codeChallenge,
      nonce: q.nonce ?? null,
      resource,
    };
  } catch (err) {
    if (err instanceof OAuthError) throw new RedirectError(redirectUri, q.state, err);
    throw err;
  }
}

function sendRedirectError(ctx: RequestContext, err: RedirectError): void {
  redirect(
    ctx.res,
    clientRedirect(ctx.server, err.redirectUri, {
      error: err.reason.error,
      error_description: err.reason.description,
      state: err.state,
    }),
    302,
  );
}

function sendPageError(ctx: RequestContext, err: PageError): void {
  sendHtml(
    ctx.res,
    400,
    errorPage('This sign-in request cannot continue', err.error, err.description),
  );
}

/** GET /oauth/authorize */
async function authorize(ctx: RequestContext): Promise<void> {
  const { server } = ctx;
  let request: AuthorizationRequest;
  try {
    request = await validateAuthorizationRequest(server, ctx.url.searchParams);
  } catch (err) {
    if (err instanceof PageError) return sendPageError(ctx, err);
    if (err instanceof RedirectError) return sendRedirectError(ctx, err);
    throw err;
  }

  const session = currentSession(ctx);
  if (!session || !session.userId) {
    // Not signed in: sign in first, then come back to this very request (validated again).
    redirect(
      ctx.res,
      `${PATHS.signIn}?return_to=${encodeURIComponent(ctx.url.pathname + ctx.url.search)}`,
    );
    return;
  }
  const user = getUserById(server.db, session.userId);
  const roles = user ? rolesAt(server.db, server.site.schoolId, user.id) : [];
  if (!user || roles.length === 0) {
    sendRedirectError(
      ctx,
      new RedirectError(
        request.redirectUri,
        request.state,
        new AccessDeniedError('you hold no role at this site'),
      ),
    );
    return;
  }
  // Operator clients act for the site: only operators may authorize them (decision, README).
  // Member clients: anyone with a role at the site, students included (spec Authentication 5).
  if (request.audience === 'operator' && !isOperator(roles)) {
    sendRedirectError(
      ctx,
      new RedirectError(
        request.redirectUri,
        request.state,
        new AccessDeniedError('only site operators can authorize this application'),
      ),
    );
    return;
  }

  // Spec: consent on every authorization. The request waits, bound to this browser session.
  const now = server.clock.now();
  const requestId = randomSecret('', 18);
  insertPending(server.db, {
    id: requestId,
    sessionHash: session.idHash,
    params: JSON.stringify(request),
    createdAt: now,
    expiresAt: now + PENDING_AUTHORIZATION_TTL_S * 1000,
  });
  sendHtml(
    ctx.res,
    200,
    consentPage({
      siteName: server.site.name,
      clientName: request.clientName,
      clientId: request.clientId,
      userEmail: user.email,
      scopes: request.scopes,
      requestId,
      csrf: session.csrf,
      redirectHost: new URL(request.redirectUri).host,
      returnTo: ctx.url.pathname + ctx.url.search,
      unverified: request.unverified,
    }),
  );
}

/** POST /oauth/authorize/decision: the consent form. */
async function decide(ctx: RequestContext): Promise<void> {
  const { server } = ctx;
  const form = await readForm(ctx.req);
  const session = currentSession(ctx);
  if (!session?.userId || !csrfValid(session, form.csrf)) {
    sendHtml(
      ctx.res,
      403,
      errorPage(
        'This form has expired',
        'invalid_request',
        'The page was open too long or came from elsewhere. Start again from the application.',
      ),
    );
    return;
  }
  const now = server.clock.now();
  const pending = form.request
    ? getPending(server.db, form.request, session.idHash, now)
    : undefined;
  if (!pending || !takePending(server.db, pending.id, session.idHash)) {
    sendHtml(
      ctx.res,
      400,
      errorPage(
        'This request has expired',
        'invalid_request',
        'The sign-in request is no longer valid. Start again from the application.',
      ),
    );
    return;
  }
  const request = JSON.parse(pending.params) as AuthorizationRequest;
  if (form.decision !== 'approve') {
    // RFC 6749 §4.1.2.1: the resource owner denied the request.
    redirect(
      ctx.res,
      clientRedirect(server, request.redirectUri, {
        error: 'access_denied',
        error_description: 'the member denied the request',
        state: request.state,
      }),
      302,
    );
    return;
  }
  const code = randomSecret('ac_');
  insertCode(server.db, {
    id: randomId('grt_'),
    codeHash: sha256Hex(code),
    clientId: request.clientId,
    userId: session.userId,
    schoolId: server.site.schoolId,
    redirectUri: request.redirectUri,
    scope: request.scopes.join(' '),
    resource: request.resource,
    codeChallenge: request.codeChallenge,
    nonce: request.nonce,
    audience: request.audience,
    authTime: now,
    createdAt: now,
    expiresAt: now + CODE_TTL_S * 1000,
  });
  redirect(
    ctx.res,
    clientRedirect(server, request.redirectUri, { code, state: request.state }),
    302,
  );
}

export const authorizeRoutes: Route[] = [
  { method: 'GET', path: PATHS.authorize, handler: authorize },
  { method: 'POST', path: PATHS.authorizeDecision, handler: decide },
];
