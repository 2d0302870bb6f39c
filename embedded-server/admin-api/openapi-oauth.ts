import { PATHS } from '../oauth/settings';

/**
 * The hand-written part of /openapi.json: the OAuth and OpenID Connect REST endpoints (spec
 * "Endpoints") and the public files the member data points at (covers, avatars, product files).
 * Each operation declares every status and media type it answers; test/helpers/openapi-responses.ts
 * checks every answer the tests see against it.
 */
type Json = Record<string, unknown>;

const str = { type: 'string' };
const ERROR = { $ref: '#/components/schemas/OAuthError' };
const oauthError = (description: string): Json => ({
  description,
  content: { 'application/json': { schema: ERROR } },
});
const jsonDoc = (description: string, type = 'application/json'): Json => ({
  description,
  content: { [type]: { schema: { type: 'object' } } },
});
const html = (description: string): Json => ({
  description,
  content: { 'text/html': { schema: str } },
});
const svg = (description: string): Json => ({
  description,
  content: { 'image/svg+xml': { schema: str } },
});
const form = (properties: Record<string, Json>, required: string[]): Json => ({
  required: true,
  content: {
    'application/x-www-form-urlencoded': { schema: { type: 'object', properties, required } },
  },
});
const pathParam = (name: string): Json => ({ name, in: 'path', required: true, schema: str });
const tooLarge = oauthError('invalid_request: the body is over 64 KiB.');
const bearerRefused = oauthError(
  'invalid_token: missing, invalid, expired or foreign token (WWW-Authenticate names the protected resource metadata).',
);
const noVerdict = oauthError(
  'temporarily_unavailable: the token could not be checked (Retry-After).',
);

const discovery = (operationId: string, summary: string, extra: Json = {}): Json => ({
  get: {
    operationId,
    summary,
    tags: ['discovery'],
    security: [],
    responses: { '200': jsonDoc('Metadata.'), ...extra },
  },
});

function authorize(): Json {
  const required = [
    'response_type',
    'client_id',
    'redirect_uri',
    'scope',
    'code_challenge',
    'code_challenge_method',
    'state',
  ];
  return {
    get: {
      operationId: 'authorize',
      summary:
        'Authorization endpoint (Authorization Code with PKCE S256); redirects to redirect_uri with code, state and iss',
      tags: ['oauth'],
      security: [],
      parameters: required
        .map((name) => ({ name, in: 'query', required: true, schema: str }))
        .concat(
          ['resource', 'nonce'].map((name) => ({
            name,
            in: 'query',
            required: false,
            schema: str,
          })),
        ),
      responses: {
        '200': html(
          'The consent page (the member is signed in): what the application asks for, Allow and Deny.',
        ),
        '302': {
          description:
            'Back to redirect_uri with an error, state and iss (RFC 6749 §4.1.2.1, RFC 9207).',
        },
        '303': { description: 'To the sign-in page first; it returns to this request.' },
        '400': html(
          'An error page, never a redirect: the client or redirect_uri cannot be trusted (RFC 6749 §4.1.2.1).',
        ),
      },
    },
  };
}

function token(): Json {
  const properties = Object.fromEntries(
    [
      'code',
      'redirect_uri',
      'client_id',
      'client_secret',
      'code_verifier',
      'resource',
      'refresh_token',
      'scope',
    ].map((k) => [k, str]),
  );
  return {
    post: {
      operationId: 'token',
      summary: 'Token endpoint: authorization_code and refresh_token grants',
      tags: ['oauth'],
      security: [],
      requestBody: form(
        {
          grant_type: { type: 'string', enum: ['authorization_code', 'refresh_token'] },
          ...properties,
        },
        ['grant_type'],
      ),
      responses: {
        '200': {
          description:
            'Token response with school_id, school_subdomain, created_at and, on code exchange with openid, id_token.',
          content: {
            'application/json': { schema: { $ref: '#/components/schemas/TokenResponse' } },
          },
        },
        '400': oauthError(
          'invalid_request, invalid_grant, invalid_scope, invalid_target, unsupported_grant_type (RFC 6749 §5.2).',
        ),
        '401': oauthError(
          'invalid_client: client authentication failed (WWW-Authenticate for HTTP Basic).',
        ),
        '413': tooLarge,
      },
    },
  };
}

function userinfo(): Json {
  const op = (method: string): Json => ({
    operationId: method === 'get' ? 'userinfo' : 'userinfoPost',
    summary: 'UserInfo: sub, email, name, picture, org_id, roles',
    // README decision 13: any valid token bound to this origin and school, member or operator;
    // `openid` is not required, so no scope is listed (OpenAPI 3.1 §4.8.30: an empty list = no
    // particular scope).
    description:
      'GET or POST (OpenID Connect Core §5.3.1), the token in the Authorization header. Accepts any valid access token bound to this origin and school; no particular scope (openid is not required). Claims are not filtered by scope.',
    tags: ['oidc'],
    security: [{ oauth2: [] }],
    responses: {
      '200': jsonDoc('Claims.'),
      '401': bearerRefused,
      '404': oauthError('not_found: the member no longer exists.'),
      '503': noVerdict,
    },
  });
  return { get: op('get'), post: op('post') };
}

function revoke(): Json {
  return {
    post: {
      operationId: 'revoke',
      summary: 'Revocation (RFC 7009): posting the refresh token ends the session',
      tags: ['oauth'],
      security: [],
      requestBody: form({ token: str, token_type_hint: str, client_id: str, client_secret: str }, [
        'token',
      ]),
      responses: {
        '200': { description: 'Revoked, or nothing to revoke.' },
        '400': oauthError('invalid_request.'),
        '401': oauthError('invalid_client: unknown client, wrong secret, or HTTP Basic.'),
        '403': oauthError('unauthorized_client: a confidential client without its client_secret.'),
        '413': tooLarge,
      },
    },
  };
}

function register(): Json {
  const schema = {
    type: 'object',
    properties: {
      client_name: str,
      application_type: str,
      redirect_uris: { type: 'array', items: str },
      token_endpoint_auth_method: { type: 'string', enum: ['none', 'client_secret_post'] },
    },
    required: ['redirect_uris'],
  };
  return {
    post: {
      operationId: 'register',
      summary:
        'Operator client registration: allowlisted vendor platforms and loopback redirect URIs',
      tags: ['oauth'],
      security: [],
      requestBody: { required: true, content: { 'application/json': { schema } } },
      responses: {
        '201': jsonDoc(
          'The client: a new loopback client (client_secret once, when asked for) or the allowlisted platform.',
        ),
        '400': oauthError(
          'invalid_client_metadata (also for a body that is not JSON) or invalid_redirect_uri.',
        ),
        '413': tooLarge,
        '429': oauthError(
          'temporarily_unavailable: the hourly quota of loopback registrations is used up (Retry-After).',
        ),
      },
    },
  };
}

/** GET and HEAD of a public generated picture. */
function picture(operationId: string, summary: string, withHead: boolean): Json {
  const op = (suffix: string): Json => ({
    operationId: operationId + suffix,
    summary,
    tags: ['files'],
    security: [],
    parameters: [pathParam('file')],
    responses: { '200': svg('The SVG (HEAD: its headers only).'), '404': oauthError('not_found.') },
  });
  return withHead ? { get: op(''), head: op('Head') } : { get: op('') };
}

function productFile(): Json {
  const op = (suffix: string): Json => ({
    operationId: `getProductFile${suffix}`,
    summary:
      "A digital product's file, for the member it was delivered to (byte ranges, ETag, Repr-Digest)",
    tags: ['files'],
    security: [{ oauth2: ['account:read'] }, { oauth2: ['account:write'] }],
    parameters: [pathParam('id'), pathParam('name')],
    responses: {
      '200': {
        description: 'The whole file.',
        content: {
          '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } },
        },
      },
      '206': {
        description: 'One byte range (Content-Range).',
        content: {
          '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } },
        },
      },
      '304': { description: 'Not modified (If-None-Match).' },
      '401': bearerRefused,
      '403': oauthError(
        'insufficient_scope (not a member token with an account scope) or access_expired (the delivery has ended).',
      ),
      '404': oauthError('not_found: unknown, not delivered to this member, or another file name.'),
      '410': oauthError('gone: the file was withdrawn.'),
      '416': { description: 'The range cannot be satisfied (Content-Range: bytes */size).' },
      '503': noVerdict,
    },
  });
  return { get: op(''), head: op('Head') };
}

export function oauthPaths(): Record<string, Json> {
  return {
    [PATHS.protectedResourceMetadata]: discovery(
      'getProtectedResourceMetadata',
      'Protected Resource Metadata (RFC 9728)',
    ),
    [PATHS.mcpProtectedResourceMetadata]: discovery(
      'getMcpProtectedResourceMetadata',
      'Protected Resource Metadata of /mcp (RFC 9728 §3.1)',
    ),
    [PATHS.authorizationServerMetadata]: discovery(
      'getAuthorizationServerMetadata',
      'Authorization Server Metadata (RFC 8414), the source of truth',
    ),
    [PATHS.openidConfiguration]: discovery('getOpenIdConfiguration', 'OpenID Connect Discovery', {
      '404': oauthError('not_found: the site signs no id_token in its current mode.'),
    }),
    [PATHS.jwks]: {
      get: {
        operationId: 'getJwks',
        summary: 'JSON Web Key Set of the id_token signing keys',
        tags: ['discovery'],
        security: [],
        responses: {
          '200': jsonDoc('JWKS.', 'application/jwk-set+json'),
          '404': oauthError('not_found: no JWKS is published.'),
        },
      },
    },
    [PATHS.authorize]: authorize(),
    [PATHS.token]: token(),
    [PATHS.userinfo]: userinfo(),
    [PATHS.revoke]: revoke(),
    [PATHS.register]: register(),
    '/covers/{file}': picture(
      'getCover',
      'Generated cover of a published course, <slug>.svg',
      true,
    ),
    '/avatars/{file}': picture(
      'getAvatar',
      'Default picture of a member, <user id>.svg (the UserInfo `picture`)',
      false,
    ),
    '/files/products/{id}/{name}': productFile(),
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
        responses: {
          '200': { description: 'Markdown.', content: { 'text/markdown': { schema: str } } },
        },
      },
    },
  };
}
