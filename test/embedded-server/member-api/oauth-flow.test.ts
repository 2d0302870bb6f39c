import { describe, expect, it, onTestFinished } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestServer } from '../../helpers/server';
import { CALLBACK, exchangeCode, obtainCode, obtainTokens } from '../helpers';
import { graphql } from './tokens';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

// Tokens from the real authorization flow (sign-in, consent, PKCE exchange), not minted.
describe('Tokens from the real flow (service-spec Authentication 3: the same token works at /mcp and /member/graphql)', () => {
  it('a member token from the code flow reads /member/graphql and calls member tools at /mcp', async () => {
    const server = await startTestServer();
    const tokens = await obtainTokens(server, {
      scope: 'openid profile email account:read account:write',
    });
    const res = await graphql(
      server,
      tokens.access_token,
      '{ viewer { email unreadNotificationCount } }',
    );
    expect(res.status).toBe(200);
    expect(((await res.json()) as Json).data.viewer).toEqual({
      email: 'student@example.com',
      unreadNotificationCount: 3,
    });

    const client = new Client({ name: 'flow-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${tokens.access_token}` } },
      }),
    );
    onTestFinished(() => client.close());
    const r = (await client.callTool({
      name: 'mark_notification_read',
      arguments: { id: 'ntf_demo_02' },
    })) as { isError?: boolean };
    expect(r.isError).not.toBe(true);
    const after = await graphql(
      server,
      tokens.access_token,
      '{ viewer { unreadNotificationCount } }',
    );
    expect(((await after.json()) as Json).data.viewer.unreadNotificationCount).toBe(2);
  });

  it('an operator token from a loopback-registered client enrolls a student through the admin API', async () => {
    const server = await startTestServer();
    const reg = await fetch(`${server.url}/api/oauth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Enrolment Tool',
        application_type: 'native',
        redirect_uris: [CALLBACK],
        token_endpoint_auth_method: 'none',
      }),
    });
    expect(reg.status).toBeLessThan(300);
    const clientId = ((await reg.json()) as Json).client_id as string;
    const got = await obtainCode(
      server,
      { client_id: clientId, scope: 'students:write courses:read', resource: null },
      { email: 'owner@example.com', password: 'owner-demo' },
    );
    const exchanged = await exchangeCode(server, got, { client_id: clientId });
    expect(exchanged.status).toBe(200);
    const token = exchanged.body.access_token;
    const enroll = await fetch(`${server.url}/api/admin/v1/courses/crs_public_speaking/students`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        userId: 'usr_student',
        expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      }),
    });
    expect(enroll.status).toBe(201);
    // The operator token is not a member token: the member API refuses it (403, decision).
    expect((await graphql(server, token, '{ viewer { id } }')).status).toBe(403);
  });
});
