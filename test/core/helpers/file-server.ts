/**
 * A real HTTP file server on 127.0.0.1 for the download tests: one file per path, a strong ETag
 * from its bytes, Range + If-Range (RFC 9110 §14, §13.1.5), Repr-Digest (RFC 9530), and switches to
 * cut a transfer, slow it, answer a status, redirect, or insist on a bearer token. Every request is
 * recorded (headers included).
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createTokenManager } from '../../../electron/core/auth/token-manager';
import { createMemoryCipher } from '../../../electron/core/vault/cipher';
import { createVault } from '../../../electron/core/vault/vault';
import {
  createDownloadManager,
  type DownloadManager,
  type DownloadManagerOptions,
} from '../../../electron/core/downloads/manager';
import type { DigitalProductView } from '../../../electron/common/view-models';
import type { ProductOfflineView } from '../../../electron/common/downloads';

export interface ServedFile {
  body: Buffer;
  /** Content-Disposition to send, if any. */
  disposition?: string;
  /** Send a Repr-Digest; `wrong` sends one that does not match. */
  digest?: 'right' | 'wrong' | 'none';
  /** Send an ETag (default true). */
  etag?: boolean;
}

export interface FileServer {
  readonly origin: string;
  readonly files: Map<string, ServedFile>;
  readonly requests: { path: string; headers: IncomingMessage['headers'] }[];
  /**
   * Cut the connection after this many body bytes of the next answers (count), then serve normally.
   */
  cutAfter: { bytes: number; times: number } | null;
  /** Bytes per 10 ms tick (null: as fast as possible). */
  throttle: number | null;
  /** Answer with this status (and no body) for every request. */
  status: number | null;
  /** path -> Location */
  redirects: Map<string, string>;
  /** Only this bearer token is accepted (401 otherwise). */
  token: string | null;
  close(): Promise<void>;
}

export const etagOf = (body: Buffer) =>
  `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`;

export async function startFileServer(): Promise<FileServer> {
  const sockets = new Set<Socket>();
  const state: Omit<FileServer, 'origin' | 'close'> = {
    files: new Map(),
    requests: [],
    cutAfter: null,
    throttle: null,
    status: null,
    redirects: new Map(),
    token: null,
  };
  const server: Server = createServer((req, res) => void handle(req, res));
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    state.requests.push({ path, headers: req.headers });
    const location = state.redirects.get(path);
    if (location) return void res.writeHead(302, { location }).end();
    if (state.status !== null) return void res.writeHead(state.status).end();
    if (state.token !== null && req.headers.authorization !== `Bearer ${state.token}`)
      return void res.writeHead(401, { 'www-authenticate': 'Bearer error="invalid_token"' }).end();
    const file = state.files.get(path);
    if (!file) return void res.writeHead(404).end();
    const etag = etagOf(file.body);
    const size = file.body.length;
    const headers: Record<string, string> = {
      'content-type': 'application/octet-stream',
      'accept-ranges': 'bytes',
    };
    if (file.etag !== false) headers.etag = etag;
    if (file.disposition) headers['content-disposition'] = file.disposition;
    const digest = file.digest ?? 'none';
    if (digest !== 'none') {
      const sum = createHash('sha256')
        .update(digest === 'right' ? file.body : Buffer.from('something else'))
        .digest('base64');
      headers['repr-digest'] = `sha-256=:${sum}:`;
    }
    if (file.etag !== false && req.headers['if-none-match'] === etag)
      return void res.writeHead(304, { etag }).end();
    let start = 0;
    let status = 200;
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const ifRange = req.headers['if-range'];
    if (range && (ifRange === undefined || (file.etag !== false && ifRange === etag))) {
      start = Number(range[1]);
      if (start >= size)
        return void res.writeHead(416, { 'content-range': `bytes */${size}` }).end();
      status = 206;
      headers['content-range'] = `bytes ${start}-${size - 1}/${size}`;
    }
    headers['content-length'] = String(size - start);
    res.writeHead(status, headers);
    let body = file.body.subarray(start);
    const cut = state.cutAfter;
    if (cut && cut.times > 0) {
      cut.times--;
      body = body.subarray(0, cut.bytes);
      res.write(body);
      await new Promise((r) => setTimeout(r, 30));
      res.socket?.destroy();
      return;
    }
    if (state.throttle === null) return void res.end(body);
    for (let i = 0; i < body.length; i += state.throttle) {
      if (res.destroyed) return;
      res.write(body.subarray(i, i + state.throttle));
      await new Promise((r) => setTimeout(r, 10));
    }
    res.end();
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(state, {
    origin,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

/** Deterministic bytes that start like a PDF (so the app opens them inside). */
export function pdfLike(size: number, seed = 1): Buffer {
  const body = Buffer.alloc(size);
  let x = seed;
  for (let i = 0; i < size; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    body[i] = x >>> 24;
  }
  body.write('%PDF-1.4\n', 0, 'latin1');
  return body;
}

export const SITE = 'site-1';
export const TOKEN = 'at_member_token';

export function product(
  id: string,
  downloadUrl: string | null,
  extra: Partial<DigitalProductView> = {},
): DigitalProductView {
  return {
    id,
    title: `Product ${id}`,
    description: null,
    format: 'ebook',
    deliveredAt: '2026-01-01T00:00:00.000Z',
    expireDate: null,
    downloadUrl,
    ...extra,
  };
}

/**
 * A download manager on `dir` for one site whose origin is `origin`, with the real token manager (a
 * vault holding a live member token), so the token rules under test are the app's own.
 */
export async function managerFor(
  dir: string,
  origin: string,
  products: () => DigitalProductView[],
  overrides: Partial<DownloadManagerOptions> = {},
): Promise<{ manager: DownloadManager; events: ProductOfflineView[] }> {
  const vault = createVault({ dir: `${dir}/vault`, cipher: createMemoryCipher() });
  await vault.put(SITE, {
    clientId: 'c',
    clientSecret: null,
    accessToken: TOKEN,
    refreshToken: 'rt',
    expiresAt: Date.now() + 3600_000,
    scopes: ['account:read'],
    schoolId: 'sch',
    schoolSubdomain: 'sch',
    resource: origin,
    issuer: origin,
  });
  const tokens = createTokenManager({
    vault,
    fetch: (u, i) => fetch(u, i),
    resolveSite: () => ({ origin, tokenEndpoint: `${origin}/token` }),
  });
  const events: ProductOfflineView[] = [];
  const manager = await createDownloadManager({
    dir: `${dir}/downloads`,
    products: (siteId) => (siteId === SITE ? products() : null),
    siteOrigin: (siteId) => (siteId === SITE ? origin : null),
    sendWith: (siteId) => tokens.sendWith(siteId),
    now: () => Date.now(),
    onChange: (v) => events.push(v),
    retryDelaysMs: [20, 40, 80],
    progressEveryMs: 0,
    durableEveryMs: 50,
    ...overrides,
  });
  return { manager, events };
}
