import type { IncomingMessage, ServerResponse } from 'node:http';

export function readCookies(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    const name = part.slice(0, i).trim();
    const value = part.slice(i + 1).trim();
    if (name && !(name in out)) {
      try {
        out[name] = decodeURIComponent(value);
      } catch {
        /* ignore a malformed cookie */
      }
    }
  }
  return out;
}

export interface CookieOptions {
  maxAgeSeconds?: number;
  path?: string;
  sameSite?: 'Lax' | 'Strict';
}

/**
 * HttpOnly always; SameSite=Lax so a top-level navigation from the app's browser (GET
 * /oauth/authorize) carries the session while cross-site POSTs do not (CSRF defence in depth, with
 * the form token). No Secure flag: the embedded site is plain http on 127.0.0.1.
 */
export function setCookie(
  res: ServerResponse,
  name: string,
  value: string,
  opts: CookieOptions = {},
): void {
  const parts = [
    `${name}=${encodeURIComponent(value)}`,
    `Path=${opts.path ?? '/'}`,
    'HttpOnly',
    `SameSite=${opts.sameSite ?? 'Lax'}`,
  ];
  if (opts.maxAgeSeconds !== undefined) parts.push(`Max-Age=${opts.maxAgeSeconds}`);
  const prev = res.getHeader('Set-Cookie');
  const list = Array.isArray(prev) ? prev : typeof prev === 'string' ? [prev] : [];
  res.setHeader('Set-Cookie', [...list, parts.join('; ')]);
}
