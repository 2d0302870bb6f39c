/**
 * Gets a real member access token from an embedded server the way the app does: authorization code
 * + PKCE S256 (RFC 7636) with resource = the server's origin (RFC 8707), the sign-in and consent
 * forms driven by the shared scripted browser, then the token request. Tokens are never logged.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { EmbeddedServer } from '../../../../embedded-server/index';
import { runAuthorization } from '../../../helpers/scripted-browser';
import type { SiteClient } from '../../../../electron/core/sync/transport';

export const FULL_SCOPE = 'openid profile email account:read account:write';

export interface MemberTokens {
  readonly accessToken: string;
  readonly refreshToken: string | null;
  readonly scope: string;
}

const b64url = (b: Buffer) => b.toString('base64url');

export async function getMemberToken(
  server: Pick<EmbeddedServer, 'url'>,
  scope = FULL_SCOPE,
): Promise<MemberTokens> {
  return authorize(server, {
    clientId: 'demo-desktop',
    scope,
    email: 'student@example.com',
    password: 'student-demo',
  });
}

/**
 * An operator token (service-spec "Authentication" 6: the allowlisted vendor platform) for the
 * admin REST API.
 */
export const OPERATOR_SCOPE =
  'students:read students:write curriculum:read curriculum:write posts:read posts:write courses:read orders:read';
export async function getOperatorToken(
  server: Pick<EmbeddedServer, 'url'>,
  scope = OPERATOR_SCOPE,
): Promise<MemberTokens> {
  return authorize(server, {
    clientId: 'demo-vendor',
    scope,
    email: 'owner@example.com',
    password: 'owner-demo',
  });
}

async function authorize(
  server: Pick<EmbeddedServer, 'url'>,
  who: { clientId: string; scope: string; email: string; password: string },
): Promise<MemberTokens> {
  const { clientId, scope } = who;
  const verifier = b64url(randomBytes(32));
  const challenge = b64url(createHash('sha256').update(verifier).digest());
  // RFC 8252 §7.3: any port on the loopback redirect; nothing listens there, the browser stops
  // before it.
  const redirectUri = 'http://127.0.0.1:53682/callback';
  const state = b64url(randomBytes(16));
  const authorize = new URL('/oauth/authorize', server.url);
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    scope,
    resource: server.url,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state,
    nonce: b64url(randomBytes(16)),
  }).toString();
  const callback = new URL(
    await runAuthorization(authorize.href, {
      stopAt: redirectUri,
      email: who.email,
      password: who.password,
    }),
  );
  const code = callback.searchParams.get('code');
  if (!code || callback.searchParams.get('state') !== state)
    throw new Error(`authorization failed: ${callback.searchParams.get('error') ?? 'no code'}`);
  const res = await fetch(new URL('/api/oauth/token', server.url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: clientId,
      code_verifier: verifier,
      resource: server.url,
    }),
  });
  const body = (await res.json()) as {
    access_token?: string;
    refresh_token?: string;
    scope?: string;
    error?: string;
  };
  if (!res.ok || !body.access_token)
    throw new Error(`token request failed: HTTP ${res.status} ${body.error ?? ''}`);
  return {
    accessToken: body.access_token,
    refreshToken: body.refresh_token ?? null,
    scope: body.scope ?? scope,
  };
}

/**
 * A fetch that adds the bearer token, like the auth module's fetchFor(siteId) (without refresh).
 */
export function bearerFetch(accessToken: string): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${accessToken}`);
    return fetch(input, { ...init, headers });
  };
}

/**
 * A client as the app builds one (app-core.ts): `fetch` for the outbox and probes, `sendWith` for
 * the sync's pages, which the writer sends itself (here with the one token, without the token
 * manager's refresh).
 */
export function siteClient(baseUrl: string, accessToken: string): SiteClient {
  return {
    endpoint: `${baseUrl}/member/graphql`,
    fetch: bearerFetch(accessToken),
    sendWith: (target, send) => send(accessToken, target),
  };
}

/**
 * A client whose pages all go through this thread's `fetch` (the path the sync takes when a host
 * brings its own fetch).
 */
export function fetchOnlyClient(baseUrl: string, accessToken: string): SiteClient {
  return { endpoint: `${baseUrl}/member/graphql`, fetch: bearerFetch(accessToken) };
}

/**
 * Asks the server's member API directly (for field-by-field comparisons with what the sync stored).
 */
export async function queryServer<T>(
  baseUrl: string,
  accessToken: string,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<T> {
  const res = await fetch(`${baseUrl}/member/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data?: T; errors?: { message: string }[] };
  if (!res.ok || body.errors?.length || !body.data)
    throw new Error(`query failed: HTTP ${res.status} ${body.errors?.[0]?.message ?? ''}`);
  return body.data;
}

/**
 * Calls the operator admin REST API (`/api/admin/v1/...`) with an operator token; returns the
 * parsed JSON (or null).
 */
export async function admin(
  baseUrl: string,
  operatorToken: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<unknown> {
  const res = await fetch(`${baseUrl}/api/admin/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${operatorToken}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`admin ${method} ${path}: HTTP ${res.status} ${text.slice(0, 300)}`);
  return text ? (JSON.parse(text) as unknown) : null;
}
