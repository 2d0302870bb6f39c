import { print } from 'graphql';
import { ClientError, GraphQLClient } from 'graphql-request';
import type { ResultOf, TadaDocumentNode, VariablesOf } from 'gql.tada';
import type { StagedText, StageFetchInput, StageFetchReply } from '../worker/worker-contract';
import { CoreError, isCoreError, isTransient } from '../errors';
import { deadlineSignal, limitBody, readBounded, readStart } from '../net/http';
import {
  deadlinePassed,
  MAX_ANSWER_BYTES,
  MAX_ERROR_BYTES,
  REQUEST_DEADLINE_MS,
  siteDataInvalid,
} from '../net/site-data';
import { unreachableDetail } from '../net/reachability';

import {
  DEFAULT_RETRY,
  type ExecuteResult,
  type GraphQLErrorLike,
  type StageTarget,
  type RetryPolicy,
  type SiteClient,
  type Sleep,
  type Transport,
} from './transport-contract';

export * from './transport-contract';

const printed = new WeakMap<object, string>();
function printOnce(document: object): string {
  let text = printed.get(document);
  if (text === undefined) {
    text = print(document as Parameters<typeof print>[0]);
    printed.set(document, text);
  }
  return text;
}

/** Maps whatever a request threw to the core's one error type. */
export function classify(error: unknown, signal: AbortSignal | undefined): CoreError {
  if (signal?.aborted)
    return new CoreError('sync-cancelled', 'The sync was cancelled.', undefined, { cause: error });
  if (isCoreError(error)) return error;
  if (error instanceof ClientError) {
    const status = error.response.status;
    const body = typeof error.response.body === 'string' ? error.response.body : '';
    // service-spec "Protected resources": 401 invalid_token, 403 insufficient_scope, 503
    // temporarily_unavailable.
    if (status === 401)
      return new CoreError(
        'sign-in-needed',
        'Sign in to this site again to sync.',
        { status },
        { cause: error },
      );
    if (status === 403)
      return new CoreError(
        'insufficient-scope',
        'This sign-in does not allow reading your data.',
        { status },
        { cause: error },
      );
    if (
      status === 502 ||
      status === 503 ||
      status === 504 ||
      body.includes('temporarily_unavailable')
    ) {
      return new CoreError(
        'server-unavailable',
        'The site is temporarily unavailable.',
        { status },
        { cause: error },
      );
    }
    return new CoreError(
      'server-error',
      `The site answered with an error (HTTP ${status}).`,
      { status },
      { cause: error },
    );
  }
  if (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError')) {
    return new CoreError('site-unreachable', 'The site did not answer in time.', undefined, {
      cause: error,
    });
  }
  // undici: TypeError('fetch failed') with the socket error as cause (ECONNREFUSED, ECONNRESET,
  // ...).
  if (error instanceof TypeError || (error as { code?: unknown } | null)?.code !== undefined) {
    return new CoreError(
      'site-unreachable',
      'The site could not be reached.',
      unreachableDetail(error),
      { cause: error },
    );
  }
  return new CoreError('sync-failed', 'The sync failed unexpectedly.', undefined, { cause: error });
}

export interface TransportOptions {
  readonly signal?: AbortSignal;
  readonly sleep: Sleep;
  readonly retry?: RetryPolicy;
  /**
   * Sends a page through the writer worker into the run's stage (with the client's `sendWith`:
   * executeStaged).
   */
  readonly stage?: (request: Omit<StageFetchInput, 'stageId'>) => Promise<StageFetchReply>;
  /** Called before each retry (for logs and the online flag). */
  readonly onRetry?: (error: CoreError, attempt: number, delayMs: number) => void;
  /**
   * How long one request may take, start to last byte (default site-data.ts REQUEST_DEADLINE_MS).
   */
  readonly deadlineMs?: number;
}

const cancelledBy = (cause: unknown) =>
  new CoreError('sync-cancelled', 'The sync was cancelled.', undefined, { cause });

export interface SharedBackoffDeps {
  readonly retry: RetryPolicy;
  readonly sleep: Sleep;
  readonly signal?: AbortSignal;
  readonly onRetry?: (error: CoreError, attempt: number, delayMs: number) => void;
}

/**
 * One backoff for the whole transport: the sync fetches several connections side by side, and when
 * the site is down they should wait together, not each hammer it on its own schedule. `#generation`
 * counts backoffs; a request that failed on a generation older than the current one just waits and
 * retries without counting.
 */
export class SharedBackoff {
  readonly #deps: SharedBackoffDeps;
  #failures = 0;
  #generation = 0;
  #backoff: Promise<void> | null = null;

  constructor(deps: SharedBackoffDeps) {
    this.#deps = deps;
  }

  /** Runs the attempt until it succeeds, fails for good, or the retries are spent. */
  async run<T>(attempt: () => Promise<T>): Promise<T> {
    for (;;) {
      if (this.#backoff) {
        try {
          await this.#backoff;
        } catch (cause) {
          throw cancelledBy(cause);
        }
      }
      const sentAt = this.#generation;
      try {
        const result = await attempt();
        this.#failures = 0;
        return result;
      } catch (error) {
        const failure = classify(error, this.#deps.signal);
        if (!isTransient(failure)) throw failure;
        await this.#waitOut(failure, sentAt);
      }
    }
  }

  async #waitOut(failure: CoreError, sentAt: number): Promise<void> {
    const { retry, sleep, signal, onRetry } = this.#deps;
    if (sentAt === this.#generation && this.#backoff === null) {
      this.#failures += 1;
      if (this.#failures >= retry.attempts) throw failure;
      const delay = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (this.#failures - 1));
      onRetry?.(failure, this.#failures, delay);
      this.#generation += 1;
      this.#backoff = sleep(delay, signal).finally(() => {
        this.#backoff = null;
      });
    } else if (this.#failures >= retry.attempts) {
      throw failure;
    }
    try {
      if (this.#backoff) await this.#backoff;
    } catch (cause) {
      throw cancelledBy(cause);
    }
  }
}

export interface GraphQLTransportDeps extends TransportOptions {
  readonly client: SiteClient;
}

/**
 * A graphql-request client over the injected fetch. GraphQL errors come back with the data
 * (errorPolicy 'all'):
 * a field refused for a scope is HTTP 200 with `errors` (service-spec "Protected resources"), and
 * the caller decides. Network errors and 503 are retried with exponential backoff, a bounded number
 * of times.
 */
export class GraphQLTransport implements Transport {
  readonly #client: SiteClient;
  readonly #signal: AbortSignal | undefined;
  readonly #deadlineMs: number;
  readonly #graphQL: GraphQLClient;
  readonly #backoff: SharedBackoff;
  /**
   * There when both sides allow it: the writer worker sends the run's pages (SiteClient.sendWith,
   * `stage`).
   */
  declare readonly executeStaged?: Transport['executeStaged'];

  constructor(deps: GraphQLTransportDeps) {
    const { client, signal, stage } = deps;
    this.#client = client;
    this.#signal = signal;
    this.#deadlineMs = deps.deadlineMs ?? REQUEST_DEADLINE_MS;
    this.#backoff = new SharedBackoff({
      retry: deps.retry ?? DEFAULT_RETRY,
      sleep: deps.sleep,
      ...(signal ? { signal } : {}),
      ...(deps.onRetry ? { onRetry: deps.onRetry } : {}),
    });
    this.#graphQL = new GraphQLClient(client.endpoint, {
      // graphql-request reads the whole body itself: it gets one that stops at the limit,
      // decompressed bytes counted.
      fetch: async (input: string | URL | Request, init?: RequestInit) =>
        limitBody(
          await client.fetch(input, { ...init, signal: this.#timed(init?.signal) }),
          MAX_ANSWER_BYTES,
          tooLarge,
        ),
      errorPolicy: 'all',
      ...(signal ? { signal } : {}),
    });
    const { sendWith } = client;
    if (sendWith && stage) {
      const staged: Transport['executeStaged'] = (document, variables, into) =>
        this.#backoff.run(() =>
          this.#sendStaged(sendWith, stage, printOnce(document), variables, into),
        );
      this.executeStaged = staged;
    }
  }

  execute<D extends TadaDocumentNode<unknown, never>>(
    document: D,
    variables?: VariablesOf<D>,
  ): Promise<ExecuteResult<ResultOf<D>>> {
    return this.#backoff.run(async () => {
      const response = await this.#graphQL.rawRequest<ResultOf<D>>(
        printOnce(document),
        variables as Record<string, unknown> | undefined,
      );
      return {
        data: response.data ?? null,
        errors: (response.errors ?? []) as GraphQLErrorLike[],
      };
    });
  }

  executeBody<D extends TadaDocumentNode<unknown, never>>(
    document: D,
    variables?: VariablesOf<D>,
  ): Promise<ArrayBuffer> {
    return this.#backoff.run(async () => {
      const query = printOnce(document);
      const client = this.#client;
      // GraphQL over HTTP, as graphql-request sends it: POST, JSON body, either response media type
      // accepted.
      const response = await client.fetch(client.endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/graphql-response+json, application/json',
        },
        body: JSON.stringify({ query, variables }),
        signal: this.#timed(this.#signal),
      });
      // A non-2xx answer is judged exactly as `execute` judges it (classify: 401, 403, 503...),
      // from its start.
      if (!response.ok) {
        const body = await readStart(response, MAX_ERROR_BYTES);
        throw new ClientError(
          { status: response.status, headers: response.headers, body },
          { query, variables: variables as Record<string, unknown> },
        );
      }
      const bytes = await readBounded(response, MAX_ANSWER_BYTES, tooLarge);
      // Moved to the worker whole: a buffer of exactly the body (a chunk may be a view into a
      // larger one).
      return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
        ? (bytes.buffer as ArrayBuffer)
        : (bytes.slice().buffer as ArrayBuffer);
    });
  }

  /**
   * Every request has a deadline for its last byte, not only its headers; the signal stays on the
   * body as read.
   */
  #timed(signal: AbortSignal | null | undefined): AbortSignal {
    const deadlineMs = this.#deadlineMs;
    return deadlineSignal(deadlineMs, () => deadlinePassed(deadlineMs), signal ?? undefined);
  }

  async #sendStaged(
    sendWith: NonNullable<SiteClient['sendWith']>,
    stage: NonNullable<TransportOptions['stage']>,
    query: string,
    variables: unknown,
    into: StageTarget,
  ): Promise<StagedText> {
    const vars = variables as Record<string, unknown> | undefined;
    const deadlineMs = this.#deadlineMs;
    const reply = await sendWith(this.#client.endpoint, (token, url) =>
      stage({ ...into, url, token, query, deadlineMs, ...(vars ? { variables: vars } : {}) }),
    );
    if (reply.kind === 'staged') return reply.staged;
    // Judged exactly as `execute` judges a non-2xx answer (classify: 503, 5xx...); 401 and 403 were
    // already judged by sendWith's token rules.
    const headers = new Headers(
      reply.wwwAuthenticate === null ? {} : { 'www-authenticate': reply.wwwAuthenticate },
    );
    throw new ClientError(
      { status: reply.status, headers, body: reply.body },
      { query, ...(vars ? { variables: vars } : {}) },
    );
  }
}

const tooLarge = () => siteDataInvalid('too-large');

export function createTransport(client: SiteClient, options: TransportOptions): Transport {
  return new GraphQLTransport({ ...options, client });
}
