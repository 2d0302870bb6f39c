/**
 * Discovery: what a site says about itself, read and checked before anything is sent to it.
 * RFC 8414 (authorization server metadata; OIDC Discovery as the fallback document), RFC 9728 (protected
 * resource metadata). The spec makes the RFC 8414 document the source of truth.
 */
import { z } from 'zod';
import { CoreError } from '../errors';
import type { Logger } from '../log';
import { silentLogger } from '../log';
import type { FetchLike } from '../net/http';
import { isLoopbackHost, readJsonObject, request } from '../net/http';

export interface ServerMetadata {
  /** RFC 8414 issuer; equals the site origin. */
  readonly issuer: string;
  /** The RFC 8707 resource for member tokens: the site origin (RFC 9728 `resource`). */
  readonly resource: string;
  readonly authorizationEndpoint: string;
  readonly tokenEndpoint: string;
  /** Required by discovery; nullable only for records saved by other code paths. */
  readonly revocationEndpoint: string | null;
  /** Required by discovery; nullable only for records saved by other code paths. */
  readonly userinfoEndpoint: string | null;
  readonly jwksUri: string | null;
  readonly idTokenSigningAlgs: readonly string[];
  /** RFC 9207 §3: the server always sends `iss` in the authorization response. */
  readonly authorizationResponseIssParameterSupported: boolean;
  readonly scopesSupported: readonly string[] | null;
  readonly tokenEndpointAuthMethods: readonly string[] | null;
  /** RFC 9728 resource_name: the site's display name, when it publishes one. */
  readonly resourceName: string | null;
}

/**
 * Normalises what the user typed into an origin: https required (http only on loopback, RFC 8252 §8.3);
 * a missing scheme means https; path, query and fragment are not allowed (the site is its origin).
 */
export function normalizeBaseUrl(input: string): string {
  const trimmed = input.trim();
  if (trimmed === '') throw new CoreError('invalid-input', 'Enter the address of the site, e.g. https://school.example.com.');
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new CoreError('invalid-input', 'That is not a web address. Enter it like https://school.example.com.');
  }
  if (url.username || url.password) throw new CoreError('invalid-input', 'The site address must not contain a user name or password.');
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new CoreError('invalid-input', 'The site address must start with https:// (plain http is only allowed for this computer).');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new CoreError('invalid-input', 'The site address must start with https://.');
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) {
    throw new CoreError('invalid-input', `Enter only the site's address without a path, e.g. ${url.origin}.`);
  }
  return url.origin;
}

const endpoint = z.string().min(1).max(2048);
const metadataSchema = z.looseObject({
  issuer: z.string().min(1),
  authorization_endpoint: endpoint,
  token_endpoint: endpoint,
  revocation_endpoint: endpoint.optional(),
  userinfo_endpoint: endpoint.optional(),
  jwks_uri: endpoint.optional(),
  id_token_signing_alg_values_supported: z.array(z.string()).optional(),
  code_challenge_methods_supported: z.array(z.string()).optional(),
  authorization_response_iss_parameter_supported: z.boolean().optional(),
  scopes_supported: z.array(z.string()).optional(),
  token_endpoint_auth_methods_supported: z.array(z.string()).optional(),
  response_types_supported: z.array(z.string()).optional(),
});

const resourceSchema = z.looseObject({
  resource: z.string().min(1),
  resource_name: z.string().max(200).optional(),
  authorization_servers: z.array(z.string()).optional(),
});

export interface DiscoverOptions {
  readonly fetch: FetchLike;
  readonly logger?: Logger;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

/** Reads and validates the site's metadata. `baseUrl` is normalised first. */
export async function discover(baseUrl: string, options: DiscoverOptions): Promise<ServerMetadata> {
  const origin = normalizeBaseUrl(baseUrl);
  const log = (options.logger ?? silentLogger).child('discovery');
  const { doc: raw, path } = await fetchMetadataDocument(origin, options);
  const parsed = metadataSchema.safeParse(raw);
  if (!parsed.success) {
    throw new CoreError('discovery-invalid', `${origin} does not describe a usable sign-in service (required fields are missing).`, {
      problem: parsed.error.issues.map((i) => i.path.join('.')).join(', '),
    });
  }
  const m = parsed.data;
  // RFC 8414 §3.3: the issuer in the document must be identical to the one it was fetched for (mix-up defence).
  if (m.issuer !== origin) {
    throw new CoreError('discovery-invalid', `${origin} names a different issuer (${m.issuer}); it cannot be trusted for sign-in.`);
  }
  // RFC 7636 §4.2 / RFC 9700 §2.1.1: only S256. A server that does not list it is refused rather than downgraded.
  if (!m.code_challenge_methods_supported?.includes('S256')) {
    throw new CoreError('pkce-unsupported', `${origin} does not support PKCE with S256, which this app requires for a safe sign-in.`);
  }
  if (m.response_types_supported && !m.response_types_supported.includes('code')) {
    throw new CoreError('discovery-invalid', `${origin} does not offer the authorization code flow.`);
  }
  const checkUrl = (name: string, value: string): string => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new CoreError('discovery-invalid', `${origin} gave an invalid ${name}.`);
    }
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
      throw new CoreError('discovery-invalid', `${origin} gave a ${name} that is not https.`);
    }
    if (url.hash) throw new CoreError('discovery-invalid', `${origin} gave a ${name} with a fragment.`);
    return url.href;
  };
  const idTokenAlgs = m.id_token_signing_alg_values_supported ?? [];
  const jwksUri = m.jwks_uri ? checkUrl('jwks_uri', m.jwks_uri) : null;
  if (path === RFC8414_PATH) await checkOpenIdConfiguration(origin, m, options);
  const { resource, resourceName } = await fetchProtectedResource(origin, m.issuer, options, log);
  const meta: ServerMetadata = {
    issuer: m.issuer,
    resource,
    authorizationEndpoint: checkUrl('authorization_endpoint', m.authorization_endpoint),
    tokenEndpoint: checkUrl('token_endpoint', m.token_endpoint),
    revocationEndpoint: m.revocation_endpoint ? checkUrl('revocation_endpoint', m.revocation_endpoint) : null,
    userinfoEndpoint: m.userinfo_endpoint ? checkUrl('userinfo_endpoint', m.userinfo_endpoint) : null,
    jwksUri,
    idTokenSigningAlgs: idTokenAlgs,
    authorizationResponseIssParameterSupported: m.authorization_response_iss_parameter_supported === true,
    scopesSupported: m.scopes_supported ?? null,
    tokenEndpointAuthMethods: m.token_endpoint_auth_methods_supported ?? null,
    resourceName,
  };
  // Spec: sign-out is a revocation with the refresh token (RFC 7009), so a site without one cannot sign out.
  if (meta.revocationEndpoint === null) {
    throw new CoreError('discovery-invalid', `${origin} offers no way to end a sign-in (no revocation endpoint), so this app cannot sign you out there.`);
  }
  // Spec: "jwks_uri alone does not imply an id_token will be returned. UserInfo is the fallback."
  if (meta.userinfoEndpoint === null) {
    throw new CoreError('discovery-invalid', `${origin} offers no UserInfo endpoint, so your profile cannot be read.`);
  }
  if (idTokenAlgs.length > 0 && meta.jwksUri === null) {
    throw new CoreError('discovery-invalid', `${origin} signs ID tokens but publishes no keys (jwks_uri).`);
  }
  log.info('discovery ok', { issuer: meta.issuer, idTokens: idTokenAlgs.length > 0, revocation: meta.revocationEndpoint !== null });
  return meta;
}

/**
 * When the RFC 8414 document was found, the OIDC Discovery document (if any) must describe the same issuer and
 * keys: two documents that disagree mean a misconfigured or tampered site (OIDC Discovery 1.0 §4.3).
 */
async function checkOpenIdConfiguration(origin: string, m: z.infer<typeof metadataSchema>, options: DiscoverOptions): Promise<void> {
  const res = await request(`${origin}/.well-known/openid-configuration`, { headers: { accept: 'application/json' } }, options);
  if (res.status !== 200) {
    await res.body?.cancel();
    return;
  }
  const oidc = await readJsonObject(res, 'discovery-invalid', `${origin} published an invalid OpenID configuration.`);
  if (oidc.issuer !== m.issuer) throw new CoreError('discovery-invalid', `${origin} describes two different issuers in its sign-in documents.`);
  if (m.jwks_uri !== undefined && oidc.jwks_uri !== undefined && oidc.jwks_uri !== m.jwks_uri) {
    throw new CoreError('discovery-invalid', `${origin} publishes two different signing key locations.`);
  }
}

const RFC8414_PATH = '/.well-known/oauth-authorization-server';

async function fetchMetadataDocument(origin: string, options: DiscoverOptions): Promise<{ doc: Record<string, unknown>; path: string }> {
  // RFC 8414 §3.1 first (the source of truth per the spec); OIDC Discovery 1.0 §4 as the fallback document.
  for (const path of [RFC8414_PATH, '/.well-known/openid-configuration']) {
    const res = await request(`${origin}${path}`, { headers: { accept: 'application/json' } }, options);
    if (res.status === 404) {
      await res.body?.cancel();
      continue;
    }
    if (res.status >= 500) {
      await res.body?.cancel();
      throw new CoreError('site-unreachable', `${origin} is having problems right now (HTTP ${res.status}). Try again later.`);
    }
    if (res.status !== 200) {
      await res.body?.cancel();
      throw new CoreError('discovery-invalid', `${origin} answered its sign-in description with HTTP ${res.status}.`);
    }
    return { doc: await readJsonObject(res, 'discovery-invalid', `${origin} did not return a valid sign-in description.`), path };
  }
  throw new CoreError('discovery-invalid', `${origin} does not publish a sign-in description. Is this the right address?`);
}

/**
 * RFC 9728: the protected resource names its resource identifier (the origin, per the spec) and which
 * authorization servers issue tokens for it. Optional: a site that does not publish it gets the origin.
 */
async function fetchProtectedResource(
  origin: string,
  issuer: string,
  options: DiscoverOptions,
  log: Logger,
): Promise<{ resource: string; resourceName: string | null }> {
  const res = await request(`${origin}/.well-known/oauth-protected-resource`, { headers: { accept: 'application/json' } }, options);
  if (res.status !== 200) {
    await res.body?.cancel();
    log.debug('no protected resource metadata; using the origin as resource', { status: res.status });
    return { resource: origin, resourceName: null };
  }
  const parsed = resourceSchema.safeParse(await readJsonObject(res, 'discovery-invalid', `${origin} published invalid resource metadata.`));
  if (!parsed.success) throw new CoreError('discovery-invalid', `${origin} published invalid resource metadata.`);
  const resource = parsed.data.resource.replace(/\/$/, '');
  // RFC 9728 §3.3: the resource value must be identical to the URL the metadata was fetched for.
  if (resource !== origin) throw new CoreError('discovery-invalid', `${origin} says its resource is ${parsed.data.resource}, not itself.`);
  const servers = parsed.data.authorization_servers;
  if (servers && !servers.includes(issuer)) {
    throw new CoreError('discovery-invalid', `${origin} does not list its own sign-in server as trusted.`);
  }
  // Display text only: strip control characters.
  const name = parsed.data.resource_name?.replace(/[^\P{C}]/gu, '').trim();
  return { resource: origin, resourceName: name ? name : null };
}
