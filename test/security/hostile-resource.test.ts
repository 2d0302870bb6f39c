import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runDoctor } from '../../electron/core/doctor/run-doctor';
import { isCoreError } from '../../electron/core/errors';
import { createVault } from '../../electron/core/vault/vault';
import type { Harness } from '../core/auth/helpers/harness';
import { createHarness, refreshTokenWorks } from '../core/auth/helpers/harness';
import type { MiniAs } from '../core/auth/helpers/mini-as';
import { startMiniAs } from '../core/auth/helpers/mini-as';

/**
 * A site whose sign-in service refuses the RFC 8707 resource indicator (invalid_target, §2), as a
 * stock provider does by default, and whose member API then refuses the pair issued without one.
 * Real HTTP on 127.0.0.1 (a small authorization server with a member API beside it), the real site
 * manager, vault and token manager. The app must not keep a pair nothing accepts (it used to, and
 * every sync then said "sign in again", for ever), must revoke it (RFC 7009) rather than leave it
 * live at the site, and must say why, with the sign-in check agreeing.
 */
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setUp(): Promise<{ as: MiniAs; h: Harness; siteId: string }> {
  const as = await startMiniAs();
  cleanups.push(() => as.close());
  as.refuseResource = true;
  const h = await createHarness();
  cleanups.push(() => h.close());
  const site = await h.manager.add({
    baseUrl: as.url,
    clientId: 'mini-client',
    label: 'Mini School',
  });
  return { as, h, siteId: site.id };
}

const refreshTokensIssued = (h: Harness): string[] =>
  h.tokenAnswers
    .filter((a) => a.form.get('grant_type') === 'authorization_code')
    .map((a) => a.body.refresh_token as string);

describe('a site that refuses the resource indicator (RFC 8707 invalid_target)', () => {
  it('a pair the member API refuses is revoked, not kept, and the student is told the sign-in cannot reach the member data', async () => {
    const { as, h, siteId } = await setUp();
    const error = await h.manager.signIn(siteId).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isCoreError(error, 'sign-in-failed')).toBe(true);
    expect((error as { detail?: Record<string, unknown> }).detail).toMatchObject({
      hint: 'access',
      at: 'member-api',
    });
    expect((error as Error).message).toMatch(/does not give this app access to your member data/);
    expect((error as Error).message).not.toMatch(/Sign in again/);

    // Asked once with the resource (refused), once without: the second attempt's pair was issued,
    // then revoked.
    const authorizations = as.requests
      .filter((r) => r.path === '/authorize')
      .map((r) => r.query.get('resource'));
    expect(authorizations).toEqual([as.url, null]);
    const [issued] = refreshTokensIssued(h);
    expect(issued).toMatch(/^rt_/);
    expect(refreshTokensIssued(h)).toHaveLength(1);
    expect(as.revoked.has(issued!)).toBe(true);
    expect(await refreshTokenWorks(`${as.url}/token`, issued!, 'mini-client')).toEqual({
      status: 400,
      error: 'invalid_grant',
    });

    // Nothing of it was kept: no pair in the vault, the site not ready, no sync to fail with "sign
    // in again".
    const secrets = await createVault({ dir: join(h.dir, 'vault'), cipher: h.cipher }).get(siteId);
    expect(secrets?.accessToken ?? null).toBeNull();
    expect(secrets?.refreshToken ?? null).toBeNull();
    expect(h.manager.getSite(siteId)?.status).not.toBe('ready');
    await expect(h.manager.getAccessToken(siteId)).rejects.toSatisfy((e) =>
      isCoreError(e, 'sign-in-needed'),
    );

    // The browser tab of the second attempt says so too, not "try again".
    const pages = (await Promise.all(h.tabs)) as { body: string }[];
    expect(pages.at(-1)?.body).toMatch(/does not give the app access to your member data/);

    // The sign-in check names the same cause, with what to tell the school.
    const report = await runDoctor(
      {
        site: { label: 'Mini School', baseUrl: as.url, clientId: 'mini-client' },
        attempt: h.manager.lastSignInAttempt(siteId),
      },
      {
        fetch,
        clock: Date,
        env: {},
        app: { version: '0.0.0-test', host: 'browser', platform: process.platform },
      },
    );
    expect(report.trigger).toBe('sign-in-failed');
    expect(report.checks.find((c) => c.id === 'client')).toMatchObject({
      status: 'problem',
      finding: 'clientResourceRefused',
      params: { clientId: 'mini-client', origin: as.url },
    });
  });

  it('a site whose member API does take the pair issued without a resource is still signed in to (and it is kept)', async () => {
    const { as, h, siteId } = await setUp();
    as.memberApiAccepts = () => true;
    await expect(h.manager.signIn(siteId)).resolves.toMatchObject({ status: 'ready' });
    const secrets = await createVault({ dir: join(h.dir, 'vault'), cipher: h.cipher }).get(siteId);
    expect(secrets?.resource).toBeNull();
    expect(secrets?.refreshToken).toBe(refreshTokensIssued(h)[0]);
    expect(as.revoked.size).toBe(0);
    const res = await h.manager.fetchFor(siteId)('/member/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ viewer { id } }' }),
    });
    expect(res.status).toBe(200);
  });

  it('a stored pair the member API stops taking (a 401 that survives a refresh) is revoked when it is dropped', async () => {
    const as = await startMiniAs();
    cleanups.push(() => as.close());
    const h = await createHarness();
    cleanups.push(() => h.close());
    const site = await h.manager.add({ baseUrl: as.url, clientId: 'mini-client' });
    await h.manager.signIn(site.id);
    as.memberApiAccepts = () => false;
    await expect(
      h.manager.fetchFor(site.id)('/member/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"query":"{viewer{id}}"}',
      }),
    ).rejects.toSatisfy((e) => isCoreError(e, 'sign-in-needed'));
    // The refresh rotated the pair; the refresh token held when the API refused it is revoked, not
    // left live.
    const [refreshAnswer] = h.tokenAnswers.filter(
      (a) => a.form.get('grant_type') === 'refresh_token',
    );
    const held = refreshAnswer!.body.refresh_token as string;
    expect(as.revoked.has(held)).toBe(true);
    expect(await refreshTokenWorks(`${as.url}/token`, held, 'mini-client')).toEqual({
      status: 400,
      error: 'invalid_grant',
    });
  });
});
