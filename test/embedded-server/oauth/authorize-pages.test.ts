import { describe, expect, it } from 'vitest';
import { startTestServer } from '../../helpers/server';
import { ScriptedBrowser, parseForms } from '../../helpers/scripted-browser';
import { CALLBACK, authorizeUrl, obtainCode, pkce } from '../helpers';
import { expectRedirectError, redirectOf, signIn } from './authorize-steps';

describe('Operator clients are authorized by operators only (decision, README)', () => {
  it('the owner can authorize the allowlisted vendor with operator scopes', async () => {
    const server = await startTestServer();
    const got = await obtainCode(
      server,
      { client_id: 'demo-vendor', scope: 'openid courses:read orders:read', resource: null },
      { email: 'owner@example.com', password: 'owner-demo' },
    );
    expect(got.code).toMatch(/^ac_/);
  });

  it('"Use another account" on the consent page signs out and comes back to the same request', async () => {
    const server = await startTestServer();
    const browser = new ScriptedBrowser();
    await signIn(browser, server);
    const url = authorizeUrl(server, {
      client_id: 'demo-vendor',
      scope: 'courses:read',
      resource: null,
      code_challenge: pkce().challenge,
    });
    // The owner starts, as the student is signed in on a member client first:
    const memberConsent = await browser.navigate(
      authorizeUrl(server, { code_challenge: pkce().challenge }),
    );
    const html = 'page' in memberConsent ? memberConsent.page.html : '';
    const other = parseForms(html).find((f) => f.action === '/sign-out')!;
    expect(other.fields.return_to).toMatch(/^\/oauth\/authorize\?/);
    const back = await browser.submit(
      `${server.url}/`,
      {
        ...other,
        fields: { ...other.fields, return_to: new URL(url).pathname + new URL(url).search },
      },
      {},
    );
    expect('page' in back && back.page.url).toContain('/sign-in?return_to=');
    const code = await browser.authorize(url, {
      stopAt: CALLBACK,
      email: 'owner@example.com',
      password: 'owner-demo',
    });
    expect(new URL(code).searchParams.get('code')).toBeTruthy();
  });

  it('a student is sent back with access_denied', async () => {
    const server = await startTestServer();
    const location = await redirectOf(server, {
      client_id: 'demo-vendor',
      scope: 'courses:read',
      resource: null,
    });
    expectRedirectError(location, server, 'access_denied');
  });
});

describe('CSRF on the sign-in and consent forms', () => {
  it('refuses a consent POST without the session CSRF token', async () => {
    const server = await startTestServer();
    const browser = new ScriptedBrowser();
    await signIn(browser, server);
    const page = await browser.navigate(authorizeUrl(server, { code_challenge: pkce().challenge }));
    const consent = parseForms('page' in page ? page.page.html : '').find(
      (f) => f.buttons.decision,
    )!;
    const res = await browser.request(`${server.url}/oauth/authorize/decision`, {
      method: 'POST',
      form: { ...consent.fields, csrf: 'forged', decision: 'approve' },
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('location')).toBeNull();
  });

  it('refuses a consent POST from another browser (no session cookie)', async () => {
    const server = await startTestServer();
    const browser = new ScriptedBrowser();
    await signIn(browser, server);
    const page = await browser.navigate(authorizeUrl(server, { code_challenge: pkce().challenge }));
    const consent = parseForms('page' in page ? page.page.html : '').find(
      (f) => f.buttons.decision,
    )!;
    const res = await new ScriptedBrowser().request(`${server.url}/oauth/authorize/decision`, {
      method: 'POST',
      form: { ...consent.fields, decision: 'approve' },
    });
    expect(res.status).toBe(403);
  });

  it('refuses a sign-in POST without the CSRF token', async () => {
    const server = await startTestServer();
    const res = await new ScriptedBrowser().request(`${server.url}/sign-in`, {
      method: 'POST',
      form: { email: 'student@example.com', password: 'student-demo', return_to: '/admin' },
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.text()).toMatch(/This form expired/);
  });

  it('sets the session cookie HttpOnly and SameSite=Lax', async () => {
    const server = await startTestServer();
    const res = await fetch(`${server.url}/sign-in`);
    const cookie = res.headers.getSetCookie()[0]!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
  });

  it('a consent form can be used once only', async () => {
    const server = await startTestServer();
    const browser = new ScriptedBrowser();
    await signIn(browser, server);
    const page = await browser.navigate(authorizeUrl(server, { code_challenge: pkce().challenge }));
    const consent = parseForms('page' in page ? page.page.html : '').find(
      (f) => f.buttons.decision,
    )!;
    const first = await browser.request(`${server.url}/oauth/authorize/decision`, {
      method: 'POST',
      form: { ...consent.fields, decision: 'approve' },
    });
    expect(first.status).toBe(302);
    const second = await browser.request(`${server.url}/oauth/authorize/decision`, {
      method: 'POST',
      form: { ...consent.fields, decision: 'approve' },
    });
    expect(second.status).toBe(400);
  });
});

describe('Sign-in does not reveal which accounts exist', () => {
  it('an unknown email and a wrong password get the same 401 page', async () => {
    const server = await startTestServer();
    const answers: string[] = [];
    for (const [email, password] of [
      ['nobody@example.com', 'student-demo'],
      ['student@example.com', 'wrong'],
    ] as const) {
      const browser = new ScriptedBrowser();
      const r = await browser.navigate(`${server.url}/sign-in`);
      const form = parseForms('page' in r ? r.page.html : '')[0]!;
      const res = await browser.request(`${server.url}/sign-in`, {
        method: 'POST',
        form: { ...form.fields, email, password },
      });
      expect(res.status).toBe(401);
      answers.push(/role="alert">([^<]+)</.exec(await res.text())![1]!);
    }
    expect(answers[0]).toBe(answers[1]);
  });
});

describe('Only members with a role at the site can sign in (spec Authentication 5)', () => {
  it('a valid account without a role at this site is refused with 403', async () => {
    const server = await startTestServer();
    const { hashPassword } = await import('../../../embedded-server/store/secrets');
    server.db
      .prepare(
        "INSERT INTO users (id, email, name, password_hash, created_at) VALUES ('usr_x', 'x@example.com', 'X', ?, 0)",
      )
      .run(hashPassword('x-password'));
    await expect(
      obtainCode(server, {}, { email: 'x@example.com', password: 'x-password' }),
    ).rejects.toThrow(/stuck on .*sign-in.*403/);
  });
});

describe('Consent page cannot be framed or cached (RFC 6749 §10.13 clickjacking)', () => {
  it('sends frame-ancestors none, X-Frame-Options DENY, a script-free CSP and no-store', async () => {
    const server = await startTestServer();
    const browser = new ScriptedBrowser();
    await signIn(browser, server);
    const res = await browser.request(authorizeUrl(server, { code_challenge: pkce().challenge }));
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('name="decision"');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('script-src');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});

describe('HTML escaping on pages', () => {
  it('escapes request values echoed into the sign-in page', async () => {
    const server = await startTestServer();
    const res = await fetch(
      `${server.url}/sign-in?return_to=${encodeURIComponent('/x"><script>alert(1)</script>')}`,
    );
    const html = await res.text();
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;');
  });
});

describe('No open redirect after sign-in', () => {
  it.each([
    '//evil.example/x',
    '/\t/evil.example',
    '/\\evil.example',
    'https://evil.example/',
    'javascript:alert(1)',
  ])('return_to %j falls back to /admin', async (target) => {
    const { safeReturnTo } = await import('../../../embedded-server/oauth/sign-in');
    expect(safeReturnTo(target)).toBe('/admin');
  });

  it('keeps a same-origin authorization path', async () => {
    const { safeReturnTo } = await import('../../../embedded-server/oauth/sign-in');
    expect(safeReturnTo('/oauth/authorize?client_id=demo-desktop&state=x')).toBe(
      '/oauth/authorize?client_id=demo-desktop&state=x',
    );
  });
});
