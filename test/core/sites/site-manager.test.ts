import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmbeddedServer } from '../../../embedded-server/index';
import type { EmbeddedServer, EmbeddedServerOptions } from '../../../embedded-server/index';
import type { SignInProgress } from '../../../electron/common/view-models';
import { isCoreError } from '../../../electron/core/errors';
import { createMemoryCipher } from '../../../electron/core/vault/cipher';
import { createVault } from '../../../electron/core/vault/vault';
import type { Harness } from '../auth/helpers/harness';
import { createHarness, refreshTokenWorks } from '../auth/helpers/harness';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function server(options: EmbeddedServerOptions = {}): Promise<EmbeddedServer> {
  const s = await createEmbeddedServer({ port: 0, seed: 'demo', site: 'demo', ...options });
  let closed = false;
  const close = s.close.bind(s);
  cleanups.push(async () => {
    if (!closed) await close();
  });
  return Object.assign(s, {
    close: async () => {
      closed = true;
      await close();
    },
  });
}

async function harness(extra: Parameters<typeof createHarness>[0] = {}): Promise<Harness> {
  const h = await createHarness(extra);
  cleanups.push(() => h.close());
  return h;
}

const vaultOf = (h: Harness) => createVault({ dir: join(h.dir, 'vault'), cipher: h.cipher });

describe('adding a site', () => {
  it('validates discovery before saving anything', async () => {
    const h = await harness();
    await expect(
      h.manager.add({ baseUrl: 'http://school.example.com', clientId: 'x' }),
    ).rejects.toSatisfy((e) => isCoreError(e, 'invalid-input'));
    await expect(h.manager.add({ baseUrl: 'http://127.0.0.1:1', clientId: 'x' })).rejects.toSatisfy(
      (e) => isCoreError(e, 'site-unreachable'),
    );
    expect(h.manager.list()).toEqual([]);
    await expect(readFile(join(h.dir, 'sites.json'))).rejects.toThrow();
  });

  it('saves non-secret config in sites.json and secrets only in the encrypted vault', async () => {
    const s = await server();
    const h = await harness();
    const site = await h.manager.add({
      baseUrl: `${s.url}/`,
      clientId: 'demo-desktop-confidential',
      clientSecret: 'demo-desktop-secret',
      label: 'Demo School',
    });
    expect(site).toMatchObject({
      baseUrl: s.url,
      clientId: 'demo-desktop-confidential',
      label: 'Demo School',
      status: 'signed-out',
      isDemo: false,
    });
    expect(site.id).toMatch(/^[A-Za-z0-9]{8}$/);
    await h.manager.signIn(site.id);
    const secrets = await vaultOf(h).get(site.id);
    expect(secrets?.clientSecret).toBe('demo-desktop-secret');
    expect(secrets?.resource).toBe(s.url);
    // Raw bytes of every file the app wrote: no token, no client secret.
    const files = [
      join(h.dir, 'sites.json'),
      ...(await readdir(join(h.dir, 'vault'))).map((f) => join(h.dir, 'vault', f)),
    ];
    for (const file of files) {
      const raw = (await readFile(file)).toString('latin1');
      for (const needle of [secrets?.accessToken, secrets?.refreshToken, 'demo-desktop-secret'])
        expect(raw).not.toContain(needle as string);
    }
    // Adding the same site again returns it instead of a duplicate.
    expect(
      (await h.manager.add({ baseUrl: s.url, clientId: 'demo-desktop-confidential' })).id,
    ).toBe(site.id);
    // A restart reads the list back.
    await h.reopen();
    expect(h.manager.getSite(site.id)).toMatchObject({
      status: 'ready',
      schoolId: 'sch_demo',
      profile: { email: 'student@example.com' },
    });
  });
});

describe('signing in', () => {
  it('reports progress phases and ends ready with the profile and granted scopes', async () => {
    const s = await server();
    const h = await harness();
    const site = await h.manager.add({ baseUrl: s.url, clientId: 'demo-desktop' });
    const phases: SignInProgress[] = [];
    const statuses: string[] = [];
    h.manager.onSignInProgress((p) => phases.push(p));
    h.manager.onChange((list) => statuses.push(list[0]?.status as string));
    const done = await h.manager.signIn(site.id);
    expect(done).toMatchObject({
      status: 'ready',
      schoolId: 'sch_demo',
      subdomain: 'demo',
      grantedScopes: ['openid', 'profile', 'email', 'account:read', 'account:write'],
    });
    expect(phases.map((p) => p.phase)).toEqual([
      'discovering',
      'waiting-for-browser',
      'exchanging-code',
      'verifying',
      'done',
    ]);
    expect(phases[1]?.authorizationUrl).toMatch(new RegExp(`^${s.url}/oauth/authorize\\?`));
    expect(statuses[0]).toBe('signing-in');
    expect(statuses.at(-1)).toBe('ready');
    // Without a label, the school's name from RFC 9728 resource_name.
    expect(done.label).toBe(s.site.name);
  });

  it('a signing key rotated between two sign-ins: the unknown kid refetches the JWKS and succeeds', async () => {
    const s = await server();
    const h = await harness();
    const site = await h.manager.add({ baseUrl: s.url, clientId: 'demo-desktop' });
    await h.manager.signIn(site.id);
    await s.rotateSigningKey();
    expect((await h.manager.signIn(site.id)).status).toBe('ready');
    expect(h.sent.filter((r) => r.url === `${s.url}/oauth/jwks`)).toHaveLength(2);
  });

  it('signing in again revokes the pair it replaces (the site keeps earlier pairs live otherwise)', async () => {
    const s = await server();
    const h = await harness();
    const site = await h.manager.add({ baseUrl: s.url, clientId: 'demo-desktop' });
    await h.manager.signIn(site.id);
    const old = await vaultOf(h).get(site.id);
    await h.manager.signIn(site.id);
    await h.manager.retryPendingRevocations();
    expect(await vaultOf(h).listPendingRevocations()).toEqual([]);
    expect(
      await refreshTokenWorks(
        `${s.url}/api/oauth/token`,
        old?.refreshToken as string,
        'demo-desktop',
      ),
    ).toMatchObject({
      error: 'invalid_grant',
    });
    expect(h.manager.getSite(site.id)?.status).toBe('ready');
    expect(await h.manager.getAccessToken(site.id)).toBe(
      (await vaultOf(h).get(site.id))?.accessToken,
    );
  });

  it('a second attempt for the same site replaces the first: it is cancelled and its receiver closed', async () => {
    const s = await server();
    const opened: string[] = [];
    const h = await harness({ extra: { openExternal: (u: string) => void opened.push(u) } });
    const site = await h.manager.add({ baseUrl: s.url, clientId: 'demo-desktop' });
    const first = h.manager.signIn(site.id);
    first.catch(() => undefined);
    while (opened.length < 1) await new Promise((r) => setTimeout(r, 5));
    const second = h.manager.signIn(site.id);
    await expect(first).rejects.toSatisfy((e) => isCoreError(e, 'sign-in-cancelled'));
    const firstRedirect = new URL(opened[0] as string).searchParams.get('redirect_uri') as string;
    await expect(fetch(`${firstRedirect}?code=x&state=y`)).rejects.toThrow();
    while (opened.length < 2) await new Promise((r) => setTimeout(r, 5));
    const { createScriptedBrowser } = await import('../auth/helpers/browser');
    await createScriptedBrowser().open(opened[1] as string);
    expect((await second).status).toBe('ready');
  });

  it('three quick attempts: the newest wins, the two before it are cancelled, none is left running', async () => {
    const s = await server();
    const opened: string[] = [];
    const h = await harness({ extra: { openExternal: (u: string) => void opened.push(u) } });
    const site = await h.manager.add({ baseUrl: s.url, clientId: 'demo-desktop' });
    const first = h.manager.signIn(site.id);
    first.catch(() => undefined);
    while (opened.length < 1) await new Promise((r) => setTimeout(r, 5));
    // Both of these wait for the first to end; the third must then replace the second, not run
    // beside it.
    const second = h.manager.signIn(site.id);
    second.catch(() => undefined);
    const third = h.manager.signIn(site.id);
    await expect(first).rejects.toSatisfy((e) => isCoreError(e, 'sign-in-cancelled'));
    await expect(second).rejects.toSatisfy((e) => isCoreError(e, 'sign-in-cancelled'));
    while (opened.length < 2) await new Promise((r) => setTimeout(r, 5));
    const { createScriptedBrowser } = await import('../auth/helpers/browser');
    await createScriptedBrowser().open(opened[opened.length - 1] as string);
    expect((await third).status).toBe('ready');
  });

  it('cancelSignIn -> sign-in-cancelled, the status returns to signed-out', async () => {
    const s = await server();
    const opened: string[] = [];
    const h = await harness({ extra: { openExternal: (u: string) => void opened.push(u) } });
    const site = await h.manager.add({ baseUrl: s.url, clientId: 'demo-desktop' });
    const attempt = h.manager.signIn(site.id);
    while (opened.length < 1) await new Promise((r) => setTimeout(r, 5));
    expect(h.manager.getSite(site.id)?.status).toBe('signing-in');
    h.manager.cancelSignIn(site.id);
    const phases: string[] = [];
    h.manager.onSignInProgress((p) => phases.push(p.phase));
    await expect(attempt).rejects.toSatisfy((e) => isCoreError(e, 'sign-in-cancelled'));
    expect(h.manager.getSite(site.id)?.status).toBe('signed-out');
    expect(phases).toEqual(['failed']);
  });

  it('times out with sign-in-timeout (configurable)', async () => {
    const s = await server();
    const h = await harness({ extra: { openExternal: () => undefined, signInTimeoutMs: 150 } });
    const site = await h.manager.add({ baseUrl: s.url, clientId: 'demo-desktop' });
    await expect(h.manager.signIn(site.id)).rejects.toSatisfy((e) =>
      isCoreError(e, 'sign-in-timeout'),
    );
  });

  it('only http(s) URLs are handed to openExternal', async () => {
    const s = await server();
    const opened: string[] = [];
    const h = await harness({
      extra: { openExternal: (u: string) => void opened.push(u), signInTimeoutMs: 100 },
    });
    const site = await h.manager.add({ baseUrl: s.url, clientId: 'demo-desktop' });
    await h.manager.signIn(site.id).catch(() => undefined);
    expect(opened.every((u) => /^https?:\/\//.test(u))).toBe(true);
    expect(opened).toHaveLength(1);
  });
});

describe('signing out (RFC 7009, spec: revoke with the refresh token)', () => {
  it('online: revokes the refresh token (the server then refuses it) and deletes the pair', async () => {
    const s = await server();
    const h = await harness();
    const site = await h.manager.add({ baseUrl: s.url, clientId: 'demo-desktop' });
    await h.manager.signIn(site.id);
    const before = await vaultOf(h).get(site.id);
    const result = await h.manager.signOut(site.id);
    expect(result).toEqual({ revoked: true, pending: false });
    const revokeCall = h.sent.find((r) => r.url.endsWith('/api/oauth/revoke'));
    expect(revokeCall?.form?.get('token')).toBe(before?.refreshToken);
    expect(revokeCall?.form?.get('token_type_hint')).toBe('refresh_token');
    expect(
      await refreshTokenWorks(
        `${s.url}/api/oauth/token`,
        before?.refreshToken as string,
        'demo-desktop',
      ),
    ).toMatchObject({
      error: 'invalid_grant',
    });
    const after = await vaultOf(h).get(site.id);
    expect(after).toMatchObject({
      accessToken: null,
      refreshToken: null,
      clientId: 'demo-desktop',
    });
    expect(h.manager.getSite(site.id)?.status).toBe('signed-out');
    await expect(h.manager.getAccessToken(site.id)).rejects.toSatisfy((e) =>
      isCoreError(e, 'sign-in-needed'),
    );
  });

  it('confidential client: the revocation carries client_secret', async () => {
    const s = await server();
    const h = await harness();
    const site = await h.manager.add({
      baseUrl: s.url,
      clientId: 'demo-desktop-confidential',
      clientSecret: 'demo-desktop-secret',
    });
    await h.manager.signIn(site.id);
    const before = await vaultOf(h).get(site.id);
    expect(await h.manager.signOut(site.id)).toEqual({ revoked: true, pending: false });
    expect(
      h.sent.find((r) => r.url.endsWith('/api/oauth/revoke'))?.form?.get('client_secret'),
    ).toBe('demo-desktop-secret');
    expect(
      await refreshTokenWorks(
        `${s.url}/api/oauth/token`,
        before?.refreshToken as string,
        'demo-desktop-confidential',
        'demo-desktop-secret',
      ),
    ).toMatchObject({ error: 'invalid_grant' });
  });

  it('offline: queued durably (pending), survives an app restart, revoked when the site is back', async () => {
    const dbDir = await mkdtemp(join(tmpdir(), 'ld-srv-'));
    cleanups.push(() => rm(dbDir, { recursive: true, force: true }));
    const database = join(dbDir, 'site.db');
    const first = await server({ database });
    const h = await harness();
    const site = await h.manager.add({ baseUrl: first.url, clientId: 'demo-desktop' });
    await h.manager.signIn(site.id);
    const before = await vaultOf(h).get(site.id);
    await first.close();

    expect(await h.manager.signOut(site.id)).toEqual({ revoked: false, pending: true });
    expect(h.manager.getSite(site.id)?.status).toBe('sign-out-pending');
    expect(await vaultOf(h).get(site.id)).toMatchObject({ accessToken: null, refreshToken: null });
    // Still offline: a retry keeps it queued.
    await h.manager.retryPendingRevocations();
    expect(h.manager.getSite(site.id)?.status).toBe('sign-out-pending');

    // The app restarts; the queue is in the encrypted vault.
    await h.reopen();
    expect(h.manager.getSite(site.id)?.status).toBe('sign-out-pending');
    const queued = await vaultOf(h).listPendingRevocations();
    expect(queued.map((q) => q.token)).toEqual([before?.refreshToken]);

    // The site is back on the same port and database: the refresh token is still live until
    // revoked.
    const again = await server({ database, port: first.port });
    await h.manager.retryPendingRevocations();
    expect(h.manager.getSite(site.id)?.status).toBe('signed-out');
    expect(await vaultOf(h).listPendingRevocations()).toEqual([]);
    expect(
      await refreshTokenWorks(
        `${again.url}/api/oauth/token`,
        before?.refreshToken as string,
        'demo-desktop',
      ),
    ).toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('remove: signs out (revoking) and deletes the site and its vault record', async () => {
    const s = await server();
    const h = await harness();
    const site = await h.manager.add({ baseUrl: s.url, clientId: 'demo-desktop' });
    await h.manager.signIn(site.id);
    const before = await vaultOf(h).get(site.id);
    await h.manager.remove(site.id);
    expect(h.manager.list()).toEqual([]);
    expect(await vaultOf(h).get(site.id)).toBeNull();
    expect(
      await refreshTokenWorks(
        `${s.url}/api/oauth/token`,
        before?.refreshToken as string,
        'demo-desktop',
      ),
    ).toMatchObject({
      error: 'invalid_grant',
    });
    await expect(h.manager.signIn(site.id)).rejects.toSatisfy((e) => isCoreError(e, 'not-found'));
  });
});

describe('several sites at once', () => {
  it('demo and demo2 side by side: own pair, issuer and school; a token never goes to the other site', async () => {
    const a = await server({ site: 'demo' });
    const b = await server({ site: 'demo2' });
    const h = await harness();
    const siteA = await h.manager.add({ baseUrl: a.url, clientId: 'demo-desktop' });
    const siteB = await h.manager.add({ baseUrl: b.url, clientId: 'demo-desktop' });
    const [doneA, doneB] = await Promise.all([
      h.manager.signIn(siteA.id),
      h.manager.signIn(siteB.id),
    ]);
    expect(doneA.schoolId).toBe(a.site.schoolId);
    expect(doneB.schoolId).toBe(b.site.schoolId);
    expect(doneA.schoolId).not.toBe(doneB.schoolId);
    const va = await vaultOf(h).get(siteA.id);
    const vb = await vaultOf(h).get(siteB.id);
    expect(va?.accessToken).not.toBe(vb?.accessToken);
    expect(va?.issuer).toBe(a.url);
    expect(vb?.issuer).toBe(b.url);

    const resA = await h.manager.fetchFor(siteA.id)('/api/oauth/userinfo');
    const resB = await h.manager.fetchFor(siteB.id)('/api/oauth/userinfo');
    expect([resA.status, resB.status]).toEqual([200, 200]);
    expect(((await resA.json()) as { org_id: string }).org_id).toBe(a.site.schoolId);
    expect(((await resB.json()) as { org_id: string }).org_id).toBe(b.site.schoolId);
    await expect(h.manager.fetchFor(siteA.id)(`${b.url}/api/oauth/userinfo`)).rejects.toSatisfy(
      (e) => isCoreError(e, 'forbidden'),
    );
    // Every bearer request went to its own site's origin with its own token.
    for (const r of h.sent.filter((x) => x.authorization)) {
      const token = r.authorization?.replace('Bearer ', '');
      if (r.url.startsWith(a.url)) expect(token).toBe(va?.accessToken);
      else expect(r.url.startsWith(b.url) && token === vb?.accessToken).toBe(true);
    }
    // Signing out of one leaves the other signed in.
    await h.manager.signOut(siteA.id);
    expect(h.manager.getSite(siteB.id)?.status).toBe('ready');
  });
});

describe('an unreadable vault record', () => {
  it('means sign-in-needed, and a new sign-in starts over', async () => {
    const s = await server();
    const h = await harness();
    const site = await h.manager.add({ baseUrl: s.url, clientId: 'demo-desktop' });
    await h.manager.signIn(site.id);
    // The record is damaged (or the key was replaced): the authentication tag no longer matches.
    await writeFile(
      join(h.dir, 'vault', `site-${site.id}.vault`),
      Buffer.concat([Buffer.from([1]), Buffer.alloc(40, 7)]),
    );
    await expect(h.manager.getAccessToken(site.id)).rejects.toSatisfy((e) =>
      isCoreError(e, 'sign-in-needed'),
    );
    expect(h.manager.getSite(site.id)?.status).toBe('sign-in-needed');
    expect((await h.manager.signIn(site.id)).status).toBe('ready');
    expect(await h.manager.getAccessToken(site.id)).toBeTruthy();
  });
});

describe('memory-only token storage', () => {
  it('writes no vault file and needs a sign-in after a restart', async () => {
    const s = await server();
    const h = await harness({ cipher: createMemoryCipher() });
    const site = await h.manager.add({ baseUrl: s.url, clientId: 'demo-desktop' });
    await h.manager.signIn(site.id);
    expect(await h.manager.getAccessToken(site.id)).toBeTruthy();
    await expect(readdir(join(h.dir, 'vault'))).rejects.toThrow();
    await h.reopen();
    expect(h.manager.getSite(site.id)?.status).toBe('sign-in-needed');
  });

  it('an offline sign-out lost with a restart is shown as not confirmed, never as signed out; signing in again works', async () => {
    const dbDir = await mkdtemp(join(tmpdir(), 'ld-srv-'));
    cleanups.push(() => rm(dbDir, { recursive: true, force: true }));
    const database = join(dbDir, 'site.db');
    const first = await server({ database });
    const h = await harness({ cipher: createMemoryCipher() });
    const site = await h.manager.add({ baseUrl: first.url, clientId: 'demo-desktop' });
    await h.manager.signIn(site.id);
    await first.close();
    expect(await h.manager.signOut(site.id)).toEqual({ revoked: false, pending: true });
    expect(h.manager.getSite(site.id)?.status).toBe('sign-out-pending');

    // Restart: the queued revocation (it held the refresh token) lived in memory only.
    await h.reopen();
    expect(h.manager.getSite(site.id)?.status).toBe('sign-out-unconfirmed');
    const again = await server({ database, port: first.port });
    // The site is reachable, but nothing can be revoked any more: the status must not turn into
    // "signed out".
    await h.manager.retryPendingRevocations();
    expect(h.manager.getSite(site.id)?.status).toBe('sign-out-unconfirmed');
    expect(again.url).toBe(first.url);
    expect((await h.manager.signIn(site.id)).status).toBe('ready');
  });

  it('a confidential site whose secret was not persisted asks for it again, and adding it again restores sign-in', async () => {
    const s = await server();
    const h = await harness({ cipher: createMemoryCipher() });
    const site = await h.manager.add({
      baseUrl: s.url,
      clientId: 'demo-desktop-confidential',
      clientSecret: 'demo-desktop-secret',
    });
    await h.reopen();
    await expect(h.manager.signIn(site.id)).rejects.toSatisfy(
      (e) => isCoreError(e, 'invalid-input') && /secret/.test((e as Error).message),
    );
    expect(
      (
        await h.manager.add({
          baseUrl: s.url,
          clientId: 'demo-desktop-confidential',
          clientSecret: 'demo-desktop-secret',
        })
      ).id,
    ).toBe(site.id);
    expect((await h.manager.signIn(site.id)).status).toBe('ready');
  });
});
