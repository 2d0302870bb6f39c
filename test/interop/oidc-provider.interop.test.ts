/**
 * Interoperability: the app signs in, syncs, refreshes and signs out against node-oidc-provider
 * (OpenID certified) in the configurations real schools run, and where it gives up, leaves no
 * refresh token it received live at the site. Each case asserts what the student sees (the
 * channel's answer, the site's state, the browser tab's page) and asks the provider itself about
 * every refresh token the app was given. The spec's own rules stay as they are:
 * school_id on the first exchange, RFC 9207 iss when advertised, PKCE S256 (the provider requires
 * it of native clients). See helpers/world.ts for the deployment.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignOutResult, SiteSummary, SyncRunSummary } from '../../electron/common/view-models';
import { createEmbeddedServer, type EmbeddedServer } from '../../embedded-server/index';
import type { Backend, ProviderCase, World } from './helpers/world';
import { backendFor, CLIENT_ID, SCHOOL_ID, startWorld } from './helpers/world';
import { valueOf } from '../helpers/test-core';

let embedded: EmbeddedServer;
let backend: Backend;
beforeAll(async () => {
  embedded = await createEmbeddedServer({ port: 0, seed: 'demo', site: 'demo' });
  backend = await backendFor(embedded);
});
afterAll(async () => {
  await embedded?.close();
});

async function withWorld(config: ProviderCase, run: (w: World) => Promise<void>): Promise<void> {
  const w = await startWorld(config, backend);
  try {
    await run(w);
  } finally {
    await w.close();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Add the site, sign in (approve), and check what the student then sees. */
async function signIn(w: World): Promise<SiteSummary> {
  const added = valueOf(
    await w.call<SiteSummary>('sites:add', { baseUrl: w.origin, clientId: CLIENT_ID }),
  );
  const site = valueOf(await w.call<SiteSummary>('sites:sign-in', { siteId: added.id }));
  expect(site).toMatchObject({ status: 'ready', schoolId: SCHOOL_ID, label: 'Interop School' });
  expect(await w.tabs.at(-1)).toContain('You are signed in');
  return site;
}

async function syncs(w: World, siteId: string): Promise<void> {
  const run = valueOf(await w.call<SyncRunSummary>('sync:now', { siteId }));
  expect(run.outcome).toBe('completed');
  const library = valueOf(await w.call<unknown[]>('library:list', { siteId }));
  expect(library.length).toBeGreaterThan(0);
}

/** Sign-out ended the sign-in at the site: every refresh token the app received is dead there. */
async function signsOutEverywhere(w: World, siteId: string): Promise<void> {
  expect(
    valueOf(await w.call<SignOutResult>('sites:sign-out', { siteId, removeData: false })),
  ).toEqual({ revoked: true, pending: false });
  await noRefreshTokenLive(w);
}

async function noRefreshTokenLive(w: World): Promise<void> {
  for (const token of w.refreshTokens())
    expect(await w.refreshTokenWorks(token)).toMatchObject({ error: 'invalid_grant' });
}

describe('node-oidc-provider interoperability matrix', () => {
  it('stock defaults (no revocation, no resource indicators, RS256, id_token with sub only): sign-out ends it on this computer and says so', async () => {
    await withWorld({}, async (w) => {
      const site = await signIn(w);
      // conformIdTokenClaims: the id_token names only sub; UserInfo supplied the profile.
      expect(site.profile).toMatchObject({
        email: 'student@interop.example',
        name: 'Interop Student',
      });
      await syncs(w, site.id);
      const out = valueOf(
        await w.call<SignOutResult>('sites:sign-out', { siteId: site.id, removeData: false }),
      );
      expect(out).toEqual({ revoked: false, pending: false, localOnly: true });
      expect(valueOf(await w.call<SiteSummary[]>('sites:list'))[0]).toMatchObject({
        status: 'signed-out',
      });
      // Honest: without a revocation endpoint the pair lives on at the site until it expires.
      expect((await w.refreshTokenWorks(w.refreshTokens()[0] as string)).status).toBe(200);
    });
  });

  it('no iss in the authorization response (RFC 9207 not advertised): accepted; revocation on', async () => {
    await withWorld({ noIss: true, revocation: true }, async (w) => {
      const site = await signIn(w);
      await syncs(w, site.id);
      await signsOutEverywhere(w, site.id);
    });
  });

  it.each(['RS256', 'PS256', 'EdDSA'] as const)(
    'id_token signed %s only (as listed in discovery)',
    async (alg) => {
      await withWorld(
        { idTokenAlg: alg, revocation: true, conformIdTokenClaims: false },
        async (w) => {
          const site = await signIn(w);
          expect(site.profile).toMatchObject({ email: 'student@interop.example' });
          await signsOutEverywhere(w, site.id);
        },
      );
    },
  );

  it('no id_token although openid was granted, UserInfo refusing the resource-bound token: the member API names the member', async () => {
    await withWorld(
      { noIdToken: true, resourceIndicators: 'opaque', revocation: true },
      async (w) => {
        const site = await signIn(w);
        // The member API's viewer (the embedded server's demo student behind the resource server).
        expect(site.profile).toMatchObject({ email: 'student@example.com' });
        await syncs(w, site.id);
        await signsOutEverywhere(w, site.id);
      },
    );
  });

  it.each([
    ['on', true],
    ['off', false],
  ] as const)(
    'refresh token rotation %s, 2 s access tokens: sync, expiry, refresh, sync, sign-out',
    async (_name, rotate) => {
      await withWorld(
        { rotate, accessTokenTtl: 2, resourceIndicators: 'opaque', revocation: true },
        async (w) => {
          const site = await signIn(w);
          await syncs(w, site.id);
          await sleep(2_200);
          await syncs(w, site.id);
          const refreshes = w.tokenAnswers.filter((a) => a.grant === 'refresh_token');
          expect(refreshes.length).toBeGreaterThanOrEqual(1);
          expect(refreshes.every((a) => a.status === 200)).toBe(true);
          // school_id came on the first exchange only; the refreshed pair kept it.
          expect(refreshes.some((a) => 'school_id' in a.body)).toBe(false);
          expect(valueOf(await w.call<SiteSummary[]>('sites:list'))[0]).toMatchObject({
            status: 'ready',
            schoolId: SCHOOL_ID,
          });
          // Rotation on: each refresh brought a new refresh token; off: the same one.
          expect(w.refreshTokens().length).toBe(rotate ? refreshes.length + 1 : 1);
          await signsOutEverywhere(w, site.id);
        },
      );
    },
  );

  it.each(['jwt', 'opaque'] as const)(
    '%s access tokens for the member API (RFC 8707 resource indicators)',
    async (format) => {
      await withWorld({ resourceIndicators: format, revocation: true }, async (w) => {
        const site = await signIn(w);
        await syncs(w, site.id);
        expect(w.memberCalls.length).toBeGreaterThan(0);
        expect(w.memberCalls.every((c) => c.status === 200)).toBe(true);
        await signsOutEverywhere(w, site.id);
      });
    },
  );

  it('issuer on a path, named by the RFC 9728 authorization_servers (RFC 8414 §3.1 / OIDC discovery)', async () => {
    await withWorld(
      { path: '/oidc', revocation: true, resourceIndicators: 'opaque' },
      async (w) => {
        const site = await signIn(w);
        await syncs(w, site.id);
        await signsOutEverywhere(w, site.id);
      },
    );
  });

  it('access_denied: the student cancels on the consent page; the app says so, and no token was issued', async () => {
    await withWorld({ revocation: true }, async (w) => {
      const added = valueOf(
        await w.call<SiteSummary>('sites:add', { baseUrl: w.origin, clientId: CLIENT_ID }),
      );
      w.decision = 'cancel';
      const result = await w.call('sites:sign-in', { siteId: added.id });
      expect(result.ok).toBe(false);
      if (!result.ok)
        expect(result.error).toMatchObject({
          code: 'sign-in-denied',
          message: expect.stringMatching(/cancelled at the site/),
        });
      expect(await w.tabs.at(-1)).toContain('Sign-in cancelled');
      expect(w.tokenAnswers).toHaveLength(0);
      expect(valueOf(await w.call<SiteSummary[]>('sites:list'))[0]).toMatchObject({
        status: 'signed-out',
      });
    });
  });

  it('invalid_grant: the site ended the grant; the next refresh is refused, the app asks for a new sign-in and keeps nothing live', async () => {
    await withWorld(
      { accessTokenTtl: 2, resourceIndicators: 'opaque', revocation: true },
      async (w) => {
        const site = await signIn(w);
        await syncs(w, site.id);
        // The school ends the session (e.g. a password change): the grant is revoked at the
        // provider.
        const [token] = w.refreshTokens();
        const revoke = await fetch(`${w.issuer}/token/revocation`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ token: token as string, client_id: CLIENT_ID }),
        });
        expect(revoke.status).toBe(200);
        await sleep(2_200);
        const run = await w.call<SyncRunSummary>('sync:now', { siteId: site.id });
        const failed = run.ok ? run.value.error : run.error;
        expect(failed).toMatchObject({ code: 'sign-in-needed' });
        expect(
          w.tokenAnswers.filter((a) => a.grant === 'refresh_token').map((a) => a.body.error),
        ).toEqual(['invalid_grant']);
        expect(valueOf(await w.call<SiteSummary[]>('sites:list'))[0]).toMatchObject({
          status: 'sign-in-needed',
        });
        await noRefreshTokenLive(w);
      },
    );
  });

  it('a token answer without school_id (another organization) is refused and revoked at the provider', async () => {
    await withWorld({ revocation: true }, async (w) => {
      const added = valueOf(
        await w.call<SiteSummary>('sites:add', { baseUrl: w.origin, clientId: CLIENT_ID }),
      );
      w.omitSchoolId = true;
      const result = await w.call('sites:sign-in', { siteId: added.id });
      expect(!result.ok && result.error.code).toBe('wrong-organization');
      // The tab waited for the verdict: not "signed in", and what to do.
      const tab = await w.tabs.at(-1);
      expect(tab).toContain('Sign-in did not complete');
      expect(tab).toContain('your account for this school');
      expect(w.refreshTokens()).toHaveLength(1);
      await noRefreshTokenLive(w);
    });
  });
});
