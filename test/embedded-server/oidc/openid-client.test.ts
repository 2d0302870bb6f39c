import { describe, expect, it } from 'vitest';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { startTestServer } from '../../helpers/server';
import { ScriptedBrowser } from '../../helpers/scripted-browser';

/**
 * Interoperability: a certified third-party OpenID Connect client (openid-client v6, panva) drives
 * the whole authorization-code flow against the running server. Nothing here is our own client
 * code.
 */
const REDIRECT = 'http://127.0.0.1:54321/callback';

describe('Interop with openid-client v6 (OpenID Connect Core, RFC 7636, RFC 8707, RFC 9207, RFC 7009)', () => {
  it('discovery, PKCE, authorization, callback with iss, code exchange with resource, id_token, userinfo, refresh, revoke', async () => {
    const server = await startTestServer();
    // allowInsecureRequests: the embedded site is plain http on loopback.
    // enableNonRepudiationChecks: without it openid-client checks the id_token's claims but not its
    // signature; with it, the signature at jwks_uri too.
    const config = await oidc.discovery(
      new URL(server.url),
      'demo-desktop',
      { redirect_uris: [REDIRECT] },
      oidc.None(),
      {
        execute: [oidc.allowInsecureRequests, oidc.enableNonRepudiationChecks],
      },
    );
    expect(config.serverMetadata().issuer).toBe(server.url);
    expect(config.serverMetadata().supportsPKCE()).toBe(true);

    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: 'openid profile email account:read',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
      resource: server.url,
    });

    const callback = await new ScriptedBrowser().authorize(url.href, { stopAt: REDIRECT });

    // Validates state and iss (RFC 9207: the metadata says the iss parameter is supported), then
    // exchanges the code and validates the id_token (signature via jwks_uri, iss, aud, exp, nonce).
    const tokens = await oidc.authorizationCodeGrant(
      config,
      new URL(callback),
      {
        pkceCodeVerifier: verifier,
        expectedState: state,
        expectedNonce: nonce,
        idTokenExpected: true,
      },
      { resource: server.url },
    );
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.expires_in).toBe(7200);
    expect(tokens.school_id).toBe('sch_demo');
    const claims = tokens.claims()!;
    // A second, independent check of the signature (jose against the published JWKS, ES256 only):
    // it holds, and a token with one byte of its signature changed does not.
    const jwks = createRemoteJWKSet(new URL(config.serverMetadata().jwks_uri!));
    const verified = await jwtVerify(tokens.id_token!, jwks, {
      algorithms: ['ES256'],
      issuer: server.url,
      audience: 'demo-desktop',
    });
    expect(verified.protectedHeader.alg).toBe('ES256');
    const [h, p, sig] = tokens.id_token!.split('.') as [string, string, string];
    const flipped = `${h}.${p}.${sig.slice(0, 10)}${sig[10] === 'A' ? 'B' : 'A'}${sig.slice(11)}`;
    await expect(jwtVerify(flipped, jwks, { algorithms: ['ES256'] })).rejects.toThrow(/signature/);
    expect(claims).toMatchObject({
      iss: server.url,
      aud: 'demo-desktop',
      sub: 'usr_student',
      nonce,
      email: 'student@example.com',
      org_id: 'sch_demo',
      roles: ['student'],
    });

    const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
    expect(info).toMatchObject({
      sub: 'usr_student',
      email: 'student@example.com',
      name: 'Demo Student',
      org_id: 'sch_demo',
      roles: ['student'],
    });

    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.id_token).toBeUndefined();
    expect(refreshed.school_id).toBe('sch_demo');

    await oidc.tokenRevocation(config, refreshed.refresh_token!);
    await expect(oidc.fetchUserInfo(config, refreshed.access_token, claims.sub)).rejects.toThrow();
    await expect(oidc.refreshTokenGrant(config, refreshed.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('a confidential client authenticates with client_secret_post', async () => {
    const server = await startTestServer();
    const config = await oidc.discovery(
      new URL(server.url),
      'demo-desktop-confidential',
      { redirect_uris: [REDIRECT] },
      oidc.ClientSecretPost('demo-desktop-secret'),
      { execute: [oidc.allowInsecureRequests] },
    );
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: 'openid account:read',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      resource: server.url,
    });
    const callback = await new ScriptedBrowser().authorize(url.href, { stopAt: REDIRECT });
    const tokens = await oidc.authorizationCodeGrant(
      config,
      new URL(callback),
      { pkceCodeVerifier: verifier, expectedState: state },
      { resource: server.url },
    );
    expect(tokens.claims()?.aud).toBe('demo-desktop-confidential');
    await oidc.tokenRevocation(config, tokens.refresh_token!);
  });

  it('openid-client rejects a callback whose iss is not the issuer (RFC 9207 mix-up defence works with our metadata)', async () => {
    const server = await startTestServer();
    const config = await oidc.discovery(
      new URL(server.url),
      'demo-desktop',
      { redirect_uris: [REDIRECT] },
      oidc.None(),
      {
        execute: [oidc.allowInsecureRequests],
      },
    );
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: 'account:read',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      resource: server.url,
    });
    const callback = new URL(await new ScriptedBrowser().authorize(url.href, { stopAt: REDIRECT }));
    callback.searchParams.set('iss', 'http://127.0.0.1:1');
    await expect(
      oidc.authorizationCodeGrant(
        config,
        callback,
        { pkceCodeVerifier: verifier, expectedState: state },
        { resource: server.url },
      ),
    ).rejects.toThrow();
  });
});
