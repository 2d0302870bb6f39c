import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { startTestServer, tempDir } from '../../helpers/server';
import { createEmbeddedServer } from '../../../embedded-server/index';
import { checkBearer, requireBearer, sendBearerError } from '../../../embedded-server/http/bearer';
import { insertTokenPair } from '../../../embedded-server/store/tokens';
import { randomSecret, sha256Hex } from '../../../embedded-server/store/secrets';
import { obtainTokens, userinfo } from '../helpers';
import type { Route } from '../../../embedded-server/http/types';

function expectInvalidToken(
  res: { status: number; headers: Headers; body: Record<string, unknown> },
  base: string,
): void {
  expect(res.status).toBe(401);
  expect(res.body.error).toBe('invalid_token');
  const header = res.headers.get('www-authenticate') ?? '';
  expect(header).toMatch(/^Bearer /);
  expect(header).toContain('error="invalid_token"');
  expect(header).toMatch(/error_description="[^"]+"/);
  expect(header).toContain(`resource_metadata="${base}/.well-known/oauth-protected-resource"`);
}

describe('Bearer check (RFC 6750 §3, RFC 9728 §5.1, spec "Protected resources")', () => {
  it('no token: 401 invalid_token with resource_metadata', async () => {
    const server = await startTestServer();
    const res = await fetch(`${server.url}/api/oauth/userinfo`);
    expectInvalidToken(
      {
        status: res.status,
        headers: res.headers,
        body: (await res.json()) as Record<string, unknown>,
      },
      server.url,
    );
  });

  it.each([
    ['malformed header', 'Token abc'],
    ['unknown token', 'Bearer at_doesnotexist'],
    ['bearer with spaces inside', 'Bearer a b'],
  ])('%s: 401 invalid_token with resource_metadata', async (_n, header) => {
    const server = await startTestServer();
    const res = await fetch(`${server.url}/api/oauth/userinfo`, {
      headers: { authorization: header },
    });
    expectInvalidToken(
      {
        status: res.status,
        headers: res.headers,
        body: (await res.json()) as Record<string, unknown>,
      },
      server.url,
    );
  });

  it('revoked token: 401 invalid_token', async () => {
    const server = await startTestServer();
    const t = await obtainTokens(server);
    await fetch(`${server.url}/api/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `token=${t.refresh_token}&client_id=demo-desktop`,
    });
    expectInvalidToken(await userinfo(server, t.access_token), server.url);
  });

  it('a token issued for another origin (resource) is refused the same way', async () => {
    // Same database, served on another port: the stored resource no longer equals this origin.
    const file = join(tempDir(), 'moved.db');
    const first = await createEmbeddedServer({ database: file });
    const t = await obtainTokens(first);
    await first.close();
    const moved = await createEmbeddedServer({ database: file });
    try {
      const res = await userinfo(moved, t.access_token);
      expectInvalidToken(res, moved.url);
      expect(res.body.error_description).toMatch(/not issued for/);
    } finally {
      await moved.close();
    }
  });

  it('a token without school_id is refused as issued for a different organization', async () => {
    const server = await startTestServer();
    const access = randomSecret('at_');
    const now = Date.now();
    insertTokenPair(server.db, {
      id: 'tok_noschool',
      grantId: 'grt_x',
      parentId: null,
      accessHash: sha256Hex(access),
      refreshHash: sha256Hex(randomSecret('rt_')),
      clientId: 'demo-desktop',
      userId: 'usr_student',
      schoolId: null,
      scope: 'openid account:read',
      resource: server.url,
      audience: 'member',
      createdAt: now,
      accessExpiresAt: now + 3600_000,
      refreshExpiresAt: now + 7200_000,
    });
    const res = await userinfo(server, access);
    expectInvalidToken(res, server.url);
    expect(res.body.error_description).toMatch(/different organization/);
  });

  it('a token of another school (demo2 store) is refused at demo', async () => {
    const server = await startTestServer();
    const access = randomSecret('at_');
    const now = Date.now();
    insertTokenPair(server.db, {
      id: 'tok_other',
      grantId: 'grt_y',
      parentId: null,
      accessHash: sha256Hex(access),
      refreshHash: sha256Hex(randomSecret('rt_')),
      clientId: 'demo-desktop',
      userId: 'usr_student',
      schoolId: 'sch_demo2',
      scope: 'account:read',
      resource: server.url,
      audience: 'member',
      createdAt: now,
      accessExpiresAt: now + 3600_000,
      refreshExpiresAt: now + 7200_000,
    });
    expectInvalidToken(await userinfo(server, access), server.url);
  });

  it('faults.tokenStoreUnavailable: a presented token gets the unavailable verdict (503, no WWW-Authenticate)', async () => {
    const server = await startTestServer({ faults: { tokenStoreUnavailable: true } });
    const res = await fetch(`${server.url}/api/oauth/userinfo`, {
      headers: { authorization: 'Bearer at_whatever' },
    });
    expect(res.status).toBe(503);
    expect(res.headers.get('www-authenticate')).toBeNull();
    expect(await res.json()).toMatchObject({ error: 'temporarily_unavailable' });
  });

  it('exports checkBearer for other protected resources, with a 403 insufficient_scope variant', async () => {
    const routes: Route[] = [
      {
        method: 'GET',
        path: '/test/verdict',
        handler: (ctx) => {
          const v = checkBearer(ctx);
          if (v.kind !== 'ok') return sendBearerError(ctx, v);
          ctx.res.end(
            JSON.stringify({
              scopes: v.token.scopes,
              schoolId: v.token.schoolId,
              resource: v.token.resource,
              audience: v.token.audience,
            }),
          );
        },
      },
      {
        method: 'GET',
        path: '/test/needs-write',
        handler: (ctx) => {
          if (requireBearer(ctx, ['account:write'])) ctx.res.end('ok');
        },
      },
    ];
    const server = await startTestServer({ extraRoutes: routes });
    const t = await obtainTokens(server, { scope: 'account:read' });
    const ok = await fetch(`${server.url}/test/verdict`, {
      headers: { authorization: `Bearer ${t.access_token}` },
    });
    expect(await ok.json()).toEqual({
      scopes: ['account:read'],
      schoolId: 'sch_demo',
      resource: server.url,
      audience: 'member',
    });
    const denied = await fetch(`${server.url}/test/needs-write`, {
      headers: { authorization: `Bearer ${t.access_token}` },
    });
    expect(denied.status).toBe(403);
    const header = denied.headers.get('www-authenticate')!;
    expect(header).toContain('error="insufficient_scope"');
    expect(header).toContain('scope="account:write"');
    expect(header).toContain(
      `resource_metadata="${server.url}/.well-known/oauth-protected-resource"`,
    );
  });
});

describe('UserInfo (OpenID Connect Core §5.3)', () => {
  it('returns sub, email, name, picture, org_id and roles (highest first)', async () => {
    const server = await startTestServer();
    const t = await obtainTokens(server);
    const res = await userinfo(server, t.access_token);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual({
      sub: 'usr_student',
      email: 'student@example.com',
      name: 'Demo Student',
      picture: `${server.url}/avatars/usr_student.svg`,
      org_id: 'sch_demo',
      roles: ['student'],
    });
    const avatar = await fetch(String(res.body.picture));
    expect(avatar.status).toBe(200);
    expect(avatar.headers.get('content-type')).toBe('image/svg+xml');
  });

  it('lists several roles highest first', async () => {
    const server = await startTestServer();
    server.db
      .prepare(
        "INSERT INTO memberships (school_id, user_id, role, created_at) VALUES ('sch_demo', 'usr_student', 'teacher', 0)",
      )
      .run();
    const t = await obtainTokens(server);
    expect((await userinfo(server, t.access_token)).body.roles).toEqual(['teacher', 'student']);
  });
});

describe('One site per origin: tokens do not cross sites', () => {
  it("a demo token presented at demo2 is refused with 401 and demo2's resource_metadata", async () => {
    const demo = await startTestServer();
    const demo2 = await startTestServer({ site: 'demo2' });
    const t = await obtainTokens(demo);
    expectInvalidToken(await userinfo(demo2, t.access_token), demo2.url);
    expect((await userinfo(demo, t.access_token)).status).toBe(200);
  });
});

describe('A store failure is never acceptance (BearerVerdict unavailable)', () => {
  it('an exception while reading the token store gives 503 temporarily_unavailable', async () => {
    const server = await startTestServer();
    const t = await obtainTokens(server);
    server.db.exec('ALTER TABLE token_pairs RENAME TO token_pairs_gone');
    const res = await userinfo(server, t.access_token);
    expect(res.status).toBe(503);
    expect(res.body.error).toBe('temporarily_unavailable');
    expect(res.headers.get('www-authenticate')).toBeNull();
  });
});
