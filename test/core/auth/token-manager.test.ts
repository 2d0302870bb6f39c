import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Route } from '../../../embedded-server/http/types';
import { createEmbeddedServer } from '../../../embedded-server/index';
import type { EmbeddedServer } from '../../../embedded-server/index';
import { isCoreError } from '../../../electron/core/errors';
import { createVault } from '../../../electron/core/vault/vault';
import type { Harness } from './helpers/harness';
import { createHarness, refreshTokenWorks } from './helpers/harness';

class Clock {
  constructor(public ms = Date.now()) {}
  now = (): number => this.ms;
  advance(seconds: number): void {
    this.ms += seconds * 1000;
  }
}

// Test-only routes on the embedded server: an endpoint that always refuses the bearer token.
const testRoutes: Route[] = [
  {
    method: 'GET',
    path: '/test/always-401',
    handler: ({ res }) => {
      res.writeHead(401, {
        'www-authenticate': 'Bearer error="invalid_token"',
        'content-type': 'application/json',
      });
      res.end('{"error":"invalid_token"}');
    },
  },
];

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(options: { scopes?: string[]; confidential?: boolean } = {}) {
  const clock = new Clock();
  const server: EmbeddedServer = await createEmbeddedServer({
    port: 0,
    seed: 'demo',
    site: 'demo',
    clock,
    extraRoutes: testRoutes,
  });
  cleanups.push(() => server.close());
  const h: Harness = await createHarness({
    clock,
    extra: options.scopes ? { scopes: options.scopes } : {},
  });
  cleanups.push(() => h.close());
  const site = await h.manager.add(
    options.confidential
      ? {
          baseUrl: server.url,
          clientId: 'demo-desktop-confidential',
          clientSecret: 'demo-desktop-secret',
        }
      : { baseUrl: server.url, clientId: 'demo-desktop' },
  );
  await h.manager.signIn(site.id);
  const vault = createVault({ dir: join(h.dir, 'vault'), cipher: h.cipher });
  return {
    clock,
    server,
    h,
    siteId: site.id,
    vault,
    tokenEndpoint: `${server.url}/api/oauth/token`,
  };
}

describe('access tokens: single-flight refresh (spec token pair lifecycle)', () => {
  it('50 concurrent callers with an expired token cause exactly one refresh request, and no sign-out', async () => {
    const { clock, h, siteId, vault, server } = await setup();
    const before = await vault.get(siteId);
    clock.advance(2 * 60 * 60 + 1); // past the 2 h access token lifetime
    const tokens = await Promise.all(
      Array.from({ length: 50 }, () => h.manager.getAccessToken(siteId)),
    );
    expect(h.refreshRequests()).toHaveLength(1);
    expect(new Set(tokens).size).toBe(1);
    expect(tokens[0]).not.toBe(before?.accessToken);
    // Stored before use: the vault already holds the pair the callers got.
    const after = await vault.get(siteId);
    expect(after?.accessToken).toBe(tokens[0]);
    expect(after?.refreshToken).not.toBe(before?.refreshToken);
    expect(h.manager.getSite(siteId)?.status).toBe('ready');
    // The new token works, through the authorized fetch, without another refresh.
    const res = await h.manager.fetchFor(siteId)('/api/oauth/userinfo');
    expect(res.status).toBe(200);
    await res.text();
    expect(h.refreshRequests()).toHaveLength(1);
    expect(server.url).toBeTruthy();
  });

  it('a confidential client refreshes with client_id, client_secret and the stored resource (RFC 6749 §6, RFC 8707)', async () => {
    const { clock, h, siteId, vault, server } = await setup({ confidential: true });
    const before = await vault.get(siteId);
    clock.advance(2 * 60 * 60 + 1);
    await h.manager.getAccessToken(siteId);
    const [refresh] = h.refreshRequests();
    expect(Object.fromEntries(refresh?.form ?? [])).toEqual({
      grant_type: 'refresh_token',
      refresh_token: before?.refreshToken,
      client_id: 'demo-desktop-confidential',
      client_secret: 'demo-desktop-secret',
      resource: server.url,
    });
  });

  it('also refreshes a token that is about to expire (< 60 s left)', async () => {
    const { clock, h, siteId } = await setup();
    clock.advance(2 * 60 * 60 - 30);
    await h.manager.getAccessToken(siteId);
    expect(h.refreshRequests()).toHaveLength(1);
  });

  it('a refresh answer lost on the way back leaves the old pair; the old refresh token is retried successfully', async () => {
    const { clock, h, siteId, vault } = await setup();
    const before = await vault.get(siteId);
    clock.advance(2 * 60 * 60 + 1);
    h.loseNextResponse((r) => r.form?.get('grant_type') === 'refresh_token');
    await expect(h.manager.getAccessToken(siteId)).rejects.toSatisfy((e) =>
      isCoreError(e, 'site-unreachable'),
    );
    expect((await vault.get(siteId))?.refreshToken).toBe(before?.refreshToken);
    expect(h.manager.getSite(siteId)?.status).toBe('ready');
    const token = await h.manager.getAccessToken(siteId);
    const refreshes = h.refreshRequests();
    expect(refreshes).toHaveLength(2);
    expect(refreshes[1]?.form?.get('refresh_token')).toBe(before?.refreshToken);
    const res = await h.manager.fetchFor(siteId)('/api/oauth/userinfo');
    expect(res.status).toBe(200);
    await res.text();
    expect((await vault.get(siteId))?.accessToken).toBe(token);
  });

  it('invalid_grant on refresh -> sign-in-needed; the dead pair is dropped and the site says so', async () => {
    const { clock, h, siteId, vault, server } = await setup();
    const before = await vault.get(siteId);
    // The pair is revoked elsewhere (e.g. the member signed this device out on the site).
    const revoke = await fetch(`${server.url}/api/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        token: before?.refreshToken as string,
        token_type_hint: 'refresh_token',
        client_id: 'demo-desktop',
      }),
    });
    expect(revoke.status).toBe(200);
    clock.advance(2 * 60 * 60 + 1);
    const changes: string[] = [];
    h.manager.onChange((sites) => changes.push(sites[0]?.status as string));
    await expect(h.manager.getAccessToken(siteId)).rejects.toSatisfy((e) =>
      isCoreError(e, 'sign-in-needed'),
    );
    expect(h.manager.getSite(siteId)?.status).toBe('sign-in-needed');
    expect(changes).toContain('sign-in-needed');
    const after = await vault.get(siteId);
    expect(after?.refreshToken).toBeNull();
    expect(after?.clientId).toBe('demo-desktop');
  });
});

describe('refresh answered for another organization (spec "Token response": school_id)', () => {
  it('goes to sign-in-needed after one refresh instead of refreshing again on every call', async () => {
    const { clock, h, siteId, server } = await setup();
    // The site now answers refreshes of this pair for another school (a refresh copies the record's
    // school_id).
    const other = server.db
      .prepare(
        'SELECT id FROM schools WHERE id <> (SELECT school_id FROM token_pairs LIMIT 1) LIMIT 1',
      )
      .get() as { id: string };
    server.db.prepare('UPDATE token_pairs SET school_id = ?').run(other.id);
    clock.advance(2 * 60 * 60 + 1);
    await expect(h.manager.getAccessToken(siteId)).rejects.toSatisfy((e) =>
      isCoreError(e, 'wrong-organization'),
    );
    expect(h.manager.getSite(siteId)?.status).toBe('sign-in-needed');
    await expect(h.manager.getAccessToken(siteId)).rejects.toSatisfy((e) =>
      isCoreError(e, 'sign-in-needed'),
    );
    expect(h.refreshRequests()).toHaveLength(1);
  });
});

describe('refresh and sign-out racing', () => {
  it('a sign-out during a refresh in flight never resurrects the pair', async () => {
    const { clock, h, siteId, vault } = await setup();
    clock.advance(2 * 60 * 60 + 1);
    const refreshing = h.manager.getAccessToken(siteId).then(
      () => 'ok',
      () => 'failed',
    );
    const out = await h.manager.signOut(siteId);
    await refreshing;
    expect(out.pending).toBe(false);
    expect(await vault.get(siteId)).toMatchObject({ accessToken: null, refreshToken: null });
    expect(h.manager.getSite(siteId)?.status).toBe('signed-out');
    await expect(h.manager.getAccessToken(siteId)).rejects.toSatisfy((e) =>
      isCoreError(e, 'sign-in-needed'),
    );
  });
});

describe('authorized fetch (RFC 6750 §2.1, §3.1)', () => {
  it('sends the bearer token to the site origin only, never to another origin', async () => {
    const { h, siteId } = await setup();
    const other = await createEmbeddedServer({ port: 0, seed: 'demo', site: 'demo2' });
    cleanups.push(() => other.close());
    const sentBefore = h.sent.length;
    await expect(h.manager.fetchFor(siteId)(`${other.url}/api/oauth/userinfo`)).rejects.toSatisfy(
      (e) => isCoreError(e, 'forbidden'),
    );
    await expect(h.manager.fetchFor(siteId)('https://evil.example.com/x')).rejects.toSatisfy((e) =>
      isCoreError(e, 'forbidden'),
    );
    expect(h.sent.slice(sentBefore)).toEqual([]);
  });

  it('on 401 refreshes once and retries once', async () => {
    const { h, siteId, vault } = await setup();
    const current = await vault.get(siteId);
    // A token the site no longer accepts while it still looks fresh locally.
    await vault.put(siteId, {
      ...(current as NonNullable<typeof current>),
      accessToken: 'at_not-a-real-token',
    });
    const res = await h.manager.fetchFor(siteId)('/api/oauth/userinfo');
    expect(res.status).toBe(200);
    await res.text();
    expect(h.refreshRequests()).toHaveLength(1);
    const attempts = h.sent.filter((r) => r.url.endsWith('/api/oauth/userinfo'));
    expect(attempts.map((a) => a.authorization === 'Bearer at_not-a-real-token')).toEqual([
      true,
      false,
    ]);
  });

  it('accepts a Request like the global fetch, and resends its body on the retry after a 401', async () => {
    const { h, siteId, vault, server } = await setup();
    const current = await vault.get(siteId);
    await vault.put(siteId, {
      ...(current as NonNullable<typeof current>),
      accessToken: 'at_not-a-real-token',
    });
    const request = new Request(`${server.url}/member/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ viewer { id } }' }),
    });
    const res = await h.manager.fetchFor(siteId)(request);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data?: { viewer?: { id: string } } };
    expect(body.data?.viewer?.id).toBeTruthy();
    expect(h.refreshRequests()).toHaveLength(1);
  });

  it('a 401 that survives one refresh -> sign-in-needed (one refresh, two attempts)', async () => {
    const { h, siteId } = await setup();
    await expect(h.manager.fetchFor(siteId)('/test/always-401')).rejects.toSatisfy((e) =>
      isCoreError(e, 'sign-in-needed'),
    );
    expect(h.refreshRequests()).toHaveLength(1);
    expect(h.sent.filter((r) => r.url.endsWith('/test/always-401'))).toHaveLength(2);
    expect(h.manager.getSite(siteId)?.status).toBe('sign-in-needed');
  });

  it('403 insufficient_scope names the missing scope (the UI offers to sign in again)', async () => {
    const { h, siteId } = await setup({ scopes: ['openid', 'profile', 'email'] });
    const error = await h.manager
      .fetchFor(siteId)('/member/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ viewer { id } }' }),
      })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(isCoreError(error, 'insufficient-scope')).toBe(true);
    const detail = (error as { detail: { scope: string } }).detail;
    expect(detail.scope).toMatch(/account:read/);
    expect(h.manager.getSite(siteId)?.missingScopes).toContain('account:read');
  });

  it('the old refresh token of a refreshed pair dies once the new access token is used (server lifecycle)', async () => {
    const { clock, h, siteId, vault, tokenEndpoint } = await setup();
    const before = await vault.get(siteId);
    clock.advance(2 * 60 * 60 + 1);
    const res = await h.manager.fetchFor(siteId)('/api/oauth/userinfo');
    expect(res.status).toBe(200);
    await res.text();
    expect(
      await refreshTokenWorks(tokenEndpoint, before?.refreshToken as string, 'demo-desktop'),
    ).toMatchObject({
      status: 400,
      error: 'invalid_grant',
    });
  });
});

async function until(check: () => Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('a failing refresh never wipes a newer sign-in', () => {
  it('a sign-in while a refresh is on the wire supersedes it: the new pair stays, the refresh callers get it', async () => {
    const { clock, h, siteId, vault, tokenEndpoint } = await setup();
    const old = await vault.get(siteId);
    clock.advance(2 * 60 * 60 + 1);
    const held = h.holdNextRequest((r) => r.form?.get('grant_type') === 'refresh_token');
    const refreshing = h.manager.getAccessToken(siteId).then(
      (token) => ({ token }),
      (error: unknown) => ({ error }),
    );
    await held.reached;
    // The member signs in again on the same site while the refresh is still out (a slow network).
    expect((await h.manager.signIn(siteId)).status).toBe('ready');
    const fresh = await vault.get(siteId);
    expect(fresh?.refreshToken).not.toBe(old?.refreshToken);
    // The sign-in revokes the pair it replaced (spec, Authentication 10): wait until that is done,
    // then let the old refresh reach the server, which refuses it with invalid_grant.
    await until(
      async () => (await vault.listPendingRevocations()).length === 0,
      'the old pair to be revoked',
    );
    held.release();
    const outcome = await refreshing;
    expect(outcome).toEqual({ token: fresh?.accessToken });
    expect(await vault.get(siteId)).toEqual(fresh);
    expect(h.manager.getSite(siteId)?.status).toBe('ready');
    // The server's verdict: the new pair is live, the replaced one is not.
    expect(
      await refreshTokenWorks(tokenEndpoint, fresh?.refreshToken as string, 'demo-desktop'),
    ).toEqual({ status: 200, error: null });
    expect(
      (await refreshTokenWorks(tokenEndpoint, old?.refreshToken as string, 'demo-desktop')).error,
    ).toBe('invalid_grant');
  });

  it('invalid_grant for a refresh token that is no longer the stored one clears nothing (the record is read again)', async () => {
    const { clock, h, siteId, vault, server, tokenEndpoint } = await setup();
    const old = await vault.get(siteId);
    // A genuine second pair for the same member and client, from a sign-in on another device's data
    // dir.
    const other = await createHarness({ clock });
    cleanups.push(() => other.close());
    const otherSite = await other.manager.add({ baseUrl: server.url, clientId: 'demo-desktop' });
    await other.manager.signIn(otherSite.id);
    const pair = await createVault({ dir: join(other.dir, 'vault'), cipher: other.cipher }).get(
      otherSite.id,
    );
    clock.advance(2 * 60 * 60 + 1);
    const held = h.holdNextRequest((r) => r.form?.get('grant_type') === 'refresh_token');
    const refreshing = h.manager.getAccessToken(siteId).then(
      (token) => ({ token }),
      (error: unknown) => ({ error }),
    );
    await held.reached;
    // Another writer stores the new pair (without going through this token manager) and the old
    // grant dies.
    const stored = {
      ...old!,
      accessToken: pair!.accessToken,
      refreshToken: pair!.refreshToken,
      expiresAt: clock.now() + 3_600_000,
    };
    await vault.put(siteId, stored);
    const revoke = await fetch(`${server.url}/api/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        token: old?.refreshToken as string,
        token_type_hint: 'refresh_token',
        client_id: 'demo-desktop',
      }),
    });
    expect(revoke.status).toBe(200);
    held.release();
    expect(await refreshing).toEqual({ token: pair?.accessToken });
    expect(h.refreshRequests()).toHaveLength(1);
    expect(await vault.get(siteId)).toEqual(stored);
    expect(h.manager.getSite(siteId)?.status).toBe('ready');
    expect(
      await refreshTokenWorks(tokenEndpoint, pair?.refreshToken as string, 'demo-desktop'),
    ).toEqual({ status: 200, error: null });
  });
});
