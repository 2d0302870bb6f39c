import { decodeJwt, decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import { MAX_LATENCY_MS } from '../../../embedded-server/http/faults';
import { startTestServer, TestClock } from '../../helpers/server';
import { obtainTokens, refresh, userinfo } from '../helpers';
import { mintToken } from '../member-api/tokens';

const DISCOVERY = '/.well-known/oauth-authorization-server';

async function graphql(url: string, accessToken: string): Promise<Response> {
  return fetch(`${url}/member/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
    body: JSON.stringify({ query: '{ viewer { id } }' }),
  });
}

describe('Fault injection (README decision "Fault injection")', () => {
  it('offline: every connection is dropped without an answer, and the site answers again when switched off', async () => {
    const server = await startTestServer();
    expect((await fetch(server.url + DISCOVERY)).status).toBe(200);
    server.setFaults({ offline: true });
    const failure = await fetch(server.url + DISCOVERY).then(
      () => null,
      (e: unknown) => e,
    );
    // A network error (TypeError: fetch failed), not an HTTP status: the client cannot tell it from
    // a site that is gone.
    expect(failure).toBeInstanceOf(TypeError);
    server.setFaults({ offline: false });
    expect((await fetch(server.url + DISCOVERY)).status).toBe(200);
  });

  it('slow network: every answer waits the added latency first', async () => {
    const server = await startTestServer();
    server.setFaults({ latencyMs: 1000 });
    const started = performance.now();
    const res = await fetch(server.url + DISCOVERY);
    expect(res.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
    server.setFaults({ latencyMs: 0 });
    const again = performance.now();
    await (await fetch(server.url + DISCOVERY)).text();
    // Not a speed target: only that the 1 s wait is gone (a loaded machine answers this far below
    // it).
    expect(performance.now() - again).toBeLessThan(990);
  });

  it('member API 503: /member/graphql answers temporarily_unavailable with Retry-After while the rest of the site works', async () => {
    const server = await startTestServer();
    const { accessToken } = mintToken(server, { scopes: ['account:read'] });
    expect((await graphql(server.url, accessToken)).status).toBe(200);
    server.setFaults({ memberApiUnavailable: true });
    const res = await graphql(server.url, accessToken);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(res.headers.get('www-authenticate')).toBeNull();
    expect(await res.json()).toMatchObject({ error: 'temporarily_unavailable' });
    expect((await userinfo(server, accessToken)).status).toBe(200);
    server.setFaults({ memberApiUnavailable: false });
    expect((await graphql(server.url, accessToken)).status).toBe(200);
  });

  it('refresh refused: the token endpoint answers invalid_grant, and the same refresh token works once switched off', async () => {
    const server = await startTestServer();
    const tokens = await obtainTokens(server);
    server.setFaults({ refreshRefused: true });
    const refused = await refresh(server, tokens.refresh_token);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_grant');
    server.setFaults({ refreshRefused: false });
    const ok = await refresh(server, tokens.refresh_token);
    expect(ok.status).toBe(200);
  });

  it('expireAccessTokens ends live access tokens (401 invalid_token) and leaves their refresh tokens working', async () => {
    const server = await startTestServer();
    const tokens = await obtainTokens(server);
    expect((await userinfo(server, tokens.access_token)).status).toBe(200);
    expect(server.expireAccessTokens()).toBeGreaterThanOrEqual(1);
    const expired = await userinfo(server, tokens.access_token);
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toContain('invalid_token');
    const renewed = await refresh(server, tokens.refresh_token);
    expect(renewed.status).toBe(200);
    expect((await userinfo(server, renewed.body.access_token)).status).toBe(200);
  });

  it('clock skew: the Date header and the id_token times follow the site clock', async () => {
    const clock = new TestClock(Date.UTC(2026, 5, 1, 12, 0, 0));
    const server = await startTestServer({ clock });
    const before = await fetch(server.url + DISCOVERY);
    expect(Date.parse(before.headers.get('date')!)).toBe(clock.ms);
    server.setFaults({ clockSkewMs: 15 * 60_000 });
    const after = await fetch(server.url + DISCOVERY);
    expect(Date.parse(after.headers.get('date')!)).toBe(clock.ms + 15 * 60_000);
    const tokens = await obtainTokens(server, {
      scope: 'openid profile email account:read',
      nonce: 'n-1',
    });
    const claims = decodeJwt(tokens.id_token!);
    expect(claims.iat).toBe(Math.floor((clock.ms + 15 * 60_000) / 1000));
  });

  it('signing-key rotation: new id_tokens carry the new kid and the JWKS publishes both keys', async () => {
    const server = await startTestServer();
    const first = await obtainTokens(server, { nonce: 'n-1' });
    const oldKid = decodeProtectedHeader(first.id_token!).kid;
    const newKid = await server.rotateSigningKey();
    expect(newKid).not.toBe(oldKid);
    const second = await obtainTokens(server, { nonce: 'n-2' });
    expect(decodeProtectedHeader(second.id_token!).kid).toBe(newKid);
    const jwks = (await (await fetch(`${server.url}/oauth/jwks`)).json()) as {
      keys: { kid: string }[];
    };
    expect(jwks.keys.map((k) => k.kid).sort()).toEqual([oldKid, newKid].sort());
  });

  it('setFaults refuses unknown switches and values out of range, changing nothing', async () => {
    const server = await startTestServer();
    server.setFaults({ latencyMs: 10 });
    expect(() => server.setFaults({ latencyMs: MAX_LATENCY_MS + 1, offline: true })).toThrow(
      RangeError,
    );
    expect(() => server.setFaults({ offline: 'yes' as unknown as boolean })).toThrow(TypeError);
    expect(() => server.setFaults({ nonsense: true } as never)).toThrow(/unknown fault/);
    expect(server.faults).toEqual({ latencyMs: 10 });
  });

  it('no HTTP route reads or changes a fault switch', async () => {
    const server = await startTestServer();
    const paths = server.router.routes.map((r) => r.path);
    expect(paths.filter((p) => /fault|latency|offline|skew/i.test(p))).toEqual([]);
    // The admin API (operator scopes) cannot reach them either: nothing in its table names them.
    const owner = mintToken(server, { scopes: ['school:write'], audience: 'operator' });
    const res = await fetch(`${server.url}/api/admin/v1/faults`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${owner.accessToken}`, 'content-type': 'application/json' },
      body: '{"offline":true}',
    });
    expect(res.status).toBe(404);
    expect(server.faults.offline).toBeUndefined();
  });
});
