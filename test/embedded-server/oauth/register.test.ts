import { describe, expect, it } from 'vitest';
import { startTestServer } from '../../helpers/server';
import type { EmbeddedServer } from '../../../embedded-server/index';
import { ScriptedBrowser } from '../../helpers/scripted-browser';
import { authorizeUrl, pkce } from '../helpers';

async function register(server: EmbeddedServer, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${server.url}/api/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('Registration endpoint (spec Authentication 6): allowlist, not open RFC 7591', () => {
  it("a client_name matching an allowlisted vendor platform returns that platform's client_id", async () => {
    const server = await startTestServer();
    const a = await register(server, {
      client_name: 'Demo Vendor',
      application_type: 'web',
      redirect_uris: ['https://vendor.example.com/oauth/callback'],
      token_endpoint_auth_method: 'none',
    });
    expect(a.status).toBe(201);
    expect(a.body.client_id).toBe('demo-vendor');
    const b = await register(server, { client_name: 'Demo Vendor', redirect_uris: ['https://vendor.example.com/oauth/callback'] });
    expect(b.body.client_id).toBe('demo-vendor');
  });

  it('loopback redirect URIs register a new client whatever the client_name (conflict resolved by the metadata, README)', async () => {
    const server = await startTestServer();
    const res = await register(server, {
      client_name: 'Some CLI',
      application_type: 'native',
      redirect_uris: ['http://127.0.0.1:8765/callback'],
      token_endpoint_auth_method: 'none',
    });
    expect(res.status).toBe(201);
    expect(res.body.client_id).toMatch(/^cli_/);
    expect(res.body).not.toHaveProperty('client_secret');
    expect(res.body.token_endpoint_auth_method).toBe('none');
  });

  it('a loopback client asking for client_secret_post receives a secret once, stored hashed', async () => {
    const server = await startTestServer();
    const res = await register(server, {
      client_name: 'Tool',
      redirect_uris: ['http://127.0.0.1:9000/cb'],
      token_endpoint_auth_method: 'client_secret_post',
    });
    expect(res.status).toBe(201);
    expect(String(res.body.client_secret)).toMatch(/^cs_/);
    const row = server.db.prepare('SELECT secret_hash FROM oauth_clients WHERE client_id = ?').get(res.body.client_id) as { secret_hash: string };
    expect(row.secret_hash).not.toBe(res.body.client_secret);
  });

  it('a fixed HTTPS callback without a registered integration: 400 invalid_redirect_uri', async () => {
    const server = await startTestServer();
    const res = await register(server, { client_name: 'Unknown App', redirect_uris: ['https://app.example.com/callback'] });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_redirect_uri');
    expect(res.body.error_description).toBeTruthy();
  });

  it.each([
    ['a custom scheme', ['com.example.app:/callback']],
    ['plain http on a public host', ['http://app.example.com/callback']],
    ['localhost (RFC 8252 §8.3: not a loopback literal)', ['http://localhost:8000/callback']],
    ['a loopback URI without a port', ['http://127.0.0.1/callback']],
    ['mixed loopback and custom scheme', ['http://127.0.0.1:8000/cb', 'com.example:/cb']],
  ])('an unrecognized client_name with %s: 400 invalid_client_metadata', async (_n, uris) => {
    const server = await startTestServer();
    const res = await register(server, { client_name: 'Unknown App', redirect_uris: uris });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_client_metadata');
  });

  it('a malformed request: 400 invalid_client_metadata', async () => {
    const server = await startTestServer();
    expect((await register(server, { client_name: 'X' })).body.error).toBe('invalid_client_metadata');
    expect((await register(server, { redirect_uris: 'http://127.0.0.1:1/cb' })).body.error).toBe('invalid_client_metadata');
    expect((await register(server, { redirect_uris: ['http://127.0.0.1:1/cb'], token_endpoint_auth_method: 'private_key_jwt' })).body.error).toBe(
      'invalid_client_metadata',
    );
  });

  it('registered clients are operator-audience: account:read gives invalid_scope; any loopback port is accepted', async () => {
    const server = await startTestServer();
    const reg = await register(server, { client_name: 'Ops tool', redirect_uris: ['http://127.0.0.1:8765/callback'] });
    const clientId = String(reg.body.client_id);
    const browser = new ScriptedBrowser();
    const denied = new URL(
      await browser.authorize(
        authorizeUrl(server, {
          client_id: clientId,
          redirect_uri: 'http://127.0.0.1:9999/callback',
          scope: 'account:read',
          resource: null,
          code_challenge: pkce().challenge,
        }),
        {
          stopAt: 'http://127.0.0.1:9999/callback',
        },
      ),
    );
    expect(denied.searchParams.get('error')).toBe('invalid_scope');
    const ok = new URL(
      await browser.authorize(
        authorizeUrl(server, {
          client_id: clientId,
          redirect_uri: 'http://127.0.0.1:9999/callback',
          scope: 'courses:read',
          resource: null,
          code_challenge: pkce().challenge,
        }),
        {
          stopAt: 'http://127.0.0.1:9999/callback',
          email: 'owner@example.com',
          password: 'owner-demo',
        },
      ),
    );
    expect(ok.searchParams.get('code')).toBeTruthy();
  });
});

describe('the metadata says what registration accepts (spec Authentication 6)', () => {
  const loopbackTool = {
    client_name: 'Some CLI',
    application_type: 'native',
    redirect_uris: ['http://127.0.0.1:8765/callback'],
    token_endpoint_auth_method: 'none',
  };
  const vendor = { client_name: 'Demo Vendor', redirect_uris: ['https://vendor.example.com/oauth/callback'] };
  const metadataOf = async (server: EmbeddedServer) => {
    const res = await fetch(`${server.url}/.well-known/oauth-authorization-server`);
    return (await res.json()) as Record<string, unknown>;
  };

  it.each([
    ['default', undefined, 'allowlist_or_loopback'],
    ['allowlist_or_loopback', 'allowlist_or_loopback', 'allowlist_or_loopback'],
  ] as const)(
    '%s: the metadata says allowlist_or_loopback and a loopback client with an unknown name is registered',
    async (_name, option, published) => {
      const server = await startTestServer(option ? { registration: option } : {});
      expect((await metadataOf(server)).registration_policy).toBe(published);
      const oidc = (await (await fetch(`${server.url}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
      expect(oidc.registration_policy).toBe(published);
      expect(await (await fetch(`${server.url}/auth.md`)).text()).toContain(`registration_policy\` (this server: \`${published}\`)`);
      const res = await register(server, loopbackTool);
      expect(res.status).toBe(201);
      expect(res.body.client_id).toMatch(/^cli_/);
      expect((await register(server, vendor)).body.client_id).toBe('demo-vendor');
    },
  );

  it('allowlist_only: the metadata says so, a loopback client with an unknown name is refused, the allowlist still works', async () => {
    const server = await startTestServer({ registration: 'allowlist_only' });
    const meta = await metadataOf(server);
    expect(meta.registration_policy).toBe('allowlist_only');
    expect(meta.registration_endpoint).toBe(`${server.url}/api/oauth/register`);
    expect(await (await fetch(`${server.url}/auth.md`)).text()).toContain('(this server: `allowlist_only`)');
    const refused = await register(server, loopbackTool);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_client_metadata');
    expect(server.db.prepare("SELECT COUNT(*) AS n FROM oauth_clients WHERE name = 'Some CLI'").get()).toEqual({ n: 0 });
    expect((await register(server, { ...loopbackTool, client_name: 'Demo Vendor' })).body.client_id).toBe('demo-vendor');
    expect((await register(server, { ...loopbackTool, redirect_uris: ['https://tool.example.com/cb'] })).body.error).toBe('invalid_redirect_uri');
  });
});
