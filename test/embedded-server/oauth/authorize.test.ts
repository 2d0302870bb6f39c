import { describe, expect, it } from 'vitest';
import { startTestServer } from '../../helpers/server';
import { ScriptedBrowser, parseForms } from '../../helpers/scripted-browser';
import { CALLBACK, authorizeUrl, obtainCode, pkce } from '../helpers';
import { expectRedirectError, redirectOf } from './authorize-steps';

describe('Authorization endpoint: success (RFC 6749 §4.1.2, RFC 9207)', () => {
  it('signs in, shows consent, and redirects with code, state and iss', async () => {
    const server = await startTestServer();
    const got = await obtainCode(server);
    expect(got.callback.searchParams.get('state')).toBe('state-123');
    expect(got.callback.searchParams.get('iss')).toBe(server.url);
    expect(got.code).toMatch(/^ac_/);
  });

  it('shows the sign-in page first when there is no session, then consent', async () => {
    const server = await startTestServer();
    const browser = new ScriptedBrowser();
    const first = await browser.navigate(
      authorizeUrl(server, { code_challenge: pkce().challenge }),
    );
    expect('page' in first && first.page.url).toContain('/sign-in');
    const html = 'page' in first ? first.page.html : '';
    expect(html).toMatch(/<html lang="en">/);
    expect(html).toMatch(/<label for="email">/);
    expect(html).toMatch(/name="csrf" value="[^"]+"/);
  });

  it('asks for consent on every authorization, naming the client and each scope in plain words', async () => {
    const server = await startTestServer();
    const browser = new ScriptedBrowser();
    await obtainCode(server, {}, { browser });
    // Second authorization with the same signed-in browser: consent again, never skipped.
    const again = await browser.navigate(
      authorizeUrl(server, {
        code_challenge: pkce().challenge,
        scope: 'openid email account:read account:write',
      }),
      {},
      CALLBACK,
    );
    expect('page' in again).toBe(true);
    const html = 'page' in again ? again.page.html : '';
    expect(html).toContain('Learning Desktop');
    expect(html).toContain('See your email address');
    expect(html).toContain('See your courses, progress, purchases and notifications');
    expect(html).toContain('Mark your notifications as read');
    const consent = parseForms(html).find((f) => f.buttons.decision)!;
    expect(consent.buttons.decision).toEqual(['approve', 'deny']);
    expect(consent.fields.csrf).toBeTruthy();
  });

  it('lets a student authorize a member client (spec Authentication 5)', async () => {
    const server = await startTestServer();
    await expect(
      obtainCode(server, {}, { email: 'student@example.com', password: 'student-demo' }),
    ).resolves.toHaveProperty('code');
  });

  it('a denied consent redirects with access_denied, state and iss', async () => {
    const server = await startTestServer();
    const url = await new ScriptedBrowser().authorize(
      authorizeUrl(server, { code_challenge: pkce().challenge }),
      {
        stopAt: CALLBACK,
        decision: 'deny',
      },
    );
    expectRedirectError(new URL(url), server, 'access_denied');
  });

  it('refuses a wrong password without revealing which part was wrong', async () => {
    const server = await startTestServer();
    await expect(obtainCode(server, {}, { password: 'wrong-password' })).rejects.toThrow(
      /stuck on .*sign-in.*401/,
    );
  });
});

describe('Redirect URI matching (RFC 6749 §3.1.2.3, RFC 8252 §7.3)', () => {
  it('accepts any port for a registered loopback redirect http://127.0.0.1/callback', async () => {
    const server = await startTestServer();
    for (const uri of [
      'http://127.0.0.1:54321/callback',
      'http://127.0.0.1:1/callback',
      'http://127.0.0.1/callback',
    ]) {
      const got = await obtainCode(server, { redirect_uri: uri });
      expect(got.callback.origin + got.callback.pathname).toBe(uri);
    }
  });

  it.each([
    ['another path', 'http://127.0.0.1:54321/other'],
    ['localhost instead of 127.0.0.1', 'http://localhost:54321/callback'],
    ['https scheme', 'https://127.0.0.1:54321/callback'],
    ['a foreign host', 'https://attacker.example/callback'],
    ['an extra query', 'http://127.0.0.1:54321/callback?x=1'],
    // The same URL after normalization is not the same string (RFC 6749 §3.1.2.2, RFC 8252 §7.3).
    ['an upper-case scheme', 'HTTP://127.0.0.1:54321/callback'],
    ['an upper-case scheme without a port', 'HTTP://127.0.0.1/callback'],
    ['a hex short form of 127.0.0.1', 'http://0x7f.1:54321/callback'],
    ['a decimal form of 127.0.0.1', 'http://2130706433:54321/callback'],
    ['an octal form of 127.0.0.1', 'http://0177.0.0.1:54321/callback'],
    ['a short form of 127.0.0.1', 'http://127.1:54321/callback'],
    ['an upper-case path', 'http://127.0.0.1:54321/CALLBACK'],
    ['a dot segment', 'http://127.0.0.1:54321/x/../callback'],
    ['a percent-encoded path', 'http://127.0.0.1:54321/%63allback'],
    ['an explicit empty port', 'http://127.0.0.1:/callback'],
    ['a port with a leading zero', 'http://127.0.0.1:054321/callback'],
    ['user info', 'http://user@127.0.0.1:54321/callback'],
    ['a fragment', 'http://127.0.0.1:54321/callback#x'],
  ])('shows an error page (400) and never redirects for %s', async (_name, uri) => {
    const server = await startTestServer();
    const res = await fetch(
      authorizeUrl(server, { redirect_uri: uri, code_challenge: pkce().challenge }),
      { redirect: 'manual' },
    );
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.text()).toMatch(/redirect_uri/);
  });

  it('shows an error page (400) for an unknown client and never redirects', async () => {
    const server = await startTestServer();
    const res = await fetch(
      authorizeUrl(server, { client_id: 'no-such-client', code_challenge: pkce().challenge }),
      { redirect: 'manual' },
    );
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
  });
});

describe('Authorization request checks redirect back with error, state and iss (RFC 6749 §4.1.2.1)', () => {
  it('response_type other than code: unsupported_response_type', async () => {
    const server = await startTestServer();
    expectRedirectError(
      await redirectOf(server, { response_type: 'token' }),
      server,
      'unsupported_response_type',
    );
  });

  it('state is required (spec "Authorization request")', async () => {
    const server = await startTestServer();
    expectRedirectError(await redirectOf(server, { state: null }), server, 'invalid_request', null);
  });

  it('response_mode other than query: invalid_request (discovery lists query only)', async () => {
    const server = await startTestServer();
    expectRedirectError(
      await redirectOf(server, { response_mode: 'fragment' }),
      server,
      'invalid_request',
    );
  });

  it('request objects are refused with request_not_supported (OpenID Connect Core §3.1.2.6)', async () => {
    const server = await startTestServer();
    expectRedirectError(
      await redirectOf(server, { request: 'eyJhbGciOiJub25lIn0.e30.' }),
      server,
      'request_not_supported',
    );
  });

  it('checks happen before sign-in: a bad request is answered even without a session', async () => {
    const server = await startTestServer();
    expectRedirectError(
      await redirectOf(server, { response_type: 'token' }, false),
      server,
      'unsupported_response_type',
    );
  });
});

describe('PKCE (RFC 7636, RFC 9700 §2.1.1): S256 required', () => {
  it('refuses a missing code_challenge', async () => {
    const server = await startTestServer();
    expectRedirectError(
      await redirectOf(server, { code_challenge: null }),
      server,
      'invalid_request',
    );
  });

  it('refuses code_challenge_method=plain', async () => {
    const server = await startTestServer();
    expectRedirectError(
      await redirectOf(server, { code_challenge_method: 'plain' }),
      server,
      'invalid_request',
    );
  });

  it('refuses a missing code_challenge_method (the RFC 7636 default would be plain)', async () => {
    const server = await startTestServer();
    expectRedirectError(
      await redirectOf(server, { code_challenge_method: null }),
      server,
      'invalid_request',
    );
  });
});

describe('Resource indicators (RFC 8707): member tokens are bound to the origin', () => {
  it('a member client without resource gets invalid_target', async () => {
    const server = await startTestServer();
    expectRedirectError(await redirectOf(server, { resource: null }), server, 'invalid_target');
  });

  it('a member client with another resource gets invalid_target', async () => {
    const server = await startTestServer();
    expectRedirectError(
      await redirectOf(server, { resource: 'http://127.0.0.1:1' }),
      server,
      'invalid_target',
    );
    expectRedirectError(
      await redirectOf(server, { resource: `${server.url}/` }),
      server,
      'invalid_target',
    );
  });
});

describe('Scopes by audience (spec Authentication 7)', () => {
  it('a member client asking for an operator scope gets invalid_scope', async () => {
    const server = await startTestServer();
    expectRedirectError(
      await redirectOf(server, { scope: 'openid courses:read' }),
      server,
      'invalid_scope',
    );
  });

  it('an unknown scope gets invalid_scope', async () => {
    const server = await startTestServer();
    expectRedirectError(
      await redirectOf(server, { scope: 'openid admin' }),
      server,
      'invalid_scope',
    );
  });

  it('an operator client asking for account:read gets invalid_scope', async () => {
    const server = await startTestServer();
    const location = await redirectOf(server, {
      client_id: 'demo-vendor',
      scope: 'openid account:read',
      resource: null,
    });
    expectRedirectError(location, server, 'invalid_scope');
  });

  it('a missing scope gets invalid_request', async () => {
    const server = await startTestServer();
    expectRedirectError(await redirectOf(server, { scope: null }), server, 'invalid_request');
  });
});
