import { print } from 'graphql';
import { ClientError, GraphQLClient } from 'graphql-request';
import type { ResultOf } from 'gql.tada';
import type { StageFetchInput, StageFetchReply } from '../worker/worker-contract';
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
  type GraphQLErrorLike,
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
    // service-spec "Protected resources": 401 invalid_token, 403 insufficient_scope, 503 temporarily_unavailable.
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
  // undici: TypeError('fetch failed') with the socket error as cause (ECONNREFUSED, ECONNRESET, ...).
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
  /** Sends a page through the writer worker into the run's stage (with the client's `sendWith`: executeStaged). */
  readonly stage?: (request: Omit<StageFetchInput, 'stageId'>) => Promise<StageFetchReply>;
  /** Called before each retry (for logs and the online flag). */
  readonly onRetry?: (error: CoreError, attempt: number, delayMs: number) => void;
  /** How long one request may take, start to last byte (default site-data.ts REQUEST_DEADLINE_MS). */
  readonly deadlineMs?: number;
}

/**
 * A graphql-request client over the injected fetch. GraphQL errors come back with the data (errorPolicy 'all'):
 * a field refused for a scope is HTTP 200 with `errors` (service-spec "Protected resources"), and the caller
 * decides. Network errors and 503 are retried with exponential backoff, a bounded number of times.
 */
export function createTransport(client: SiteClient, options: TransportOptions): Transport {
  const retry = options.retry ?? DEFAULT_RETRY;
  const deadlineMs = options.deadlineMs ?? REQUEST_DEADLINE_MS;
  // Every request has a deadline for its last byte, not only its headers; the signal stays on the body as it is read.
  const timed = (signal: AbortSignal | null | undefined): AbortSignal =>
    deadlineSignal(deadlineMs, () => deadlinePassed(deadlineMs), signal ?? undefined);
  const tooLarge = () => siteDataInvalid('too-large');
  const graphQLClient = new GraphQLClient(client.endpoint, {
    // graphql-request reads the whole body itself: it gets one that stops at the limit, decompressed bytes counted.
    fetch: async (input: string | URL | Request, init?: RequestInit) =>
      limitBody(
        await client.fetch(input, { ...init, signal: timed(init?.signal) }),
        MAX_ANSWER_BYTES,
        tooLarge,
      ),
    errorPolicy: 'all',
    ...(options.signal ? { signal: options.signal } : {}),
  });
  // One backoff for the whole transport: the sync fetches several connections side by side, and when the site
  // is down they should wait together, not each hammer it on its own schedule. `generation` counts backoffs; a
  // request that failed on a generation older than the current one just waits and retries without counting.
  let failures = 0;
  let generation = 0;
  let backoff: Promise<void> | null = null;
  // The writer worker sends the run's pages when both sides allow it (SiteClient.sendWith, TransportOptions.stage).
  const { sendWith } = client;
  const { stage } = options;

  async function waitOut(failure: CoreError, sentAt: number): Promise<void> {
    if (sentAt === generation && backoff === null) {
      failures += 1;
      if (failures >= retry.attempts) throw failure;
      const delay = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (failures - 1));
      options.onRetry?.(failure, failures, delay);
      generation += 1;
      backoff = options.sleep(delay, options.signal).finally(() => {
        backoff = null;
      });
    } else if (failures >= retry.attempts) {
      throw failure;
    }
    try {
      if (backoff) await backoff;
    } catch (cause) {
      throw new CoreError('sync-cancelled', 'The sync was cancelled.', undefined, { cause });
    }
  }

  async function withRetry<T>(attempt: () => Promise<T>): Promise<T> {
    for (;;) {
      if (backoff) {
        try {
          await backoff;
        } catch (cause) {
          throw new CoreError('sync-cancelled', 'The sync was cancelled.', undefined, { cause });
        }
      }
      const sentAt = generation;
      try {
        const result = await attempt();
        failures = 0;
        return result;
      } catch (error) {
        const failure = classify(error, options.signal);
        if (!isTransient(failure)) throw failure;
        await waitOut(failure, sentAt);
      }
    }
  }

  return {
    execute(document, variables) {
      return withRetry(async () => {
        const response = await graphQLClient.rawRequest<ResultOf<typeof document>>(
          printOnce(document),
          variables as Record<string, unknown> | undefined,
        );
        return {
          data: response.data ?? null,
          errors: (response.errors ?? []) as GraphQLErrorLike[],
        };
      });
    },
    executeBody(document, variables) {
      return withRetry(async () => {
        const query = printOnce(document);
        // GraphQL over HTTP, as graphql-request sends it: POST, JSON body, either response media type accepted.
        const response = await client.fetch(client.endpoint, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/graphql-response+json, application/json',
          },
          body: JSON.stringify({ query, variables }),
          signal: timed(options.signal),
        });
        // A non-2xx answer is judged exactly as `execute` judges it (classify: 401, 403, 503...), from its start.
        if (!response.ok) {
          const body = await readStart(response, MAX_ERROR_BYTES);
          throw new ClientError(
            { status: response.status, headers: response.headers, body },
            { query, variables: variables as Record<string, unknown> },
          );
        }
        const bytes = await readBounded(response, MAX_ANSWER_BYTES, tooLarge);
        // Moved to the worker whole: a buffer of exactly the body (a chunk may be a view into a larger one).
        return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
          ? (bytes.buffer as ArrayBuffer)
          : (bytes.slice().buffer as ArrayBuffer);
      });
    },
    ...(sendWith && stage
      ? {
          executeStaged: (document, variables, into) =>
            withRetry(async () => {
              const query = printOnce(document);
              const vars = variables as Record<string, unknown> | undefined;
              const reply = await sendWith(client.endpoint, (token, url) =>
                stage({
                  ...into,
                  url,
                  token,
                  query,
                  deadlineMs,
                  ...(vars ? { variables: vars } : {}),
                }),
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
            }),
        }
      : {}),
  } satisfies Transport;
}
