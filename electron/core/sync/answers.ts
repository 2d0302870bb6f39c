/**
 * One answer of the sync as fetch-snapshot.ts reads it: the part at its query's path, its errors
 * judged (a scope refusal is a missing part, anything else fails the run), or its body handed to
 * the writer's stage without being parsed here.
 */
import type { TadaDocumentNode } from 'gql.tada';
import { CoreError } from '../errors';
import type { StagedText } from '../worker/worker-contract';
import { type SnapshotSink } from './snapshot-sink';
import {
  missingScopesOf,
  type GraphQLErrorLike,
  type StageTarget,
  type Transport,
} from './transport-contract';

/** The part in a parsed answer's `data`, at its query's path. */
export const at = (data: unknown, path: readonly string[]): unknown =>
  path.reduce<unknown>(
    (value, key) =>
      value !== null && typeof value === 'object'
        ? (value as Record<string, unknown>)[key]
        : undefined,
    data,
  );

/**
 * A part refused for missing scopes: HTTP 200 with `errors` naming them (service-spec "Protected
 * resources").
 */
export class MissingScopes {
  constructor(readonly scopes: readonly string[]) {}
}

/** Errors of one response: scope refusals become MissingScopes, anything else fails the run. */
export function judge(errors: readonly GraphQLErrorLike[]): MissingScopes | null {
  if (errors.length === 0) return null;
  const scopes = errors.map(missingScopesOf);
  if (scopes.every((s) => s.length > 0)) return new MissingScopes([...new Set(scopes.flat())]);
  throw new CoreError('server-error', 'The site answered the sync with an error.', {
    message: errors[0]!.message.slice(0, 200),
  });
}

/**
 * How an answer reaches the sink's stage without being parsed here: sent and staged by the writer
 * worker itself (executeStaged), or its body fetched here and handed over (executeBody, when the
 * client brings its own fetch).
 */
export type StagedAsk = (
  document: TadaDocumentNode<unknown, never>,
  variables: Record<string, unknown> | undefined,
  into: StageTarget,
) => Promise<StagedText>;

/** Null: the answers are parsed here and handed to `sink.page`/`sink.whole`. */
export function stagedAskOf(
  transport: Transport,
  sink: SnapshotSink,
  sinkGiven: boolean,
): StagedAsk | null {
  if (sinkGiven && transport.executeStaged) {
    const executeStaged = transport.executeStaged.bind(transport);
    return (document, variables, into) => executeStaged(document, variables as never, into);
  }
  if (sink.text && transport.executeBody) {
    const text = sink.text.bind(sink);
    const executeBody = transport.executeBody.bind(transport);
    return async (document, variables, into) =>
      text({ ...into, body: await executeBody(document, variables as never) });
  }
  return null;
}
