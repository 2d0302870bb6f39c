import { describe, expect, it, onTestFinished } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { auth, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startTestServer } from '../../helpers/server';
import { ScriptedBrowser } from '../../helpers/scripted-browser';
import type { EmbeddedServer } from '../../../embedded-server/index';
import { createMemberApp, operatorWithApps } from '../admin-browser';
import { getJson } from '../helpers';

const ASSISTANT_CALLBACK = 'http://127.0.0.1:54987/callback';
const MEMBER_SCOPES = 'openid profile email account:read account:write';

/**
 * What an MCP assistant keeps: the SDK's OAuthClientProvider, in memory, with the client_id the
 * operator gave.
 */
class AssistantProvider implements OAuthClientProvider {
  authorizationUrl: URL | null = null;
  private saved: OAuthTokens | undefined;
  private verifier = '';
  private client: OAuthClientInformationMixed | undefined;
  readonly stateValue = `st-${Math.random().toString(36).slice(2)}`;

  constructor(clientId: string | null) {
    this.client = clientId ? { client_id: clientId } : undefined;
  }
  get redirectUrl(): string {
    return ASSISTANT_CALLBACK;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Study Assistant',
      redirect_uris: [ASSISTANT_CALLBACK],
      token_endpoint_auth_method: 'none',
    };
  }
  state(): string {
    return this.stateValue;
  }
  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.client = info;
  }
  tokens(): OAuthTokens | undefined {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }
  codeVerifier(): string {
    return this.verifier;
  }
}

/**
 * The member signs in and approves on the site's real pages; returns the callback URL the site
 * redirected to.
 */
async function memberApproves(provider: AssistantProvider): Promise<URL> {
  expect(provider.authorizationUrl).not.toBeNull();
  const callback = await new ScriptedBrowser().authorize(provider.authorizationUrl!.href, {
    stopAt: ASSISTANT_CALLBACK,
  });
  return new URL(callback);
}

async function connected(server: EmbeddedServer, provider: AssistantProvider): Promise<Client> {
  const client = new Client({ name: 'study-assistant', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { authProvider: provider }),
  );
  onTestFinished(() => client.close());
  return client;
}

describe('An MCP client reaches the member tools with the SDK auth() flow (RFC 9728, spec Authentication 5)', () => {
  it("the operator makes a member application, the SDK's auth() asks for what it can be granted, and the member tools answer", async () => {
    const server = await startTestServer();
    // Spec Authentication 5: member clients are made by a site operator in the admin area.
    const { clientId, page } = await createMemberApp(server, await operatorWithApps(server), {
      name: 'Study Assistant',
      redirect_uris: 'http://127.0.0.1/callback',
    });
    // The operator's page says how an assistant connects: the /mcp address and a public
    // application's client ID.
    expect(page.html).toContain('Connecting an AI assistant (MCP)');
    expect(page.html).toContain(`<code class="mcp-url">${server.url}/mcp</code>`);
    const provider = new AssistantProvider(clientId);
    const serverUrl = new URL(`${server.url}/mcp`);

    expect(await auth(provider, { serverUrl })).toBe('REDIRECT');
    const asked = provider.authorizationUrl!.searchParams;
    expect(asked.get('scope')).toBe(MEMBER_SCOPES);
    expect(asked.get('resource')).toBe(server.url);
    expect(asked.get('client_id')).toBe(clientId);

    const callback = await memberApproves(provider);
    expect(callback.searchParams.get('error')).toBeNull();
    expect(callback.searchParams.get('state')).toBe(provider.stateValue);
    expect(callback.searchParams.get('iss')).toBe(server.url);
    expect(
      await auth(provider, { serverUrl, authorizationCode: callback.searchParams.get('code')! }),
    ).toBe('AUTHORIZED');
    expect(provider.tokens()!.scope).toBe(MEMBER_SCOPES);

    const client = await connected(server, provider);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'list_my_courses',
        'get_course_progress',
        'list_my_payments',
        'mark_notification_read',
      ]),
    );
    const courses = (await client.callTool({
      name: 'list_my_courses',
      arguments: { first: 5 },
    })) as CallToolResult;
    expect(courses.isError).not.toBe(true);
    expect(JSON.stringify(courses.content)).toContain('crs_data_analysis');
    const marked = (await client.callTool({
      name: 'mark_notification_read',
      arguments: { id: 'ntf_demo_01' },
    })) as CallToolResult;
    expect(marked.isError).not.toBe(true);
  });

  it("/mcp's own resource metadata lists only the member scopes and names the origin as the resource", async () => {
    const server = await startTestServer();
    const { status, body } = await getJson(
      `${server.url}/.well-known/oauth-protected-resource/mcp`,
    );
    expect(status).toBe(200);
    expect(body).toMatchObject({
      resource: server.url,
      authorization_servers: [server.url],
      scopes_supported: MEMBER_SCOPES.split(' '),
    });
    // The origin's document still lists every scope of the resource (admin API included).
    const origin = await getJson(`${server.url}/.well-known/oauth-protected-resource`);
    expect(origin.body.scopes_supported).toHaveLength(38);
  });

  it('a refused token at /mcp is answered 401 with the scope a new token needs (RFC 6750 §3)', async () => {
    const server = await startTestServer();
    const res = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: {
        Authorization: 'Bearer at_unknown',
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: '{}',
    });
    expect(res.status).toBe(401);
    const header = res.headers.get('www-authenticate') ?? '';
    expect(header).toContain(`scope="${MEMBER_SCOPES}"`);
    expect(header).toContain(
      `resource_metadata="${server.url}/.well-known/oauth-protected-resource"`,
    );
  });

  it('a self-registered client is an operator client: the member scopes are refused with a reason naming the operator path', async () => {
    const server = await startTestServer();
    const provider = new AssistantProvider(null);
    const serverUrl = new URL(`${server.url}/mcp`);
    expect(await auth(provider, { serverUrl })).toBe('REDIRECT');
    expect(provider.clientInformation()!.client_id).toMatch(/^cli_/);
    const callback = await memberApproves(provider);
    expect(callback.searchParams.get('error')).toBe('invalid_scope');
    expect(callback.searchParams.get('error_description')).toContain(
      'Developers > OAuth applications',
    );
  });
});
