/**
 * What the sync needs to know of its transport, without the transport itself: the types, the retry
 * policy, and how a GraphQL error is read. The transport (transport.ts, graphql-request and
 * graphql-js) is loaded when a sync first needs it, so the app's start does not load and compile
 * them.
 */
import type { ResultOf, TadaDocumentNode, VariablesOf } from 'gql.tada';
import type { AuthorizedSend } from '../auth/token-manager';
import type { StageFetchInput, StagedText } from '../worker/worker-contract';

/**
 * How the sync reaches one site: the member endpoint and a fetch that adds (and refreshes) the
 * bearer token.
 */
export interface SiteClient {
  /** `{base_url}/member/graphql` (service-spec "Endpoints"). */
  readonly endpoint: string;
  /**
   * The auth module's `fetchFor(siteId)`: throws CoreError 'sign-in-needed' / 'insufficient-scope'.
   */
  readonly fetch: typeof fetch;
  /**
   * The same token rules for a request another thread sends (token-manager.ts `sendWith`): with it,
   * the sync's pages are requested by the writer worker itself (`Transport.executeStaged`) and
   * never pass through this thread. Without it (a caller's own `fetch`), they go through `fetch`.
   */
  readonly sendWith?: AuthorizedSend;
}
export type ClientFor = (siteId: string) => SiteClient | Promise<SiteClient>;

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export const defaultSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  readonly attempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}
export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, baseDelayMs: 250, maxDelayMs: 4000 };

export interface GraphQLErrorLike {
  readonly message: string;
  readonly path?: readonly (string | number)[];
  readonly extensions?: Readonly<Record<string, unknown>>;
}

export interface ExecuteResult<T> {
  readonly data: T | null;
  readonly errors: readonly GraphQLErrorLike[];
}

export interface Transport {
  execute<D extends TadaDocumentNode<unknown, never>>(
    document: D,
    variables?: VariablesOf<D>,
  ): Promise<ExecuteResult<ResultOf<D>>>;
  /**
   * The same request, answered with the response body's bytes, undecoded and unparsed: the sync
   * moves them to the writer worker (a transfer, not a copy), which decodes and parses them there.
   * A page of courses is ~0.5 MB of JSON: decoding, parsing, then cloning it to the worker would
   * each hold the main thread for milliseconds. HTTP failures are classified and retried as by
   * `execute`.
   */
  executeBody?<D extends TadaDocumentNode<unknown, never>>(
    document: D,
    variables?: VariablesOf<D>,
  ): Promise<ArrayBuffer>;
  /**
   * The same request sent by the writer worker, which stages the answer where it arrives
   * (worker-contract.ts `stage:fetch`): this thread sends one message and gets the page's counts
   * and cursor back. There when the client has `sendWith` and the transport a `stage`. HTTP
   * failures are classified and retried as by `execute`.
   */
  executeStaged?<D extends TadaDocumentNode<unknown, never>>(
    document: D,
    variables: VariablesOf<D> | undefined,
    into: StageTarget,
  ): Promise<StagedText>;
}

/** Where a staged answer goes in the sync's stage. */
export type StageTarget = Pick<StageFetchInput, 'part' | 'shape' | 'path' | 'hold'>;

const SCOPE_PATTERN = /\b([a-z_]+:(?:read|write))\b/g;
const SCOPE_SHAPE = /^[a-z_]+:(?:read|write)$/;

/**
 * The scopes a GraphQL error says are missing (spec: "the message reads ... that the required scope
 * is account:write").
 */
export function missingScopesOf(error: GraphQLErrorLike): string[] {
  const found = new Set<string>();
  for (const key of ['scope', 'requiredScope', 'required_scope', 'missingScope']) {
    const value = error.extensions?.[key];
    // Only values of the scope shape: the list is stored (sync_runs.missing_scopes) and shown, and
    // a site could put anything in an extension, a credential included.
    if (typeof value === 'string' && SCOPE_SHAPE.test(value)) found.add(value);
  }
  for (const m of error.message.matchAll(SCOPE_PATTERN)) found.add(m[1]!);
  return [...found];
}

export function isNotFound(error: GraphQLErrorLike): boolean {
  return error.extensions?.code === 'NOT_FOUND' || /not found/i.test(error.message);
}
