import { createHash, randomBytes } from 'node:crypto';
import type { EmbeddedServer } from '../../embedded-server/index';
import type { PaymentRow } from '../../embedded-server/store/content-payments';
import { ScriptedBrowser } from '../helpers/scripted-browser';

export const PUBLIC_CLIENT = 'demo-desktop';
export const CONFIDENTIAL_CLIENT = 'demo-desktop-confidential';
export const CONFIDENTIAL_SECRET = 'demo-desktop-secret';
/**
 * An ephemeral-port callback under the registered loopback redirect http://127.0.0.1/callback (RFC
 * 8252 §7.3).
 */
export const CALLBACK = 'http://127.0.0.1:54321/callback';

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export interface AuthorizeParams {
  client_id?: string | null;
  redirect_uri?: string | null;
  scope?: string | null;
  resource?: string | null;
  state?: string | null;
  nonce?: string | null;
  code_challenge?: string | null;
  code_challenge_method?: string | null;
  response_type?: string | null;
  [extra: string]: string | null | undefined;
}

/** Authorization URL with sensible member defaults; pass null to omit a parameter. */
export function authorizeUrl(server: EmbeddedServer, params: AuthorizeParams = {}): string {
  const defaults: AuthorizeParams = {
    response_type: 'code',
    client_id: PUBLIC_CLIENT,
    redirect_uri: CALLBACK,
    scope: 'openid profile email account:read',
    resource: server.url,
    state: 'state-123',
    code_challenge_method: 'S256',
  };
  const merged = { ...defaults, ...params };
  const url = new URL('/oauth/authorize', server.url);
  for (const [k, v] of Object.entries(merged))
    if (v !== null && v !== undefined) url.searchParams.set(k, v);
  return url.href;
}

export interface HttpResult<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

export async function postForm<T = Record<string, unknown>>(
  url: string,
  form: Record<string, string | undefined>,
  headers: Record<string, string> = {},
): Promise<HttpResult<T>> {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(form)) if (v !== undefined) body.set(k, v);
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: body.toString(),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : {}) as T };
}

export async function getJson<T = Record<string, unknown>>(
  url: string,
  headers: Record<string, string> = {},
): Promise<HttpResult<T>> {
  const res = await fetch(url, { headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : {}) as T };
}

export interface TokenBody {
  access_token: string;
  token_type: string;
  expires_in: number;
  refresh_token: string;
  scope: string;
  school_id: string | null;
  school_subdomain: string | null;
  created_at: number;
  id_token?: string;
  error?: string;
  error_description?: string;
}

/**
 * Runs the browser part (sign in as the student by default, approve) and returns the code +
 * verifier.
 */
export async function obtainCode(
  server: EmbeddedServer,
  params: AuthorizeParams = {},
  script: { email?: string; password?: string; browser?: ScriptedBrowser } = {},
): Promise<{ code: string; verifier: string; callback: URL; redirectUri: string }> {
  const { verifier, challenge } = pkce();
  const redirectUri = params.redirect_uri ?? CALLBACK;
  const browser = script.browser ?? new ScriptedBrowser();
  const callback = new URL(
    await browser.authorize(authorizeUrl(server, { code_challenge: challenge, ...params }), {
      stopAt: redirectUri,
      ...(script.email ? { email: script.email } : {}),
      ...(script.password ? { password: script.password } : {}),
    }),
  );
  const code = callback.searchParams.get('code');
  if (!code) throw new Error(`no code in callback: ${callback.href}`);
  return { code, verifier, callback, redirectUri };
}

export function exchangeCode(
  server: EmbeddedServer,
  got: { code: string; verifier: string; redirectUri: string },
  extra: Record<string, string | undefined> = {},
): Promise<HttpResult<TokenBody>> {
  return postForm<TokenBody>(`${server.url}/api/oauth/token`, {
    grant_type: 'authorization_code',
    code: got.code,
    redirect_uri: got.redirectUri,
    client_id: PUBLIC_CLIENT,
    code_verifier: got.verifier,
    resource: server.url,
    ...extra,
  });
}

/** The whole member flow for the public demo client: returns a live token pair. */
export async function obtainTokens(
  server: EmbeddedServer,
  params: AuthorizeParams = {},
  extra: Record<string, string | undefined> = {},
): Promise<TokenBody> {
  const got = await obtainCode(server, params);
  const res = await exchangeCode(server, got, {
    ...(params.client_id ? { client_id: params.client_id } : {}),
    ...extra,
  });
  if (res.status !== 200)
    throw new Error(`token exchange failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export function refresh(
  server: EmbeddedServer,
  refreshToken: string,
  extra: Record<string, string | undefined> = {},
): Promise<HttpResult<TokenBody>> {
  return postForm<TokenBody>(`${server.url}/api/oauth/token`, {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: PUBLIC_CLIENT,
    ...extra,
  });
}

export function userinfo(server: EmbeddedServer, accessToken: string): Promise<HttpResult> {
  return getJson(`${server.url}/api/oauth/userinfo`, { authorization: `Bearer ${accessToken}` });
}

export function revoke(
  server: EmbeddedServer,
  token: string,
  extra: Record<string, string | undefined> = {},
): Promise<HttpResult> {
  return postForm(`${server.url}/api/oauth/revoke`, { token, client_id: PUBLIC_CLIENT, ...extra });
}

/** A stored payment row with every optional column empty: a test names only what it is about. */
export function paymentRow(
  row: Pick<PaymentRow, 'id' | 'school_id' | 'user_id' | 'trade_no'> & Partial<PaymentRow>,
): PaymentRow {
  return {
    amount: 100,
    currency: 'TWD',
    payment_type: 'credit_card',
    created_at: 0,
    paid_at: null,
    payment_state: 'not_paid',
    refunding_state: 'none',
    refunded_amount: 0,
    refunded_at: null,
    refund_requested_at: null,
    bank_code: null,
    bank_name: null,
    code_no: null,
    expired_at: null,
    invoice_number: null,
    invoice_kind: null,
    invoice_title: null,
    invoice_tax_id: null,
    invoice_issued_at: null,
    invoice_voided_at: null,
    installment_periods: null,
    installment_amount_per_period: null,
    installment_bank_name: null,
    ...row,
  };
}
