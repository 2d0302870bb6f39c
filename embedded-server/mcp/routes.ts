import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { RequestContext, Route } from '../http/types';
import { checkBearer, sendBearerError } from '../http/bearer';
import { readBody } from '../http/body';
import { sendJson, setNoStore } from '../http/respond';
import { PayloadTooLargeError } from '../http/errors';
import { MEMBER_CLIENT_SCOPES } from '../oauth/scopes';
import { registerTools } from './tools';

/** Decision: MCP JSON-RPC messages here are small; 256 KiB bounds a batch. */
export const MCP_BODY_LIMIT = 256 * 1024;

function jsonRpcError(ctx: RequestContext, status: number, code: number, message: string): void {
  setNoStore(ctx.res);
  sendJson(ctx.res, status, { jsonrpc: '2.0', error: { code, message }, id: null });
}

/**
 * /mcp: Streamable HTTP transport in stateless mode with JSON responses, one McpServer per request so the
 * tool set follows the caller (spec Authentication 11: no token = anonymous, public tools only).
 * Bearer verdicts: missing -> anonymous; invalid / other origin / no school_id -> 401 invalid_token with
 * WWW-Authenticate (resource_metadata); no verdict (token store fault) -> 503 temporarily_unavailable with
 * Retry-After and no WWW-Authenticate (spec "Protected resources").
 */
async function handleMcp(ctx: RequestContext): Promise<void> {
  const verdict = checkBearer(ctx);
  if (verdict.kind !== 'ok' && verdict.kind !== 'missing') return sendBearerError(ctx, verdict, MEMBER_CLIENT_SCOPES);
  const token = verdict.kind === 'ok' ? verdict.token : null;

  let parsed: unknown;
  if (ctx.req.method === 'POST') {
    let raw: Buffer;
    try {
      raw = await readBody(ctx.req, MCP_BODY_LIMIT);
    } catch (err) {
      if (err instanceof PayloadTooLargeError) return jsonRpcError(ctx, 413, -32600, `request body exceeds ${MCP_BODY_LIMIT} bytes`);
      throw err;
    }
    try {
      parsed = JSON.parse(raw.toString('utf8')) as unknown;
    } catch {
      return jsonRpcError(ctx, 400, -32700, 'Parse error: the body is not valid JSON');
    }
  }

  const mcp = new McpServer({ name: `${ctx.server.site.name} (${ctx.server.site.subdomain})`, version: '1.0.0' }, { capabilities: { tools: {} } });
  registerTools(mcp, ctx.server, token);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  ctx.res.on('close', () => {
    void transport.close();
    void mcp.close();
  });
  await mcp.connect(transport);
  await transport.handleRequest(ctx.req, ctx.res, parsed);
}

/**
 * Stateless: there is no server-initiated SSE stream to open and no session to delete, so GET and DELETE answer
 * 405 (MCP Streamable HTTP: a server that offers no stream at GET returns 405). Left to the transport, a GET
 * would hold an idle stream open forever.
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
