/**
 * Discovery: what a site says about itself, read and checked before anything is sent to it. RFC
 * 8414 (authorization server metadata; OIDC Discovery as the fallback document), RFC 9728
 * (protected resource metadata). The spec makes the RFC 8414 document the source of truth.
 */
import { z } from 'zod';
import { CoreError } from '../errors';
import type { Logger } from '../log';
import { silentLogger } from '../log';
import type { FetchLike } from '../net/http';
import { hostKind } from '../../common/host-kind';
import { isLoopbackHost, readJsonObject, request } from '../net/http';

export interface ServerMetadata {
  /**
   * RFC 8414 issuer: the site origin, or the server its RFC 9728 metadata names (possibly
   * on a path).
   */
  readonly issuer: string;
  /** The RFC 8707 resource for member tokens: the site origin (RFC 9728 `resource`). */
  readonly resource: string;
  readonly authorizationEndpoint: string;
  readonly tokenEndpoint: string;
  /**
   * RFC 7009; null when the site has none (then sign-out ends the sign-in on this computer only).
   */
  readonly revocationEndpoint: string | null;
  /**
   * OIDC Core §5.3; null when the site has none (the id_token or the member API's viewer
   * names the member).
   */
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
 * Normalises what the user typed into an origin: https required (http only on loopback, RFC
 * 8252 §8.3); a missing scheme means https; path, query and fragment are not allowed (the site
 * is its origin).
 */
export function normalizeBaseUrl(input: string): string {
  const trimmed = input.trim();
  if (trimmed === '')
    throw new CoreError(
      'invalid-input',
      'Enter the address of the site, e.g. https://school.example.com.',
    );
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new CoreError(
      'invalid-input',
      'That is not a web address. Enter it like https://school.example.com.',
    );
  }
  if (url.username || url.password)
    throw new CoreError(
      'invalid-input',
      'The site address must not contain a user name or password.',
    );
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new CoreError(
      'invalid-input',
      'The site address must start with https:// (plain http is only allowed for this computer).',
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new CoreError('invalid-input', 'The site address must start with https://.');
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) {
    throw new CoreError(
      'invalid-input',
      `Enter only the site's address without a path, e.g. ${url.origin}.`,
    );
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

/**
 * Reads and validates the site's metadata. `baseUrl` is normalised first. The authorization server
 * is the site's origin (its RFC 8414 or OIDC document at the origin); when the origin publishes
 * neither, the RFC 9728 document names it (`authorization_servers`), possibly on a path or another
 * host, and its metadata is read at the RFC 8414 §3.1 path-inserted well-known URL or the OIDC
 * Discovery 1.0 §4 appended one.
 */
export async function discover(baseUrl: string, options: DiscoverOptions): Promise<ServerMetadata> {
  const origin = normalizeBaseUrl(baseUrl);
  const log = (options.logger ?? silentLogger).child('discovery');
  const found = await findMetadata(origin, options, log);
  const { doc: raw, issuer: expectedIssuer, kind } = found.document;
  const m = parseMetadata(origin, raw);
  checkIssuer(origin, expectedIssuer, m);
  requireS256(origin, m);
  requireCodeFlow(origin, m);
  const checkUrl = (name: string, value: string): string =>
    checkEndpoint(origin, expectedIssuer, name, value);
  const jwksUri = m.jwks_uri ? checkUrl('jwks_uri', m.jwks_uri) : null;
  if (kind === 'rfc8414') await checkOpenIdConfiguration(origin, m, options);
  const protectedResource =
    found.protectedResource ?? (await fetchProtectedResource(origin, options, log));
  checkTrustedServer(origin, m, protectedResource);
  const idTokenAlgs = m.id_token_signing_alg_values_supported ?? [];
  const meta: ServerMetadata = {
    issuer: m.issuer,
    resource: origin,
    authorizationEndpoint: checkUrl('authorization_endpoint', m.authorization_endpoint),
    tokenEndpoint: checkUrl('token_endpoint', m.token_endpoint),
    // Optional (RFC 8414 §2): without one, signing out ends the sign-in on this computer only (the
    // site-manager says so).
    revocationEndpoint: m.revocation_endpoint
      ? checkUrl('revocation_endpoint', m.revocation_endpoint)
      : null,
    // Optional: a verified id_token carries the profile, and the member API's viewer names
    // the member otherwise.
    userinfoEndpoint: m.userinfo_endpoint
      ? checkUrl('userinfo_endpoint', m.userinfo_endpoint)
      : null,
    jwksUri,
    idTokenSigningAlgs: idTokenAlgs,
    authorizationResponseIssParameterSupported:
      m.authorization_response_iss_parameter_supported === true,
    scopesSupported: m.scopes_supported ?? null,
    tokenEndpointAuthMethods: m.token_endpoint_auth_methods_supported ?? null,
    resourceName: protectedResource?.resourceName ?? null,
  };
  if (idTokenAlgs.length > 0 && meta.jwksUri === null) {
    throw new CoreError(
      'discovery-invalid',
      `${origin} signs ID tokens but publishes no keys (jwks_uri).`,
    );
  }
  log.info('discovery ok', {
    issuer: meta.issuer,
    idTokens: idTokenAlgs.length > 0,
    revocation: meta.revocationEndpoint !== null,
    userinfo: meta.userinfoEndpoint !== null,
  });
  return meta;
}

type Metadata = z.infer<typeof metadataSchema>;
type FoundDocument = NonNullable<Awaited<ReturnType<typeof fetchMetadataDocument>>>;

/**
 * The metadata document: the origin's own, else the first one the RFC 9728 document's
 * `authorization_servers` name (that document is kept, so it is not read twice).
 */
async function findMetadata(
  origin: string,
  options: DiscoverOptions,
  log: Logger,
): Promise<{ document: FoundDocument; protectedResource: ProtectedResource | null }> {
  const own = await fetchMetadataDocument(origin, origin, options);
  if (own !== null) return { document: own, protectedResource: null };
  const protectedResource = await fetchProtectedResource(origin, options, log);
  for (const server of protectedResource?.servers.slice(0, MAX_AUTHORIZATION_SERVERS) ?? []) {
    const issuer = checkIssuerUrl(origin, server);
    if (issuer === null) continue;
    const document = await fetchMetadataDocument(origin, issuer, options);
    if (document !== null) return { document, protectedResource };
  }
  throw new CoreError(
    'discovery-invalid',
    `${origin} does not publish a sign-in description. Is this the right address?`,
  );
}

function parseMetadata(origin: string, raw: unknown): Metadata {
  const parsed = metadataSchema.safeParse(raw);
  if (!parsed.success) {
    throw new CoreError(
      'discovery-invalid',
      `${origin} does not describe a usable sign-in service (required fields are missing).`,
      {
        problem: parsed.error.issues.map((i) => i.path.join('.')).join(', '),
      },
    );
  }
  return parsed.data;
}

/**
 * RFC 8414 §3.3: the issuer in the document must be identical to the one it was fetched
 * for (mix-up defence).
 */
function checkIssuer(origin: string, expectedIssuer: string, m: Metadata): void {
  if (!acceptedIssuers(origin, expectedIssuer).includes(m.issuer)) {
    throw new CoreError(
      'discovery-invalid',
      `${origin} names a different issuer (${m.issuer}); it cannot be trusted for sign-in.`,
    );
  }
}

/**
 * RFC 7636 §4.2 / RFC 9700 §2.1.1: only S256. A server that does not list it is refused
 * rather than downgraded.
 */
function requireS256(origin: string, m: Metadata): void {
  if (!m.code_challenge_methods_supported?.includes('S256')) {
    throw new CoreError(
      'pkce-unsupported',
      `${origin} does not support PKCE with S256, which this app requires for a safe sign-in.`,
    );
  }
}

/**
 * RFC 8414 §2 response_types_supported: the authorization code flow (RFC 6749 §4.1) is the
 * only one used.
 */
function requireCodeFlow(origin: string, m: Metadata): void {
  if (m.response_types_supported && !m.response_types_supported.includes('code')) {
    throw new CoreError(
      'discovery-invalid',
      `${origin} does not offer the authorization code flow.`,
    );
  }
}

/**
 * RFC 9728 §7.6: the resource names the servers it trusts; one it does not name is not its sign-in
 * server (the two spellings of the typed origin name the same one).
 */
function checkTrustedServer(
  origin: string,
  m: Metadata,
  protectedResource: ProtectedResource | null,
): void {
  const origins = acceptedIssuers(origin, origin);
  const sameServer = (named: string) =>
    named === m.issuer || (origins.includes(named) && origins.includes(m.issuer));
  if (
    protectedResource !== null &&
    protectedResource.listed &&
    !protectedResource.servers.some(sameServer)
  ) {
    throw new CoreError(
      'discovery-invalid',
      `${origin} does not list its own sign-in server as trusted.`,
    );
  }
}

/**
 * The issuer values a document fetched for `expected` may name. For the origin the student typed,
 * both `origin` and `origin + "/"` (an origin's URL has the path "/" either way, and some providers
 * write their issuer so, as openid-client accepts); nothing else: no second slash, no path, no
 * other case. Whichever the document names is then the issuer, compared byte for byte with the
 * callback's `iss` (RFC 9207 §2.4) and the id_token's (OIDC Core §3.1.3.7 rule 2).
 */
function acceptedIssuers(origin: string, expected: string): readonly string[] {
  return expected === origin ? [origin, `${origin}/`] : [expected];
}

/** At most this many RFC 9728 authorization servers are tried: the list is the site's data. */
const MAX_AUTHORIZATION_SERVERS = 3;

/**
 * An endpoint the site names: a URL without credentials or fragment, https (plain http only on
 * loopback, RFC 8252 §8.3), and on the student's own computer or private network only when the
 * issuer itself is there (a site on the Internet must not point the app, or the browser it opens,
 * at local services).
 */
function checkEndpoint(origin: string, issuer: string, name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CoreError('discovery-invalid', `${origin} gave an invalid ${name}.`);
  }
  if (url.username || url.password)
    throw new CoreError(
      'discovery-invalid',
      `${origin} gave a ${name} with a user name or password in it.`,
    );
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    throw new CoreError('discovery-invalid', `${origin} gave a ${name} that is not https.`);
  }
  if (url.hash)
    throw new CoreError('discovery-invalid', `${origin} gave a ${name} with a fragment.`);
  const kind = hostKind(url.hostname);
  if (kind !== 'public' && hostKind(new URL(issuer).hostname) === 'public') {
    throw new CoreError(
      'discovery-invalid',
      `${origin} gave a ${name} on this computer or its local network; a site on the Internet may not do that.`,
    );
  }
  return url.href;
}

/**
 * An issuer named by RFC 9728 `authorization_servers`, checked like an endpoint (RFC 8414 §2: no
 * query or fragment).
 */
function checkIssuerUrl(origin: string, value: string): string | null {
  try {
    const url = new URL(checkEndpoint(origin, origin, 'authorization server', value));
    return url.search === '' && url.hash === '' ? value : null;
  } catch {
    return null;
  }
}

/**
 * When the RFC 8414 document was found, the OIDC Discovery document (if any) must describe the same
 * issuer and keys: two documents that disagree mean a misconfigured or tampered site (OIDC
 * Discovery 1.0 §4.3).
 */
async function checkOpenIdConfiguration(
  origin: string,
  m: z.infer<typeof metadataSchema>,
  options: DiscoverOptions,
): Promise<void> {
  const res = await request(
    openIdConfigurationUrl(m.issuer),
    { headers: { accept: 'application/json' } },
    options,
  );
  if (res.status !== 200) {
    await res.body?.cancel();
    return;
  }
  const oidc = await readJsonObject(
    res,
    'discovery-invalid',
    `${origin} published an invalid OpenID configuration.`,
  );
  if (oidc.issuer !== m.issuer)
    throw new CoreError(
      'discovery-invalid',
      `${origin} describes two different issuers in its sign-in documents.`,
    );
  if (m.jwks_uri !== undefined && oidc.jwks_uri !== undefined && oidc.jwks_uri !== m.jwks_uri) {
    throw new CoreError(
      'discovery-invalid',
      `${origin} publishes two different signing key locations.`,
    );
  }
}

/** RFC 8414 §3.1: the well-known segment goes between the host and the issuer's path. */
function authorizationServerMetadataUrl(issuer: string): string {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  return `${url.origin}/.well-known/oauth-authorization-server${path}`;
}

/** OIDC Discovery 1.0 §4: the well-known path is appended to the issuer. */
function openIdConfigurationUrl(issuer: string): string {
  return `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
}

async function fetchMetadataDocument(
  origin: string,
  issuer: string,
  options: DiscoverOptions,
): Promise<{ doc: Record<string, unknown>; issuer: string; kind: 'rfc8414' | 'oidc' } | null> {
  // RFC 8414 §3.1 first (the source of truth per the spec); OIDC Discovery 1.0 §4 as
  // the fallback document.
  for (const [kind, url] of [
    ['rfc8414', authorizationServerMetadataUrl(issuer)],
    ['oidc', openIdConfigurationUrl(issuer)],
  ] as const) {
    const res = await request(url, { headers: { accept: 'application/json' } }, options);
    if (res.status === 404) {
      await res.body?.cancel();
      continue;
    }
    if (res.status >= 500) {
      await res.body?.cancel();
      throw new CoreError(
        'site-unreachable',
        `${origin} is having problems right now (HTTP ${res.status}). Try again later.`,
      );
    }
    if (res.status !== 200) {
      await res.body?.cancel();
      throw new CoreError(
        'discovery-invalid',
        `${origin} answered its sign-in description with HTTP ${res.status}.`,
      );
    }
    return {
      doc: await readJsonObject(
        res,
        'discovery-invalid',
        `${origin} did not return a valid sign-in description.`,
      ),
      issuer,
      kind,
    };
  }
  return null;
}

interface ProtectedResource {
  readonly resourceName: string | null;
  /** RFC 9728 `authorization_servers` (empty when not listed). */
  readonly servers: readonly string[];
  readonly listed: boolean;
}

/**
 * RFC 9728: the protected resource names its resource identifier (the origin, per the spec) and
 * which authorization servers issue tokens for it. Optional: a site that does not publish it
 * gets the origin.
 */
async function fetchProtectedResource(
  origin: string,
  options: DiscoverOptions,
  log: Logger,
): Promise<ProtectedResource | null> {
  const res = await request(
    `${origin}/.well-known/oauth-protected-resource`,
    { headers: { accept: 'application/json' } },
    options,
  );
  if (res.status !== 200) {
    await res.body?.cancel();
    log.debug('no protected resource metadata; using the origin as resource', {
      status: res.status,
    });
    return null;
  }
  const parsed = resourceSchema.safeParse(
    await readJsonObject(
      res,
      'discovery-invalid',
      `${origin} published invalid resource metadata.`,
    ),
  );
  if (!parsed.success)
    throw new CoreError('discovery-invalid', `${origin} published invalid resource metadata.`);
  const resource = parsed.data.resource.replace(/\/$/, '');
  // RFC 9728 §3.3: the resource value must be identical to the URL the metadata was fetched for.
  if (resource !== origin)
    throw new CoreError(
      'discovery-invalid',
      `${origin} says its resource is ${parsed.data.resource}, not itself.`,
    );
  // Display text only: strip control characters.
  const name = parsed.data.resource_name?.replace(/[^\P{C}]/gu, '').trim();
  const servers = parsed.data.authorization_servers;
  return {
    resourceName: name ? name : null,
    servers: servers ?? [],
    listed: servers !== undefined,
  };
}
