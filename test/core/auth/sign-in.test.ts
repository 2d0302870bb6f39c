import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddedServer } from '../../../embedded-server/index';
import type { EmbeddedServer } from '../../../embedded-server/index';
import type { ServerMetadata } from '../../../electron/core/auth/discovery';
import { discover } from '../../../electron/core/auth/discovery';
import type { SignInOptions } from '../../../electron/core/auth/sign-in';
import { runSignIn, validateCallback } from '../../../electron/core/auth/sign-in';
import type { CoreError } from '../../../electron/core/errors';
import { isCoreError } from '../../../electron/core/errors';
import type { ScriptedBrowserOptions } from './helpers/browser';
import { createScriptedBrowser } from './helpers/browser';

const f = (i: string | URL | Request, init?: RequestInit) => fetch(i, init);

let server: EmbeddedServer;
let metadata: ServerMetadata;
beforeAll(async () => {
  server = await createEmbeddedServer({ port: 0, seed: 'demo', site: 'demo' });
  metadata = await discover(server.url, { fetch: f });
});
afterAll(async () => {
  await server.close();
});

/**
 * Runs a sign-in whose browser is the scripted one; returns the outcome and what the tab showed.
 */
async function signInWith(
  browserOptions: ScriptedBrowserOptions,
  overrides: Partial<SignInOptions> = {},
) {
  const browser = createScriptedBrowser(browserOptions);
  let tab: Promise<{ callbackUrl: string; status: number; body: string }> | null = null;
  const phases: string[] = [];
  const outcome = runSignIn({
    metadata,
    clientId: 'demo-desktop',
    clientSecret: null,
    fetch: f,
    openExternal: (url) => {
      tab = browser.open(url);
    },
    onProgress: (p) => phases.push(p),
    ...overrides,
  });
  const result = await outcome.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  const page = tab
    ? await (tab as Promise<{ callbackUrl: string; status: number; body: string }>)
    : null;
  return { result, page, phases };
}

describe('native app sign-in (RFC 8252) against the embedded server', () => {
  it('public client: code + PKCE + resource, verified id_token, tokens bound to the school', async () => {
    const { result, page, phases } = await signInWith({});
    if (!result.ok) throw result.error;
    const { tokens, profile, idTokenVerified, resource } = result.value;
    expect(idTokenVerified).toBe(true);
    expect(resource).toBe(server.url);
    expect(tokens.schoolId).toBe('sch_demo');
    expect(tokens.refreshToken).toBeTruthy();
    expect(tokens.scopes).toEqual(['openid', 'profile', 'email', 'account:read', 'account:write']);
    expect(profile).toMatchObject({ email: 'student@example.com', sub: expect.any(String) });
    expect(page?.body).toContain('You are signed in');
    expect(page?.callbackUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback\?/);
    expect(phases).toEqual(['waiting-for-browser', 'exchanging-code', 'verifying']);
    // The receiver listened only during the sign-in.
    await expect(fetch(page?.callbackUrl as string)).rejects.toThrow();
    // The access token works at the member API's UserInfo.
    const info = await fetch(metadata.userinfoEndpoint as string, {
      headers: { authorization: `Bearer ${tokens.accessToken}` },
    });
    expect(info.status).toBe(200);
    await info.text();
  });

  it('confidential client: client_secret_post at the token endpoint', async () => {
    const { result } = await signInWith(
      {},
      { clientId: 'demo-desktop-confidential', clientSecret: 'demo-desktop-secret' },
    );
    if (!result.ok) throw result.error;
    expect(result.value.tokens.schoolId).toBe('sch_demo');
  });

  it('confidential client without its secret is refused by the site -> sign-in-failed', async () => {
    const { result } = await signInWith(
      {},
      { clientId: 'demo-desktop-confidential', clientSecret: null },
    );
    expect(result.ok).toBe(false);
    expect(isCoreError(!result.ok && result.error, 'sign-in-failed')).toBe(true);
  });

  it('UserInfo supplies the profile when the site publishes keys but signs no id_token', async () => {
    const plain = await createEmbeddedServer({
      port: 0,
      seed: 'demo',
      site: 'demo',
      idTokens: 'publish-jwks-only',
    });
    try {
      const meta = await discover(plain.url, { fetch: f });
      const { result } = await signInWith({}, { metadata: meta });
      if (!result.ok) throw result.error;
      expect(result.value.idTokenVerified).toBe(false);
      expect(result.value.profile.email).toBe('student@example.com');
    } finally {
      await plain.close();
    }
  });
});

describe('callback checks, one rule at a time (RFC 6749 §10.12, RFC 9207)', () => {
  it('a different state is refused with 400 and ignored; the sign-in waits for its own answer (then times out)', async () => {
    const { result, page } = await signInWith(
      {
        rewriteCallback: (u) => {
          u.searchParams.set('state', 'forged-state');
          return u;
        },
      },
      { timeoutMs: 1500 },
    );
    expect(page?.status).toBe(400);
    expect(page?.body).not.toContain('signed in');
    expect(!result.ok && isCoreError(result.error, 'sign-in-timeout')).toBe(true);
  });

  it('state is checked before iss: both wrong -> the answer is not ours (400), never issuer-mismatch', async () => {
    const { result, page } = await signInWith(
      {
        rewriteCallback: (u) => {
          u.searchParams.set('state', 'x');
          u.searchParams.set('iss', 'https://evil.example.com');
          return u;
        },
      },
      { timeoutMs: 1500 },
    );
    expect(page?.status).toBe(400);
    expect(!result.ok && isCoreError(result.error, 'sign-in-timeout')).toBe(true);
    expect(() =>
      validateCallback(new URLSearchParams({ state: 'x', iss: 'https://evil.example.com' }), {
        state: 's',
        issuer: metadata.issuer,
        issParameterSupported: true,
      }),
    ).toThrow(expect.objectContaining({ code: 'state-mismatch' }));
  });

  it('stray callbacks (no query, wrong state, error with a wrong state) do not cancel the sign-in', async () => {
    const strays: number[] = [];
    let own: Promise<{ status: number; body: string }> | null = null;
    const { result } = await signInWith(
      {},
      {
        openExternal: async (url) => {
          // Another local process that guessed the port gets there first, three times.
          const redirect = new URL(url).searchParams.get('redirect_uri') as string;
          for (const query of ['', '?state=wrong&code=c', '?error=access_denied&state=wrong']) {
            const res = await fetch(redirect + query);
            strays.push(res.status);
            await res.text();
          }
          own = createScriptedBrowser({}).open(url);
        },
        timeoutMs: 10_000,
      },
    );
    expect(strays).toEqual([400, 400, 400]);
    if (!result.ok) throw result.error;
    expect(result.value.tokens.refreshToken).toBeTruthy();
    const page = await (own as unknown as Promise<{ status: number; body: string }>);
    expect(page.status).toBe(200);
    expect(page.body).toContain('You are signed in');
  });

  it('an iss naming another server -> issuer-mismatch (mix-up defence)', async () => {
    const { result } = await signInWith({
      rewriteCallback: (u) => {
        u.searchParams.set('iss', 'https://evil.example.com');
        return u;
      },
    });
    expect(!result.ok && isCoreError(result.error, 'issuer-mismatch')).toBe(true);
  });

  it('a missing iss when the metadata promises it -> issuer-mismatch (RFC 9207 §2.4)', async () => {
    const { result } = await signInWith({
      rewriteCallback: (u) => {
        u.searchParams.delete('iss');
        return u;
      },
    });
    expect(!result.ok && isCoreError(result.error, 'issuer-mismatch')).toBe(true);
  });

  it('the member denies -> sign-in-denied (a cancelled sign-in, not a crash), the tab says cancelled', async () => {
    const { result, page } = await signInWith({ decision: 'deny' });
    expect(!result.ok && isCoreError(result.error, 'sign-in-denied')).toBe(true);
    expect(page?.body).toContain('Sign-in cancelled');
  });

  it('another error -> sign-in-failed with the description sanitized', async () => {
    const { result } = await signInWith({
      rewriteCallback: (u) => {
        u.searchParams.delete('code');
        u.searchParams.set('error', 'temporarily_unavailable');
        u.searchParams.set('error_description', 'try\u0000 later\n<b>\u202e');
        return u;
      },
    });
    expect(result.ok).toBe(false);
    const error = (result as { error: CoreError }).error;
    expect(isCoreError(error, 'sign-in-failed')).toBe(true);
    expect(error.message).toContain('temporarily_unavailable: try later <b>');
    expect(
      [...error.message].every((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) <= 0x7e),
    ).toBe(true);
  });

  it('validateCallback: no code and no error -> sign-in-failed; iss absent and not promised -> accepted', () => {
    const expected = { state: 's', issuer: 'https://a.example', issParameterSupported: false };
    expect(() => validateCallback(new URLSearchParams({ state: 's' }), expected)).toThrow(
      expect.objectContaining({ code: 'sign-in-failed' }),
    );
    expect(validateCallback(new URLSearchParams({ state: 's', code: 'c' }), expected)).toBe('c');
  });
});

describe('cancel and timeout', () => {
  it('times out with sign-in-timeout and closes the receiver', async () => {
    let opened = '';
    const { result } = await signInWith(
      {},
      { openExternal: (u) => void (opened = u), timeoutMs: 200 },
    );
    expect(!result.ok && isCoreError(result.error, 'sign-in-timeout')).toBe(true);
    const redirectUri = new URL(opened).searchParams.get('redirect_uri') as string;
    await expect(fetch(`${redirectUri}?code=x&state=y`)).rejects.toThrow();
  });

  it('an aborted signal cancels with sign-in-cancelled and closes the receiver', async () => {
    const controller = new AbortController();
    let opened = '';
    const { result } = await signInWith(
      {},
      {
        signal: controller.signal,
        openExternal: (u) => {
          opened = u;
          setTimeout(() => controller.abort(), 50);
        },
      },
    );
    expect(!result.ok && isCoreError(result.error, 'sign-in-cancelled')).toBe(true);
    const redirectUri = new URL(opened).searchParams.get('redirect_uri') as string;
    await expect(fetch(`${redirectUri}?code=x&state=y`)).rejects.toThrow();
  });
});
