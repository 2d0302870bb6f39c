/**
 * The one message contract between a bench (parent) and its load generator process (generator.ts).
 */

export interface RequestSpec {
  /** Path on the job's origin; every request is a POST. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/**
 * What a successful answer looks like: GraphQL data without errors, a token pair, or a pair with an
 * id_token.
 */
export type Expect = 'graphql' | 'tokens' | 'tokens+id_token';

interface JobBase {
  /** e.g. http://127.0.0.1:41234 */
  readonly origin: string;
  readonly expect: Expect;
  /** Sent one after another before the clock starts (JIT, caches, connections). */
  readonly warmup?: readonly RequestSpec[];
}

/** Every request once, in order, `concurrency` in flight. */
export interface ListJob extends JobBase {
  readonly kind: 'list';
  readonly concurrency: number;
  readonly requests: readonly RequestSpec[];
}

/**
 * One worker per chain; each refreshes with the refresh token of its own previous answer, `total`
 * in all.
 */
export interface RefreshChainJob extends JobBase {
  readonly kind: 'refresh-chains';
  readonly concurrency: number;
  readonly path: string;
  readonly chains: readonly string[];
  /** Extra form fields of every refresh request (client_id ...). */
  readonly form: Readonly<Record<string, string>>;
  readonly total: number;
}

export type GeneratorJob = ListJob | RefreshChainJob;

/** `measuring` is sent when the warm-up is done and the clock starts; then exactly one result. */
export type GeneratorReply =
  | { ok: true; latencies: number[]; wallMs: number }
  | { ok: false; error: string }
  | { measuring: true };
