/**
 * Whatever the app receives and does not keep, it revokes (RFC 7009 §2.1; ARCHITECTURE "data from a
 * site is untrusted input"). Each path is proved at the server: the refresh token the app was given
 * no longer works there. The embedded server answers as usual; the harness changes its answer on
 * the way to the app where the test needs an answer the app refuses (what the server issued is live
 * there all the same).
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmbeddedServer } from '../../../embedded-server/index';
import { isCoreError } from '../../../electron/core/errors';
import { createVault } from '../../../electron/core/vault/vault';
import { createHarness, refreshTokenWorks } from './helpers/harness';

class Clock {
  constructor(public ms = Date.now()) {}
  now = (): number => this.ms;
  advance(seconds: number): void {
    this.ms += seconds * 1000;
  }
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(signIn = true) {
  const clock = new Clock();
  const server = await createEmbeddedServer({ port: 0, seed: 'demo', site: 'demo', clock });
  cleanups.push(() => server.close());
  const h = await createHarness({ clock });
  cleanups.push(() => h.close());
  const site = await h.manager.add({ baseUrl: server.url, clientId: 'demo-desktop' });
  if (signIn) await h.manager.signIn(site.id);
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

const isGrant = (grant: string) => (r: { form: URLSearchParams | null }) =>
  r.form?.get('grant_type') === grant;
const withoutSchool = (b: Record<string, unknown>): Record<string, unknown> => {
  const { school_id: _drop, ...rest } = b;
  return rest;
};

describe('a pair the app refuses is revoked at the site (RFC 7009)', () => {
  it('a code exchange answered without school_id: refused, and its refresh token no longer works at the server', async () => {
    const { h, siteId, tokenEndpoint } = await setup(false);
    h.rewriteNextAnswer(isGrant('authorization_code'), withoutSchool);
    await expect(h.manager.signIn(siteId)).rejects.toSatisfy((e) =>
      isCoreError(e, 'wrong-organization'),
    );
    const answer = h.tokenAnswers.find((a) => a.form.get('grant_type') === 'authorization_code');
    expect(answer?.body.refresh_token).toEqual(expect.any(String));
    expect(
      await refreshTokenWorks(tokenEndpoint, answer?.body.refresh_token as string, 'demo-desktop'),
    ).toMatchObject({
      status: 400,
      error: 'invalid_grant',
    });
    expect(h.manager.getSite(siteId)?.status).toBe('signed-out');
  });

  it('a refresh answered for another school: refused; the new pair and the old one no longer work at the server', async () => {
    const { clock, h, siteId, vault, tokenEndpoint } = await setup();
    const before = await vault.get(siteId);
    clock.advance(2 * 60 * 60 + 1);
    h.rewriteNextAnswer(isGrant('refresh_token'), (b) => ({ ...b, school_id: 'sch_someone_else' }));
    await expect(h.manager.getAccessToken(siteId)).rejects.toSatisfy((e) =>
      isCoreError(e, 'wrong-organization'),
    );
    const answer = h.tokenAnswers.find((a) => a.form.get('grant_type') === 'refresh_token');
    expect(answer?.status).toBe(200);
    expect(
      await refreshTokenWorks(tokenEndpoint, answer?.body.refresh_token as string, 'demo-desktop'),
    ).toMatchObject({ error: 'invalid_grant' });
    expect(
      await refreshTokenWorks(tokenEndpoint, before?.refreshToken as string, 'demo-desktop'),
    ).toMatchObject({ error: 'invalid_grant' });
    expect(h.manager.getSite(siteId)?.status).toBe('sign-in-needed');
  });

  it('a refreshed pair the token manager discards (the record changed meanwhile) no longer works at the server', async () => {
    const { clock, h, siteId, vault, tokenEndpoint } = await setup();
    const old = await vault.get(siteId);
    clock.advance(2 * 60 * 60 + 1);
    const held = h.holdNextRequest(isGrant('refresh_token'));
    const refreshing = h.manager.getAccessToken(siteId).then(
      (token) => ({ token }),
      (error: unknown) => ({ error }),
    );
    await held.reached;
    // Another writer (a sign-in on another path) stores a different pair while the refresh is on
    // the wire.
    const stored = {
      ...old!,
      accessToken: 'at_other_writer',
      refreshToken: 'rt_other_writer',
      expiresAt: clock.now() + 3_600_000,
    };
    await vault.put(siteId, stored);
    held.release();
    expect(await refreshing).toEqual({ token: 'at_other_writer' });
    expect(await vault.get(siteId)).toEqual(stored);
    const answer = h.tokenAnswers.find((a) => a.form.get('grant_type') === 'refresh_token');
    expect(answer?.status).toBe(200);
    expect(
      await refreshTokenWorks(tokenEndpoint, answer?.body.refresh_token as string, 'demo-desktop'),
    ).toMatchObject({ error: 'invalid_grant' });
  });
});

describe('school_id on the first exchange only (spec: "A refresh copies the value it already has")', () => {
  it('a refresh answer without school_id keeps the pair and its school; nothing is revoked', async () => {
    const { clock, h, siteId, vault, tokenEndpoint } = await setup();
    clock.advance(2 * 60 * 60 + 1);
    h.rewriteNextAnswer(isGrant('refresh_token'), withoutSchool);
    const token = await h.manager.getAccessToken(siteId);
    const stored = await vault.get(siteId);
    expect(stored).toMatchObject({ accessToken: token, schoolId: 'sch_demo' });
    expect(h.manager.getSite(siteId)).toMatchObject({ status: 'ready', schoolId: 'sch_demo' });
    expect(h.sent.some((r) => r.url.endsWith('/api/oauth/revoke'))).toBe(false);
    expect(
      await refreshTokenWorks(tokenEndpoint, stored?.refreshToken as string, 'demo-desktop'),
    ).toEqual({ status: 200, error: null });
  });
});
