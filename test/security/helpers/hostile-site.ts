/**
 * A hostile school site on 127.0.0.1: the real embedded server behind a small proxy that forwards
 * every request and lets a test take over any member API answer (rewrite its JSON, or answer with
 * anything at all: an endless page, a slow drip, a bomb). The app reaches it only over HTTP,
 * exactly like a real site; the token is a real one.
 */
import {
  request as httpRequest,
  createServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { onTestFinished } from 'vitest';
import {
  createEmbeddedServer,
  type EmbeddedServer,
  type EmbeddedServerOptions,
} from '../../../embedded-server/index';
import type { SiteClient } from '../../../electron/core/sync/transport';
import { fetchOnlyClient, getMemberToken, siteClient } from '../../core/sync/helpers/member-token';

export interface MemberRequest {
  readonly path: string;
  /** The GraphQL operation name the sync sends (SyncCourses, SyncPayments...), or '' when none. */
  readonly operation: string;
  readonly variables: Readonly<Record<string, unknown>>;
}

export interface Forwarded {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

/** Answers one member API request itself (return true), or lets it through (false). */
export type Takeover = (
  req: MemberRequest,
  res: ServerResponse,
  forward: () => Promise<Forwarded>,
) => boolean | Promise<boolean>;

export interface HostileSite {
  /** The proxy's base URL: what the app is given as the site. */
  readonly url: string;
  readonly server: EmbeddedServer;
  readonly accessToken: string;
  /** As the app builds a client: the writer worker sends the sync's pages (node:http). */
  readonly client: SiteClient;
  /** Every page through this thread's fetch (the path a host with its own fetch takes). */
  readonly fetchClient: SiteClient;
  /** Member API requests seen, by operation name. */
  readonly seen: Map<string, number>;
  takeOver(takeover: Takeover | null): void;
  /** Rewrites the JSON answers of one operation (the rest pass untouched). */
  rewrite(
    operation: string,
    change: (answer: { data?: unknown; errors?: unknown }, req: MemberRequest) => unknown,
  ): void;
}

export async function startHostileSite(options: EmbeddedServerOptions = {}): Promise<HostileSite> {
  const server = await createEmbeddedServer({ port: 0, seed: 'demo', ...options });
  onTestFinished(() => server.close());
  const target = new URL(server.url);
  let takeover: Takeover | null = null;
  const seen = new Map<string, number>();

  const forwardRaw = (req: IncomingMessage, body: Buffer): Promise<Forwarded> =>
    new Promise((resolve, reject) => {
      const headers = { ...req.headers, host: target.host };
      delete headers['accept-encoding'];
      const out = httpRequest(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const h: Record<string, string> = {};
            for (const [k, v] of Object.entries(res.headers))
              if (
                v !== undefined &&
                k !== 'content-length' &&
                k !== 'transfer-encoding' &&
                k !== 'connection'
              )
                h[k] = Array.isArray(v) ? v.join(', ') : v;
            resolve({ status: res.statusCode ?? 502, headers: h, body: Buffer.concat(chunks) });
          });
          res.on('error', reject);
        },
      );
      out.on('error', reject);
      out.end(body);
    });

  const proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks);
        const forward = () => forwardRaw(req, body);
        const path = new URL(req.url ?? '/', 'http://x').pathname;
        if (path === '/member/graphql' && req.method === 'POST') {
          let parsed: { query?: string; variables?: Record<string, unknown> } = {};
          try {
            parsed = JSON.parse(body.toString('utf8')) as typeof parsed;
          } catch {
            // not JSON: forwarded as it is
          }
          const operation =
            /\b(?:query|mutation)\s+([A-Za-z0-9_]+)/.exec(parsed.query ?? '')?.[1] ?? '';
          seen.set(operation, (seen.get(operation) ?? 0) + 1);
          if (
            takeover &&
            (await takeover({ path, operation, variables: parsed.variables ?? {} }, res, forward))
          )
            return;
        }
        const answer = await forward();
        res.writeHead(answer.status, answer.headers).end(answer.body);
      })().catch(() => res.destroy());
    });
  });
  const sockets = new Set<Socket>();
  proxy.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  onTestFinished(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => proxy.close(() => resolve()));
  });
  const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  const { accessToken } = await getMemberToken(server);

  return {
    url,
    server,
    accessToken,
    client: siteClient(url, accessToken),
    fetchClient: fetchOnlyClient(url, accessToken),
    seen,
    takeOver(next) {
      takeover = next;
    },
    rewrite(operation, change) {
      takeover = async (req, res, forward) => {
        if (req.operation !== operation) return false;
        const answer = await forward();
        const json = JSON.parse(answer.body.toString('utf8')) as {
          data?: unknown;
          errors?: unknown;
        };
        const changed = change(json, req);
        res
          .writeHead(answer.status, { 'content-type': 'application/json' })
          .end(typeof changed === 'string' ? changed : JSON.stringify(changed ?? json));
        return true;
      };
    },
  };
}

/**
 * A value nested `depth` arrays deep, written without recursion (the text a hostile site sends).
 */
export function deepArrayText(depth: number): string {
  return '['.repeat(depth) + ']'.repeat(depth);
}
