/**
 * One try at bringing a product's file into its partial file: the address and every redirect
 * checked, the member's token only to the site's own origin, a resume with Range + If-Range when a
 * validator allows it, the size and any digest checked. It never renames into place; the queue
 * does, once this returns.
 */
import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, rm, stat, truncate } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CoreError } from '../errors';
import {
  ask,
  header,
  ifRangeOf,
  MAX_REDIRECTS,
  parseContentRange,
  parseLength,
  REDIRECTS,
  refuseStatus,
  strongEtag,
  type Answer,
} from './file-request';
import { createFlusher } from './flusher';
import {
  checkFileUrl,
  declaredSha256,
  detectViewAs,
  sanitizeFileName,
  suggestedName,
} from './safety';
import {
  formatMiB,
  NeedsConfirmation,
  TransientError,
  type TransferInput,
  type TransferResult,
  type Validator,
} from './transfer-types';

export {
  formatMiB,
  NeedsConfirmation,
  TransientError,
  type TransferInput,
  type TransferResult,
  type Validator,
} from './transfer-types';

export async function transfer(input: TransferInput): Promise<TransferResult> {
  const { res, url, resumed } = await requestFile(input);
  const start = readStart(res, url, resumed, input);
  const { etag, lastModified, name, total, offset } = start;
  await input.onStart({ etag, lastModified, total, offset, name });
  const hash = await hashKept(res, input.partFile, start.offset);
  const bytes = await receiveBody(res, input, start, hash);
  const { sha256, head } = await checkArrived(input, bytes, start, hash);
  return { bytes, sha256, etag, lastModified, name, viewAs: detectViewAs(name, head) };
}

/**
 * The GET, with Range + If-Range for a resume, following redirects under the same rules, up to an
 * answer that can be read (200, 206); any other status is thrown as its error.
 */
async function requestFile(
  input: TransferInput,
): Promise<{ res: IncomingMessage; url: URL; resumed: boolean }> {
  let url = checkFileUrl(input.url, input.siteOrigin);
  // RFC 9110 §13.1.5: If-Range takes a strong entity tag or a Last-Modified date; a weak
  // tag cannot resume.
  const ifRange = input.resume && input.resume.bytes > 0 ? ifRangeOf(input.resume) : null;
  const headers: Record<string, string> = {
    'accept-encoding': 'identity',
    accept: '*/*',
  };
  if (ifRange) {
    headers.range = `bytes=${input.resume!.bytes}-`;
    headers['if-range'] = ifRange;
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
    // Each hop under the same rules: https (http on loopback), no credentials; the token only to
    // the site's origin.
    url = checkFileUrl(new URL(location, url).href, input.siteOrigin);
  }
  const { res, status } = answer;
  try {
    refuseStatus(status, url);
  } catch (error) {
    res.destroy();
    throw error;
  }
  return { res, url, resumed: ifRange !== null };
}

type Start = Validator & {
  readonly total: number | null;
  readonly offset: number;
  readonly name: string;
  /** The digest the site declared for the whole file, if any. */
  readonly expectedSha: string | null;
};

/**
 * What the answer's headers say: where the bytes start, the size, validator and name;
 * refused sizes thrown.
 */
function readStart(res: IncomingMessage, url: URL, resumed: boolean, input: TransferInput): Start {
  const { offset, total } = rangeOf(res, resumed, input);
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
  return {
    offset,
    total,
    etag: strongEtag(header(res, 'etag')),
    lastModified: header(res, 'last-modified') ?? null,
    name: sanitizeFileName(
      suggestedName(header(res, 'content-disposition'), url, input.title),
      input.title,
    ),
    expectedSha: declaredSha256(header(res, 'repr-digest'), header(res, 'digest')),
  };
}

/**
 * A 206 must continue exactly where the partial file ends; a 200 starts from 0 (the file changed,
 * or no ranges).
 */
function rangeOf(
  res: IncomingMessage,
  resumed: boolean,
  input: TransferInput,
): { offset: number; total: number | null } {
  const length = parseLength(res.headers['content-length']);
  if (res.statusCode !== 206) return { offset: 0, total: length };
  const range = parseContentRange(res.headers['content-range']);
  if (
    !resumed ||
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
  return { offset: range.start, total: range.total };
}

/**
 * The hash of the whole file starts with the bytes kept from earlier (the partial file
 * cut to them).
 */
async function hashKept(res: IncomingMessage, partFile: string, offset: number): Promise<Hash> {
  const hash = createHash('sha256');
  try {
    if (offset > 0) {
      await truncate(partFile, offset);
      await hashPrefix(partFile, offset, hash);
    }
  } catch (cause) {
    res.destroy();
    throw new TransientError(
      'The part saved earlier could not be read; the file is downloaded again from the start.',
      true,
      { cause },
    );
  }
  return hash;
}

/**
 * The body into the partial file, hashed and counted as it arrives: the bytes in the file
 * at the end.
 */
async function receiveBody(
  res: IncomingMessage,
  input: TransferInput,
  start: Start,
  hash: Hash,
): Promise<number> {
  let bytes = start.offset;
  const limit = start.total ?? input.maxBytes;
  // Flushed to the disk as the file arrives, a stretch at a time, so the final fsync before the
  // rename has little left to write (it was a whole file's writeback at the end: ~70 ms of a 64
  // MiB download here).
  const flusher = createFlusher(input, start.offset);
  const counter = new Transform({
    // As large as the file stream's buffer: a socket read (up to 64 KiB) never waits on a 16 KiB
    // stage between them.
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
  const fh = await openPart(res, input.partFile, start.offset);
  const out = fh.createWriteStream({ highWaterMark: 1024 * 1024 });
  flusher.attach(fh, out);
  try {
    await pipeline(res, counter, out, { signal: input.signal });
  } catch (cause) {
    // What did reach the disk is kept for the resume: made durable, then reported (a pause, a cut,
    // a lost network).
    await keepWritten(input.partFile).then((size) => size !== null && input.onDurable(size));
    throw receiveError(cause, input.signal);
  } finally {
    flusher.stop();
  }
  return bytes;
}

async function openPart(res: IncomingMessage, partFile: string, offset: number) {
  try {
    return await open(partFile, offset > 0 ? 'a' : 'w', 0o600);
  } catch (cause) {
    res.destroy();
    throw new CoreError(
      'storage-error',
      'The file could not be written to this computer.',
      { reason: 'disk' },
      { cause },
    );
  }
}

/** Why the body stopped: the caller's stop, a check of ours, a full disk, else a cut connection. */
function receiveError(cause: unknown, signal: AbortSignal): unknown {
  if (signal.aborted) return signal.reason instanceof Error ? signal.reason : cause;
  if (cause instanceof CoreError) return cause;
  if (isDiskError(cause))
    return new CoreError(
      'storage-error',
      'The file could not be written to this computer (is the disk full?).',
      { reason: 'disk' },
      { cause },
    );
  return new TransientError(
    'The connection was lost during the download; it resumes where it stopped.',
    false,
    { cause },
    'cut',
  );
}

/**
 * The whole file arrived, undamaged, and is on the disk (fsynced): its digest and first bytes
 * (for its type).
 */
async function checkArrived(
  input: TransferInput,
  bytes: number,
  start: Start,
  hash: Hash,
): Promise<{ sha256: string; head: Buffer }> {
  // Content-Length / Content-Range: a clean end short of the stated size is a cut, not
  // a complete file.
  if (start.total !== null && bytes !== start.total)
    throw new TransientError(
      'The download ended before the whole file arrived; it resumes where it stopped.',
      false,
      undefined,
      'cut',
    );
  const sha256 = hash.digest('hex');
  if (start.expectedSha !== null && start.expectedSha !== sha256) {
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
  return { sha256, head };
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
