/**
 * The requests of a transfer: one GET or HEAD to the file's address under the address and token
 * rules, the answer's status read as an error, its headers parsed; and the conditional HEAD that
 * asks whether a saved file is still the site's.
 */
import type { IncomingMessage } from 'node:http';
import type { SentAnswer } from '../auth/token-manager';
import { hostKind } from '../../common/host-kind';
import { CoreError } from '../errors';
import { fileGet } from '../net/file-get';
import { checkFileUrl } from './safety';
import { TransientError, type TransferInput, type Validator } from './transfer-types';

export const MAX_REDIRECTS = 5;
export const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export interface Answer extends SentAnswer {
  readonly res: IncomingMessage;
}

/**
 * Whether the file at `url` is still the one saved, asked with a conditional HEAD (RFC 9110 §13.1:
 * If-None-Match with the saved ETag, else If-Modified-Since) under the same address, redirect and
 * token rules as a download. true: changed (another ETag, size or date); false: the same (304, or
 * the same validators); null: no answer.
 */
export async function fileChanged(
  input: Asker & {
    readonly url: string;
    readonly saved: {
      readonly etag: string | null;
      readonly lastModified: string | null;
      readonly size: number;
    };
  },
): Promise<boolean | null> {
  let url = checkFileUrl(input.url, input.siteOrigin);
  const headers: Record<string, string> = { 'accept-encoding': 'identity' };
  if (input.saved.etag) headers['if-none-match'] = input.saved.etag;
  else if (input.saved.lastModified) headers['if-modified-since'] = input.saved.lastModified;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const { status, res } = await ask(url, headers, input, 'HEAD');
    res.resume();
    if (REDIRECTS.has(status) && res.headers.location) {
      url = checkFileUrl(new URL(res.headers.location, url).href, input.siteOrigin);
      continue;
    }
    if (status === 304) return false;
    if (status !== 200) return null;
    const etag = strongEtag(header(res, 'etag'));
    const size = parseLength(header(res, 'content-length'));
    const lastModified = header(res, 'last-modified') ?? null;
    if (etag !== null && input.saved.etag !== null) return etag !== input.saved.etag;
    if (size !== null && size !== input.saved.size) return true;
    if (lastModified !== null && input.saved.lastModified !== null)
      return lastModified !== input.saved.lastModified;
    return false;
  }
  return null;
}

export type Asker = Pick<TransferInput, 'siteOrigin' | 'send' | 'signal' | 'idleTimeoutMs'>;

export async function ask(
  url: URL,
  headers: Record<string, string>,
  input: Asker,
  method: 'GET' | 'HEAD' = 'GET',
): Promise<Answer> {
  const get = (extra: Record<string, string>) =>
    fileGet(url, {
      method,
      headers: { ...headers, ...extra },
      signal: input.signal,
      idleTimeoutMs: input.idleTimeoutMs,
      // A school on the Internet: its file's host name must not lead to this computer or
      // its network either.
      publicOnly: hostKind(new URL(input.siteOrigin).hostname) === 'public',
    }).then((res): Answer => {
      const wwwAuthenticate = header(res, 'www-authenticate') ?? null;
      // A refused token is retried once after a refresh by the token manager: this answer's body
      // is not read.
      if (res.statusCode === 401) res.resume();
      return { status: res.statusCode ?? 0, wwwAuthenticate, res };
    });
  if (url.origin === input.siteOrigin)
    return input.send(url.href, (token) => get({ authorization: `Bearer ${token}` }));
  // RFC 6750 §5.3: the token never leaves the site's origin; another host (a CDN's signed
  // address) gets none.
  return get({});
}

export function refuseStatus(status: number, url: URL): void {
  if (status === 200 || status === 206) return;
  if (status === 416)
    throw new TransientError(
      'The site could not resume the file; it is downloaded again from the start.',
      true,
    );
  if (status === 404)
    throw new CoreError(
      'not-found',
      'The school no longer has this file (404). Try again after the next sync, or ask the school.',
      {
        reason: 'not-found',
        status,
      },
    );
  if (status === 410)
    throw new CoreError('not-found', 'The school has withdrawn this file (410).', {
      reason: 'gone',
      status,
    });
  if (status === 401 || status === 403)
    throw new CoreError('forbidden', `${url.origin} refused this download (${status}).`, {
      reason: 'refused',
      status,
    });
  if (status === 408 || status === 429 || status >= 500)
    throw new TransientError(
      `The site could not send the file right now (${status}); the app tries again.`,
      false,
      undefined,
      'server-busy',
    );
  throw new CoreError('server-error', `The site answered the download with ${status}.`, {
    reason: 'bad-answer',
    status,
  });
}

export function ifRangeOf(v: Validator): string | null {
  return v.etag ?? v.lastModified ?? null;
}

export function strongEtag(value: string | undefined): string | null {
  return value !== undefined && /^"[\x21\x23-\x7e\x80-\xff]*"$/.test(value) ? value : null;
}

export function header(res: IncomingMessage, name: string): string | undefined {
  const value = res.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function parseLength(value: string | undefined): number | null {
  return value !== undefined && /^\d{1,16}$/.test(value) ? Number(value) : null;
}

/** RFC 9110 §14.4: `bytes first-last/complete-length`. */
export function parseContentRange(
  value: string | undefined,
): { start: number; end: number; total: number } | null {
  const m = value ? /^bytes (\d{1,16})-(\d{1,16})\/(\d{1,16})$/.exec(value) : null;
  if (!m) return null;
  const [start, end, total] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return start <= end && end < total ? { start, end, total } : null;
}
