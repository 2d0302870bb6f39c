/**
 * One try at bringing a product's file into its partial file: the address and every redirect checked, the
 * member's token only to the site's own origin, a resume with Range + If-Range when a validator allows it, the
 * size and any digest checked. It never renames into place; the manager does, once this returns.
 */
import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, rm, stat, truncate } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { AuthorizedSend, SentAnswer } from '../auth/token-manager';
import { hostKind } from '../../common/host-kind';
import { CoreError } from '../errors';
import { fileGet } from '../net/file-get';
import type { ViewAs } from '../../common/downloads';
import { createFlusher } from './flusher';
import {
  checkFileUrl,
  declaredSha256,
  detectViewAs,
  sanitizeFileName,
  suggestedName,
} from './safety';

export interface Validator {
  readonly etag: string | null;
  readonly lastModified: string | null;
}

export interface TransferInput {
  readonly url: string;
  /** The site's origin: the only one the member's token goes to. */
  readonly siteOrigin: string;
  /** The token manager's rules for a request to the site's origin (one refresh on 401, insufficient_scope). */
  readonly send: AuthorizedSend;
  readonly title: string;
  readonly partFile: string;
  /** What an earlier try left: bytes known to be on disk, and the validator they were fetched under. */
  readonly resume: (Validator & { readonly bytes: number }) | null;
  readonly signal: AbortSignal;
  readonly idleTimeoutMs: number;
  readonly maxBytes: number;
  /** Larger declared sizes stop with NeedsConfirmation; null: the student already said yes. */
  readonly askAboveBytes: number | null;
  /** The answer is in: its validator, size and name (saved with the partial file, so a restart can resume). */
  readonly onStart: (
    info: Validator & {
      readonly total: number | null;
      readonly offset: number;
      readonly name: string;
    },
  ) => Promise<void>;
  /** Bytes in the partial file so far (progress). */
  readonly onBytes: (bytes: number) => void;
  /** Bytes made durable (fdatasync) so far: a restart resumes from here. */
  readonly onDurable: (bytes: number) => void;
  readonly durableEveryMs?: number;
}

export interface TransferResult extends Validator {
  readonly bytes: number;
  readonly sha256: string;
  readonly name: string;
  readonly viewAs: ViewAs | null;
}

/** The file is larger than the ask threshold: nothing was written; the size is for the question. */
export class NeedsConfirmation extends Error {
  constructor(readonly size: number) {
    super('needs confirmation');
  }
}

/** A failure worth another try (network, 5xx, a cut connection); `restart` drops the partial file first. */
export class TransientError extends CoreError {
  constructor(
    message: string,
    readonly restart = false,
    options?: { cause?: unknown },
    reason: 'network' | 'cut' | 'checksum' | 'server-busy' = 'network',
  ) {
    super('site-unreachable', message, { reason }, options);
  }
}

const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

interface Answer extends SentAnswer {
  readonly res: IncomingMessage;
}

export async function transfer(input: TransferInput): Promise<TransferResult> {
  let url = checkFileUrl(input.url, input.siteOrigin);
  // RFC 9110 §13.1.5: If-Range takes a strong entity tag or a Last-Modified date; a weak tag cannot resume.
  const resume = input.resume && input.resume.bytes > 0 ? ifRangeOf(input.resume) : null;
  const headers: Record<string, string> = {
    'accept-encoding': 'identity',
    accept: '*/*',
  };
  if (resume) {
    headers.range = `bytes=${input.resume!.bytes}-`;
    headers['if-range'] = resume;
  }

  let answer: Answer | null = null;
  for (let hop = 0; ; hop++) {
    answer = await ask(url, headers, input);
    if (!REDIRECTS.has(answer.status)) break;
    answer.res.destroy();
    const location = answer.res.headers.location;
    if (hop >= MAX_REDIRECTS)
      throw new CoreError('server-error', 'The file’s address redirects too many times.', {
        reason: 'bad-answer',
      });
    if (!location)
      throw new CoreError(
        'server-error',
        'The site redirected the download without saying where.',
        { reason: 'bad-answer' },
      );
    // Each hop under the same rules: https (http on loopback), no credentials; the token only to the site's origin.
    url = checkFileUrl(new URL(location, url).href, input.siteOrigin);
  }
  const { res, status } = answer;
  try {
    refuseStatus(status, url);
  } catch (error) {
    res.destroy();
    throw error;
  }

  let offset = 0;
  let total: number | null = null;
  const length = parseLength(res.headers['content-length']);
  if (status === 206) {
    const range = parseContentRange(res.headers['content-range']);
    if (
      !resume ||
      !range ||
      range.start !== input.resume!.bytes ||
      (length !== null && length !== range.end - range.start + 1)
    ) {
      res.destroy();
      throw new TransientError(
        'The site answered with a different part of the file; it is downloaded again from the start.',
        true,
      );
    }
    offset = range.start;
    total = range.total;
  } else {
    // 200 to a resume: the file changed since (If-Range did not match) or the site does not do ranges. From 0.
    total = length;
  }
  const etag = strongEtag(header(res, 'etag'));
  const lastModified = header(res, 'last-modified') ?? null;
  if (total !== null && total > input.maxBytes) {
    res.destroy();
    throw new CoreError(
      'forbidden',
      `This file is ${formatMiB(total)}, more than the ${formatMiB(input.maxBytes)} the app saves.`,
      {
        reason: 'too-large',
        size: total,
      },
    );
  }
  if (
    total !== null &&
    input.askAboveBytes !== null &&
    total > input.askAboveBytes &&
    offset === 0
  ) {
    res.destroy();
    throw new NeedsConfirmation(total);
  }
  const name = sanitizeFileName(
    suggestedName(header(res, 'content-disposition'), url, input.title),
    input.title,
  );
  const expectedSha = declaredSha256(header(res, 'repr-digest'), header(res, 'digest'));
  await input.onStart({ etag, lastModified, total, offset, name });

  const hash = createHash('sha256');
  try {
    if (offset > 0) {
      await truncate(input.partFile, offset);
      await hashPrefix(input.partFile, offset, hash);
    }
  } catch (cause) {
    res.destroy();
    throw new TransientError(
      'The part saved earlier could not be read; the file is downloaded again from the start.',
      true,
      { cause },
    );
  }

  let bytes = offset;
  const limit = total ?? input.maxBytes;
  // Flushed to the disk as the file arrives, a stretch at a time, so the final fsync before the rename has little
  // left to write (it was a whole file's writeback at the end: ~70 ms of a 64 MiB download here).
  const flusher = createFlusher(input, offset);
  const counter = new Transform({
    // As large as the file stream's buffer: a socket read (up to 64 KiB) never waits on a 16 KiB stage between them.
    highWaterMark: 1024 * 1024,
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      if (bytes > limit)
        return done(
          new CoreError('server-error', 'The site sent more than the file’s stated size.', {
            reason: 'bad-answer',
          }),
        );
      hash.update(chunk);
      input.onBytes(bytes);
      flusher.wrote();
      done(null, chunk);
    },
  });
  let fh;
  try {
    fh = await open(input.partFile, offset > 0 ? 'a' : 'w', 0o600);
  } catch (cause) {
    res.destroy();
    throw new CoreError(
      'storage-error',
      'The file could not be written to this computer.',
      { reason: 'disk' },
      { cause },
    );
  }
  const out = fh.createWriteStream({ highWaterMark: 1024 * 1024 });
  flusher.attach(fh, out);
  try {
    await pipeline(res, counter, out, { signal: input.signal });
  } catch (cause) {
    // What did reach the disk is kept for the resume: made durable, then reported (a pause, a cut, a lost network).
    await keepWritten(input.partFile).then((size) => size !== null && input.onDurable(size));
    if (input.signal.aborted)
      throw input.signal.reason instanceof Error ? input.signal.reason : cause;
    if (cause instanceof CoreError) throw cause;
    if (isDiskError(cause))
      throw new CoreError(
        'storage-error',
        'The file could not be written to this computer (is the disk full?).',
        { reason: 'disk' },
        { cause },
      );
    throw new TransientError(
      'The connection was lost during the download; it resumes where it stopped.',
      false,
      { cause },
      'cut',
    );
  } finally {
    flusher.stop();
  }

  // Content-Length / Content-Range: a clean end short of the stated size is a cut, not a complete file.
  if (total !== null && bytes !== total)
    throw new TransientError(
      'The download ended before the whole file arrived; it resumes where it stopped.',
      false,
      undefined,
      'cut',
    );
  const sha256 = hash.digest('hex');
  if (expectedSha !== null && expectedSha !== sha256) {
    await rm(input.partFile, { force: true });
    throw new TransientError(
      'The file that arrived is damaged (its checksum does not match); it is downloaded again.',
      true,
      undefined,
      'checksum',
    );
  }
  const check = await open(input.partFile, 'r+');
  let head: Buffer;
  try {
    await check.sync();
    head = Buffer.alloc(16);
    const { bytesRead } = await check.read(head, 0, 16, 0);
    head = head.subarray(0, bytesRead);
  } finally {
    await check.close();
  }
  if ((await stat(input.partFile)).size !== bytes)
    throw new TransientError(
      'The saved part does not have the expected size; it is downloaded again.',
      true,
    );
  return {
    bytes,
    sha256,
    etag,
    lastModified,
    name,
    viewAs: detectViewAs(name, head),
  };
}

/**
 * Whether the file at `url` is still the one saved, asked with a conditional HEAD (RFC 9110 §13.1: If-None-Match
 * with the saved ETag, else If-Modified-Since) under the same address, redirect and token rules as a download.
 * true: changed (another ETag, size or date); false: the same (304, or the same validators); null: no answer.
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

type Asker = Pick<TransferInput, 'siteOrigin' | 'send' | 'signal' | 'idleTimeoutMs'>;

async function ask(
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
      // A school on the Internet: its file's host name must not lead to this computer or its network either.
      publicOnly: hostKind(new URL(input.siteOrigin).hostname) === 'public',
    }).then((res): Answer => {
      const wwwAuthenticate = header(res, 'www-authenticate') ?? null;
      // A refused token is retried once after a refresh by the token manager: this answer's body is not read.
      if (res.statusCode === 401) res.resume();
      return { status: res.statusCode ?? 0, wwwAuthenticate, res };
    });
  if (url.origin === input.siteOrigin)
    return input.send(url.href, (token) => get({ authorization: `Bearer ${token}` }));
  // RFC 6750 §5.3: the token never leaves the site's origin; another host (a CDN's signed address) gets none.
  return get({});
}

function refuseStatus(status: number, url: URL): void {
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

function ifRangeOf(v: Validator): string | null {
  return v.etag ?? v.lastModified ?? null;
}

function strongEtag(value: string | undefined): string | null {
  return value !== undefined && /^"[\x21\x23-\x7e\x80-\xff]*"$/.test(value) ? value : null;
}

function header(res: IncomingMessage, name: string): string | undefined {
  const value = res.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function parseLength(value: string | undefined): number | null {
  return value !== undefined && /^\d{1,16}$/.test(value) ? Number(value) : null;
}

/** RFC 9110 §14.4: `bytes first-last/complete-length`. */
function parseContentRange(
  value: string | undefined,
): { start: number; end: number; total: number } | null {
  const m = value ? /^bytes (\d{1,16})-(\d{1,16})\/(\d{1,16})$/.exec(value) : null;
  if (!m) return null;
  const [start, end, total] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return start <= end && end < total ? { start, end, total } : null;
}

async function keepWritten(file: string): Promise<number | null> {
  try {
    const handle = await open(file, 'r+');
    try {
      await handle.datasync();
      return (await handle.stat()).size;
    } finally {
      await handle.close();
    }
  } catch {
    return null;
  }
}

async function hashPrefix(file: string, bytes: number, hash: Hash): Promise<void> {
  for await (const chunk of createReadStream(file, {
    start: 0,
    end: bytes - 1,
    highWaterMark: 1024 * 1024,
  }))
    hash.update(chunk as Buffer);
}

function isDiskError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    code === 'ENOSPC' ||
    code === 'EDQUOT' ||
    code === 'EACCES' ||
    code === 'EPERM' ||
    code === 'EROFS' ||
    code === 'EIO'
  );
}

export function formatMiB(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
