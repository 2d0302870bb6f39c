import { describe, expect, it } from 'vitest';
import { startTestServer } from '../../helpers/server';
import { getJson } from '../helpers';

const OPERATOR_AREAS = [
  'courses',
  'students',
  'members',
  'curriculum',
  'school',
  'appearance',
  'events',
  'membership_plans',
  'coupons',
  'posts',
  'subscriptions',
  'digital_products',
  'lecturers',
  'pages',
];

describe('Authorization Server Metadata (RFC 8414): the source of truth', () => {
  it('lists every endpoint, grant type and the 38 scopes', async () => {
    const server = await startTestServer();
    const { status, body, headers } = await getJson(
      `${server.url}/.well-known/oauth-authorization-server`,
    );
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/application\/json/);
    // public document, readable cross-origin
    expect(headers.get('access-control-allow-origin')).toBe('*');
    expect(body).toMatchObject({
      issuer: server.url,
      authorization_endpoint: `${server.url}/oauth/authorize`,
      token_endpoint: `${server.url}/api/oauth/token`,
      userinfo_endpoint: `${server.url}/api/oauth/userinfo`,
      revocation_endpoint: `${server.url}/api/oauth/revoke`,
      registration_endpoint: `${server.url}/api/oauth/register`,
      jwks_uri: `${server.url}/oauth/jwks`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_post'],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
      id_token_signing_alg_values_supported: ['ES256'],
    });
    const scopes = body.scopes_supported as string[];
    expect(scopes).toHaveLength(38);
    expect(new Set(scopes).size).toBe(38);
    const expected = [
      'openid',
      'profile',
      'email',
      'account:read',
      'account:write',
      ...OPERATOR_AREAS.flatMap((a) => [`${a}:read`, `${a}:write`]),
      'analytics:read',
      'orders:read',
      'comments:read',
      'forms:read',
      'storage:write',
    ];
    expect([...scopes].sort()).toEqual([...expected].sort());
    expect(String(body.issuer).endsWith('/')).toBe(false);
  });

  it('advertises no introspection endpoint and serves none (spec: RFC 7662 absent)', async () => {
    const server = await startTestServer();
    const { body } = await getJson(`${server.url}/.well-known/oauth-authorization-server`);
    expect(body).not.toHaveProperty('introspection_endpoint');
    for (const path of ['/api/oauth/introspect', '/oauth/introspect']) {
      expect((await fetch(`${server.url}${path}`, { method: 'POST' })).status).toBe(404);
    }
  });

  it("idTokens 'publish-jwks-only': jwks_uri without id_token_signing_alg_values_supported", async () => {
    const server = await startTestServer({ idTokens: 'publish-jwks-only' });
    const { body } = await getJson(`${server.url}/.well-known/oauth-authorization-server`);
    expect(body.jwks_uri).toBe(`${server.url}/oauth/jwks`);
    expect(body).not.toHaveProperty('id_token_signing_alg_values_supported');
    expect((await fetch(`${server.url}/oauth/jwks`)).status).toBe(200);
  });

  it("idTokens 'off': neither jwks_uri nor signing algs, and /oauth/jwks is 404", async () => {
    const server = await startTestServer({ idTokens: 'off' });
    const { body } = await getJson(`${server.url}/.well-known/oauth-authorization-server`);
    expect(body).not.toHaveProperty('jwks_uri');
    expect(body).not.toHaveProperty('id_token_signing_alg_values_supported');
    expect((await fetch(`${server.url}/oauth/jwks`)).status).toBe(404);
  });
});

describe('OpenID Connect Discovery 1.0', () => {
  it('repeats the RFC 8414 facts and adds subject types and claims', async () => {
    const server = await startTestServer();
    const as = (await getJson(`${server.url}/.well-known/oauth-authorization-server`)).body;
    const { status, body } = await getJson(`${server.url}/.well-known/openid-configuration`);
    expect(status).toBe(200);
    expect(body).toMatchObject(as);
    expect(body.subject_types_supported).toEqual(['public']);
    expect(body.claims_supported).toEqual(
      expect.arrayContaining(['sub', 'email', 'name', 'picture', 'org_id', 'roles', 'nonce']),
    );
  });
});

describe('OpenID Connect Discovery 1.0 §3 in every id_token mode: complete, or not served', () => {
  const REQUIRED = [
    'issuer',
    'authorization_endpoint',
    'token_endpoint',
    'jwks_uri',
    'response_types_supported',
    'subject_types_supported',
    'id_token_signing_alg_values_supported',
  ];

  it("signing ('sign', the default): every REQUIRED member is present", async () => {
    const server = await startTestServer();
    const { status, body } = await getJson(`${server.url}/.well-known/openid-configuration`);
    expect(status).toBe(200);
    for (const member of REQUIRED) expect(body, member).toHaveProperty(member);
  });

  it("'publish-jwks-only' and 'off' sign no id_token, so they publish no OpenID configuration (404), only RFC 8414", async () => {
    for (const idTokens of ['publish-jwks-only', 'off'] as const) {
      const server = await startTestServer({ idTokens });
      expect((await fetch(`${server.url}/.well-known/openid-configuration`)).status, idTokens).toBe(
        404,
      );
      expect(
        (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).status,
        idTokens,
      ).toBe(200);
    }
  });
});

describe('Protected Resource Metadata (RFC 9728)', () => {
  it('names the origin as the resource and this server as its authorization server', async () => {
    const server = await startTestServer();
    const { status, body } = await getJson(`${server.url}/.well-known/oauth-protected-resource`);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      resource: server.url,
      authorization_servers: [server.url],
      bearer_methods_supported: ['header'],
    });
    expect(body.scopes_supported).toHaveLength(38);
  });
});

describe('JWKS (RFC 7517) and key rotation', () => {
  it('publishes an ES256 P-256 key whose kid is its RFC 7638 thumbprint, without private parts', async () => {
    const { calculateJwkThumbprint } = await import('jose');
    const server = await startTestServer();
    const { body } = await getJson<{ keys: Record<string, string>[] }>(`${server.url}/oauth/jwks`);
    expect(body.keys).toHaveLength(1);
    const key = body.keys[0]!;
    expect(key).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(key).not.toHaveProperty('d');
    expect(key.kid).toBe(
      await calculateJwkThumbprint({ kty: key.kty, crv: key.crv, x: key.x, y: key.y }, 'sha256'),
    );
  });

  it('keeps the old key published after a rotation and puts the new key first', async () => {
    const server = await startTestServer();
    const before = (
      await getJson<{ keys: { kid: string }[] }>(`${server.url}/oauth/jwks`)
    ).body.keys.map((k) => k.kid);
    const kid = await server.rotateSigningKey();
    const after = (
      await getJson<{ keys: { kid: string }[] }>(`${server.url}/oauth/jwks`)
    ).body.keys.map((k) => k.kid);
    expect(after[0]).toBe(kid);
    expect(after).toEqual(expect.arrayContaining(before));
  });
});
