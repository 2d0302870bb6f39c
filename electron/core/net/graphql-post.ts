/**
 * One GraphQL request over HTTP with a bearer token, answered as status, challenge and body bytes:
 * what the writer worker sends for the sync's pages (worker-contract.ts `stage:fetch`). Nothing
 * here decides what a status means; the caller's side judges it (sync/transport.ts `classify`, the
 * token manager's 401 and 403 rules).
 *
 * node:http rather than fetch: the worker reads ~150 answers of up to 0.5 MB in a sync, and
 * collecting a body's chunks into one buffer costs a fraction of what fetch's web streams cost for
 * the same bytes (npm run bench, "main thread during a sync"), on the same thread that parses and
 * stages the pages.
 */
import {
  request as httpRequest,
  Agent as HttpAgent,
  type ClientRequest,
  type IncomingMessage,
} from 'node:http';
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
  /**
   * How long the connection may stay silent (no byte either way) before the request is given up;
   * default 60 s.
   */
  readonly idleTimeoutMs?: number;
  /**
   * How long the whole request may take, first byte sent to last byte received; default 120 s. The
   * idle timeout alone lets a site that sends a byte every few seconds hold the sync for ever.
   */
  readonly deadlineMs?: number;
  /**
   * The largest 2xx body accepted, counted as it arrives (default site-data.ts MAX_ANSWER_BYTES).
   */
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
 * node:http has no deadline of its own (fetch gives up after 300 s without headers): a site that
 * takes the connection and never answers would hold the sync forever. A minute of silence is a site
 * that is not answering.
 */
const IDLE_TIMEOUT_MS = 60_000;

class SilentSite extends Error {
  override readonly name = 'TimeoutError';
}

// Connections kept open between pages, as fetch keeps them: a sync asks the same site
// for ~150 pages.
const agents = {
  http: new HttpAgent({ keepAlive: true }),
  https: new HttpsAgent({ keepAlive: true }),
};

export function postGraphQL(post: GraphQLPost): Promise<GraphQLAnswer> {
  return new Promise<GraphQLAnswer>((resolve, reject) =>
    new GraphQLCall(post, resolve, reject).start(),
  );
}

/**
 * One request under way: its refusal (if this side ended it), its deadline, and how its
 * answer is collected.
 */
class GraphQLCall {
  readonly #post: GraphQLPost;
  readonly #resolve: (answer: GraphQLAnswer) => void;
  readonly #reject: (error: CoreError) => void;
  /**
   * Why this side ended the request (too large, too slow), whichever of the request or the
   * answer reports it.
   */
  #refusal: CoreError | null = null;
  #req: ClientRequest | null = null;
  #deadline: NodeJS.Timeout | undefined;

  constructor(
    post: GraphQLPost,
    resolve: (answer: GraphQLAnswer) => void,
    reject: (error: CoreError) => void,
  ) {
    this.#post = post;
    this.#resolve = resolve;
    this.#reject = reject;
  }

  start(): void {
    const post = this.#post;
    if (post.signal.aborted) return this.#reject(this.#lost(post.signal.reason));
    const url = new URL(post.url);
    const secure = url.protocol === 'https:';
    if (!secure && url.protocol !== 'http:')
      return this.#reject(new CoreError('invalid-input', 'That address is not valid.'));
    const body = Buffer.from(JSON.stringify({ query: post.query, variables: post.variables }));
    // GraphQL over HTTP as the in-process transport sends it (POST, JSON, either response media
    // type). Redirects are never followed (node:http does not): with a bearer token attached
    // one could lead to another origin (RFC 6750 §5.3), and a 3xx answer is judged like any
    // other non-2xx one.
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
      (res: IncomingMessage) => this.#collect(res),
    );
    this.#req = req;
    req.on('error', (error) => {
      clearTimeout(this.#deadline);
      this.#reject(this.#lost(error));
    });
    // Silence on the socket, before or during the answer: the request ends with the error above.
    req.setTimeout(post.idleTimeoutMs ?? IDLE_TIMEOUT_MS, () =>
      req.destroy(new SilentSite('the site did not answer in time')),
    );
    // And a deadline for the whole request, however the bytes trickle in.
    const deadlineMs = post.deadlineMs ?? REQUEST_DEADLINE_MS;
    this.#deadline = setTimeout(() => this.#refuse(deadlinePassed(deadlineMs)), deadlineMs);
    req.on('close', () => clearTimeout(this.#deadline));
    req.end(body);
  }

  #refuse(error: CoreError): void {
    this.#refusal ??= error;
    this.#req?.destroy(error);
  }

  #lost(cause: unknown): CoreError {
    if (this.#post.signal.aborted)
      return new CoreError('sync-cancelled', 'The sync was cancelled.', undefined, { cause });
    if (this.#refusal !== null) return this.#refusal;
    if (cause instanceof SilentSite)
      return new CoreError('site-unreachable', 'The site did not answer in time.', undefined, {
        cause,
      });
    return new CoreError(
      'site-unreachable',
      'The site could not be reached.',
      unreachableDetail(cause),
      { cause },
    );
  }

  /** The answer's body: a 2xx one whole (up to maxBytes), any other's start only. */
  #collect(res: IncomingMessage): void {
    const status = res.statusCode ?? 0;
    const challenge = res.headers['www-authenticate'];
    const wwwAuthenticate =
      challenge === undefined ? null : Array.isArray(challenge) ? challenge.join(', ') : challenge;
    const chunks: Buffer[] = [];
    const ok = status >= 200 && status <= 299;
    const maxBytes = this.#post.maxBytes ?? MAX_ANSWER_BYTES;
    let size = 0;
    const errorAnswer = () => {
      const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      return {
        status,
        wwwAuthenticate,
        body: bytes.toString('utf8', 0, Math.min(bytes.length, BODY_KEPT * 4)).slice(0, BODY_KEPT),
      };
    };
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (ok) {
        // Counted as it arrives: an answer too large is refused before it is all in memory.
        if (size > maxBytes) return this.#refuse(siteDataInvalid('too-large'));
        chunks.push(chunk);
      } else if (size <= MAX_ERROR_BYTES) {
        chunks.push(chunk);
      } else {
        // Only the start of an error answer is read; the rest is not waited for.
        clearTimeout(this.#deadline);
        this.#resolve(errorAnswer());
        this.#req?.destroy();
      }
    });
    res.on('error', (error) => this.#reject(this.#lost(error)));
    res.on('end', () => {
      clearTimeout(this.#deadline);
      // The connection broke before the whole body came (node:http ends a response it
      // could not complete).
      if (!res.complete) return this.#reject(this.#lost(new Error('the answer was cut off')));
      if (ok)
        this.#resolve({
          status,
          wwwAuthenticate,
          body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks),
        });
      else this.#resolve(errorAnswer());
    });
  }
}
