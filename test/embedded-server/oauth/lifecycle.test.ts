import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { TestClock, startTestServer, tempDir } from '../../helpers/server';
import { createEmbeddedServer } from '../../../embedded-server/index';
import type { EmbeddedServer } from '../../../embedded-server/index';
import {
  CONFIDENTIAL_CLIENT,
  CONFIDENTIAL_SECRET,
  exchangeCode,
  obtainCode,
  obtainTokens,
  postForm,
  refresh,
  revoke,
  userinfo,
} from '../helpers';

describe('Refresh (spec "Token pair lifecycle", RFC 6749 §6)', () => {
  it('returns a new pair with the same school_id and no id_token', async () => {
    const server = await startTestServer();
    const first = await obtainTokens(server);
    const res = await refresh(server, first.refresh_token);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toMatchObject({
      token_type: 'Bearer',
      expires_in: 7200,
      school_id: 'sch_demo',
      school_subdomain: 'demo',
      scope: first.scope,
    });
    expect(res.body).not.toHaveProperty('id_token');
    expect(res.body.access_token).not.toBe(first.access_token);
    expect(res.body.refresh_token).not.toBe(first.refresh_token);
  });

  it('keeps the old pair live, and its refresh token can be retried, until the new access token is presented', async () => {
    const server = await startTestServer();
    const old = await obtainTokens(server);
    const a = (await refresh(server, old.refresh_token)).body;
    // Retry (the first response was lost): another new pair.
    const b = (await refresh(server, old.refresh_token)).body;
    expect(b.access_token).toBeTruthy();
    expect(b.access_token).not.toBe(a.access_token);
    // The old access token still works before any new one is presented.
    expect((await userinfo(server, old.access_token)).status).toBe(200);
    // First presentation of a new access token revokes the old pair at that moment.
    expect((await userinfo(server, b.access_token)).status).toBe(200);
    expect((await userinfo(server, old.access_token)).status).toBe(401);
    expect((await refresh(server, old.refresh_token)).body.error).toBe('invalid_grant');
    // The sibling pair from the retry stays live (it is a new pair, not the old one).
    expect((await userinfo(server, a.access_token)).status).toBe(200);
  });

  it('a presentation that fails (wrong origin) does not count as "first presented"', async () => {
    const server = await startTestServer({ faults: {} });
    const old = await obtainTokens(server);
    const next = (await refresh(server, old.refresh_token)).body;
    server.faults.tokenStoreUnavailable = true;
    expect((await userinfo(server, next.access_token)).status).toBe(503);
    server.faults.tokenStoreUnavailable = false;
    expect((await userinfo(server, old.access_token)).status).toBe(200);
  });

  it('presenting a token refreshed twice revokes every ancestor', async () => {
    const server = await startTestServer();
    const p0 = await obtainTokens(server);
    const p1 = (await refresh(server, p0.refresh_token)).body;
    const p2 = (await refresh(server, p1.refresh_token)).body;
    expect((await userinfo(server, p2.access_token)).status).toBe(200);
    expect((await userinfo(server, p0.access_token)).status).toBe(401);
    expect((await userinfo(server, p1.access_token)).status).toBe(401);
  });

  it('re-authorizing never revokes earlier pairs (several devices keep several live pairs)', async () => {
    const server = await startTestServer();
    const laptop = await obtainTokens(server);
    const desktop = await obtainTokens(server);
    expect((await userinfo(server, desktop.access_token)).status).toBe(200);
    expect((await userinfo(server, laptop.access_token)).status).toBe(200);
    expect((await refresh(server, laptop.refresh_token)).status).toBe(200);
  });

  it('a public client may omit client_id on refresh; another client_id is refused', async () => {
    const server = await startTestServer();
    const first = await obtainTokens(server);
    expect((await refresh(server, first.refresh_token, { client_id: undefined })).status).toBe(200);
    const other = await refresh(server, first.refresh_token, {
      client_id: CONFIDENTIAL_CLIENT,
      client_secret: CONFIDENTIAL_SECRET,
    });
    expect(other.body.error).toBe('invalid_grant');
  });

  it('a confidential client must send its secret on refresh too (decision, README)', async () => {
    const server = await startTestServer();
    const first = await obtainTokens(
      server,
      { client_id: CONFIDENTIAL_CLIENT },
      { client_secret: CONFIDENTIAL_SECRET },
    );
    const noSecret = await refresh(server, first.refresh_token, { client_id: CONFIDENTIAL_CLIENT });
    expect(noSecret.status).toBe(401);
    expect(noSecret.body.error).toBe('invalid_client');
    const noClient = await refresh(server, first.refresh_token, { client_id: undefined });
    expect(noClient.status).toBe(401);
    const ok = await refresh(server, first.refresh_token, {
      client_id: CONFIDENTIAL_CLIENT,
      client_secret: CONFIDENTIAL_SECRET,
    });
    expect(ok.status).toBe(200);
  });

  it('may narrow the scope but never widen it (RFC 6749 §6)', async () => {
    const server = await startTestServer();
    const first = await obtainTokens(server, { scope: 'openid account:read' });
    expect((await refresh(server, first.refresh_token, { scope: 'account:read' })).body.scope).toBe(
      'account:read',
    );
    expect(
      (await refresh(server, first.refresh_token, { scope: 'account:read account:write' })).body
        .error,
    ).toBe('invalid_scope');
  });

  it('refresh tokens live 30 days (decision, README)', async () => {
    const clock = new TestClock();
    const server = await startTestServer({ clock });
    const first = await obtainTokens(server);
    clock.advance(30 * 24 * 3600 - 1);
    const still = await refresh(server, first.refresh_token);
    expect(still.status).toBe(200);
    clock.advance(30 * 24 * 3600);
    const expired = await refresh(server, still.body.refresh_token);
    expect(expired.body).toMatchObject({
      error: 'invalid_grant',
      error_description: 'the refresh token has expired',
    });
  });

  it('an unknown refresh token gets invalid_grant', async () => {
    const server = await startTestServer();
    expect((await refresh(server, 'rt_unknown')).body.error).toBe('invalid_grant');
    expect((await refresh(server, 'rt_unknown', { client_id: undefined })).body.error).toBe(
      'invalid_grant',
    );
  });
});

/** An MCP initialize request: the cheapest POST /mcp that runs the bearer check. */
function mcp(server: EmbeddedServer, accessToken: string): Promise<Response> {
  return fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${accessToken}`,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'lifecycle', version: '1' },
      },
    }),
  });
}

const adminCourses = (server: EmbeddedServer, accessToken: string): Promise<Response> =>
  fetch(`${server.url}/api/admin/v1/courses`, {
    headers: { Authorization: `Bearer ${accessToken}` },
  });

async function expectInvalidToken(res: Response): Promise<void> {
  expect(res.status).toBe(401);
  expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
  expect(((await res.json()) as { error: string }).error).toBe('invalid_token');
}

describe('"New access token first presented to an API -> old pair revoked" at every protected resource (spec "Token pair lifecycle", README decision 5)', () => {
  it("/mcp: the refreshed member token's first call revokes the old pair", async () => {
    const server = await startTestServer();
    const old = await obtainTokens(server);
    const next = (await refresh(server, old.refresh_token)).body;
    // Until the new token is presented the old one still works at /mcp.
    expect((await mcp(server, old.access_token)).status).toBe(200);
    expect((await mcp(server, next.access_token)).status).toBe(200);
    await expectInvalidToken(await mcp(server, old.access_token));
    const retry = await refresh(server, old.refresh_token);
    expect(retry.status).toBe(400);
    expect(retry.body.error).toBe('invalid_grant');
    expect((await mcp(server, next.access_token)).status).toBe(200);
  });

  it("admin API: the refreshed operator token's first call revokes the old pair", async () => {
    const server = await startTestServer();
    // A real operator pair: the owner authorizes the allowlisted vendor platform (README decision
    // 9).
    const got = await obtainCode(
      server,
      { client_id: 'demo-vendor', scope: 'courses:read', resource: null },
      { email: 'owner@example.com', password: 'owner-demo' },
    );
    const old = (await exchangeCode(server, got, { client_id: 'demo-vendor' })).body;
    expect(old.access_token).toBeTruthy();
    const next = (await refresh(server, old.refresh_token, { client_id: 'demo-vendor' })).body;
    expect(next.access_token).toBeTruthy();
    expect((await adminCourses(server, old.access_token)).status).toBe(200);
    expect((await adminCourses(server, next.access_token)).status).toBe(200);
    await expectInvalidToken(await adminCourses(server, old.access_token));
    const retry = await refresh(server, old.refresh_token, { client_id: 'demo-vendor' });
    expect(retry.status).toBe(400);
    expect(retry.body.error).toBe('invalid_grant');
    expect((await adminCourses(server, next.access_token)).status).toBe(200);
  });

  it("a refused admin request (the token lacks the route's scope) still counts: the bearer check accepted the token", async () => {
    const server = await startTestServer();
    const got = await obtainCode(
      server,
      { client_id: 'demo-vendor', scope: 'courses:read', resource: null },
      { email: 'owner@example.com', password: 'owner-demo' },
    );
    const old = (await exchangeCode(server, got, { client_id: 'demo-vendor' })).body;
    const next = (await refresh(server, old.refresh_token, { client_id: 'demo-vendor' })).body;
    const res = await fetch(`${server.url}/api/admin/v1/orders`, {
      headers: { Authorization: `Bearer ${next.access_token}` },
    });
    expect(res.status).toBe(403);
    await expectInvalidToken(await adminCourses(server, old.access_token));
  });
});

describe('Access token lifetime: 2 hours (spec Limits)', () => {
  it('works at 7199 s and is refused at 7200 s', async () => {
    const clock = new TestClock();
    const server = await startTestServer({ clock });
    const t = await obtainTokens(server);
    clock.advance(7199);
    expect((await userinfo(server, t.access_token)).status).toBe(200);
    clock.advance(1);
    const res = await userinfo(server, t.access_token);
    expect(res.status).toBe(401);
    expect(res.body.error_description).toBe('the access token has expired');
  });
});

describe('Revocation (RFC 7009, spec "Token pair lifecycle")', () => {
  it('by refresh token revokes both tokens (200)', async () => {
    const server = await startTestServer();
    const t = await obtainTokens(server);
    const res = await revoke(server, t.refresh_token);
    expect(res.status).toBe(200);
    expect((await userinfo(server, t.access_token)).status).toBe(401);
    expect((await refresh(server, t.refresh_token)).body.error).toBe('invalid_grant');
  });

  it('by a live access token revokes both tokens (200)', async () => {
    const server = await startTestServer();
    const t = await obtainTokens(server);
    expect(
      (await revoke(server, t.access_token, { token_type_hint: 'refresh_token' })).status,
    ).toBe(200);
    expect((await userinfo(server, t.access_token)).status).toBe(401);
    expect((await refresh(server, t.refresh_token)).body.error).toBe('invalid_grant');
  });

  it('by an expired access token answers 200 and changes nothing: the refresh token keeps working', async () => {
    const clock = new TestClock();
    const server = await startTestServer({ clock });
    const t = await obtainTokens(server);
    clock.advance(7200);
    expect((await revoke(server, t.access_token)).status).toBe(200);
    const next = await refresh(server, t.refresh_token);
    expect(next.status).toBe(200);
  });

  it('ends the session it belongs to: signing out right after a refresh leaves no pair of that authorization live', async () => {
    const server = await startTestServer();
    const old = await obtainTokens(server);
    const other = await obtainTokens(server); // another device: its own authorization
    const next = (await refresh(server, old.refresh_token)).body;
    // Signed out with the newest refresh token before its access token was ever presented.
    expect((await revoke(server, next.refresh_token)).status).toBe(200);
    expect((await userinfo(server, next.access_token)).status).toBe(401);
    // The pair it was refreshed from (kept live only for retries) goes too.
    expect((await userinfo(server, old.access_token)).status).toBe(401);
    expect((await refresh(server, old.refresh_token)).body.error).toBe('invalid_grant');
    // Spec Authentication 10: other authorizations keep their pairs.
    expect((await userinfo(server, other.access_token)).status).toBe(200);
  });

  it('an unknown token answers 200', async () => {
    const server = await startTestServer();
    const res = await revoke(server, 'at_unknown');
    expect(res.status).toBe(200);
  });

  it("another client's token answers 200 with no effect (RFC 7009 §2.1)", async () => {
    const server = await startTestServer();
    const t = await obtainTokens(server);
    const res = await revoke(server, t.refresh_token, {
      client_id: CONFIDENTIAL_CLIENT,
      client_secret: CONFIDENTIAL_SECRET,
    });
    expect(res.status).toBe(200);
    expect((await userinfo(server, t.access_token)).status).toBe(200);
  });

  it('a confidential client without its secret gets 403 unauthorized_client', async () => {
    const server = await startTestServer();
    const t = await obtainTokens(
      server,
      { client_id: CONFIDENTIAL_CLIENT },
      { client_secret: CONFIDENTIAL_SECRET },
    );
    const res = await revoke(server, t.refresh_token, { client_id: CONFIDENTIAL_CLIENT });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('unauthorized_client');
    expect((await userinfo(server, t.access_token)).status).toBe(200);
    expect(
      (
        await revoke(server, t.refresh_token, {
          client_id: CONFIDENTIAL_CLIENT,
          client_secret: CONFIDENTIAL_SECRET,
        })
      ).status,
    ).toBe(200);
    expect((await userinfo(server, t.access_token)).status).toBe(401);
  });

  it('a wrong secret gets 401 invalid_client', async () => {
    const server = await startTestServer();
    const res = await revoke(server, 'x', {
      client_id: CONFIDENTIAL_CLIENT,
      client_secret: 'wrong',
    });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_client');
  });

  it('a missing token parameter gets invalid_request', async () => {
    const server = await startTestServer();
    const res = await postForm(`${server.url}/api/oauth/revoke`, { client_id: 'demo-desktop' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
  });
});

describe('Persistence: a file database keeps tokens across restarts', () => {
  it('a token issued before a restart still works after it (same port)', async () => {
    const file = join(tempDir(), 'persist.db');
    const first = await createEmbeddedServer({ database: file });
    const t = await obtainTokens(first);
    const port = first.port;
    await first.close();
    // Let fetch's keep-alive pool notice the closed sockets before the same origin is dialled
    // again.
    await new Promise((r) => setTimeout(r, 50));
    const second = await createEmbeddedServer({ database: file, port });
    try {
      expect((await userinfo(second, t.access_token)).status).toBe(200);
    } finally {
      await second.close();
    }
  });
});
