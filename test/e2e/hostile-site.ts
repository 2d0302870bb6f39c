/**
 * A hostile site for the screen specs: the demo site (real HTTP on 127.0.0.1, its real OAuth and
 * member API) whose member API answers are rewritten on their way out by the test, the way a broken
 * or malicious school's server would answer. Every request still goes over the wire to the real
 * endpoint first (the rewrite sees the real viewer data and changes it), and the app reads the
 * rewritten answer through its real sync, worker and database.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EmbeddedServer } from '../../embedded-server/index';

/**
 * The `viewer` object of one member API answer (one part of the sync: courses, payments, ...), as
 * JSON.
 */
export type Viewer = Record<string, unknown>;
/** Changes a viewer answer in place, or returns a new one. */
export type ViewerRewrite = (viewer: Viewer) => Viewer | void;

const PASS = 'x-test-hostile-pass';
const HOP_BY_HOP = new Set([
  'connection',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'keep-alive',
]);

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * From now on the site's member API answers pass through `rewrite` (until the returned function is
 * called). The router's handler is wrapped: a request to /member/graphql is forwarded to the same
 * server over HTTP (marked so the wrapper lets it through), and its JSON answer rewritten.
 */
export function makeHostile(server: EmbeddedServer, rewrite: ViewerRewrite): () => void {
  const router = server.router as {
    handle: (ctx: unknown, req: IncomingMessage, res: ServerResponse) => Promise<void>;
  };
  const original = router.handle;
  router.handle = async (ctx, req, res) => {
    if (
      !(req.url ?? '').startsWith('/member/graphql') ||
      req.headers[PASS] !== undefined ||
      req.method !== 'POST'
    )
      return original(ctx, req, res);
    const body = await readBody(req);
    const headers: Record<string, string> = { [PASS]: '1' };
    for (const [k, v] of Object.entries(req.headers))
      if (typeof v === 'string' && !HOP_BY_HOP.has(k) && k !== 'host' && k !== 'accept-encoding')
        headers[k] = v;
    const answer = await fetch(`${server.url}${req.url ?? ''}`, { method: 'POST', headers, body });
    let text = await answer.text();
    if (answer.ok) {
      try {
        const json = JSON.parse(text) as { data?: { viewer?: Viewer } };
        if (json.data?.viewer) json.data.viewer = rewrite(json.data.viewer) ?? json.data.viewer;
        text = JSON.stringify(json);
      } catch {
        // Not JSON: passed on as it came.
      }
    }
    answer.headers.forEach((value, key) => {
      if (!HOP_BY_HOP.has(key)) res.setHeader(key, value);
    });
    res.statusCode = answer.status;
    res.setHeader('content-type', 'application/json; charset=utf-8');
    res.end(text);
  };
  return () => {
    router.handle = original;
  };
}

/**
 * The nodes of one connection in a viewer answer (e.g. 'enrolledCourses'), or [] when this answer
 * is another part.
 */
export function nodesOf(viewer: Viewer, connection: string): Record<string, unknown>[] {
  const c = viewer[connection] as { nodes?: unknown } | undefined;
  return Array.isArray(c?.nodes) ? (c.nodes as Record<string, unknown>[]) : [];
}
