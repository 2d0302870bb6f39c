import { z, type ZodType } from 'zod';
import type { Route } from '../http/types';
import { PATHS } from '../oauth/settings';
import { ALL_SCOPES, OPERATOR_SCOPES } from '../oauth/scopes';
import { ADMIN_JSON_LIMIT, adminRouteExtra } from './handler';

/**
 * /openapi.json (OpenAPI 3.1) from the admin route table, plus the OAuth/OIDC REST endpoints described here
 * (their routes carry no `openapi` metadata). The member GraphQL API is not described (spec: REST only).
 */

type Json = Record<string, unknown>;

function jsonSchema(schema: ZodType, io: 'input' | 'output'): Json {
  const s = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
  delete s['$schema'];
  return s;
}

const ERROR_REF = { $ref: '#/components/schemas/Error' };
const errorResponse = (description: string): Json => ({ description, content: { 'application/json': { schema: ERROR_REF } } });

const toOpenApiPath = (path: string): string => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
const pathParams = (path: string): Json[] =>
  [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));

function queryParams(schema: ZodType | undefined): Json[] {
  if (!schema) return [];
  const js = jsonSchema(schema, 'output');
  const props = (js['properties'] ?? {}) as Record<string, Json>;
  const shape = (schema as unknown as { shape?: Record<string, ZodType> }).shape ?? {};
  return Object.entries(props).map(([name, s]) => ({
    name,
    in: 'query',
    // Optional or defaulted fields may be left out of the query string.
    required: shape[name] ? !shape[name]!.safeParse(undefined).success : false,
    schema: s,
  }));
}

function adminOperation(route: Route): Json {
  const meta = route.openapi!;
  const extra = adminRouteExtra(route);
  const success = String(extra?.successStatus ?? 200);
  const responses: Json = {
    [success]:
      success === '204'
        ? { description: 'Done; no content.' }
        : { description: 'Success.', ...(meta.response ? { content: { 'application/json': { schema: jsonSchema(meta.response, 'output') } } } : {}) },
    '400': errorResponse('invalid_request: the query or body failed validation (details lists each problem).'),
    '401': errorResponse('invalid_token: missing, invalid, expired or foreign token (WWW-Authenticate names the protected resource metadata).'),
    '403': errorResponse(`insufficient_scope: the token is not an operator token holding ${meta.scopes.join(' ')}.`),
    '404': errorResponse('not_found.'),
  };
  // Every status a route can answer is declared: 409 where the route throws conflict(), 413 where it reads a body.
  if (extra?.conflicts) responses['409'] = errorResponse(`conflict: ${extra.conflicts}.`);
  if (extra?.rawBody) responses['413'] = errorResponse('payload_too_large: the upload is over its size limit.');
  else if (meta.body) responses['413'] = errorResponse(`invalid_request: the JSON body is over ${ADMIN_JSON_LIMIT} bytes.`);
  const op: Json = {
    operationId: meta.operationId,
    summary: meta.summary,
    tags: meta.tags,
    security: [{ oauth2: meta.scopes }],
    parameters: [...pathParams(route.path), ...queryParams(meta.query)],
    responses,
  };
  if (extra?.rawBody)
    op['requestBody'] = { required: true, content: { '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } } };
  else if (meta.body) op['requestBody'] = { required: true, content: { 'application/json': { schema: jsonSchema(meta.body, 'input') } } };
  return op;
}

const form = (properties: Record<string, Json>, required: string[]): Json => ({
  required: true,
  content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties, required } } },
});
const str = { type: 'string' };
const oauthError = {
  description: 'OAuth error (RFC 6749 §5.2).',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/OAuthError' } } },
};
const jsonDoc = (description: string): Json => ({ description, content: { 'application/json': { schema: { type: 'object' } } } });

/** The OAuth and OpenID Connect REST endpoints (spec "Endpoints"), described by hand. */
function oauthPaths(): Record<string, Record<string, Json>> {
  return {
    [PATHS.protectedResourceMetadata]: {
      get: {
        operationId: 'getProtectedResourceMetadata',
        summary: 'Protected Resource Metadata (RFC 9728)',
        tags: ['discovery'],
        security: [],
        responses: { '200': jsonDoc('Metadata.') },
      },
    },
    [PATHS.authorizationServerMetadata]: {
      get: {
        operationId: 'getAuthorizationServerMetadata',
        summary: 'Authorization Server Metadata (RFC 8414), the source of truth',
        tags: ['discovery'],
        security: [],
        responses: { '200': jsonDoc('Metadata.') },
      },
    },
    [PATHS.openidConfiguration]: {
      get: {
        operationId: 'getOpenIdConfiguration',
        summary: 'OpenID Connect Discovery',
        tags: ['discovery'],
        security: [],
        responses: { '200': jsonDoc('Metadata.') },
      },
    },
    [PATHS.jwks]: {
      get: {
        operationId: 'getJwks',
        summary: 'JSON Web Key Set of the id_token signing keys',
        tags: ['discovery'],
        security: [],
        responses: { '200': jsonDoc('JWKS.'), '404': oauthError },
      },
    },
    [PATHS.authorize]: {
      get: {
        operationId: 'authorize',
        summary: 'Authorization endpoint (Authorization Code with PKCE S256); redirects to redirect_uri with code, state and iss',
        tags: ['oauth'],
        security: [],
        parameters: ['response_type', 'client_id', 'redirect_uri', 'scope', 'code_challenge', 'code_challenge_method', 'state']
          .map((name) => ({ name, in: 'query', required: true, schema: str }))
          .concat(['resource', 'nonce'].map((name) => ({ name, in: 'query', required: false, schema: str }))),
        responses: {
          '302': { description: 'Redirect to the sign-in page or back to redirect_uri.' },
          '303': { description: 'Redirect.' },
          '400': oauthError,
        },
      },
    },
    [PATHS.token]: {
      post: {
        operationId: 'token',
        summary: 'Token endpoint: authorization_code and refresh_token grants',
        tags: ['oauth'],
        security: [],
        requestBody: form(
          {
            grant_type: { type: 'string', enum: ['authorization_code', 'refresh_token'] },
            code: str,
            redirect_uri: str,
            client_id: str,
            client_secret: str,
            code_verifier: str,
            resource: str,
            refresh_token: str,
          },
          ['grant_type'],
        ),
        responses: {
          '200': {
            description: 'Token response with school_id, school_subdomain, created_at and, on code exchange with openid, id_token.',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/TokenResponse' } } },
          },
          '400': oauthError,
          '401': oauthError,
        },
      },
    },
    [PATHS.userinfo]: {
      get: {
        operationId: 'userinfo',
        summary: 'UserInfo: sub, email, name, picture, org_id, roles',
        // README decision 13: any valid token bound to this origin and school, member or operator; `openid` is
        // not required, so no scope is listed (OpenAPI 3.1 §4.8.30: an empty list = no particular scope).
        description:
          'Accepts any valid access token bound to this origin and school; no particular scope (openid is not required). Claims are not filtered by scope.',
        tags: ['oidc'],
        security: [{ oauth2: [] }],
        responses: { '200': jsonDoc('Claims.'), '401': oauthError },
      },
    },
    [PATHS.revoke]: {
      post: {
        operationId: 'revoke',
        summary: 'Revocation (RFC 7009): posting the refresh token ends the session',
        tags: ['oauth'],
        security: [],
        requestBody: form({ token: str, token_type_hint: str, client_id: str, client_secret: str }, ['token']),
        responses: { '200': { description: 'Revoked, or nothing to revoke.' }, '400': oauthError, '403': oauthError },
      },
    },
    [PATHS.register]: {
      post: {
        operationId: 'register',
        summary: 'Operator client registration: allowlisted vendor platforms and loopback redirect URIs',
        tags: ['oauth'],
        security: [],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  client_name: str,
                  application_type: str,
                  redirect_uris: { type: 'array', items: str },
                  token_endpoint_auth_method: { type: 'string', enum: ['none', 'client_secret_post'] },
                },
                required: ['client_name', 'redirect_uris'],
              },
            },
          },
        },
        responses: { '201': jsonDoc('Client with client_id.'), '200': jsonDoc('The allowlisted platform client.'), '400': oauthError },
      },
    },
    '/openapi.json': {
      get: {
        operationId: 'getOpenApi',
        summary: 'This description',
        tags: ['docs'],
        security: [],
        responses: { '200': jsonDoc('OpenAPI 3.1 document.') },
      },
    },
    '/auth.md': {
      get: {
        operationId: 'getAuthWalkthrough',
        summary: 'Authorization walkthrough',
        tags: ['docs'],
        security: [],
        responses: { '200': { description: 'Markdown.', content: { 'text/markdown': { schema: str } } } },
      },
    },
  };
}

const SCOPE_TEXT: Record<string, string> = {
  openid: 'OpenID Connect authentication',
  profile: 'Basic profile information',
  email: 'Email address',
  'account:read': "Read the member's own data (member audience only)",
  'account:write': 'Write account data (three notification mutations)',
  'analytics:read': 'Read analytics',
  'orders:read': 'Read orders',
  'comments:read': 'Read comments',
  'forms:read': 'Read forms',
  'storage:write': 'Write storage',
};
const scopeText = (s: string): string => SCOPE_TEXT[s] ?? `${s.endsWith(':read') ? 'Read' : 'Write'} the ${s.split(':')[0]!.replace(/_/g, ' ')} area`;

export function buildOpenApi(baseUrl: string, adminRoutes: readonly Route[]): Json {
  const paths: Record<string, Record<string, Json>> = oauthPaths();
  for (const route of adminRoutes) {
    if (!route.openapi) continue;
    const p = toOpenApiPath(route.path);
    paths[p] ??= {};
    paths[p]![route.method.toLowerCase()] = adminOperation(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Learning site REST API',
      version: '1.0.0',
      description: 'OAuth 2.0 / OpenID Connect endpoints and the operator admin API. The member GraphQL API (/member/graphql) is not described here.',
    },
    servers: [{ url: baseUrl }],
    security: [],
    paths,
    components: {
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          description: 'Authorization Code with PKCE (S256). Admin routes need an operator-audience token holding the listed scope.',
          flows: {
            authorizationCode: {
              authorizationUrl: `${baseUrl}${PATHS.authorize}`,
              tokenUrl: `${baseUrl}${PATHS.token}`,
              refreshUrl: `${baseUrl}${PATHS.token}`,
              // Every operator scope, plus the identity scopes userinfo uses.
              scopes: Object.fromEntries(
                ALL_SCOPES.filter((s) => OPERATOR_SCOPES.includes(s) || ['openid', 'profile', 'email'].includes(s)).map((s) => [s, scopeText(s)]),
              ),
            },
          },
        },
      },
      schemas: {
        Error: {
          type: 'object',
          properties: {
            error: str,
            error_description: str,
            details: { type: 'array', items: { type: 'object', properties: { path: str, message: str } } },
          },
          required: ['error', 'error_description'],
        },
        OAuthError: { type: 'object', properties: { error: str, error_description: str, error_uri: str }, required: ['error'] },
        TokenResponse: {
          type: 'object',
          properties: {
            access_token: str,
            token_type: str,
            expires_in: { type: 'integer' },
            refresh_token: str,
            scope: str,
            id_token: str,
            school_id: str,
            school_subdomain: str,
            created_at: { type: 'integer' },
          },
          required: ['access_token', 'token_type'],
        },
      },
    },
  };
}
