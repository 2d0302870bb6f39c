import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpMethod, RequestContext, Route, ServerContext } from './types';
import { MethodNotAllowedError, NotFoundError, OAuthError } from './errors';
import { sendError } from './respond';

interface CompiledRoute {
  route: Route;
  segments: readonly string[];
}

/** A route for the method, or (`allow`) the path exists with other methods only. */
export type RouteMatch =
  | { route: Route; params: Record<string, string>; allow?: undefined }
  | { allow: string[]; route?: undefined };

export interface Router {
  readonly routes: readonly Route[];
  /**
   * Finds the route for a method and path; null = no route; `allow` = the path exists with these
   * methods only.
   */
  match(method: string, pathname: string): RouteMatch | null;
  handle(server: ServerContext, req: IncomingMessage, res: ServerResponse): Promise<void>;
}

function split(path: string): string[] {
  return path.split('/').filter((s) => s.length > 0);
}

function matchSegments(
  pattern: readonly string[],
  actual: readonly string[],
): Record<string, string> | null {
  if (pattern.length !== actual.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    const a = actual[i]!;
    if (p.startsWith(':')) {
      try {
        params[p.slice(1)] = decodeURIComponent(a);
      } catch {
        return null;
      }
    } else if (p !== a) return null;
  }
  return params;
}

/**
 * Joins the areas' Route[] tables into the one table of paths. Literal routes win over parameter
 * routes, and a duplicate (method, path) is a programming error reported at start-up, not at
 * request time.
 */
export function createRouter(...tables: ReadonlyArray<readonly Route[]>): Router {
  const routes = tables.flat();
  const seen = new Set<string>();
  for (const r of routes) {
    const key = `${r.method} ${split(r.path)
      .map((s) => (s.startsWith(':') ? ':' : s))
      .join('/')}`;
    if (seen.has(key)) throw new Error(`duplicate route ${r.method} ${r.path}`);
    seen.add(key);
  }
  const compiled: CompiledRoute[] = routes
    .map((route) => ({ route, segments: split(route.path) }))
    // More literal segments first, so /admin/developers beats /admin/:page.
    .sort(
      (a, b) =>
        b.segments.filter((s) => !s.startsWith(':')).length -
        a.segments.filter((s) => !s.startsWith(':')).length,
    );

  function match(method: string, pathname: string): RouteMatch | null {
    const actual = split(pathname);
    const allow = new Set<string>();
    for (const c of compiled) {
      const params = matchSegments(c.segments, actual);
      if (!params) continue;
      if (c.route.method === method) return { route: c.route, params };
      allow.add(c.route.method);
    }
    return allow.size > 0 ? { allow: [...allow].sort() } : null;
  }

  async function handle(
    server: ServerContext,
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', server.baseUrl);
    } catch {
      sendError(res, new NotFoundError('no such path'));
      return;
    }
    try {
      const found = match((req.method ?? 'GET') as HttpMethod, url.pathname);
      if (found === null) throw new NotFoundError('no such path');
      if (found.allow) {
        // RFC 9110 §15.5.6: a 405 carries Allow with the methods the path does serve.
        const refused = new MethodNotAllowedError(
          `method ${req.method ?? ''} is not allowed on this path`,
        );
        refused.headers = { Allow: found.allow.join(', ') };
        throw refused;
      }
      const ctx: RequestContext = { server, req, res, url, params: found.params };
      await found.route.handler(ctx);
    } catch (err) {
      if (!(err instanceof OAuthError)) {
        // Unexpected: the client gets a bare server_error; the log gets the class and message (our
        // messages never carry secrets), not the request.
        server.log?.(
          `unexpected error on ${req.method ?? '?'} ${url.pathname}: ${err instanceof Error ? `${err.name}: ${err.message}` : 'non-Error thrown'}`,
        );
      }
      if (res.headersSent) {
        res.destroy();
        return;
      }
      sendError(res, err);
    }
  }

  return { routes, match, handle };
}
