/**
 * One place where the core talks HTTP to a site: a deadline on every request, an optional caller
 * abort, network failures turned into CoreError('site-unreachable') with the cause kept, and
 * bounded JSON reads.
 */
import { CoreError } from '../errors';
import { unreachableDetail } from './reachability';
import { MAX_DOCUMENT_BYTES, nestsDeeperThan } from './site-data';

export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface RequestOptions {
  readonly fetch: FetchLike;
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

export const DEFAULT_HTTP_TIMEOUT_MS = 30_000;

/**
 * fetch with a deadline; never follows redirects for OAuth endpoints (RFC 6749 §3.2 / RFC 8414
 * §3.2).
 */
export async function request(
  url: string,
  init: RequestInit,
  options: RequestOptions,
): Promise<Response> {
  const timeout = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  try {
    return await options.fetch(url, { redirect: 'manual', ...init, signal });
  } catch (cause) {
    if (options.signal?.aborted) throw abortError(options.signal, cause);
    const host = safeOrigin(url);
    throw new CoreError(
      'site-unreachable',
      `Could not reach ${host}. Check your connection and try again.`,
      unreachableDetail(cause),
      { cause },
    );
  }
}

/**
 * Reads a JSON object body (at most `maxBytes`, counted as it arrives), or throws `code` with
 * `message`.
 */
export async function readJsonObject(
  res: Response,
  code: 'discovery-invalid' | 'sign-in-failed' | 'server-error',
  message: string,
  maxBytes = MAX_DOCUMENT_BYTES,
): Promise<Record<string, unknown>> {
  const bytes = await readBounded(res, maxBytes, () => new CoreError(code, message));
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(bytes));
  } catch (cause) {
    throw new CoreError(code, message, undefined, { cause });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value) || nestsDeeperThan(value))
    throw new CoreError(code, message);
  return value as Record<string, unknown>;
}

/**
 * A response body, read chunk by chunk and given up (the rest cancelled, never read) as soon as it
 * passes `maxBytes`. fetch has already decoded any content-encoding (gzip, br, deflate), so the
 * bytes counted are the decompressed ones: a small compressed answer that expands without end is
 * stopped at the limit too.
 */
export async function readBounded(
  res: Response,
  maxBytes: number,
  tooLarge: () => CoreError,
): Promise<Uint8Array> {
  const length = Number(res.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(length) && length > maxBytes && !res.headers.has('content-encoding')) {
    await res.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!res.body) return new Uint8Array(0);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge();
      }
      chunks.push(value);
    }
  } catch (cause) {
    if (cause instanceof CoreError) throw cause;
    throw new CoreError(
      'site-unreachable',
      'The connection to the site was lost while reading its answer.',
      undefined,
      { cause },
    );
  }
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/**
 * The same response with a body that errors with `tooLarge()` once more than `maxBytes` have come
 * (decompressed), for a reader that reads the whole body itself (graphql-request).
 */
export function limitBody(res: Response, maxBytes: number, tooLarge: () => CoreError): Response {
  // 204, 205 and 304 carry no body (and a Response with one cannot be built).
  if (!res.body || res.status === 204 || res.status === 205 || res.status === 304) return res;
  let size = 0;
  const counted = res.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.byteLength;
        if (size > maxBytes) controller.error(tooLarge());
        else controller.enqueue(chunk);
      },
    }),
  );
  const headers = new Headers(res.headers);
  // The body is the decoded one now; its encoding and length no longer describe it.
  headers.delete('content-encoding');
  headers.delete('content-length');
  return new Response(counted, { status: res.status, statusText: res.statusText, headers });
}

/**
 * The start of a body as text (at most `maxBytes` read; the rest is cancelled, never waited for).
 */
export async function readStart(res: Response, maxBytes: number): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < maxBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } catch {
    // What came before the failure is enough for an error's name.
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, maxBytes).toString('utf8');
}

/**
 * A signal that ends a request `ms` after it starts, with `reason` (the CoreError its caller
 * reports), joined to the caller's own signal. fetch keeps the signal for the body too, so the
 * deadline covers the last byte, not only the headers.
 */
export function deadlineSignal(
  ms: number,
  reason: () => CoreError,
  signal?: AbortSignal,
): AbortSignal {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(reason()), ms);
  timer.unref?.();
  return signal ? AbortSignal.any([controller.signal, signal]) : controller.signal;
}

export function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'the site';
  }
}

/**
 * Turns an aborted signal's reason into the CoreError the caller asked for (default:
 * sign-in-cancelled).
 */
export function abortError(signal: AbortSignal, cause?: unknown): CoreError {
  const reason: unknown = signal.reason;
  if (reason instanceof CoreError) return reason;
  return new CoreError('sign-in-cancelled', 'The sign-in was cancelled.', undefined, {
    cause: cause ?? reason,
  });
}

/** True for http://127.0.0.1, http://[::1] and http://localhost (RFC 8252 §8.3 loopback). */
export function isLoopbackHost(hostname: string): boolean {
  return (
    hostname === '127.0.0.1' ||
    hostname === '[::1]' ||
    hostname === 'localhost' ||
    /^127(\.\d{1,3}){3}$/.test(hostname)
  );
}
