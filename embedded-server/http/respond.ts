import type { ServerResponse } from 'node:http';
import { toErrorBody } from './errors';

/** RFC 6749 §5.1: responses carrying tokens or credentials must not be cached. */
export function setNoStore(res: ServerResponse): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Pragma', 'no-cache');
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  sendJsonBytes(res, status, Buffer.from(JSON.stringify(body), 'utf8'), headers);
}

/**
 * A JSON body already encoded (the member API measures its answer before sending it). Written as
 * bytes: with a string, Buffer.byteLength walks the whole text for the length, and res.end(string)
 * prepends the headers to it (a copy of the answer) and encodes it again (a courses page of the
 * member API is ~170 KiB).
 */
export function sendJsonBytes(
  res: ServerResponse,
  status: number,
  payload: Buffer,
  headers: Record<string, string> = {},
): void {
  res.statusCode = status;
  // A caller's Content-Type wins (the JWKS is application/jwk-set+json, RFC 7517 §8.5).
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.setHeader('Content-Length', payload.length);
  res.end(payload);
}

/**
 * Server-rendered pages: strict CSP (no external assets, no scripts), no framing, no caching. No
 * form-action directive: the consent form's answer redirects to the client's redirect URI, which
 * may be a private-use scheme (RFC 8252 §7.1), and browsers apply form-action to that redirect.
 */
export function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader(
    'Content-Security-Policy',
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'",
  );
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  setNoStore(res);
  res.setHeader('Content-Length', Buffer.byteLength(html));
  res.end(html);
}

export function redirect(res: ServerResponse, location: string, status = 303): void {
  res.statusCode = status;
  res.setHeader('Location', location);
  setNoStore(res);
  res.end();
}

/** JSON OAuth error (RFC 6749 §5.2). Error responses are never cached either. */
export function sendError(
  res: ServerResponse,
  err: unknown,
  headers: Record<string, string> = {},
): void {
  const { status, body, headers: required } = toErrorBody(err);
  setNoStore(res);
  sendJson(res, status, body, { ...required, ...headers });
}
