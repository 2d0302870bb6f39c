import { describe, expect, it, onTestFinished } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startTestServer } from '../../helpers/server';
import type { EmbeddedServer } from '../../../embedded-server/index';
import { mintToken } from '../member-api/tokens';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function connect(server: EmbeddedServer, token?: string): Promise<Client> {
  const client = new Client({ name: 'mcp-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(
    new URL(`${server.url}/mcp`),
    token ? { requestInit: { headers: { Authorization: `Bearer ${token}` } } } : {},
  );
  await client.connect(transport);
  onTestFinished(() => client.close());
  return client;
}

async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ isError: boolean; text: string; json: Json | null }> {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
  let json: Json | null = null;
  try {
    json = JSON.parse(text) as Json;
  } catch {
    json = null;
  }
  return { isError: r.isError === true, text, json };
}

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1' },
  },
};
const rawPost = (server: EmbeddedServer, headers: Record<string, string> = {}) =>
  fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(INIT),
  });

describe('/mcp anonymous (service-spec Authentication 11: no token = anonymous, public tools only)', () => {
  it('lists only the public tools and answers them from the public catalog', async () => {
    const server = await startTestServer();
    const client = await connect(server);
    const names = (await client.listTools()).tools.map((t) => t.name).sort();
    expect(names).toEqual(['get_school_info', 'list_upcoming_events', 'search_courses']);
    const found = await call(client, 'search_courses', { query: 'data' });
    expect(found.isError).toBe(false);
    expect(found.json!.courses.map((c: Json) => c.id)).toContain('crs_data_analysis');
    const all = await call(client, 'search_courses', { limit: 50 });
    expect(all.json!.courses.map((c: Json) => c.id)).not.toContain('crs_draft_unreleased');
    const info = await call(client, 'get_school_info');
    expect(info.json).toMatchObject({
      id: 'sch_demo',
      name: 'Demo School',
      subdomain: 'demo',
      url: server.url,
    });
    const events = await call(client, 'list_upcoming_events');
    expect(events.json!.events.map((e: Json) => e.id)).toEqual(['evt_live_qa', 'evt_open_house']);
  });

  it('a member tool is unknown to an anonymous caller', async () => {
    const server = await startTestServer();
    const client = await connect(server);
    const r = await call(client, 'list_my_courses').catch((err: Error) => ({
      isError: true,
      text: err.message,
      json: null,
    }));
    expect(r.isError).toBe(true);
  });
});

describe('/mcp with a member token (service-spec Authentication 3: the same token works at /mcp and /member/graphql)', () => {
  it("adds the member tools over the viewer's own data", async () => {
    const server = await startTestServer();
    const client = await connect(
      server,
      mintToken(server, { scopes: ['openid', 'account:read', 'account:write'] }).accessToken,
    );
    const names = (await client.listTools()).tools.map((t) => t.name);
    for (const n of [
      'list_my_courses',
      'get_course_progress',
      'list_my_payments',
      'list_notifications',
      'mark_notification_read',
      'search_courses',
    ])
      expect(names).toContain(n);
    const mine = await call(client, 'list_my_courses', { first: 100 });
    expect(mine.json!.viewer.enrolledCourses.totalCount).toBe(8);
    const progress = await call(client, 'get_course_progress', {
      courseId: 'crs_machine_learning',
    });
    expect(progress.json!.sections[2].lectures[0].isLocked).toBe(true);
    expect(
      (await call(client, 'get_course_progress', { courseId: 'crs_excel_dashboards' })).isError,
    ).toBe(true);
    const payments = await call(client, 'list_my_payments', { first: 50 });
    expect(payments.json!.viewer.payments.totalCount).toBe(15);
    const marked = await call(client, 'mark_notification_read', { id: 'ntf_demo_01' });
    expect(marked.json!.markNotificationRead.readAt).not.toBeNull();
    const inbox = await call(client, 'list_notifications', { unreadOnly: true });
    expect(inbox.json!.viewer.unreadNotificationCount).toBe(2);
  });

  it('each member tool checks its scope: an account:read token cannot mark_notification_read (isError naming the scope)', async () => {
    const server = await startTestServer();
    const client = await connect(
      server,
      mintToken(server, { scopes: ['account:read'] }).accessToken,
    );
    const r = await call(client, 'mark_notification_read', { id: 'ntf_demo_01' });
    expect(r.isError).toBe(true);
    expect(r.text).toBe('This tool requires a member token with the account:write scope.');
    const noRead = await connect(server, mintToken(server, { scopes: ['openid'] }).accessToken);
    const denied = await call(noRead, 'list_my_payments');
    expect(denied.isError).toBe(true);
    expect(denied.text).toContain('account:read');
  });
});

describe('/mcp bearer failures (service-spec "Protected resources")', () => {
  it('an invalid token is 401 invalid_token with WWW-Authenticate pointing to the protected resource metadata', async () => {
    const server = await startTestServer();
    const res = await rawPost(server, { Authorization: 'Bearer not-a-token' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain(
      `resource_metadata="${server.url}/.well-known/oauth-protected-resource"`,
    );
    expect(((await res.json()) as Json).error).toBe('invalid_token');
    const foreign = await rawPost(server, {
      Authorization: `Bearer ${mintToken(server, { scopes: ['account:read'], resource: 'http://127.0.0.1:9' }).accessToken}`,
    });
    expect(foreign.status).toBe(401);
    await expect(connect(server, 'not-a-token')).rejects.toThrow();
  });

  it('no verdict on the token (faults.tokenStoreUnavailable): 503 temporarily_unavailable, Retry-After, no WWW-Authenticate', async () => {
    const server = await startTestServer();
    const { accessToken } = mintToken(server, { scopes: ['account:read'] });
    server.faults.tokenStoreUnavailable = true;
    const res = await rawPost(server, { Authorization: `Bearer ${accessToken}` });
    expect(res.status).toBe(503);
    expect(((await res.json()) as Json).error).toBe('temporarily_unavailable');
    expect(res.headers.get('www-authenticate')).toBeNull();
    expect(res.headers.get('retry-after')).not.toBeNull();
    // Anonymous requests do not depend on the token store.
    expect((await rawPost(server)).status).toBe(200);
    server.faults.tokenStoreUnavailable = false;
    expect((await rawPost(server, { Authorization: `Bearer ${accessToken}` })).status).toBe(200);
  });
});

describe('/mcp transport (decisions, embedded-server/README.md: stateless, JSON responses)', () => {
  it('answers POST with JSON (no session id); GET and DELETE are 405 with Allow: POST', async () => {
    const server = await startTestServer();
    const res = await rawPost(server);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    expect(((await res.json()) as Json).result.serverInfo.name).toBe('Demo School (demo)');
    for (const method of ['GET', 'DELETE']) {
      const r = await fetch(`${server.url}/mcp`, {
        method,
        headers: { Accept: 'text/event-stream' },
      });
      expect(r.status).toBe(405);
      expect(r.headers.get('allow')).toBe('POST');
    }
  });
});

describe('/mcp conformance (service-spec Authentication 3 and 11, "Protected resources")', () => {
  it('Authentication 3: one member token is accepted at both /member/graphql and /mcp', async () => {
    const server = await startTestServer();
    const { accessToken } = mintToken(server, { scopes: ['account:read'] });
    const gql = await fetch(`${server.url}/member/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${accessToken}` },
      body: JSON.stringify({ query: '{ viewer { payments(first: 1) { totalCount } } }' }),
    });
    expect(gql.status).toBe(200);
    const client = await connect(server, accessToken);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['search_courses', 'list_my_payments']));
    const payments = await call(client, 'list_my_payments', { first: 5 });
    expect(payments.json!.viewer.payments.totalCount).toBe(
      ((await gql.json()) as Json).data.viewer.payments.totalCount,
    );
  });

  it('Authentication 11: an anonymous caller sees no member tool at all (public tools only)', async () => {
    const server = await startTestServer();
    const client = await connect(server);
    const names = (await client.listTools()).tools.map((t) => t.name);
    for (const n of [
      'list_my_courses',
      'get_course_progress',
      'list_my_payments',
      'list_notifications',
      'mark_notification_read',
    ])
      expect(names).not.toContain(n);
  });

  it('"Protected resources": a token lacking school_id or for another origin is 401 invalid_token with resource_metadata, never anonymous', async () => {
    const server = await startTestServer();
    for (const token of [
      mintToken(server, { scopes: ['account:read'], schoolId: null }).accessToken,
      mintToken(server, { scopes: ['account:read'], resource: 'https://elsewhere.example' })
        .accessToken,
    ]) {
      const res = await rawPost(server, { Authorization: `Bearer ${token}` });
      expect(res.status).toBe(401);
      expect(((await res.json()) as Json).error).toBe('invalid_token');
      expect(res.headers.get('www-authenticate')).toContain(
        `resource_metadata="${server.url}/.well-known/oauth-protected-resource"`,
      );
    }
  });
});

describe('/mcp against DNS rebinding and the 2025-06-18 transport rules (MCP Streamable HTTP)', () => {
  it('an Origin other than the site is refused with 403; the own origin and no Origin are served', async () => {
    const server = await startTestServer();
    const evil = await rawPost(server, { Origin: 'http://rebind.attacker.test' });
    expect(evil.status).toBe(403);
    expect(((await evil.json()) as Json).error.code).toBe(-32000);
    expect((await rawPost(server, { Origin: 'null' })).status).toBe(403);
    expect((await rawPost(server, { Origin: server.url })).status).toBe(200);
    expect((await rawPost(server)).status).toBe(200);
  });

  it('refuses a JSON-RPC batch (removed in 2025-06-18) with -32600', async () => {
    const server = await startTestServer();
    const res = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify([INIT]),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as Json).error.code).toBe(-32600);
  });

  it('does not offer tools.listChanged, which a stateless server can never send', async () => {
    const server = await startTestServer();
    const body = (await (await rawPost(server)).json()) as Json;
    expect(body.result.capabilities.tools.listChanged).not.toBe(true);
  });

  it('every tool declares an outputSchema and answers structured content that fits it (the SDK client checks)', async () => {
    const server = await startTestServer();
    const client = await connect(
      server,
      mintToken(server, { scopes: ['openid', 'account:read', 'account:write'] }).accessToken,
    );
    const tools = (await client.listTools()).tools;
    expect(tools).toHaveLength(8);
    for (const t of tools) expect(t.outputSchema, t.name).toMatchObject({ type: 'object' });
    const args: Record<string, Record<string, unknown>> = {
      get_course_progress: { courseId: 'crs_machine_learning' },
      mark_notification_read: { id: 'ntf_demo_02' },
    };
    for (const t of tools) {
      const r = (await client.callTool({
        name: t.name,
        arguments: args[t.name] ?? {},
      })) as CallToolResult;
      expect(r.isError, t.name).not.toBe(true);
      expect(r.structuredContent, t.name).toEqual(
        JSON.parse((r.content[0] as { text: string }).text),
      );
    }
  });
});
