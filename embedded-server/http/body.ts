import type { IncomingMessage } from 'node:http';
import { InvalidRequestError, PayloadTooLargeError } from './errors';

/** Default body cap. OAuth forms and member GraphQL queries are far below it. */
export const DEFAULT_BODY_LIMIT = 64 * 1024;

/** Reads the whole body, refusing (413) once it exceeds `limit` bytes. */
export async function readBody(req: IncomingMessage, limit = DEFAULT_BODY_LIMIT): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    throw new PayloadTooLargeError(`request body exceeds ${limit} bytes`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      req.resume();
      throw new PayloadTooLargeError(`request body exceeds ${limit} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * application/x-www-form-urlencoded body as a flat record. RFC 6749 §3.1/§3.2: parameters sent
 * without a value are treated as omitted, and a parameter must not be included more than once.
 */
export async function readForm(
  req: IncomingMessage,
  limit = DEFAULT_BODY_LIMIT,
): Promise<Record<string, string>> {
  if (mediaType(req) !== 'application/x-www-form-urlencoded') {
    throw new InvalidRequestError('the request body must be application/x-www-form-urlencoded');
  }
  const params = new URLSearchParams((await readBody(req, limit)).toString('utf8'));
  return paramsToRecord(params);
}

export function paramsToRecord(params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [key, value] of params) {
    if (value === '') continue;
    if (key in out) throw new InvalidRequestError(`parameter ${key} is included more than once`);
    out[key] = value;
  }
  return out;
}

/** application/json body parsed to `unknown`; callers validate the shape (zod). */
export async function readJson(req: IncomingMessage, limit = DEFAULT_BODY_LIMIT): Promise<unknown> {
  if (mediaType(req) !== 'application/json')
    throw new InvalidRequestError('the request body must be application/json');
  const raw = (await readBody(req, limit)).toString('utf8');
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw new InvalidRequestError('the request body is not valid JSON');
  }
}
