/**
 * The sign-in doctor's checks, one function each (ARCHITECTURE example 6). Each returns one
 * DoctorCheck: a status and a finding the renderer puts into words, with what to do. The network
 * ones read the probe (probe.ts); the others look at this computer (proxy variables, the loopback
 * listener) or at the last sign-in attempt.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import type {
  DoctorCheck,
  DoctorFinding,
  DoctorStatus,
  SignInAttemptRecord,
} from '../../common/doctor';
import { assertNever } from '../../common/result';
import { discover } from '../auth/discovery';
import { codeChallengeS256, createCodeVerifier, randomToken } from '../auth/pkce';
import { isCoreError } from '../errors';
import type { FetchLike } from '../net/http';
import { request } from '../net/http';
import { DOCTOR_REQUEST_TIMEOUT_MS, displayText, errorCodeIn, type SiteProbe } from './probe';

function check(
  id: DoctorCheck['id'],
  status: DoctorStatus,
  finding: DoctorFinding,
  params: DoctorCheck['params'] = {},
): DoctorCheck {
  return { id, status, finding, params };
}

/**
 * Above this the site is answering, but slowly enough for the student to notice (and for sign-in
 * pages to lag).
 */
const SLOW_ANSWER_MS = 2_000;

// ---------------------------------------------------------------- discovery

const ENDPOINT_FIELDS = [
  'authorization_endpoint',
  'token_endpoint',
  'revocation_endpoint',
  'userinfo_endpoint',
  'jwks_uri',
] as const;

/**
 * The site's discovery documents reachable and valid: an answer at all, then the RFC 8414 rules one
 * at a time (issuer identical to the origin §3.3, PKCE S256 listed, RFC 7636 §4.2), every endpoint
 * on the site's own origin (the spec serves them all from the base URL: another origin is where a
 * sign-in should not be sent unasked), and finally the app's own discovery (discovery.ts), so the
 * doctor never passes a site the sign-in refuses.
 */
export async function checkDiscovery(
  probe: SiteProbe,
  options: { fetch: FetchLike },
): Promise<DoctorCheck> {
  const origin = probe.origin;
  if (probe.status === null)
    return check('discovery', 'problem', 'discoveryUnreachable', { origin });
  if (probe.status >= 500)
    return check('discovery', 'problem', 'discoveryServerError', { origin, status: probe.status });
  if (probe.status === 404 || probe.path === null) {
    // RFC 9728: the origin may publish no metadata of its own and name its authorization server (on
    // a path, or elsewhere) in its protected-resource document; the sign-in follows that, so the
    // doctor does too.
    const named = await discover(origin, {
      fetch: options.fetch,
      timeoutMs: DOCTOR_REQUEST_TIMEOUT_MS,
    }).then(
      () => true,
      () => false,
    );
    return named
      ? check('discovery', 'ok', 'discoveryOk', { origin })
      : check('discovery', 'problem', 'discoveryMissing', { origin });
  }
  if (probe.status !== 200)
    return check('discovery', 'problem', 'discoveryHttpStatus', { origin, status: probe.status });
  const doc = probe.document;
  if (doc === null) return check('discovery', 'problem', 'discoveryNotJson', { origin });
  // RFC 8414 §3.3, as discovery.ts reads it: the origin, or the origin with its "/" path written
  // out.
  if (doc.issuer !== origin && doc.issuer !== `${origin}/`)
    return check('discovery', 'problem', 'discoveryIssuerMismatch', {
      origin,
      issuer: displayText(doc.issuer ?? ''),
    });
  const methods = doc.code_challenge_methods_supported;
  if (!Array.isArray(methods) || !methods.includes('S256'))
    return check('discovery', 'problem', 'discoveryNoS256', { origin });
  for (const field of ENDPOINT_FIELDS) {
    const value = doc[field];
    if (typeof value !== 'string') continue;
    let endpointOrigin: string;
    try {
      endpointOrigin = new URL(value).origin;
    } catch {
      return check('discovery', 'problem', 'discoveryInvalid', {
        origin,
        detail: `${field} is not a URL`,
      });
    }
    if (endpointOrigin !== origin)
      return check('discovery', 'warning', 'discoveryForeignEndpoint', {
        origin,
        endpoint: field,
        endpointOrigin: displayText(endpointOrigin),
      });
  }
  try {
    await discover(origin, { fetch: options.fetch, timeoutMs: DOCTOR_REQUEST_TIMEOUT_MS });
  } catch (error) {
    // Our own CoreError messages name no secret (errors.ts); anything else is reduced to its code.
    const detail = isCoreError(error)
      ? displayText(error.message, 300)
      : (errorCodeIn(error) ?? 'unknown');
    if (isCoreError(error, 'site-unreachable'))
      return check('discovery', 'problem', 'discoveryUnreachable', { origin });
    return check('discovery', 'problem', 'discoveryInvalid', { origin, detail });
  }
  if (probe.elapsedMs > SLOW_ANSWER_MS)
    return check('discovery', 'warning', 'discoverySlow', {
      origin,
      seconds: Math.round(probe.elapsedMs / 100) / 10,
    });
  return check('discovery', 'ok', 'discoveryOk', { origin });
}

// ---------------------------------------------------------------- TLS

/**
 * OpenSSL / Node verification codes (tls.TLSSocket authorizationError, ERR_TLS_*), grouped by what
 * the student does.
 */
const TLS_EXPIRED = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);
const TLS_UNTRUSTED = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_REVOKED',
  'CERT_SIGNATURE_FAILURE',
]);
const TLS_NAME = new Set(['ERR_TLS_CERT_ALTNAME_INVALID', 'HOSTNAME_MISMATCH']);

/** What a TLS failure code means for the student; null when the code is not a TLS one. */
export function classifyTlsCode(code: string | null): DoctorFinding | null {
  if (code === null) return null;
  if (TLS_EXPIRED.has(code)) return 'tlsExpired';
  if (TLS_UNTRUSTED.has(code)) return 'tlsUntrusted';
  if (TLS_NAME.has(code)) return 'tlsNameMismatch';
  if (/^ERR_(TLS|SSL)_/.test(code) || /^(CERT|SSL|TLS)_/.test(code) || code === 'EPROTO')
    return 'tlsFailed';
  return null;
}

export function checkTls(probe: SiteProbe): DoctorCheck {
  const origin = probe.origin;
  if (new URL(origin).protocol !== 'https:')
    return check('tls', 'skipped', 'tlsNotUsed', { origin });
  if (probe.networkError === null) return check('tls', 'ok', 'tlsOk', { origin });
  const code = errorCodeIn(probe.networkError);
  const finding = classifyTlsCode(code);
  if (finding === null || code === null) return check('tls', 'skipped', 'tlsUnchecked', { origin });
  return check('tls', 'problem', finding, { origin, code });
}

// ---------------------------------------------------------------- proxy

const PROXY_VARIABLES = {
  'https:': ['HTTPS_PROXY', 'https_proxy', 'ALL_PROXY', 'all_proxy'],
  'http:': ['HTTP_PROXY', 'http_proxy', 'ALL_PROXY', 'all_proxy'],
} as const;

/** A proxy URL without its credentials or path: `proxy.example:3128`. */
export function proxyHost(value: string): string {
  try {
    const url = new URL(value.includes('://') ? value : `http://${value}`);
    return url.port ? `${url.hostname}:${url.port}` : url.hostname;
  } catch {
    return '?';
  }
}

/**
 * NO_PROXY as curl reads it: `*`, host names (a leading dot or none matches subdomains too),
 * optional `:port`.
 */
export function excludedByNoProxy(noProxy: string, hostname: string, port: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return noProxy
    .split(/[\s,]+/)
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e !== '')
    .some((entry) => {
      if (entry === '*') return true;
      const [name, entryPort] = entry.startsWith('[')
        ? [entry.slice(1, entry.indexOf(']')), entry.slice(entry.indexOf(']') + 2)]
        : (entry.split(':') as [string, string | undefined]);
      if (entryPort && entryPort !== port) return false;
      const bare = name.replace(/^\*?\./, '');
      return host === bare || host.endsWith(`.${bare}`);
    });
}

/**
 * A proxy in the environment (HTTP(S)_PROXY, ALL_PROXY, NO_PROXY). The app connects to a site
 * directly (Node's fetch does not read these variables), so a proxy only matters when the direct
 * connection failed: then the network probably allows traffic out only through it. Only the proxy's
 * host and port are reported, never its user name or password.
 */
export function checkProxy(
  probe: SiteProbe,
  env: Readonly<Record<string, string | undefined>>,
): DoctorCheck {
  const url = new URL(probe.origin);
  const names = PROXY_VARIABLES[url.protocol === 'https:' ? 'https:' : 'http:'];
  const variable = names.find((n) => (env[n] ?? '').trim() !== '');
  if (variable === undefined) return check('proxy', 'ok', 'proxyNone');
  const noProxy = env.NO_PROXY ?? env.no_proxy ?? '';
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  if (excludedByNoProxy(noProxy, url.hostname, port))
    return check('proxy', 'ok', 'proxyExcluded', { variable });
  const proxy = proxyHost(env[variable]!);
  if (probe.status === null)
    return check('proxy', 'problem', 'proxyMayBeRequired', { variable, proxy });
  return check('proxy', 'ok', 'proxyDirectOk', { variable, proxy });
}

// ---------------------------------------------------------------- loopback listener

export interface LoopbackCheckOptions {
  readonly fetch: FetchLike;
  /**
   * RFC 8252 §8.3: the literal 127.0.0.1, like the sign-in's receiver. Tests pass an address that
   * cannot bind.
   */
  readonly host?: string;
}

/**
 * The loopback listener bindable and reachable: listens exactly as the sign-in's receiver does
 * (127.0.0.1, a port the OS picks, RFC 8252 §7.3) and asks itself for a one-time value over HTTP. A
 * refusal to bind (security policy, no loopback interface) or a request that never arrives (a
 * firewall between the app and 127.0.0.1) is what keeps a browser's sign-in answer from reaching
 * the app.
 */
export async function checkLoopback(options: LoopbackCheckOptions): Promise<DoctorCheck> {
  const host = options.host ?? '127.0.0.1';
  const nonce = randomBytes(16).toString('hex');
  const server = createServer((req, res) => {
    res.writeHead(req.url === `/doctor/${nonce}` ? 200 : 404, {
      'content-type': 'text/plain',
      connection: 'close',
    });
    res.end(req.url === `/doctor/${nonce}` ? nonce : '');
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    return check('loopback', 'problem', 'loopbackBindFailed', {
      code: errorCodeIn(error) ?? 'unknown',
    });
  }
  try {
    const { port } = server.address() as AddressInfo;
    const res = await request(
      `http://${host}:${port}/doctor/${nonce}`,
      {},
      { fetch: options.fetch, timeoutMs: 5_000 },
    );
    const body = await res.text();
    if (res.status !== 200 || body !== nonce)
      return check('loopback', 'problem', 'loopbackUnreachable', { code: `HTTP ${res.status}` });
    return check('loopback', 'ok', 'loopbackOk');
  } catch (error) {
    return check('loopback', 'problem', 'loopbackUnreachable', {
      code: errorCodeIn(error) ?? 'unknown',
    });
  } finally {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
}

// ---------------------------------------------------------------- system browser

/**
 * The system browser opened (the host's openExternal succeeded) and whether the site's answer came
 * back.
 */
export function checkBrowser(attempt: SignInAttemptRecord | null): DoctorCheck {
  if (attempt === null) return check('browser', 'skipped', 'browserNoAttempt');
  switch (attempt.browser) {
    case 'not-reached':
      return check('browser', 'skipped', 'browserNotReached');
    case 'failed':
      return check('browser', 'problem', 'browserFailed');
    case 'opened':
      // Opened, no answer: the student did not finish, or the answer to 127.0.0.1 never arrived.
      if (!attempt.callbackReceived && attempt.errorCode !== null)
        return check('browser', 'warning', 'browserNoAnswer');
      return check('browser', 'ok', 'browserOpened');
    default:
      return assertNever(attempt.browser, 'browser outcome');
  }
}

// ---------------------------------------------------------------- clock

/**
 * id_token checks allow 60 s either way (auth/id-token.ts, clockTolerance): beyond that a sign-in
 * fails.
 */
const ID_TOKEN_TOLERANCE_S = 60;
/** Within this, the difference is the network's, not a clock's. */
const CLOCK_OK_S = 30;

/**
 * This computer's clock against the site's `Date` header (RFC 9110 §6.6.1): an id_token's exp, iat
 * and nbf come from the site's clock and are checked against ours with a minute's tolerance (OIDC
 * Core §3.1.3.7 rules 9-10; RFC 7519 §4.1.5 nbf). A computer ahead sees the token expired; one
 * behind sees it not yet valid wherever the site sets nbf. So beyond the tolerance it is a problem
 * either way. The header has one-second resolution; the round trip's middle is the comparison
 * point.
 */
export function checkClock(probe: SiteProbe): DoctorCheck {
  if (probe.siteDate === null) return check('clock', 'skipped', 'clockUnknown');
  // Positive: the site is ahead, i.e. this computer is behind.
  const skewS = Math.round((probe.siteDate - probe.localDate) / 1000);
  const abs = Math.abs(skewS);
  if (abs <= CLOCK_OK_S) return check('clock', 'ok', 'clockOk', { seconds: abs });
  if (abs <= ID_TOKEN_TOLERANCE_S)
    return check('clock', 'warning', 'clockSlightlyOff', { seconds: abs });
  const minutes = Math.max(1, Math.round(abs / 60));
  return check('clock', 'problem', skewS > 0 ? 'clockComputerBehind' : 'clockComputerAhead', {
    minutes,
  });
}

// ---------------------------------------------------------------- client_id still registered

/**
 * Any loopback port matches a registered loopback redirect (RFC 8252 §7.3); this one is never
 * listened on.
 */
const PROBE_REDIRECT = 'http://127.0.0.1:9/callback';

/**
 * The client_id still registered: an authorization request the way the app sends it, without a
 * browser session and never followed (redirect: manual). RFC 6749 §4.1.2.1: an unknown client is
 * told on an error page (400), never redirected; a known one is sent to the site's sign-in page, or
 * back to the redirect URI. Its state, nonce and PKCE challenge are thrown away: nothing comes back
 * to use them.
 */
export async function checkClient(
  probe: SiteProbe,
  clientId: string,
  options: { fetch: FetchLike },
): Promise<DoctorCheck> {
  const endpoint = probe.document?.authorization_endpoint;
  if (probe.status !== 200 || typeof endpoint !== 'string')
    return check('client', 'skipped', 'clientUnchecked', { clientId });
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return check('client', 'skipped', 'clientUnchecked', { clientId });
  }
  const params = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: PROBE_REDIRECT,
    scope: 'openid',
    state: randomToken(),
    nonce: randomToken(),
    code_challenge: codeChallengeS256(createCodeVerifier()),
    code_challenge_method: 'S256',
    resource: probe.origin,
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  let res: Response;
  try {
    res = await request(
      url.href,
      { headers: { accept: 'text/html' } },
      { fetch: options.fetch, timeoutMs: DOCTOR_REQUEST_TIMEOUT_MS },
    );
  } catch {
    return check('client', 'skipped', 'clientUnchecked', { clientId });
  }
  await res.body?.cancel();
  if (res.status >= 500) return check('client', 'skipped', 'clientUnchecked', { clientId });
  if (res.status === 400 || res.status === 401 || res.status === 403)
    return check('client', 'problem', 'clientUnknown', { clientId });
  const location = res.headers.get('location');
  if (res.status >= 300 && res.status < 400 && location !== null) {
    try {
      const back = new URL(location, url);
      const error = back.searchParams.get('error');
      if (
        back.href.startsWith(PROBE_REDIRECT) &&
        (error === 'invalid_client' || error === 'unauthorized_client')
      ) {
        return check('client', 'problem', 'clientUnknown', { clientId });
      }
      // RFC 8707 §2: the site will not issue tokens for its own member data to this client; a
      // sign-in then cannot reach it (auth/member-access.ts), whatever the student does.
      if (back.href.startsWith(PROBE_REDIRECT) && error === 'invalid_target') {
        return check('client', 'problem', 'clientResourceRefused', {
          clientId,
          origin: probe.origin,
        });
      }
    } catch {
      // An unreadable Location is the site's own page flow, not a verdict on the client.
    }
  }
  return check('client', 'ok', 'clientOk', { clientId });
}
