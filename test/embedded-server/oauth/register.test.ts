import { describe, expect, it } from 'vitest';
import { TestClock, startTestServer } from '../../helpers/server';
import type { EmbeddedServer } from '../../../embedded-server/index';
import { ScriptedBrowser, parseForms } from '../../helpers/scripted-browser';
import { authorizeUrl, exchangeCode, obtainCode, pkce } from '../helpers';

async function register(
  server: EmbeddedServer,
  body: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
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
    const b = await register(server, {
      client_name: 'Demo Vendor',
      redirect_uris: ['https://vendor.example.com/oauth/callback'],
    });
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
    const row = server.db
      .prepare('SELECT secret_hash FROM oauth_clients WHERE client_id = ?')
      .get(res.body.client_id) as { secret_hash: string };
    expect(row.secret_hash).not.toBe(res.body.client_secret);
  });

  it('a fixed HTTPS callback without a registered integration: 400 invalid_redirect_uri', async () => {
    const server = await startTestServer();
    const res = await register(server, {
      client_name: 'Unknown App',
      redirect_uris: ['https://app.example.com/callback'],
    });
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
    expect((await register(server, { client_name: 'X' })).body.error).toBe(
      'invalid_client_metadata',
    );
    expect((await register(server, { redirect_uris: 'http://127.0.0.1:1/cb' })).body.error).toBe(
      'invalid_client_metadata',
    );
    expect(
      (
        await register(server, {
          redirect_uris: ['http://127.0.0.1:1/cb'],
          token_endpoint_auth_method: 'private_key_jwt',
        })
      ).body.error,
    ).toBe('invalid_client_metadata');
    // A body that is not JSON at all, or not sent as JSON, is malformed client metadata too (RFC
    // 7591 §3.2.2).
    for (const [type, body] of [
      ['application/json', '{"redirect_uris": ['],
      ['text/plain', '{"redirect_uris":["http://127.0.0.1:1/cb"]}'],
    ]) {
      const res = await fetch(`${server.url}/api/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': type! },
        body,
      });
      expect(res.status, type).toBe(400);
      expect(((await res.json()) as Record<string, unknown>).error, type).toBe(
        'invalid_client_metadata',
      );
    }
  });

  it('registered clients are operator-audience: account:read gives invalid_scope; any loopback port is accepted', async () => {
    const server = await startTestServer();
    const reg = await register(server, {
      client_name: 'Ops tool',
      redirect_uris: ['http://127.0.0.1:8765/callback'],
    });
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
  const vendor = {
    client_name: 'Demo Vendor',
    redirect_uris: ['https://vendor.example.com/oauth/callback'],
  };
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
      const oidc = (await (
        await fetch(`${server.url}/.well-known/openid-configuration`)
      ).json()) as Record<string, unknown>;
      expect(oidc.registration_policy).toBe(published);
      expect(await (await fetch(`${server.url}/auth.md`)).text()).toContain(
        `registration_policy\` (this server: \`${published}\`)`,
      );
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
    expect(await (await fetch(`${server.url}/auth.md`)).text()).toContain(
      '(this server: `allowlist_only`)',
    );
    const refused = await register(server, loopbackTool);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_client_metadata');
    expect(
      server.db.prepare("SELECT COUNT(*) AS n FROM oauth_clients WHERE name = 'Some CLI'").get(),
    ).toEqual({ n: 0 });
    expect(
      (await register(server, { ...loopbackTool, client_name: 'Demo Vendor' })).body.client_id,
    ).toBe('demo-vendor');
    expect(
      (await register(server, { ...loopbackTool, redirect_uris: ['https://tool.example.com/cb'] }))
        .body.error,
    ).toBe('invalid_redirect_uri');
  });
});

describe('Loopback registration is bounded (decision 25, README)', () => {
  const loopback = (name: string) => ({
    client_name: name,
    redirect_uris: ['http://127.0.0.1:8765/callback'],
    token_endpoint_auth_method: 'none',
  });

  it('at most 20 registrations an hour: the 21st is 429 with Retry-After, and an hour later registration is open again', async () => {
    const clock = new TestClock();
    const server = await startTestServer({ clock });
    for (let i = 0; i < 20; i++)
      expect((await register(server, loopback(`Tool ${i}`))).status).toBe(201);
    const res = await fetch(`${server.url}/api/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(loopback('Tool 21')),
    });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBe(3600);
    expect(((await res.json()) as Record<string, unknown>).error).toBe('temporarily_unavailable');
    // The allowlisted vendor is not a new registration and is still answered.
    expect(
      (
        await register(server, {
          client_name: 'Demo Vendor',
          redirect_uris: ['https://vendor.example.com/oauth/callback'],
        })
      ).status,
    ).toBe(201);
    clock.advance(3600);
    expect((await register(server, loopback('Tool 22'))).status).toBe(201);
  });

  it('a registration never used is forgotten after a day; one that got tokens is kept', async () => {
    const clock = new TestClock();
    const server = await startTestServer({ clock });
    const unused = (await register(server, loopback('Unused Tool'))).body.client_id as string;
    const used = (await register(server, loopback('Used Tool'))).body.client_id as string;
    const got = await obtainCode(
      server,
      {
        client_id: used,
        redirect_uri: 'http://127.0.0.1:8765/callback',
        scope: 'openid courses:read',
        resource: null,
      },
      { email: 'owner@example.com', password: 'owner-demo' },
    );
    expect((await exchangeCode(server, got, { client_id: used })).status).toBe(200);
    clock.advance(24 * 3600 + 1);
    const page = await fetch(
      authorizeUrl(server, {
        client_id: unused,
        redirect_uri: 'http://127.0.0.1:8765/callback',
        scope: 'openid courses:read',
        code_challenge: pkce().challenge,
      }),
    );
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('not known');
    await register(server, loopback('Another Tool')); // the purge runs with each registration
    expect(
      server.db
        .prepare('SELECT client_id FROM oauth_clients WHERE client_id IN (?, ?)')
        .all(unused, used),
    ).toEqual([{ client_id: used }]);
  });

  it('the consent page labels a self-named client unverified; an operator-made application is not labelled', async () => {
    const server = await startTestServer();
    const clientId = (await register(server, loopback('Learning Desktop (official)'))).body
      .client_id as string;
    const url = authorizeUrl(server, {
      client_id: clientId,
      redirect_uri: 'http://127.0.0.1:8765/callback',
      scope: 'openid courses:read',
      code_challenge: pkce().challenge,
    });
    const consent = await consentHtml(server, url);
    expect(consent).toContain('Unverified application');
    expect(consent).toContain('“Learning Desktop (official)” (unverified)');
    const member = await consentHtml(
      server,
      authorizeUrl(server, { code_challenge: pkce().challenge }),
      'student@example.com',
      'student-demo',
    );
    expect(member).toContain('Allow');
    expect(member).not.toContain('nverified');
  });
});

/** The consent page of an authorization request, reached through the real sign-in form. */
async function consentHtml(
  server: EmbeddedServer,
  url: string,
  email = 'owner@example.com',
  password = 'owner-demo',
): Promise<string> {
  const browser = new ScriptedBrowser();
  const signIn = await browser.navigate(url);
  if (!('page' in signIn)) throw new Error('expected the sign-in page');
  const r = await browser.submit(signIn.page.url, parseForms(signIn.page.html)[0]!, {
    email,
    password,
  });
  if (!('page' in r)) throw new Error('expected the consent page');
  expect(r.page.status).toBe(200);
  return r.page.html;
}
