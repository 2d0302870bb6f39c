/**
 * GET/HEAD /files/products/<id>/<name>: a digital product's file, for the member it was delivered
 * to (README, decision "Product files"). The member's bearer token (member audience, account:read
 * or account:write) like the member API; a product not delivered to them answers exactly like an
 * unknown one (404), one whose access ended 403 access_expired. Strong ETag from the bytes,
 * Last-Modified, single byte ranges with If-Range (RFC 9110 §14, §13.1.5), If-None-Match (304), and
 * the whole file's SHA-256 in Repr-Digest (RFC 9530) on 200 and 206 alike.
 */
import { createHash } from 'node:crypto';
import type { RequestContext, Route } from '../http/types';
import { requireBearer } from '../http/bearer';
import { sendJson, setNoStore } from '../http/respond';
import { getDelivery, getDigitalProduct } from '../store/content-entitlements';
import { renderProductFile } from './generate';
import { productFilePath } from './paths';

export const ACCOUNT_SCOPES = ['account:read', 'account:write'] as const;

interface Rendered {
  readonly body: Buffer;
  readonly etag: string;
  readonly digest: string;
}
const cache = new Map<string, Rendered>();

function rendered(productId: string, title: string, fileName: string): Rendered | null {
  const key = `${productId}\n${title}\n${fileName}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const body = renderProductFile(productId, title, fileName);
  if (!body) return null;
  const sum = createHash('sha256').update(body).digest();
  const entry = {
    body,
    etag: `"${sum.toString('hex').slice(0, 32)}"`,
    digest: `sha-256=:${sum.toString('base64')}:`,
  };
  if (cache.size > 64) cache.clear();
  cache.set(key, entry);
  return entry;
}

/**
 * Demo fault "slow": 2 KiB every 125 ms (16 KiB/s): the poster takes ~14 s, enough to watch, pause
 * and resume.
 */
const SLOW_CHUNK = 2 * 1024;
const SLOW_TICK_MS = 125;

type Product = NonNullable<ReturnType<typeof getDigitalProduct>>;

/**
 * The member's product and its rendered file, after the checks in order: a member token, a delivery
 * of this product under this name, access not expired, and the demo faults. Answers the refusal
 * itself (then null).
 */
function deliveredFile(ctx: RequestContext): { product: Product; file: Rendered } | null {
  const { server, res } = ctx;
  const token = requireBearer(ctx, ACCOUNT_SCOPES);
  if (!token) return null;
  if (token.audience !== 'member') {
    sendJson(res, 403, {
      error: 'insufficient_scope',
      error_description: 'product files are for members',
    });
    return null;
  }
  const id = ctx.params.id ?? '';
  const name = ctx.params.name ?? '';
  const product = getDigitalProduct(server.db, server.site.schoolId, id);
  const delivery = product
    ? getDelivery(server.db, server.site.schoolId, token.userId, id)
    : undefined;
  const notFound = () => {
    setNoStore(res);
    sendJson(res, 404, { error: 'not_found', error_description: 'no such file' });
    return null;
  };
  if (!product || !delivery || product.download_url !== productFilePath(id, name))
    return notFound();
  if (delivery.expire_at !== null && delivery.expire_at <= server.clock.now()) {
    setNoStore(res);
    sendJson(res, 403, {
      error: 'access_expired',
      error_description: 'your access to this product has ended',
    });
    return null;
  }
  // Demo faults (Settings > Demo): the school withdrew the file, or never had it.
  if (server.faults.downloadFault === 'not-found') return notFound();
  if (server.faults.downloadFault === 'gone') {
    setNoStore(res);
    sendJson(res, 410, {
      error: 'gone',
      error_description: 'this file has been withdrawn',
    });
    return null;
  }
  const file = rendered(id, product.title, name);
  return file ? { product, file } : notFound();
}

/** RFC 9110 §13.1.2: If-None-Match (weak comparison) -> 304 for GET and HEAD. */
function notModified(ctx: RequestContext, etag: string): boolean {
  const inm = ctx.req.headers['if-none-match'];
  return (
    inm !== undefined &&
    inm.split(',').some((t) => t.trim().replace(/^W\//, '') === etag || t.trim() === '*')
  );
}

/**
 * The bytes to send (RFC 9110 §14.2): the whole file, one range of it, or 'unsatisfiable' (416). A
 * Range under an If-Range that no longer matches gets the whole (changed) file (RFC 9110 §13.1.5).
 */
function byteRange(
  ctx: RequestContext,
  size: number,
  validators: { etag: string; lastModified: string },
): { start: number; end: number; partial: boolean } | 'unsatisfiable' {
  let start = 0;
  let end = size - 1;
  const range = ctx.req.headers.range;
  const ifRange = ctx.req.headers['if-range'];
  const rangeApplies =
    range !== undefined &&
    (ifRange === undefined || ifRange === validators.etag || ifRange === validators.lastModified);
  if (!rangeApplies) return { start, end, partial: false };
  const m = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
  if (!m || (m[1] === '' && m[2] === '')) return { start, end, partial: false };
  if (m[1] === '') start = Math.max(0, size - Number(m[2]));
  else {
    start = Number(m[1]);
    if (m[2] !== '') end = Math.min(end, Number(m[2]));
  }
  if (start > end || start >= size) return 'unsatisfiable';
  return { start, end, partial: true };
}

/** Sends the body, or the demo faults' version of it: cut off halfway, or trickled. */
async function sendBody(ctx: RequestContext, body: Buffer): Promise<void> {
  const { res } = ctx;
  const fault = ctx.server.faults.downloadFault;
  if (fault === 'cut') {
    // Half of what was asked for, then the connection drops (a lost network mid-download).
    res.write(body.subarray(0, Math.max(1, Math.floor(body.length / 2))));
    setTimeout(() => res.socket?.destroy(), 50);
    return;
  }
  if (fault === 'slow') {
    for (let i = 0; i < body.length; i += SLOW_CHUNK) {
      if (res.destroyed) return;
      res.write(body.subarray(i, i + SLOW_CHUNK));
      await new Promise((resolve) => setTimeout(resolve, SLOW_TICK_MS));
    }
    return void res.end();
  }
  res.end(body);
}

async function productFile(ctx: RequestContext): Promise<void> {
  const { res, req } = ctx;
  const delivered = deliveredFile(ctx);
  if (!delivered) return;
  const { product, file } = delivered;
  const name = ctx.params.name ?? '';
  const size = file.body.length;
  const headers: Record<string, string> = {
    'Content-Type': contentType(name),
    ETag: file.etag,
    'Last-Modified': new Date(product.created_at).toUTCString(),
    'Accept-Ranges': 'bytes',
    'Repr-Digest': file.digest,
    'Content-Disposition': `attachment; filename="${name.replace(/[^\x20-\x7e]|"/g, '_')}"`,
    'Cache-Control': 'private, no-cache',
    'X-Content-Type-Options': 'nosniff',
  };
  if (notModified(ctx, file.etag)) {
    res.writeHead(304, { ETag: file.etag, 'Cache-Control': headers['Cache-Control']! });
    return void res.end();
  }
  const range = byteRange(ctx, size, {
    etag: file.etag,
    lastModified: headers['Last-Modified']!,
  });
  if (range === 'unsatisfiable') {
    res.writeHead(416, { 'Content-Range': `bytes */${size}`, ETag: file.etag });
    return void res.end();
  }
  const { start, end } = range;
  if (range.partial) headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
  headers['Content-Length'] = String(end - start + 1);
  res.writeHead(range.partial ? 206 : 200, headers);
  if (req.method === 'HEAD') return void res.end();
  await sendBody(ctx, file.body.subarray(start, end + 1));
}

function contentType(name: string): string {
  if (name.endsWith('.pdf')) return 'application/pdf';
  if (name.endsWith('.wav')) return 'audio/wav';
  if (name.endsWith('.png')) return 'image/png';
  return 'application/octet-stream';
}

export const productFileRoutes: Route[] = [
  { method: 'GET', path: '/files/products/:id/:name', handler: productFile },
  { method: 'HEAD', path: '/files/products/:id/:name', handler: productFile },
];
