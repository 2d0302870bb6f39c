import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmbeddedServer } from '../../../embedded-server/index';
import { createLogger } from '../../../electron/core/log';
import { createVault } from '../../../electron/core/vault/vault';
import { createHarness } from './helpers/harness';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('log canary: the core never logs a secret', () => {
  it('a full sign-in, refresh, API call and sign-out log no token, code, verifier, secret or password', async () => {
    let now = Date.now();
    const clock = { now: () => now };
    const server = await createEmbeddedServer({ port: 0, seed: 'demo', site: 'demo', clock });
    cleanups.push(() => server.close());
    const lines: string[] = [];
    const h = await createHarness({ clock, logger: createLogger((l) => lines.push(l)) });
    cleanups.push(() => h.close());
    const callbacks: string[] = [];
    h.browserOptions = { onCallback: (u) => callbacks.push(u) };

    const site = await h.manager.add({
      baseUrl: server.url,
      clientId: 'demo-desktop-confidential',
      clientSecret: 'demo-desktop-secret',
    });
    await h.manager.signIn(site.id);
    const vault = createVault({ dir: join(h.dir, 'vault'), cipher: h.cipher });
    const first = await vault.get(site.id);
    now += 2 * 60 * 60 * 1000 + 1000;
    const res = await h.manager.fetchFor(site.id)('/api/oauth/userinfo');
    expect(res.status).toBe(200);
    await res.text();
    const second = await vault.get(site.id);
    // A failing call, so error paths log too.
    await h.manager
      .fetchFor(site.id)('https://evil.example.com/')
      .catch(() => undefined);
    expect(await h.manager.signOut(site.id)).toEqual({ revoked: true, pending: false });

    const code = new URL(callbacks[0] as string).searchParams.get('code');
    const exchange = h.sent.find((r) => r.form?.get('grant_type') === 'authorization_code');
    const verifier = exchange?.form?.get('code_verifier');
    const secrets = [
      first?.accessToken,
      first?.refreshToken,
      second?.accessToken,
      second?.refreshToken,
      code,
      verifier,
      'demo-desktop-secret',
      'student-demo',
    ];
    for (const s of secrets) expect(typeof s === 'string' && s.length > 8).toBe(true);
    expect(second?.accessToken).not.toBe(first?.accessToken);
    expect(lines.length).toBeGreaterThan(10);
    const all = lines.join('\n');
    for (const s of secrets) expect(all).not.toContain(s as string);
    // The id_token is not kept, but its pieces must not be logged either: no JWT-looking strings at
    // all.
    expect(all).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\./);
  });

  it('failure paths (forged callback, offline sign-out queued, retried) log no secret either', async () => {
    const server = await createEmbeddedServer({ port: 0, seed: 'demo', site: 'demo' });
    let open = true;
    cleanups.push(async () => {
      if (open) await server.close();
    });
    const lines: string[] = [];
    const h = await createHarness({ logger: createLogger((l) => lines.push(l)) });
    cleanups.push(() => h.close());
    const callbacks: string[] = [];
    h.browserOptions = {
      onCallback: (u) => callbacks.push(u),
      rewriteCallback: (u) => {
        u.searchParams.set('state', 'forged');
        return u;
      },
    };
    const site = await h.manager.add({ baseUrl: server.url, clientId: 'demo-desktop' });
    // The forged answer is refused (400) and the sign-in keeps waiting for its own: the member
    // cancels it.
    const forged = h.manager.signIn(site.id);
    while (h.tabs.length === 0) await new Promise((r) => setTimeout(r, 10));
    await h.tabs[0];
    h.manager.cancelSignIn(site.id);
    await expect(forged).rejects.toThrow();
    h.browserOptions = { onCallback: (u) => callbacks.push(u) };
    await h.manager.signIn(site.id);
    const vault = createVault({ dir: join(h.dir, 'vault'), cipher: h.cipher });
    const pair = await vault.get(site.id);
    await server.close();
    open = false;
    expect(await h.manager.signOut(site.id)).toEqual({ revoked: false, pending: true });
    await h.manager.retryPendingRevocations();

    const secrets = [
      pair?.accessToken,
      pair?.refreshToken,
      ...callbacks.map((c) => new URL(c).searchParams.get('code')),
    ];
    const verifiers = h.sent
      .filter((r) => r.form?.get('code_verifier'))
      .map((r) => r.form?.get('code_verifier'));
    const all = lines.join('\n');
    expect(lines.some((l) => l.includes('"level":"warn"'))).toBe(true);
    for (const s of [...secrets, ...verifiers]) {
      expect(typeof s === 'string' && s.length > 8).toBe(true);
      expect(all).not.toContain(s as string);
    }
  });
});
