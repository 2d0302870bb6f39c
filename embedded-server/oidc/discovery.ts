import type { Route, ServerContext } from '../http/types';
import { NotFoundError } from '../http/errors';
import { sendJson } from '../http/respond';
import { ALL_SCOPES, MEMBER_CLIENT_SCOPES } from '../oauth/scopes';
import {
  PATHS,
  publishesJwks,
  REGISTRATION_POLICY_KEY,
  registrationPolicy,
  signsIdTokens,
} from '../oauth/settings';
import { ID_TOKEN_ALG } from './keys';

/** Claims UserInfo and the id_token carry (spec "id_token claims"). */
export const CLAIMS_SUPPORTED = [
  'sub',
  'iss',
  'aud',
  'exp',
  'iat',
  'nonce',
  'auth_time',
  'email',
  'name',
  'picture',
  'org_id',
  'roles',
];

/** RFC 8414 Authorization Server Metadata: the source of truth (spec "Discovery documents"). */
export function authorizationServerMetadata(server: ServerContext): Record<string, unknown> {
  const base = server.baseUrl;
  const meta: Record<string, unknown> = {
    issuer: base,
    authorization_endpoint: base + PATHS.authorize,
    token_endpoint: base + PATHS.token,
    userinfo_endpoint: base + PATHS.userinfo,
    revocation_endpoint: base + PATHS.revoke,
    registration_endpoint: base + PATHS.register,
    scopes_supported: ALL_SCOPES,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none', 'client_secret_post'],
    revocation_endpoint_auth_methods_supported: ['none', 'client_secret_post'],
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: true,
    // Spec Authentication 6: the metadata settles whether registration is allowlist-only or also
    // open to any loopback client; /api/oauth/register follows the same setting, so the two never
    // disagree.
    [REGISTRATION_POLICY_KEY]: registrationPolicy(server),
    service_documentation: `${base}/auth.md`,
  };
  // Spec: jwks_uri may be published before signing starts, so jwks_uri alone does not promise an
  // id_token.
  if (publishesJwks(server)) meta.jwks_uri = base + PATHS.jwks;
  if (signsIdTokens(server)) meta.id_token_signing_alg_values_supported = [ID_TOKEN_ALG];
  return meta;
}

/**
 * OpenID Connect Discovery 1.0 §3: the same facts plus the OIDC-only members. Only while id_tokens
 * are signed:
 * §3 makes `jwks_uri` and `id_token_signing_alg_values_supported` REQUIRED, and the spec makes
 * listing both the promise of an id_token, so in the other modes no OpenID configuration could be
 * both complete and true. There the document is not served (404) and the RFC 8414 metadata, the
 * source of truth, says what the site does.
 */
export function openidConfiguration(server: ServerContext): Record<string, unknown> {
  if (!signsIdTokens(server))
    throw new NotFoundError(
      'no OpenID configuration: this site signs no id_token in its current mode',
    );
  return {
    ...authorizationServerMetadata(server),
    subject_types_supported: ['public'],
    claims_supported: CLAIMS_SUPPORTED,
    claims_parameter_supported: false,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
  };
}

/** RFC 9728 Protected Resource Metadata. The resource is the origin (spec Authentication 3). */
export function protectedResourceMetadata(server: ServerContext): Record<string, unknown> {
  return {
    resource: server.baseUrl,
    authorization_servers: [server.baseUrl],
    scopes_supported: ALL_SCOPES,
    bearer_methods_supported: ['header'],
    resource_name: server.site.name,
    resource_documentation: `${server.baseUrl}/auth.md`,
  };
}

/**
 * RFC 9728 §3.1 metadata of /mcp (clients such as the MCP SDK look here first, before the origin's
 * document). It lists only the scopes a client can be granted for /mcp's member tools, so a client
 * that asks for every listed scope (MCP's scope selection) asks for what a member client may hold.
 * `resource` stays the origin: member tokens are bound to the origin and the same token serves /mcp
 * and /member/graphql (spec Authentication 3), where RFC 9728 §3.3 alone would name /mcp (decision,
 * README "/mcp").
 */
export function mcpProtectedResourceMetadata(server: ServerContext): Record<string, unknown> {
  return {
    ...protectedResourceMetadata(server),
    scopes_supported: MEMBER_CLIENT_SCOPES,
    resource_name: `${server.site.name} (MCP)`,
    resource_documentation: `${server.baseUrl}/auth.md#mcp-assistants`,
  };
}

const json =
  (build: (s: ServerContext) => unknown): Route['handler'] =>
  (ctx) => {
    const body = build(ctx.server);
    ctx.res.setHeader('Cache-Control', 'public, max-age=300');
    // Public documents: browser-based clients (e.g. MCP inspectors) may read them cross-origin.
    ctx.res.setHeader('Access-Control-Allow-Origin', '*');
    sendJson(ctx.res, 200, body);
  };

export const discoveryRoutes: Route[] = [
  {
    method: 'GET',
    path: PATHS.authorizationServerMetadata,
    handler: json(authorizationServerMetadata),
  },
  { method: 'GET', path: PATHS.openidConfiguration, handler: json(openidConfiguration) },
  {
    method: 'GET',
    path: PATHS.protectedResourceMetadata,
    handler: json(protectedResourceMetadata),
  },
  {
    method: 'GET',
    path: PATHS.mcpProtectedResourceMetadata,
    handler: json(mcpProtectedResourceMetadata),
  },
];
