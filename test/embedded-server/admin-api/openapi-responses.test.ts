import { describe, expect, it } from 'vitest';
import { startTestServer } from '../../helpers/server';
import { openApiProblems } from '../../helpers/openapi-responses';
import { ScriptedBrowser } from '../../helpers/scripted-browser';
import { authorizeUrl, CALLBACK, pkce, postForm } from '../helpers';
import { mintToken, viewerData } from '../member-api/tokens';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const answer = (method: string, path: string, status: number, type: string, body: unknown) => ({
  method,
  path,
  status,
  headers: { 'content-type': type },
  body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
});

describe('every answer fits /openapi.json (checked for every test server by test/helpers/server.ts)', () => {
  it('the check finds an undeclared status, an undeclared media type and a body off its schema', () => {
    expect(
      openApiProblems(answer('POST', '/api/oauth/token', 418, 'application/json', {})),
    ).toHaveLength(1);
    expect(
      openApiProblems(answer('GET', '/oauth/authorize', 400, 'application/json', { error: 'x' })),
    ).toHaveLength(1);
    expect(
      openApiProblems(
        answer('POST', '/api/oauth/token', 200, 'application/json', { token_type: 'Bearer' }),
      ),
    ).toHaveLength(1);
    expect(
      openApiProblems(
        answer('POST', '/api/oauth/token', 400, 'application/json; charset=utf-8', {
          error: 'invalid_grant',
        }),
      ),
    ).toEqual([]);
    // Not described (the document covers the REST endpoints only): left alone.
    expect(openApiProblems(answer('POST', '/member/graphql', 200, 'application/json', {}))).toEqual(
      [],
    );
  });

  it('authorize: the HTML error page (400) and the consent page (200) are declared', async () => {
    const server = await startTestServer();
    const bad = await fetch(authorizeUrl(server, { client_id: 'nobody' }), { redirect: 'manual' });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toMatch(/^text\/html/);
    const browser = new ScriptedBrowser();
    const url = authorizeUrl(server, { code_challenge: pkce().challenge });
    await expect(browser.authorize(url, { stopAt: CALLBACK, decision: 'deny' })).resolves.toContain(
      'error=access_denied',
    );
    expect(
      browser.history.some((h) => h.startsWith('GET') && h.includes('/oauth/authorize?')),
    ).toBe(true);
  });

  it('revoke 401 invalid_client, token and register 413', async () => {
    const server = await startTestServer();
    const revoked = await postForm(`${server.url}/api/oauth/revoke`, {
      token: 'rt_x',
      client_id: 'nobody',
    });
    expect(revoked.status).toBe(401);
    const big = 'x'.repeat(70 * 1024);
    expect(
      (
        await postForm(`${server.url}/api/oauth/token`, {
          grant_type: 'refresh_token',
          refresh_token: big,
        })
      ).status,
    ).toBe(413);
    const reg = await fetch(`${server.url}/api/oauth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: big,
    });
    expect(reg.status).toBe(413);
  });

  it('/covers, /avatars and /files/products are described, with their media types and statuses', async () => {
    for (const path of ['/covers/x.svg', '/avatars/x.svg', '/files/products/dgp_x/x.pdf'])
      expect(
        openApiProblems(answer('GET', path, 418, 'application/json', {})),
        `${path} is described`,
      ).toHaveLength(1);
    const server = await startTestServer();
    expect((await fetch(`${server.url}/covers/intro-to-data-analysis.svg`)).status).toBe(200);
    expect(
      (await fetch(`${server.url}/covers/no-such-course.svg`, { method: 'HEAD' })).status,
    ).toBe(404);
    expect((await fetch(`${server.url}/avatars/usr_student.svg`)).status).toBe(200);
    const data = await viewerData(
      server,
      '{ viewer { digitalProducts(first: 20) { nodes { id downloadUrl } } } }',
    );
    const url = (data.digitalProducts.nodes as Json[]).find((n) => n.id === 'dlv_sql_cheatsheet')!
      .downloadUrl as string;
    const { accessToken } = mintToken(server, { scopes: ['account:read'] });
    const auth = { authorization: `Bearer ${accessToken}` };
    expect((await fetch(url, { headers: auth })).status).toBe(200);
    expect((await fetch(url, { headers: { ...auth, range: 'bytes=0-9' } })).status).toBe(206);
    expect((await fetch(url, { headers: { ...auth, range: 'bytes=99999999-' } })).status).toBe(416);
    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(`${url}x`, { headers: auth })).status).toBe(404);
  });
});
