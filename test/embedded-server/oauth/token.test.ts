import { describe, expect, it } from 'vitest';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { TestClock, startTestServer } from '../../helpers/server';
import {
  CONFIDENTIAL_CLIENT,
  CONFIDENTIAL_SECRET,
  exchangeCode,
  obtainCode,
  obtainTokens,
  postForm,
  userinfo,
  type TokenBody,
} from '../helpers';
import { sha256Hex } from '../../../embedded-server/store/secrets';

describe('Token endpoint: authorization_code grant (RFC 6749 §4.1.3)', () => {
  it('returns the spec token response with no-store headers', async () => {
    const server = await startTestServer();
    const got = await obtainCode(server);
    const res = await exchangeCode(server, got);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('pragma')).toBe('no-cache');
    const body = res.body;
    expect(body).toMatchObject({
      token_type: 'Bearer',
      expires_in: 7200,
      scope: 'openid profile email account:read',
      school_id: 'sch_demo',
      school_subdomain: 'demo',
    });
    expect(body.access_token).toMatch(/^at_/);
    expect(body.refresh_token).toMatch(/^rt_/);
    expect(Number.isInteger(body.created_at)).toBe(true);
    expect(Math.abs(body.created_at - Date.now() / 1000)).toBeLessThan(60);
  });

  it('stores only SHA-256 hashes of the code and tokens', async () => {
    const server = await startTestServer();
    const got = await obtainCode(server);
    const body = (await exchangeCode(server, got)).body;
    const dump =
      JSON.stringify(server.db.prepare('SELECT * FROM token_pairs').all()) +
      JSON.stringify(server.db.prepare('SELECT * FROM authorization_codes').all());
    for (const secret of [got.code, body.access_token, body.refresh_token])
      expect(dump).not.toContain(secret);
    expect(dump).toContain(sha256Hex(body.access_token));
  });

  it('is shared by both demo sites: demo2 binds tokens to sch_demo2', async () => {
    const server = await startTestServer({ site: 'demo2' });
    const body = await obtainTokens(server);
    expect(body).toMatchObject({ school_id: 'sch_demo2', school_subdomain: 'demo2' });
  });
});

describe('Authorization codes are single-use (RFC 6749 §4.1.2, RFC 9700 §4.2.4)', () => {
  it('refuses a replayed code with invalid_grant and revokes the tokens issued from it', async () => {
    const server = await startTestServer();
    const got = await obtainCode(server);
    const first = await exchangeCode(server, got);
    expect(first.status).toBe(200);
    expect((await userinfo(server, first.body.access_token)).status).toBe(200);
    const replay = await exchangeCode(server, got);
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    expect((await userinfo(server, first.body.access_token)).status).toBe(401);
    const refreshed = await postForm(`${server.url}/api/oauth/token`, {
      grant_type: 'refresh_token',
      refresh_token: first.body.refresh_token,
      client_id: 'demo-desktop',
    });
    expect(refreshed.body.error).toBe('invalid_grant');
  });

  it('a failed attempt (wrong verifier) does not burn the code for the real client', async () => {
    const server = await startTestServer();
    const got = await obtainCode(server);
    const wrong = await exchangeCode(server, { ...got, verifier: 'x'.repeat(43) });
    expect(wrong.body.error).toBe('invalid_grant');
    expect((await exchangeCode(server, got)).status).toBe(200);
  });
});

describe('Code lifetime: 60 seconds (decision, README)', () => {
  it('accepts a code at 59 s and refuses it at 60 s', async () => {
    const clock = new TestClock();
    const server = await startTestServer({ clock });
    const young = await obtainCode(server);
    clock.advance(59);
    expect((await exchangeCode(server, young)).status).toBe(200);
    const old = await obtainCode(server);
    clock.advance(60);
    const res = await exchangeCode(server, old);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      error: 'invalid_grant',
      error_description: 'the authorization code has expired',
    });
  });
});

describe('Code exchange must repeat the authorization request (RFC 6749 §4.1.3, RFC 7636 §4.6, RFC 8707 §2.2)', () => {
  it('refuses a wrong code_verifier', async () => {
    const server = await startTestServer();
    const got = await obtainCode(server);
    const res = await exchangeCode(server, { ...got, verifier: 'a'.repeat(64) });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
  });

  it('refuses a missing code_verifier', async () => {
    const server = await startTestServer();
    const got = await obtainCode(server);
    const res = await exchangeCode(server, got, { code_verifier: undefined });
    expect(res.body.error).toBe('invalid_request');
  });

  it('refuses another redirect_uri (even another loopback port)', async () => {
    const server = await startTestServer();
    const got = await obtainCode(server);
    const res = await exchangeCode(server, {
      ...got,
      redirectUri: 'http://127.0.0.1:54322/callback',
    });
    expect(res.body.error).toBe('invalid_grant');
  });

  it('refuses a code issued to another client', async () => {
    const server = await startTestServer();
    const got = await obtainCode(server);
    const res = await exchangeCode(server, got, {
      client_id: CONFIDENTIAL_CLIENT,
      client_secret: CONFIDENTIAL_SECRET,
    });
    expect(res.body.error).toBe('invalid_grant');
  });

  it('a member code without resource at the token endpoint gets invalid_target', async () => {
    const server = await startTestServer();
    const got = await obtainCode(server);
    const res = await exchangeCode(server, got, { resource: undefined });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_target');
  });

  it('a different resource at the token endpoint gets invalid_target', async () => {
    const server = await startTestServer();
    const got = await obtainCode(server);
    const res = await exchangeCode(server, got, { resource: 'http://127.0.0.1:1' });
    expect(res.body.error).toBe('invalid_target');
  });

  it('an unknown code gets invalid_grant', async () => {
    const server = await startTestServer();
    const res = await exchangeCode(server, {
      code: 'ac_nope',
      verifier: 'a'.repeat(43),
      redirectUri: 'http://127.0.0.1:54321/callback',
    });
    expect(res.body.error).toBe('invalid_grant');
  });

  it('an unsupported grant_type gets unsupported_grant_type; none gets invalid_request', async () => {
    const server = await startTestServer();
    expect(
      (
        await postForm(`${server.url}/api/oauth/token`, {
          grant_type: 'password',
          client_id: 'demo-desktop',
        })
      ).body.error,
    ).toBe('unsupported_grant_type');
    expect(
      (await postForm(`${server.url}/api/oauth/token`, { client_id: 'demo-desktop' })).body.error,
    ).toBe('invalid_request');
  });
});

describe('Client authentication at the token endpoint (spec Authentication 1)', () => {
  it('a confidential client exchanges its code with client_secret_post', async () => {
    const server = await startTestServer();
    const got = await obtainCode(server, { client_id: CONFIDENTIAL_CLIENT });
    const res = await exchangeCode(server, got, {
      client_id: CONFIDENTIAL_CLIENT,
      client_secret: CONFIDENTIAL_SECRET,
    });
    expect(res.status).toBe(200);
  });

  it('a confidential client using none (no secret) gets 401 invalid_client', async () => {
    const server = await startTestServer();
    const got = await obtainCode(server, { client_id: CONFIDENTIAL_CLIENT });
    const res = await exchangeCode(server, got, { client_id: CONFIDENTIAL_CLIENT });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_client');
    // The code was not consumed by the failed attempt.
    expect(
      (
        await exchangeCode(server, got, {
          client_id: CONFIDENTIAL_CLIENT,
          client_secret: CONFIDENTIAL_SECRET,
        })
      ).status,
    ).toBe(200);
  });

  it('a wrong secret gets 401 invalid_client', async () => {
    const server = await startTestServer();
    const got = await obtainCode(server, { client_id: CONFIDENTIAL_CLIENT });
    const res = await exchangeCode(server, got, {
      client_id: CONFIDENTIAL_CLIENT,
      client_secret: 'demo-desktop-secreT',
    });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_client');
  });

  it('client_secret_basic is not offered and is refused with 401 invalid_client', async () => {
    const server = await startTestServer();
    const got = await obtainCode(server, { client_id: CONFIDENTIAL_CLIENT });
    const basic = Buffer.from(`${CONFIDENTIAL_CLIENT}:${CONFIDENTIAL_SECRET}`).toString('base64');
    const res = await postForm(
      `${server.url}/api/oauth/token`,
      {
        grant_type: 'authorization_code',
        code: got.code,
        redirect_uri: got.redirectUri,
        client_id: CONFIDENTIAL_CLIENT,
        code_verifier: got.verifier,
        resource: server.url,
      },
      { authorization: `Basic ${basic}` },
    );
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_client');
    // RFC 6749 §5.2: the scheme the client tried is named back.
    expect(res.headers.get('www-authenticate')).toBe(
      `Basic realm="${server.url}", charset="UTF-8"`,
    );
  });

  it('HTTP Basic on a refresh without client_id is refused too (401 invalid_client), and the refresh token stays unused', async () => {
    const server = await startTestServer();
    for (const [clientId, secret] of [
      [CONFIDENTIAL_CLIENT, CONFIDENTIAL_SECRET],
      ['demo-desktop', ''],
    ] as const) {
      const tokens = await obtainTokens(
        server,
        { client_id: clientId },
        secret ? { client_secret: secret } : {},
      );
      const basic = Buffer.from(`${clientId}:${secret}`).toString('base64');
      const res = await postForm(
        `${server.url}/api/oauth/token`,
        { grant_type: 'refresh_token', refresh_token: tokens.refresh_token },
        { authorization: `Basic ${basic}` },
      );
      expect(res.status, clientId).toBe(401);
      expect(res.body.error).toBe('invalid_client');
      expect(res.headers.get('www-authenticate')).toBe(
        `Basic realm="${server.url}", charset="UTF-8"`,
      );
      const again = await postForm(`${server.url}/api/oauth/token`, {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: clientId,
        ...(secret ? { client_secret: secret } : {}),
      });
      expect(again.status, clientId).toBe(200);
    }
  });

  it('an unknown client gets 401 invalid_client', async () => {
    const server = await startTestServer();
    const res = await postForm(`${server.url}/api/oauth/token`, {
      grant_type: 'authorization_code',
      code: 'x',
      client_id: 'nobody',
    });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_client');
  });

  it('a public client sending a secret gets 401 invalid_client', async () => {
    const server = await startTestServer();
    const got = await obtainCode(server);
    const res = await exchangeCode(server, got, { client_secret: 'anything' });
    expect(res.status).toBe(401);
  });
});

describe('id_token (OpenID Connect Core §2, spec "id_token claims")', () => {
  it('is an ES256 JWT with kid, iss, aud=client_id, exp=iat+600, nonce, and claims matching UserInfo', async () => {
    const server = await startTestServer();
    const body = await obtainTokens(server, { nonce: 'n-0S6_WzA2Mj' });
    expect(body.id_token).toBeTruthy();
    const header = decodeProtectedHeader(body.id_token!);
    expect(header.alg).toBe('ES256');
    const jwks = (await (await fetch(`${server.url}/oauth/jwks`)).json()) as {
      keys: { kid: string }[];
    };
    expect(jwks.keys.map((k) => k.kid)).toContain(header.kid);
    const claims = decodeJwt(body.id_token!);
    expect(claims.iss).toBe(server.url);
    expect(claims.aud).toBe('demo-desktop');
    expect(claims.exp! - claims.iat!).toBe(600);
    expect(claims.nonce).toBe('n-0S6_WzA2Mj');
    const info = (await userinfo(server, body.access_token)).body;
    for (const k of ['sub', 'email', 'name', 'picture', 'org_id', 'roles'])
      expect(claims[k]).toEqual(info[k]);
    expect(claims).not.toHaveProperty('resource');
  });

  it('is absent when openid was not granted', async () => {
    const server = await startTestServer();
    const body = await obtainTokens(server, { scope: 'account:read' });
    expect(body).not.toHaveProperty('id_token');
  });

  it("is absent with idTokens 'publish-jwks-only' (JWKS published, no signing)", async () => {
    const server = await startTestServer({ idTokens: 'publish-jwks-only' });
    const body: TokenBody = await obtainTokens(server);
    expect(body).not.toHaveProperty('id_token');
  });

  it('is signed with the new key after a rotation, and the old kid stays in the JWKS', async () => {
    const server = await startTestServer();
    const before = decodeProtectedHeader((await obtainTokens(server)).id_token!).kid;
    const kid = await server.rotateSigningKey();
    const after = decodeProtectedHeader((await obtainTokens(server)).id_token!).kid;
    expect(after).toBe(kid);
    expect(after).not.toBe(before);
    const jwks = (await (await fetch(`${server.url}/oauth/jwks`)).json()) as {
      keys: { kid: string }[];
    };
    expect(jwks.keys.map((k) => k.kid)).toEqual(expect.arrayContaining([before, after]));
  });

  it('the retired key leaves the JWKS after its one-day publication window', async () => {
    const clock = new TestClock();
    const server = await startTestServer({ clock });
    const old = decodeProtectedHeader((await obtainTokens(server)).id_token!).kid;
    await server.rotateSigningKey();
    clock.advance(24 * 3600 + 1);
    const jwks = (await (await fetch(`${server.url}/oauth/jwks`)).json()) as {
      keys: { kid: string }[];
    };
    expect(jwks.keys.map((k) => k.kid)).not.toContain(old);
    expect(jwks.keys).toHaveLength(1);
  });
});
