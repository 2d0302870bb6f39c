/**
 * One place where the core talks HTTP to a site: a deadline on every request, an optional caller abort,
 * network failures turned into CoreError('site-unreachable') with the cause kept, and bounded JSON reads.
 */
import { CoreError } from '../errors';

export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface RequestOptions {
  readonly fetch: FetchLike;
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

export const DEFAULT_HTTP_TIMEOUT_MS = 30_000;

/** fetch with a deadline; never follows redirects for OAuth endpoints (RFC 6749 §3.2 / RFC 8414 §3.2). */
export async function request(url: string, init: RequestInit, options: RequestOptions): Promise<Response> {
  const timeout = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  try {
    return await options.fetch(url, { redirect: 'manual', ...init, signal });
  } catch (cause) {
    if (options.signal?.aborted) throw abortError(options.signal, cause);
    const host = safeOrigin(url);
    throw new CoreError('site-unreachable', `Could not reach ${host}. Check your connection and try again.`, undefined, { cause });
  }
}

/** Reads a JSON object body (at most `maxBytes`), or throws `code` with `message`. */
export async function readJsonObject(
  res: Response,
  code: 'discovery-invalid' | 'sign-in-failed' | 'server-error',
  message: string,
  maxBytes = 512 * 1024,
): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await res.text();
  } catch (cause) {
    throw new CoreError('site-unreachable', 'The connection to the site was lost while reading its answer.', undefined, { cause });
  }
  if (text.length > maxBytes) throw new CoreError(code, message);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new CoreError(code, message, undefined, { cause });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new CoreError(code, message);
  return value as Record<string, unknown>;
}

export function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'the site';
  }
}

/** Turns an aborted signal's reason into the CoreError the caller asked for (default: sign-in-cancelled). */
export function abortError(signal: AbortSignal, cause?: unknown): CoreError {
  const reason: unknown = signal.reason;
  if (reason instanceof CoreError) return reason;
  return new CoreError('sign-in-cancelled', 'The sign-in was cancelled.', undefined, { cause: cause ?? reason });
}

/** True for http://127.0.0.1, http://[::1] and http://localhost (RFC 8252 §8.3 loopback). */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === '127.0.0.1' || hostname === '[::1]' || hostname === 'localhost' || /^127(\.\d{1,3}){3}$/.test(hostname);
}
