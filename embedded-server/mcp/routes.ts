import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { RequestContext, Route } from '../http/types';
import { checkBearer, sendBearerError } from '../http/bearer';
import { readBody } from '../http/body';
import { sendJson, setNoStore } from '../http/respond';
import { PayloadTooLargeError } from '../http/errors';
import { MEMBER_CLIENT_SCOPES } from '../oauth/scopes';
import { registerTools } from './tools';

/** Decision: MCP JSON-RPC messages here are small; 256 KiB bounds one. */
export const MCP_BODY_LIMIT = 256 * 1024;

function jsonRpcError(ctx: RequestContext, status: number, code: number, message: string): void {
  setNoStore(ctx.res);
  sendJson(ctx.res, status, { jsonrpc: '2.0', error: { code, message }, id: null });
}

/**
 * MCP Streamable HTTP, "Security Warning": servers must validate Origin against DNS rebinding; an
 * Origin that is present and not this site's own (or its localhost form) is refused with 403. The
 * Host is already checked for every request (http/host-check.ts). Clients outside a browser send no
 * Origin and are served.
 */
function originAllowed(ctx: RequestContext): boolean {
  const origin = ctx.req.headers.origin;
  if (origin === undefined) return true;
  const own = new URL(ctx.server.baseUrl);
  return origin === own.origin || origin === `http://localhost:${own.port}`;
}

/**
 * /mcp: Streamable HTTP transport in stateless mode with JSON responses, one McpServer per request
 * so the tool set follows the caller (spec Authentication 11: no token = anonymous, public tools
 * only). Bearer verdicts: missing -> anonymous; invalid / other origin / no school_id -> 401
 * invalid_token with WWW-Authenticate (resource_metadata); no verdict (token store fault) -> 503
 * temporarily_unavailable with Retry-After and no WWW-Authenticate (spec "Protected resources").
 */
async function handleMcp(ctx: RequestContext): Promise<void> {
  if (!originAllowed(ctx))
    return jsonRpcError(ctx, 403, -32000, 'Forbidden: requests from another origin are refused');
  const verdict = checkBearer(ctx);
  if (verdict.kind !== 'ok' && verdict.kind !== 'missing')
    return sendBearerError(ctx, verdict, MEMBER_CLIENT_SCOPES);
  const token = verdict.kind === 'ok' ? verdict.token : null;

  let parsed: unknown;
  if (ctx.req.method === 'POST') {
    let raw: Buffer;
    try {
      raw = await readBody(ctx.req, MCP_BODY_LIMIT);
    } catch (err) {
      if (err instanceof PayloadTooLargeError)
        return jsonRpcError(ctx, 413, -32600, `request body exceeds ${MCP_BODY_LIMIT} bytes`);
      throw err;
    }
    try {
      parsed = JSON.parse(raw.toString('utf8')) as unknown;
    } catch {
      return jsonRpcError(ctx, 400, -32700, 'Parse error: the body is not valid JSON');
    }
    // MCP 2025-06-18 removed JSON-RPC batching; the transport would still take one, so it is
    // refused here.
    if (Array.isArray(parsed))
      return jsonRpcError(
        ctx,
        400,
        -32600,
        'Invalid Request: JSON-RPC batches are not supported; send one message per request',
      );
  }

  const mcp = new McpServer(
    { name: `${ctx.server.site.name} (${ctx.server.site.subdomain})`, version: '1.0.0' },
    { capabilities: { tools: {} } },
  );
  registerTools(mcp, ctx.server, token);
  // The SDK declares tools.listChanged once a tool is registered; a stateless server has no stream
  // to send the notification on, and the tool list only changes with the caller's token, so it is
  // not offered.
  mcp.server.registerCapabilities({ tools: { listChanged: false } });
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  ctx.res.on('close', () => {
    void transport.close();
    void mcp.close();
  });
  await mcp.connect(transport);
  await transport.handleRequest(ctx.req, ctx.res, parsed);
}

/**
 * Stateless: there is no server-initiated SSE stream to open and no session to delete, so GET and
 * DELETE answer 405 (MCP Streamable HTTP: a server that offers no stream at GET returns 405). Left
 * to the transport, a GET would hold an idle stream open forever.
 */
function methodNotAllowed(ctx: RequestContext): void {
  ctx.res.setHeader('Allow', 'POST');
  jsonRpcError(ctx, 405, -32000, 'Method not allowed: this stateless server accepts POST only');
}

export const mcpRoutes: Route[] = [
  { method: 'POST', path: '/mcp', handler: handleMcp },
  { method: 'GET', path: '/mcp', handler: methodNotAllowed },
  { method: 'DELETE', path: '/mcp', handler: methodNotAllowed },
];
