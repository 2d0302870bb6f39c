import { describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startTestServer } from '../../helpers/server';
import { adminRoutes } from '../../../embedded-server/admin-api/routes';
import { OPERATOR_SCOPES } from '../../../embedded-server/oauth/scopes';
import { mintToken } from '../member-api/tokens';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('/openapi.json (service-spec "What the service does": REST description, not the member GraphQL API)', () => {
  it('is a valid OpenAPI 3.1 document with the real base URL', async () => {
    const server = await startTestServer();
    const res = await fetch(`${server.url}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const doc = (await res.json()) as Json;
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers[0].url).toBe(server.url);
  });

  it('lists every admin route of the one route table with its scope as the operation security', async () => {
    const server = await startTestServer();
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as Json;
    for (const route of adminRoutes) {
      const path = route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      const op = doc.paths[path]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${route.path}`).toBeDefined();
      expect(op.operationId).toBe(route.openapi!.operationId);
      expect(op.security).toEqual([{ oauth2: route.openapi!.scopes }]);
    }
    const opCount = Object.values(doc.paths as Record<string, Json>).flatMap((p) =>
      Object.keys(p),
    ).length;
    expect(opCount).toBeGreaterThan(adminRoutes.length);
  });

  it('declares an oauth2 authorizationCode scheme with every operator scope, and covers the OAuth endpoints but not /member/graphql', async () => {
    const server = await startTestServer();
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as Json;
    const flow = doc.components.securitySchemes.oauth2.flows.authorizationCode;
    expect(flow.authorizationUrl).toBe(`${server.url}/oauth/authorize`);
    expect(flow.tokenUrl).toBe(`${server.url}/api/oauth/token`);
    for (const s of OPERATOR_SCOPES) expect(Object.keys(flow.scopes)).toContain(s);
    for (const p of [
      '/api/oauth/token',
      '/api/oauth/userinfo',
      '/api/oauth/revoke',
      '/api/oauth/register',
      '/.well-known/oauth-authorization-server',
      '/.well-known/oauth-protected-resource',
    ]) {
      expect(doc.paths[p], p).toBeDefined();
    }
    expect(doc.paths['/member/graphql']).toBeUndefined();
    // Every operator area with a write scope has at least one read and one write route.
    const scopesUsed = new Set(adminRoutes.map((r) => r.openapi!.scopes[0]));
    for (const s of OPERATOR_SCOPES) expect(scopesUsed, s).toContain(s);
  });
});

describe('/openapi.json declares the statuses the routes really answer', () => {
  it('409 exactly where a route throws a conflict; 413 on every route that reads a body; answered as declared', async () => {
    const server = await startTestServer();
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as Json;
    const ops = adminRoutes.map((r) => ({
      route: r,
      op: doc.paths[r.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')][r.method.toLowerCase()] as Json,
    }));
    const with409 = ops
      .filter((o) => o.op.responses['409'])
      .map((o) => o.op.operationId)
      .sort();
    expect(with409).toEqual([
      'createCourse',
      'deliverDigitalProduct',
      'enrollStudent',
      'refundPayment',
    ]);
    for (const { route, op } of ops) {
      const readsBody = op.requestBody !== undefined;
      expect(op.responses['413'] !== undefined, `${route.method} ${route.path}`).toBe(readsBody);
    }
    expect(doc.paths['/api/admin/v1/courses'].post.responses['413'].description).toContain(
      '262144',
    );
    // The real answers behind the declarations: a JSON body over 256 KiB is 413, a duplicate slug
    // is 409.
    const { accessToken } = mintToken(server, { audience: 'operator', scopes: ['courses:write'] });
    const post = (body: string) =>
      fetch(`${server.url}/api/admin/v1/courses`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${accessToken}`, 'Content-Type': 'application/json' },
        body,
      });
    const big = await post(
      JSON.stringify({ slug: 'big', title: 'x', description: 'x'.repeat(300 * 1024) }),
    );
    expect(big.status).toBe(413);
    expect(((await big.json()) as Json).error).toBe('invalid_request');
    expect((await post(JSON.stringify({ slug: 'dup', title: 'Dup' }))).status).toBe(201);
    const dup = await post(JSON.stringify({ slug: 'dup', title: 'Dup' }));
    expect(dup.status).toBe(409);
    expect(((await dup.json()) as Json).error).toBe('conflict');
  });

  it('UserInfo needs no particular scope (README decision 13): declared security lists none, and an operator token without openid is served', async () => {
    const server = await startTestServer();
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as Json;
    expect(doc.paths['/api/oauth/userinfo'].get.security).toEqual([{ oauth2: [] }]);
    for (const token of [
      mintToken(server, { scopes: ['account:read'] }),
      mintToken(server, { audience: 'operator', scopes: ['courses:read'] }),
    ]) {
      const res = await fetch(`${server.url}/api/oauth/userinfo`, {
        headers: { Authorization: `Bearer ${token.accessToken}` },
      });
      expect(res.status).toBe(200);
    }
  });

  it('the paged lists declare ?limit and ?cursor and the { data, next_cursor, total } envelope', async () => {
    const server = await startTestServer();
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as Json;
    for (const path of [
      '/api/admin/v1/students',
      '/api/admin/v1/students/{userId}/enrollments',
      '/api/admin/v1/courses/{courseId}/students',
      '/api/admin/v1/members',
    ]) {
      const op = doc.paths[path].get as Json;
      expect(
        op.parameters
          .filter((p: Json) => p.in === 'query')
          .map((p: Json) => p.name)
          .sort(),
        path,
      ).toEqual(['cursor', 'limit']);
      expect(
        Object.keys(op.responses['200'].content['application/json'].schema.properties).sort(),
        path,
      ).toEqual(['data', 'next_cursor', 'total']);
    }
  });
});

describe('/auth.md (service-spec "What the service does": walkthrough)', () => {
  it('is markdown walking through discover, pick a method, register, use, errors, revoke with the real base URL', async () => {
    const server = await startTestServer();
    const res = await fetch(`${server.url}/auth.md`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    const text = await res.text();
    const order = [
      '## 1. Discover',
      '## 2. Pick a method',
      '## 3. Register',
      '## 4. Use the credential',
      '## 5. Handle errors',
      '## 6. Revoke',
    ].map((h) => text.indexOf(h));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(text).toContain(
      `curl --fail-with-body -sS ${server.url}/.well-known/oauth-authorization-server`,
    );
    expect(text).toContain(`${server.url}/api/oauth/revoke`);
  });
});
