import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { discover } from '../../../electron/core/auth/discovery';
import { runSignIn } from '../../../electron/core/auth/sign-in';
import { exchangeCode, refreshTokens, revokeToken } from '../../../electron/core/auth/token-client';
import { createTokenManager } from '../../../electron/core/auth/token-manager';
import { createMemoryCipher } from '../../../electron/core/vault/cipher';
import { createVault } from '../../../electron/core/vault/vault';
import { isCoreError } from '../../../electron/core/errors';
import { createHarness } from './helpers/harness';
import type { MiniAs } from './helpers/mini-as';
import { autoApproveBrowser, startMiniAs } from './helpers/mini-as';

const f = (i: string | URL | Request, init?: RequestInit) => fetch(i, init);
let as: MiniAs;
beforeAll(async () => {
  as = await startMiniAs();
});
afterAll(async () => {
  await as.close();
});
beforeEach(() => {
  as.tokenResponse = (b) => b;
  as.idTokenClaims = (c) => c;
  as.requests.length = 0;
});

async function signIn(clientSecret: string | null = null) {
  const metadata = await discover(as.url, { fetch: f });
  return runSignIn({
    metadata,
    clientId: 'mini-client',
    clientSecret,
    fetch: f,
    openExternal: (u) => void autoApproveBrowser(u),
  });
}

describe('token response (RFC 6749 §5.1 + spec "Token response")', () => {
  it('a full sign-in against an independent minimal server works', async () => {
    const r = await signIn();
    expect(r.tokens.schoolId).toBe('sch_mini');
    expect(r.profile.email).toBe('mini@example.com');
  });

  it('a token without school_id is refused as issued for a different organization', async () => {
    as.tokenResponse = (b) => {
      const { school_id: _drop, ...rest } = b;
      return rest;
    };
    await expect(signIn()).rejects.toSatisfy(
      (e) =>
        isCoreError(e, 'wrong-organization') && /different organization/.test((e as Error).message),
    );
  });

  it('a refresh that names another school is refused too', async () => {
    as.tokenResponse = (b) => ({ ...b, school_id: 'sch_other' });
    await expect(
      refreshTokens(
        {
          tokenEndpoint: `${as.url}/token`,
          refreshToken: 'rt',
          clientId: 'c',
          clientSecret: null,
          resource: as.url,
          previousScopes: [],
          schoolId: 'sch_mini',
        },
        { fetch: f },
      ),
    ).rejects.toSatisfy((e) => isCoreError(e, 'wrong-organization'));
  });

  it('an id_token signed HS256 in the full flow -> id-token-invalid', async () => {
    const original = as.signingKey;
    as.signingKey = {
      kid: original.kid,
      alg: 'HS256',
      privateKey: new TextEncoder().encode('x'.repeat(32)),
      publicJwk: null,
    };
    try {
      await expect(signIn()).rejects.toSatisfy((e) => isCoreError(e, 'id-token-invalid'));
    } finally {
      as.signingKey = original;
    }
  });

  it('an id_token with the nonce of another attempt in the full flow -> id-token-invalid', async () => {
    as.idTokenClaims = (c) => ({ ...c, nonce: 'replayed' });
    await expect(signIn()).rejects.toSatisfy((e) => isCoreError(e, 'id-token-invalid'));
  });

  it('a pair whose id_token is refused is revoked with its refresh token, not left live at the site (RFC 7009)', async () => {
    as.idTokenClaims = (c) => ({ ...c, nonce: 'replayed' });
    await expect(signIn()).rejects.toSatisfy((e) => isCoreError(e, 'id-token-invalid'));
    const issued = as.requests.filter((r) => r.path === '/token');
    const revoked = as.requests.filter((r) => r.path === '/revoke');
    expect(issued).toHaveLength(1);
    expect(revoked).toHaveLength(1);
    expect(revoked[0]!.form.get('token_type_hint')).toBe('refresh_token');
    expect(revoked[0]!.form.get('token')).toMatch(/^rt_/);
    expect(revoked[0]!.form.get('client_id')).toBe('mini-client');
  });

  it('a successful sign-in revokes nothing', async () => {
    await signIn();
    expect(as.requests.filter((r) => r.path === '/revoke')).toHaveLength(0);
  });

  it('a token type other than Bearer is refused', async () => {
    as.tokenResponse = (b) => ({ ...b, token_type: 'DPoP' });
    await expect(signIn()).rejects.toSatisfy((e) => isCoreError(e, 'sign-in-failed'));
  });

  it('sends the code, verifier, redirect_uri, resource and (confidential) client_secret in the form body', async () => {
    await signIn('the-client-secret');
    const exchange = as.requests.find((r) => r.path === '/token');
    expect(exchange?.form.get('grant_type')).toBe('authorization_code');
    expect(exchange?.form.get('code_verifier')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(exchange?.form.get('resource')).toBe(as.url);
    expect(exchange?.form.get('client_id')).toBe('mini-client');
    expect(exchange?.form.get('client_secret')).toBe('the-client-secret');
    expect(exchange?.headers.authorization).toBeUndefined();
    const authorize = as.requests.find((r) => r.path === '/authorize');
    expect(authorize).toBeDefined();
  });

  it('a public client sends no client_secret; refresh and revoke carry client_id and resource / token_type_hint', async () => {
    await refreshTokens(
      {
        tokenEndpoint: `${as.url}/token`,
        refreshToken: 'rt_1',
        clientId: 'mini-client',
        clientSecret: null,
        resource: as.url,
        previousScopes: ['openid'],
        schoolId: 'sch_mini',
      },
      { fetch: f },
    );
    await revokeToken(
      {
        revocationEndpoint: `${as.url}/revoke`,
        token: 'rt_1',
        tokenTypeHint: 'refresh_token',
        clientId: 'mini-client',
        clientSecret: null,
      },
      { fetch: f },
    );
    const [refresh, revoke] = as.requests;
    expect(Object.fromEntries(refresh?.form ?? [])).toEqual({
      grant_type: 'refresh_token',
      refresh_token: 'rt_1',
      client_id: 'mini-client',
      resource: as.url,
    });
    expect(Object.fromEntries(revoke?.form ?? [])).toEqual({
      token: 'rt_1',
      token_type_hint: 'refresh_token',
      client_id: 'mini-client',
    });
  });

  it('an OAuth error at the code exchange is reported with its sanitized error code', async () => {
    await expect(
      exchangeCode(
        {
          tokenEndpoint: `${as.url}/token`,
          code: 'unknown',
          redirectUri: 'http://127.0.0.1:1/callback',
          codeVerifier: 'v'.repeat(43),
          clientId: 'c',
          clientSecret: null,
          resource: as.url,
          requestedScopes: [],
        },
        { fetch: f },
      ),
    ).rejects.toSatisfy(
      (e) => isCoreError(e, 'sign-in-failed') && /invalid_grant/.test((e as Error).message),
    );
  });
});

describe('a refresh answer cut off on the wire (real socket close after the server answered)', () => {
  it('fails as site-unreachable, keeps the old pair, and the old refresh token is retried next time', async () => {
    const vault = createVault({ dir: '/nonexistent', cipher: createMemoryCipher() });
    await vault.put('s1', {
      clientId: 'mini-client',
      clientSecret: null,
      accessToken: 'at_old',
      refreshToken: 'rt_old',
      expiresAt: Date.now() - 1000,
      scopes: ['openid'],
      schoolId: 'sch_mini',
      schoolSubdomain: 'mini',
      resource: as.url,
      issuer: as.url,
    });
    const tokens = createTokenManager({
      vault,
      fetch: f,
      resolveSite: () => ({ origin: as.url, tokenEndpoint: `${as.url}/token` }),
    });
    as.dropNextTokenResponse = true;
    await expect(tokens.getAccessToken('s1')).rejects.toSatisfy((e) =>
      isCoreError(e, 'site-unreachable'),
    );
    expect((await vault.get('s1'))?.refreshToken).toBe('rt_old');
    const fresh = await tokens.getAccessToken('s1');
    const refreshes = as.requests
      .filter((r) => r.path === '/token')
      .map((r) => r.form.get('refresh_token'));
    expect(refreshes).toEqual(['rt_old', 'rt_old']);
    const stored = await vault.get('s1');
    expect(stored?.accessToken).toBe(fresh);
    expect(stored?.refreshToken).not.toBe('rt_old');
  });
});

describe('refresh margin proportional to the token lifetime', () => {
  it('a 30 s token is used until 3 s before it ends (one refresh over 40 calls), not refreshed before every call', async () => {
    let now = Date.now();
    const clock = { now: () => now };
    as.tokenResponse = (b) => ({ ...b, expires_in: 30 });
    const vault = createVault({ dir: '/nonexistent', cipher: createMemoryCipher() });
    await vault.put('s1', {
      clientId: 'mini-client',
      clientSecret: null,
      accessToken: 'at_short',
      refreshToken: 'rt_short',
      expiresAt: now + 30_000,
      obtainedAt: now,
      scopes: ['openid'],
      schoolId: 'sch_mini',
      schoolSubdomain: 'mini',
      resource: as.url,
      issuer: as.url,
    });
    const tokens = createTokenManager({
      vault,
      fetch: f,
      clock,
      resolveSite: () => ({ origin: as.url, tokenEndpoint: `${as.url}/token` }),
    });
    // One call a second for 40 s: the first token serves until 27 s (3 s margin), the refreshed one
    // after that.
    for (let i = 0; i < 40; i++) {
      await tokens.getAccessToken('s1');
      now += 1000;
    }
    expect(as.requests.filter((r) => r.path === '/token')).toHaveLength(1);
    // Where the lifetime is not known (a record saved before it was kept) the fixed 60 s margin
    // still applies.
    await vault.put('s1', {
      ...(await vault.get('s1'))!,
      expiresAt: now + 50_000,
      obtainedAt: undefined,
    });
    await tokens.getAccessToken('s1');
    expect(as.requests.filter((r) => r.path === '/token')).toHaveLength(2);
  });
});

describe('the browser tab shows the app verdict after the exchange and the identity check', () => {
  /**
   * A browser that is signed in at the site and consents; resolves with the page the app's loopback
   * answered.
   */
  async function signInShowing(language = 'en-US,en;q=0.9') {
    let page!: Promise<string>;
    const metadata = await discover(as.url, { fetch: f });
    const outcome = runSignIn({
      metadata,
      clientId: 'mini-client',
      clientSecret: null,
      fetch: f,
      openExternal: (u) => {
        page = (async () => {
          const res = await fetch(u, { redirect: 'manual' });
          await res.body?.cancel();
          return (
            await fetch(res.headers.get('location') as string, {
              headers: { 'accept-language': language },
            })
          ).text();
        })();
      },
    }).then(
      () => 'ok',
      (e: unknown) => (e as { code?: string }).code ?? 'error',
    );
    return { outcome: await outcome, page: await page };
  }

  it('success: "You are signed in" only once the pair and the identity are checked', async () => {
    const { outcome, page } = await signInShowing();
    expect(outcome).toBe('ok');
    expect(page).toContain('You are signed in');
  });

  it('an identity check that fails says so in the tab, with what to do (not "signed in")', async () => {
    as.idTokenClaims = (c) => ({ ...c, nonce: 'replayed' });
    const { outcome, page } = await signInShowing();
    expect(outcome).toBe('id-token-invalid');
    expect(page).toContain('Sign-in did not complete');
    expect(page).not.toContain('You are signed in');
    expect(page).toContain('What to do');
  });

  it('an algorithm the app does not accept points at the school, not at the clock', async () => {
    const original = as.signingKey;
    as.signingKey = {
      kid: original.kid,
      alg: 'HS256',
      privateKey: new TextEncoder().encode('x'.repeat(32)),
      publicJwk: null,
    };
    try {
      const { outcome, page } = await signInShowing();
      expect(outcome).toBe('id-token-invalid');
      expect(page).toContain('Tell your school');
      expect(page).not.toMatch(/clock|time zone/);
    } finally {
      as.signingKey = original;
    }
  });

  it('an expired id_token points at the clock; in Traditional Chinese for a zh-TW browser', async () => {
    as.idTokenClaims = (c) => ({
      ...c,
      iat: (c.iat as number) - 3000,
      exp: (c.iat as number) - 2000,
    });
    const { outcome, page } = await signInShowing('zh-TW,zh;q=0.9,en;q=0.5');
    expect(outcome).toBe('id-token-invalid');
    expect(page).toContain('登入未完成');
    expect(page).toContain('時間');
    expect(page).toContain('lang="zh-Hant-TW"');
  });

  it('a token answer for another organization says to sign in with the account for this school', async () => {
    as.tokenResponse = (b) => {
      const { school_id: _drop, ...rest } = b;
      return rest;
    };
    const { outcome, page } = await signInShowing();
    expect(outcome).toBe('wrong-organization');
    expect(page).toContain('your account for this school');
  });
});

describe('a data scope the student did not allow at the site (RFC 6749 §5.1 granted scope)', () => {
  it('is named as declined at sign-in, and listed as missing, not left for the first sync to discover', async () => {
    as.tokenResponse = (b) => ({ ...b, scope: 'openid profile email account:write' });
    const h = await createHarness();
    try {
      const site = await h.manager.add({ baseUrl: as.url, clientId: 'mini-client' });
      const done = await h.manager.signIn(site.id);
      expect(done).toMatchObject({
        status: 'ready',
        declinedScopes: ['account:read'],
        missingScopes: ['account:read'],
      });
      as.tokenResponse = (b) => b;
      const again = await h.manager.signIn(site.id);
      expect(again.declinedScopes).toBeUndefined();
      expect(again.missingScopes).toEqual([]);
    } finally {
      await h.close();
    }
  });
});

describe('endpoints a conforming server may leave out (RFC 8414 §2)', () => {
  it('no UserInfo endpoint: the verified id_token carries the profile, and nothing asks UserInfo', async () => {
    as.metadata = { userinfo_endpoint: null };
    try {
      const r = await signIn();
      expect(r).toMatchObject({
        idTokenVerified: true,
        profile: { email: 'mini@example.com', name: 'Mini Student' },
      });
      expect(as.requests.some((q) => q.path === '/userinfo')).toBe(false);
    } finally {
      as.metadata = {};
    }
  });

  it('no revocation endpoint: the site is added; sign-out ends the sign-in on this computer only and says so', async () => {
    as.metadata = { revocation_endpoint: null };
    const h = await createHarness();
    try {
      const site = await h.manager.add({ baseUrl: as.url, clientId: 'mini-client' });
      expect((await h.manager.signIn(site.id)).status).toBe('ready');
      expect(await h.manager.signOut(site.id)).toEqual({
        revoked: false,
        pending: false,
        localOnly: true,
      });
      expect(h.manager.getSite(site.id)?.status).toBe('signed-out');
      expect(as.requests.some((q) => q.path === '/revoke')).toBe(false);
    } finally {
      as.metadata = {};
      await h.close();
    }
  });
});
