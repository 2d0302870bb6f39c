import { describe, expect, it } from 'vitest';
import { startTestServer } from '../../helpers/server';
import { mintToken, operatorCall } from '../member-api/tokens';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const A = '/api/admin/v1';

describe('Admin API access (service-spec "Scopes": operator scopes, operator audience)', () => {
  it('no token: 401 invalid_token with WWW-Authenticate', async () => {
    const server = await startTestServer();
    const res = await fetch(`${server.url}${A}/courses`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('resource_metadata=');
  });

  it('service-spec "Protected resources": a malformed, expired, other-origin or school-less token is 401 invalid_token with WWW-Authenticate', async () => {
    const server = await startTestServer();
    const tokens = [
      'not-a-token',
      mintToken(server, { audience: 'operator', scopes: ['courses:read'], expiresInSeconds: -1 })
        .accessToken,
      mintToken(server, {
        audience: 'operator',
        scopes: ['courses:read'],
        resource: 'https://elsewhere.example',
      }).accessToken,
      mintToken(server, { audience: 'operator', scopes: ['courses:read'], schoolId: null })
        .accessToken,
    ];
    for (const token of tokens) {
      const res = await fetch(`${server.url}${A}/courses`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(401);
      expect(((await res.json()) as Json).error).toBe('invalid_token');
      expect(res.headers.get('www-authenticate')).toContain(
        `resource_metadata="${server.url}/.well-known/oauth-protected-resource"`,
      );
    }
  });

  it('a member-audience token is refused with 403 insufficient_scope (decision), even holding account scopes', async () => {
    const server = await startTestServer();
    const { accessToken } = mintToken(server, { scopes: ['account:read', 'account:write'] });
    const res = await fetch(`${server.url}${A}/courses`, {
      headers: { Authorization: `Bearer ${accessToken}` },
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as Json).error).toBe('insufficient_scope');
  });

  it('<area>:read does not grant <area>:write: 403 naming the missing scope', async () => {
    const server = await startTestServer();
    const call = operatorCall(server, ['courses:read']);
    expect((await call('GET', '/courses')).status).toBe(200);
    const res = await call('POST', '/courses', { slug: 'x', title: 'X' });
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toContain('scope="courses:write"');
  });
});

describe('Admin API input and paging (decisions, embedded-server/README.md)', () => {
  it('zod-validated bodies: 400 invalid_request with details; unknown ids: 404', async () => {
    const server = await startTestServer();
    const call = operatorCall(server, ['courses:write', 'courses:read']);
    const bad = await call('POST', '/courses', { slug: 'Not A Slug', title: '' });
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as Json;
    expect(body.error).toBe('invalid_request');
    expect(body.details.map((d: Json) => d.path).sort()).toEqual(['slug', 'title']);
    const missing = await call('GET', '/courses/crs_nope');
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as Json).error).toBe('not_found');
  });

  it('a cursor this API did not write is 400 invalid_request, never the first page', async () => {
    const server = await startTestServer();
    const call = operatorCall(server, ['courses:read']);
    for (const cursor of [
      '!!!',
      '',
      'bzoxx',
      'o:4',
      Buffer.from('o:-1').toString('base64url'),
      Buffer.from('o:04').toString('base64url'),
    ]) {
      const res = await call('GET', `/courses?cursor=${encodeURIComponent(cursor)}`);
      expect(res.status, cursor).toBe(400);
      expect(((await res.json()) as Json).details[0].path, cursor).toBe('cursor');
    }
    expect(
      (await call('GET', `/courses?cursor=${Buffer.from('o:2').toString('base64url')}`)).status,
    ).toBe(200);
  });

  it('pages lists with ?limit and an opaque next_cursor until the end', async () => {
    const server = await startTestServer();
    const call = operatorCall(server, ['courses:read']);
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const page = (await (
        await call('GET', `/courses?limit=4${cursor ? `&cursor=${cursor}` : ''}`)
      ).json()) as Json;
      expect(page.total).toBe(11);
      ids.push(...page.data.map((c: Json) => c.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(new Set(ids).size).toBe(11);
    expect((await call('GET', '/courses?limit=500')).status).toBe(400);
  });

  it('the enrolment and member lists page too: same ?limit/&cursor and { data, next_cursor, total } envelope', async () => {
    const server = await startTestServer();
    const call = operatorCall(server, ['students:read', 'members:read']);
    const all = async (path: string, limit: number): Promise<{ pages: Json[]; ids: string[] }> => {
      const pages: Json[] = [];
      let cursor: string | null = null;
      do {
        const res = await call('GET', `${path}?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
        expect(res.status, path).toBe(200);
        const page = (await res.json()) as Json;
        pages.push(page);
        cursor = page.next_cursor;
      } while (cursor);
      return { pages, ids: pages.flatMap((p) => p.data.map((d: Json) => d.courseId ?? d.userId)) };
    };
    // usr_student holds the 8 demo enrolments: pages of 3, 3, 2; every course once, newest first.
    const enrolments = await all('/students/usr_student/enrollments', 3);
    expect(enrolments.pages.map((p) => p.data.length)).toEqual([3, 3, 2]);
    expect(enrolments.pages.every((p) => p.total === 8)).toBe(true);
    expect(enrolments.pages.at(-1)!.next_cursor).toBeNull();
    expect(new Set(enrolments.ids).size).toBe(8);
    expect(enrolments.ids[0]).toBe('crs_marketing');
    // Members: one per page (usr_owner, usr_student), each with all of its roles.
    const members = await all('/members', 1);
    expect(members.ids).toEqual(['usr_owner', 'usr_student']);
    expect(members.pages[0]!.total).toBe(2);
    expect(members.pages[0]!.data[0].roles).toEqual(['owner']);
    for (const path of ['/students', '/courses/crs_data_analysis/students']) {
      const page = (await (await call('GET', `${path}?limit=1`)).json()) as Json;
      expect(Object.keys(page).sort(), path).toEqual(['data', 'next_cursor', 'total']);
      expect(page.data.length, path).toBeLessThanOrEqual(1);
    }
    expect((await call('GET', '/members?limit=101')).status).toBe(400);
    expect((await call('GET', '/students?cursor=not-a-cursor')).status).toBe(400);
  });

  it('GET /orders/:tradeNo returns every payment of the order, past 100', async () => {
    const server = await startTestServer();
    const cols = (server.db.pragma('table_info(payments)') as { name: string }[])
      .map((c) => c.name)
      .filter((c) => c !== 'id' && c !== 'trade_no');
    server.db
      .prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 120)
         INSERT INTO payments (id, trade_no, ${cols.join(', ')}) SELECT 'pay_many_' || i, 'T_MANY', ${cols.join(', ')} FROM payments, n WHERE id = 'pay_demo_01'`,
      )
      .run();
    const order = (await (
      await operatorCall(server, ['orders:read'])('GET', '/orders/T_MANY')
    ).json()) as Json;
    expect(order.payments).toHaveLength(120);
  });
});
