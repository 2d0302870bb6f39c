import { z, type ZodType } from 'zod';
import type { Route } from '../http/types';
import { PATHS } from '../oauth/settings';
import { ALL_SCOPES } from '../oauth/scopes';
import { ADMIN_JSON_LIMIT, adminRouteExtra } from './handler';
import { oauthPaths } from './openapi-oauth';

/**
 * /openapi.json (OpenAPI 3.1) from the admin route table, plus the OAuth/OIDC REST endpoints
 * described here (their routes carry no `openapi` metadata). The member GraphQL API is not
 * described (spec: REST only).
 */

type Json = Record<string, unknown>;

function jsonSchema(schema: ZodType, io: 'input' | 'output'): Json {
  const s = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
  delete s['$schema'];
  return s;
}

const ERROR_REF = { $ref: '#/components/schemas/Error' };
const errorResponse = (description: string): Json => ({
  description,
  content: { 'application/json': { schema: ERROR_REF } },
});

const str = { type: 'string' };
const toOpenApiPath = (path: string): string => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
const pathParams = (path: string): Json[] =>
  [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));

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
        : {
            description: 'Success.',
            ...(meta.response
              ? { content: { 'application/json': { schema: jsonSchema(meta.response, 'output') } } }
              : {}),
          },
    '400': errorResponse(
      'invalid_request: the query or body failed validation (details lists each problem).',
    ),
    '401': errorResponse(
      'invalid_token: missing, invalid, expired or foreign token (WWW-Authenticate names the protected resource metadata).',
    ),
    '403': errorResponse(
      `insufficient_scope: the token is not an operator token holding ${meta.scopes.join(' ')}.`,
    ),
    '404': errorResponse('not_found.'),
  };
  if (extra?.alsoStatus)
    responses[String(extra.alsoStatus.status)] = {
      ...(responses[success] as Json),
      description: extra.alsoStatus.description,
    };
  // Every status a route can answer is declared: 409 where the route throws conflict(), 413 where
  // it reads a body.
  if (extra?.conflicts) responses['409'] = errorResponse(`conflict: ${extra.conflicts}.`);
  if (extra?.rawBody)
    responses['413'] = errorResponse('payload_too_large: the upload is over its size limit.');
  else if (meta.body)
    responses['413'] = errorResponse(
      `invalid_request: the JSON body is over ${ADMIN_JSON_LIMIT} bytes.`,
    );
  const op: Json = {
    operationId: meta.operationId,
    summary: meta.summary,
    tags: meta.tags,
    security: [{ oauth2: meta.scopes }],
    parameters: [...pathParams(route.path), ...queryParams(meta.query)],
    responses,
  };
  if (extra?.rawBody)
    op['requestBody'] = {
      required: true,
      content: {
        '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } },
      },
    };
  else if (meta.body)
    op['requestBody'] = {
      required: true,
      content: { 'application/json': { schema: jsonSchema(meta.body, 'input') } },
    };
  return op;
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
const scopeText = (s: string): string =>
  SCOPE_TEXT[s] ??
  `${s.endsWith(':read') ? 'Read' : 'Write'} the ${s.split(':')[0]!.replace(/_/g, ' ')} area`;

export function buildOpenApi(baseUrl: string, adminRoutes: readonly Route[]): Json {
  const paths = oauthPaths() as Record<string, Record<string, Json>>;
  for (const route of adminRoutes) {
    if (!route.openapi) continue;
    const p = toOpenApiPath(route.path);
    paths[p] ??= {};
    paths[p]![route.method.toLowerCase()] = adminOperation(route);
  }
  // Every request is first checked for its Host (decision 28, README): any operation can answer
  // 421.
  for (const item of Object.values(paths))
    for (const op of Object.values(item))
      (op['responses'] as Json)['421'] = {
        description: 'misdirected_request: the Host header names another site (DNS rebinding).',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/OAuthError' } } },
      };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Learning site REST API',
      version: '1.0.0',
      description:
        'OAuth 2.0 / OpenID Connect endpoints and the operator admin API. The member GraphQL API (/member/graphql) is not described here.',
    },
    servers: [{ url: baseUrl }],
    security: [],
    paths,
    components: {
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          description:
            'Authorization Code with PKCE (S256). Admin routes need an operator-audience token holding the listed scope.',
          flows: {
            authorizationCode: {
              authorizationUrl: `${baseUrl}${PATHS.authorize}`,
              tokenUrl: `${baseUrl}${PATHS.token}`,
              refreshUrl: `${baseUrl}${PATHS.token}`,
              // Every scope: the operator scopes of the admin routes, the account scopes of the
              // product files.
              scopes: Object.fromEntries(ALL_SCOPES.map((s) => [s, scopeText(s)])),
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
            details: {
              type: 'array',
              items: { type: 'object', properties: { path: str, message: str } },
            },
          },
          required: ['error', 'error_description'],
        },
        OAuthError: {
          type: 'object',
          properties: { error: str, error_description: str, error_uri: str },
          required: ['error'],
        },
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
