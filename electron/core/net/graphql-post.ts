/**
 * One GraphQL request over HTTP with a bearer token, answered as status, challenge and body bytes: what the writer
 * worker sends for the sync's pages (worker-contract.ts `stage:fetch`). Nothing here decides what a status means;
 * the caller's side judges it (sync/transport.ts `classify`, the token manager's 401 and 403 rules).
 *
 * node:http rather than fetch: the worker reads ~150 answers of up to 0.5 MB in a sync, and collecting a body's
 * chunks into one buffer costs a fraction of what fetch's web streams cost for the same bytes (npm run bench,
 * "main thread during a sync"), on the same thread that parses and stages the pages.
 */
import { request as httpRequest, Agent as HttpAgent, type IncomingMessage } from 'node:http';
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https';
import { CoreError } from '../errors';
import { unreachableDetail } from './reachability';
import {
  deadlinePassed,
  MAX_ANSWER_BYTES,
  MAX_ERROR_BYTES,
  REQUEST_DEADLINE_MS,
  siteDataInvalid,
} from './site-data';

export interface GraphQLPost {
  readonly url: string;
  readonly token: string;
  readonly query: string;
  readonly variables?: Readonly<Record<string, unknown>>;
  readonly signal: AbortSignal;
  /** How long the connection may stay silent (no byte either way) before the request is given up; default 60 s. */
  readonly idleTimeoutMs?: number;
  /**
   * How long the whole request may take, first byte sent to last byte received; default 120 s. The idle timeout
   * alone lets a site that sends a byte every few seconds hold the sync for ever.
   */
  readonly deadlineMs?: number;
  /** The largest 2xx body accepted, counted as it arrives (default site-data.ts MAX_ANSWER_BYTES). */
  readonly maxBytes?: number;
}

export interface GraphQLAnswer {
  readonly status: number;
  readonly wwwAuthenticate: string | null;
  /** The whole body of a 2xx answer; at most BODY_KEPT characters of any other. */
  readonly body: Uint8Array | string;
}

/** Of a non-2xx answer only the start is kept: enough for an error's name, never a page of data. */
const BODY_KEPT = 4096;

/**
 * node:http has no deadline of its own (fetch gives up after 300 s without headers): a site that takes the
 * connection and never answers would hold the sync forever. A minute of silence is a site that is not answering.
 */
const IDLE_TIMEOUT_MS = 60_000;

class SilentSite extends Error {
  override readonly name = 'TimeoutError';
}

// Connections kept open between pages, as fetch keeps them: a sync asks the same site for ~150 pages.
const agents = {
  http: new HttpAgent({ keepAlive: true }),
  https: new HttpsAgent({ keepAlive: true }),
};

export function postGraphQL(post: GraphQLPost): Promise<GraphQLAnswer> {
  // Why this side ended the request (too large, too slow), whichever of the request or the answer then reports it.
  let refusal: CoreError | null = null;
  const lost = (cause: unknown): CoreError =>
    post.signal.aborted
      ? new CoreError('sync-cancelled', 'The sync was cancelled.', undefined, { cause })
      : refusal !== null
        ? refusal
        : cause instanceof SilentSite
          ? new CoreError('site-unreachable', 'The site did not answer in time.', undefined, {
              cause,
            })
          : new CoreError(
              'site-unreachable',
              'The site could not be reached.',
              unreachableDetail(cause),
              { cause },
            );
  return new Promise<GraphQLAnswer>((resolve, reject) => {
    if (post.signal.aborted) return reject(lost(post.signal.reason));
    const url = new URL(post.url);
    const secure = url.protocol === 'https:';
    if (!secure && url.protocol !== 'http:')
      return reject(new CoreError('invalid-input', 'That address is not valid.'));
    const body = Buffer.from(JSON.stringify({ query: post.query, variables: post.variables }));
    const maxBytes = post.maxBytes ?? MAX_ANSWER_BYTES;
    const refuse = (error: CoreError) => {
      refusal ??= error;
      req.destroy(error);
    };
    // GraphQL over HTTP as the in-process transport sends it (POST, JSON, either response media type). Redirects
    // are never followed (node:http does not): with a bearer token attached one could lead to another origin
    // (RFC 6750 §5.3), and a 3xx answer is judged like any other non-2xx one.
    const req = (secure ? httpsRequest : httpRequest)(
      url,
      {
        method: 'POST',
        agent: secure ? agents.https : agents.http,
        headers: {
          'content-type': 'application/json',
          'content-length': body.length,
          accept: 'application/graphql-response+json, application/json',
          authorization: `Bearer ${post.token}`,
        },
        signal: post.signal,
      },
      (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        const challenge = res.headers['www-authenticate'];
        const wwwAuthenticate =
          challenge === undefined
            ? null
            : Array.isArray(challenge)
              ? challenge.join(', ')
              : challenge;
        const chunks: Buffer[] = [];
        const ok = status >= 200 && status <= 299;
        let size = 0;
        const errorAnswer = () => {
          const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
          return {
            status,
            wwwAuthenticate,
            body: bytes
              .toString('utf8', 0, Math.min(bytes.length, BODY_KEPT * 4))
              .slice(0, BODY_KEPT),
          };
        };
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (ok) {
            // Counted as it arrives: an answer too large is refused before it is all in memory.
            if (size > maxBytes) return refuse(siteDataInvalid('too-large'));
            chunks.push(chunk);
          } else if (size <= MAX_ERROR_BYTES) {
            chunks.push(chunk);
          } else {
            // Only the start of an error answer is read; the rest is not waited for.
            clearTimeout(deadline);
            resolve(errorAnswer());
            req.destroy();
          }
        });
        res.on('error', (error) => reject(lost(error)));
        res.on('end', () => {
          clearTimeout(deadline);
          // The connection broke before the whole body came (node:http ends a response it could not complete).
          if (!res.complete) return reject(lost(new Error('the answer was cut off')));
          if (ok)
            resolve({
              status,
              wwwAuthenticate,
              body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks),
            });
          else resolve(errorAnswer());
        });
      },
    );
    req.on('error', (error) => {
      clearTimeout(deadline);
      reject(lost(error));
    });
    // Silence on the socket, before or during the answer: the request ends with the error above.
    req.setTimeout(post.idleTimeoutMs ?? IDLE_TIMEOUT_MS, () =>
      req.destroy(new SilentSite('the site did not answer in time')),
    );
    // And a deadline for the whole request, however the bytes trickle in.
    const deadlineMs = post.deadlineMs ?? REQUEST_DEADLINE_MS;
    const deadline = setTimeout(() => refuse(deadlinePassed(deadlineMs)), deadlineMs);
    req.on('close', () => clearTimeout(deadline));
    req.end(body);
  });
}
