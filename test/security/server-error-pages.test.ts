/**
 * The embedded server's error answers never carry a secret: error redirects carry error,
 * error_description, state and iss only (RFC 6749 §4.1.2.1, RFC 9207), never a code or a token;
 * error pages, JSON error bodies and WWW-Authenticate challenges never echo a code, a token, a
 * verifier, a client secret or a password that was sent. The loopback receiver (the app side)
 * answers any callback, even a hostile one, with a fixed page.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackReceiver } from '../../electron/core/auth/loopback-receiver';
import { codeChallengeS256, createCodeVerifier } from '../../electron/core/auth/pkce';
import { createEmbeddedServer, type EmbeddedServer } from '../../embedded-server/index';
import { ScriptedBrowser } from '../helpers/scripted-browser';
import { leaksIn, SecretBag } from './helpers/canary';

const CLIENT = 'demo-desktop';
const REDIRECT = 'http://127.0.0.1:53123/callback';
const canary = (name: string) => `${name}-${randomBytes(18).toString('base64url')}`;

interface Answer {
  status: number;
  location: string | null;
  headers: string;
  body: string;
}
async function answer(res: Response): Promise<Answer> {
  const headers = [...res.headers].map(([k, v]) => `${k}: ${v}`).join('\n');
  return {
    status: res.status,
    location: res.headers.get('location'),
    headers,
    body: await res.text(),
  };
}
const text = (a: Answer) => `${a.status}\n${a.headers}\n\n${a.body}`;

describe('embedded server: error answers carry no secret', () => {
  let server: EmbeddedServer;
  const serverLog: string[] = [];
  const bag = new SecretBag();

  beforeAll(async () => {
    server = await createEmbeddedServer({
      port: 0,
      seed: 'demo',
      site: 'demo',
      logger: (line) => serverLog.push(line),
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  const authorizeUrl = (extra: Record<string, string>, verifier = createCodeVerifier()) => {
    const u = new URL('/oauth/authorize', server.url);
    const params = {
      response_type: 'code',
      client_id: CLIENT,
      redirect_uri: REDIRECT,
      scope: 'openid profile account:read',
      state: 'state-1',
      nonce: 'nonce-1',
      code_challenge: codeChallengeS256(verifier),
      code_challenge_method: 'S256',
      resource: server.url,
      ...extra,
    };
    for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
    return u.href;
  };

  /**
   * A real code for the demo student (signed in, consent approved), and the verifier that goes with
   * it.
   */
  async function realCode(): Promise<{ code: string; verifier: string }> {
    const verifier = createCodeVerifier();
    const callback = await new ScriptedBrowser().authorize(authorizeUrl({}, verifier), {
      stopAt: REDIRECT,
    });
    const code = new URL(callback).searchParams.get('code')!;
    bag.add('code', code);
    bag.add('code_verifier', verifier);
    return { code, verifier };
  }

  const token = (form: Record<string, string>) =>
    fetch(`${server.url}/api/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams(form),
      redirect: 'manual',
    }).then(answer);

  it('an error redirect (invalid scope, with secrets smuggled into the query) carries error, error_description, state and iss only', async () => {
    const secret = canary('client_secret');
    const verifier = canary('verifier');
    bag.add('client_secret', secret);
    bag.add('code_verifier', verifier);
    const res = await fetch(
      authorizeUrl({
        scope: 'openid no-such-scope',
        client_secret: secret,
        code_verifier: verifier,
      }),
      {
        redirect: 'manual',
      },
    ).then(answer);
    expect(res.status).toBe(302);
    const to = new URL(res.location!);
    expect(`${to.origin}${to.pathname}`).toBe(REDIRECT);
    expect([...to.searchParams.keys()].sort()).toEqual(
      expect.arrayContaining(['error', 'iss', 'state']),
    );
    for (const k of to.searchParams.keys())
      expect(['error', 'error_description', 'error_uri', 'state', 'iss']).toContain(k);
    expect(to.searchParams.get('iss')).toBe(server.url);
    expect(leaksIn(bag, text(res))).toEqual([]);
  });

  it('a denied consent redirects with error=access_denied, state and iss, and no code', async () => {
    const callback = await new ScriptedBrowser().authorize(authorizeUrl({}), {
      stopAt: REDIRECT,
      decision: 'deny',
    });
    const to = new URL(callback);
    expect(to.searchParams.get('error')).toBe('access_denied');
    expect(to.searchParams.has('code')).toBe(false);
    for (const k of to.searchParams.keys())
      expect(['error', 'error_description', 'error_uri', 'state', 'iss']).toContain(k);
  });

  it('an untrusted redirect_uri gets an error page (no redirect) that does not echo the secrets in its query', async () => {
    const code = canary('code');
    bag.add('code', code);
    const res = await fetch(
      authorizeUrl({ redirect_uri: `https://evil.example/cb?code=${code}&access_token=${code}` }),
      { redirect: 'manual' },
    ).then(answer);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.location).toBeNull();
    expect(leaksIn(bag, text(res))).toEqual([]);
  });

  it('the token endpoint never echoes a code, verifier, refresh token or client secret in its errors', async () => {
    const { code, verifier } = await realCode();
    const wrongVerifier = createCodeVerifier();
    bag.add('code_verifier', wrongVerifier);
    const fakeRefresh = canary('refresh');
    const secret = canary('secret');
    bag.add('refresh_token', fakeRefresh);
    bag.add('client_secret', secret);
    const base = { client_id: CLIENT, redirect_uri: REDIRECT, resource: server.url };
    const wrong = await token({
      ...base,
      grant_type: 'authorization_code',
      code,
      code_verifier: wrongVerifier,
    });
    // The right verifier: tokens (the canaries of the replay below).
    const good = await token({
      ...base,
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
    });
    if (good.status === 200) {
      const t = JSON.parse(good.body) as Record<string, string>;
      bag.add('access_token', t.access_token);
      bag.add('refresh_token', t.refresh_token);
      bag.add('id_token', t.id_token);
    }
    const answers = [
      wrong,
      // The code replayed (after use, or after the failed attempt): refused, never echoed with the
      // tokens.
      await token({ ...base, grant_type: 'authorization_code', code, code_verifier: verifier }),
      await token({
        ...base,
        grant_type: 'authorization_code',
        code: canary('unknown-code'),
        code_verifier: verifier,
      }),
      await token({ ...base, grant_type: 'refresh_token', refresh_token: fakeRefresh }),
      await token({
        ...base,
        grant_type: 'refresh_token',
        refresh_token: fakeRefresh,
        client_secret: secret,
      }),
      // A client trying the resource-owner password grant: refused, the password not echoed.
      await token({
        ...base,
        grant_type: 'password',
        username: 'student@example.com',
        password: secret,
      }),
    ];
    for (const a of answers) {
      expect(a.status).toBeGreaterThanOrEqual(400);
      expect(JSON.parse(a.body)).toHaveProperty('error');
      expect(leaksIn(bag, text(a))).toEqual([]);
    }
  });

  it('a refused bearer token is not echoed in the 401 body or WWW-Authenticate challenge', async () => {
    const bad = canary('at');
    bag.add('access_token', bad);
    for (const path of ['/member/graphql', '/api/oauth/userinfo']) {
      const res = await fetch(`${server.url}${path}`, {
        method: path.endsWith('graphql') ? 'POST' : 'GET',
        headers: { authorization: `Bearer ${bad}`, 'content-type': 'application/json' },
        ...(path.endsWith('graphql')
          ? { body: JSON.stringify({ query: '{ viewer { id } }' }) }
          : {}),
      }).then(answer);
      expect(res.status).toBe(401);
      expect(res.headers).toMatch(/www-authenticate: Bearer/i);
      expect(leaksIn(bag, text(res))).toEqual([]);
    }
  });

  it('a wrong password is not echoed by the sign-in page, nor put in the URL it redirects to', async () => {
    const password = canary('password');
    bag.add('password', password);
    const browser = new ScriptedBrowser();
    const first = await browser.navigate(authorizeUrl({}), {}, REDIRECT);
    expect('page' in first).toBe(true);
    const page = (first as { page: { url: string; html: string } }).page;
    const { parseForms } = await import('../helpers/scripted-browser');
    const form = parseForms(page.html).find((f) => 'password' in f.fields)!;
    const res = await browser
      .request(new URL(form.action || page.url, page.url).href, {
        method: 'POST',
        form: { ...form.fields, email: 'student@example.com', password },
      })
      .then(answer);
    expect(leaksIn(bag, text(res))).toEqual([]);
  });

  it('unknown paths and methods answer without echoing secret query parameters', async () => {
    const t = canary('token');
    bag.add('access_token', t);
    const res = await fetch(`${server.url}/no/such/path?access_token=${t}&code=${t}`).then(answer);
    expect(res.status).toBe(404);
    expect(leaksIn(bag, text(res))).toEqual([]);
  });

  it("the server's own log lines carry none of the secrets sent to it", () => {
    expect(bag.size).toBeGreaterThan(8);
    expect(leaksIn(bag, serverLog.join('\n'))).toEqual([]);
  });
});

describe('loopback receiver (app side): the callback page is fixed text', () => {
  it('a callback carrying a code, tokens and a hostile error_description gets a page and headers without them', async () => {
    const bag = new SecretBag();
    const secret = canary('code');
    bag.add('code', secret);
    const callbacks: Record<string, string>[] = [
      { code: secret, state: 's' },
      {
        error: 'server_error',
        error_description: `<script>${secret}</script>`,
        code: secret,
        access_token: secret,
      },
      { error: 'access_denied', state: secret },
    ];
    for (const params of callbacks) {
      const receiver = await startLoopbackReceiver();
      const url = `${receiver.redirectUri}?${new URLSearchParams(params)}`;
      const res = await fetch(url, { redirect: 'manual' }).then(answer);
      expect(res.status).toBe(200);
      expect(res.headers).toMatch(/referrer-policy: no-referrer/);
      expect(res.location).toBeNull();
      expect(leaksIn(bag, text(res))).toEqual([]);
      // The receiver did get it (the canary was really sent).
      expect((await receiver.callback).toString()).toContain(
        encodeURIComponent(secret).slice(0, 10),
      );
      await receiver.close();
    }
  });
});
