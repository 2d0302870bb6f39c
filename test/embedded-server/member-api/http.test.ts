import { describe, expect, it } from 'vitest';
import { startTestServer } from '../../helpers/server';
import { graphql, mintToken } from './tokens';
import { userinfo } from '../helpers';

const VIEWER = '{ viewer { id enrolledCourses(first: 2) { totalCount nodes { id } } } }';
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function expectInvalidToken(res: Response, server: { url: string }) {
  expect(res.status).toBe(401);
  const www = res.headers.get('www-authenticate') ?? '';
  expect(www).toMatch(/^Bearer /);
  expect(www).toContain('error="invalid_token"');
  expect(www).toContain(`resource_metadata="${server.url}/.well-known/oauth-protected-resource"`);
}

describe('POST /member/graphql status rules (service-spec "Protected resources")', () => {
  it('no token: 401 invalid_token with WWW-Authenticate (no anonymous mode)', async () => {
    const server = await startTestServer();
    const res = await graphql(server, null, VIEWER);
    expectInvalidToken(res, server);
    expect(((await res.json()) as Json).error).toBe('invalid_token');
  });

  it('malformed or unknown token: 401 invalid_token with WWW-Authenticate', async () => {
    const server = await startTestServer();
    expectInvalidToken(await graphql(server, 'not-a-real-token', VIEWER), server);
  });

  it('token issued for another school, without school_id, or for another origin: 401 with resource_metadata', async () => {
    const server = await startTestServer();
    const scopes = ['account:read'];
    expectInvalidToken(
      await graphql(
        server,
        mintToken(server, { scopes, schoolId: 'sch_demo2' }).accessToken,
        VIEWER,
      ),
      server,
    );
    expectInvalidToken(
      await graphql(server, mintToken(server, { scopes, schoolId: null }).accessToken, VIEWER),
      server,
    );
    expectInvalidToken(
      await graphql(
        server,
        mintToken(server, { scopes, resource: 'http://127.0.0.1:1' }).accessToken,
        VIEWER,
      ),
      server,
    );
  });

  it('expired token: 401 invalid_token with WWW-Authenticate', async () => {
    const server = await startTestServer();
    expectInvalidToken(
      await graphql(
        server,
        mintToken(server, { scopes: ['account:read'], expiresInSeconds: -1 }).accessToken,
        VIEWER,
      ),
      server,
    );
  });

  it('token holding neither account:read nor account:write: 403 insufficient_scope with WWW-Authenticate', async () => {
    const server = await startTestServer();
    const res = await graphql(
      server,
      mintToken(server, { scopes: ['openid', 'profile', 'email'] }).accessToken,
      VIEWER,
    );
    expect(res.status).toBe(403);
    expect(((await res.json()) as Json).error).toBe('insufficient_scope');
    expect(res.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
  });

  it('operator-audience token: 403 insufficient_scope (it can never hold an account scope; decision)', async () => {
    const server = await startTestServer();
    const res = await graphql(
      server,
      mintToken(server, { audience: 'operator', scopes: ['courses:read', 'students:write'] })
        .accessToken,
      VIEWER,
    );
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toContain('insufficient_scope');
  });

  it('account:read token asking for a mutation: HTTP 200, an errors entry naming account:write, no WWW-Authenticate', async () => {
    const server = await startTestServer();
    const { accessToken } = mintToken(server, { scopes: ['openid', 'account:read'] });
    const ok = await graphql(server, accessToken, VIEWER);
    expect(ok.status).toBe(200);
    const okBody = (await ok.json()) as Json;
    expect(okBody.errors).toBeUndefined();
    expect(okBody.data.viewer).toMatchObject({
      id: 'usr_student',
      enrolledCourses: { totalCount: 8 },
    });
    const res = await graphql(
      server,
      accessToken,
      'mutation { markAllNotificationsRead { updatedCount } }',
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('www-authenticate')).toBeNull();
    const body = (await res.json()) as Json;
    expect(body.errors[0].message).toBe('This field requires the account:write scope.');
    expect(body.errors[0].extensions.code).toBe('INSUFFICIENT_SCOPE');
  });

  it('account:write-only token: 200, mutation works, viewer answers with an error naming account:read', async () => {
    const server = await startTestServer();
    const { accessToken } = mintToken(server, { scopes: ['account:write'] });
    const m = (await (
      await graphql(
        server,
        accessToken,
        'mutation { markAllNotificationsRead { updatedCount unreadNotificationCount } }',
      )
    ).json()) as Json;
    expect(m.data.markAllNotificationsRead.unreadNotificationCount).toBe(0);
    const q = await graphql(server, accessToken, '{ viewer { id } }');
    expect(q.status).toBe(200);
    expect(((await q.json()) as Json).errors[0].message).toBe(
      'This field requires the account:read scope.',
    );
  });
});

describe('POST /member/graphql request handling (decisions, embedded-server/README.md)', () => {
  it('GET is not allowed (405)', async () => {
    const server = await startTestServer();
    const res = await fetch(`${server.url}/member/graphql?query=${encodeURIComponent(VIEWER)}`, {
      headers: {
        Authorization: `Bearer ${mintToken(server, { scopes: ['account:read'] }).accessToken}`,
      },
    });
    expect(res.status).toBe(405);
  });

  it('invalid JSON and a body without "query" are 400; a body over 64 KiB is 413', async () => {
    const server = await startTestServer();
    const auth = {
      Authorization: `Bearer ${mintToken(server, { scopes: ['account:read'] }).accessToken}`,
      'Content-Type': 'application/json',
    };
    const bad = await fetch(`${server.url}/member/graphql`, {
      method: 'POST',
      headers: auth,
      body: '{"query": ',
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as Json).errors[0].extensions.code).toBe('BAD_REQUEST');
    const noQuery = await fetch(`${server.url}/member/graphql`, {
      method: 'POST',
      headers: auth,
      body: '{"variables": {}}',
    });
    expect(noQuery.status).toBe(400);
    const huge = await fetch(`${server.url}/member/graphql`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ query: `{ viewer { id } } #${'x'.repeat(70_000)}` }),
    });
    expect(huge.status).toBe(413);
  });

  it('each site serves its own data: the demo2 server shows its two courses', async () => {
    const server = await startTestServer({ site: 'demo2' });
    const body = (await (
      await graphql(server, mintToken(server, { scopes: ['account:read'] }).accessToken, VIEWER)
    ).json()) as Json;
    expect(body.data.viewer.enrolledCourses.totalCount).toBe(2);
  });
});

describe('Token pair lifecycle at the member API (service-spec "States and transitions")', () => {
  it('the first presentation of a refreshed access token revokes the old pair; before it both work', async () => {
    const server = await startTestServer();
    const old = mintToken(server, { scopes: ['openid', 'account:read'] });
    const refreshed = await fetch(`${server.url}/api/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: old.refreshToken,
        client_id: 'demo-desktop',
      }),
    });
    expect(refreshed.status).toBe(200);
    const fresh = (await refreshed.json()) as Json;
    expect(fresh.school_id).toBe('sch_demo');
    // Until the new token is presented, the old pair still works.
    expect((await graphql(server, old.accessToken, VIEWER)).status).toBe(200);
    expect((await graphql(server, fresh.access_token, VIEWER)).status).toBe(200);
    expectInvalidToken(await graphql(server, old.accessToken, VIEWER), server);
    expect((await graphql(server, fresh.access_token, VIEWER)).status).toBe(200);
  });
});

describe('viewer.avatar is UserInfo\'s picture (spec "id_token claims": picture matches UserInfo; README decision 13)', () => {
  it('the demo student (no own picture): both are <base>/avatars/usr_student.svg; an own picture: both are it', async () => {
    const server = await startTestServer();
    const { accessToken } = mintToken(server, { scopes: ['openid', 'account:read'] });
    const avatar = async (): Promise<unknown> =>
      ((await (await graphql(server, accessToken, '{ viewer { avatar } }')).json()) as Json).data
        .viewer.avatar;
    const picture = (await userinfo(server, accessToken)).body.picture;
    expect(picture).toBe(`${server.url}/avatars/usr_student.svg`);
    expect(await avatar()).toBe(picture);
    server.db
      .prepare(
        "UPDATE users SET picture = 'https://cdn.example/p/student.png' WHERE id = 'usr_student'",
      )
      .run();
    expect((await userinfo(server, accessToken)).body.picture).toBe(
      'https://cdn.example/p/student.png',
    );
    expect(await avatar()).toBe('https://cdn.example/p/student.png');
  });
});
