/**
 * One GET of a file, streamed (node:http / node:https rather than fetch: the body is piped straight into a file
 * without a web-stream layer in between, and a cut connection surfaces as an error on the body). Never follows a
 * redirect itself: the caller checks every hop under its own rules. A connection that goes silent for
 * `idleTimeoutMs` is cut (node:http has no deadline of its own).
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { CoreError } from '../errors';

export interface FileGetOptions {
  readonly method?: 'GET' | 'HEAD';
  readonly headers: Readonly<Record<string, string>>;
  readonly signal: AbortSignal;
  /** Silence (no connect, no headers, no body bytes) for this long cuts the connection. */
  readonly idleTimeoutMs: number;
}

/** Resolves with the answer's head; its body is the IncomingMessage stream (the caller reads or destroys it). */
export function fileGet(url: URL, options: FileGetOptions): Promise<IncomingMessage> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    if (options.signal.aborted) return reject(abortReason(options.signal));
    const req = send(url, {
      method: options.method ?? 'GET',
      headers: { ...options.headers },
      signal: options.signal,
    });
    req.setTimeout(options.idleTimeoutMs, () => {
      req.destroy(new CoreError('site-unreachable', `${url.origin} stopped answering.`));
    });
    req.once('response', (res) => {
      // The same silence rule while the body streams (the request's timeout covers its socket either way).
      resolve(res);
    });
    req.once('error', (cause) => {
      if (options.signal.aborted) return reject(abortReason(options.signal));
      reject(
        cause instanceof CoreError
          ? cause
          : new CoreError('site-unreachable', `Could not reach ${url.origin}. Check your connection and try again.`, undefined, { cause }),
      );
    });
    req.end();
  });
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason instanceof Error ? signal.reason : new CoreError('sync-cancelled', 'Stopped.');
}
