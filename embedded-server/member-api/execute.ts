import { execute, GraphQLError, parse, specifiedRules, validate, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import type { MemberContext } from './context';
import { costLimitsRule, MAX_COMPLEXITY, MAX_DEPTH } from './limits';
import { MAX_FIRST, MAX_PAYMENTS_FIRST } from './resolvers';

export interface GraphQLRequest {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

const limitsRule = costLimitsRule({
  maxDepth: MAX_DEPTH,
  maxComplexity: MAX_COMPLEXITY,
  pageSize: (field) => (field === 'payments' ? { default: 50, max: MAX_PAYMENTS_FIRST } : { default: 20, max: MAX_FIRST }),
});
const rules = [...specifiedRules, limitsRule];

/** Codes of errors a client may see verbatim; anything else is masked. */
const EXPECTED = new Set(['INSUFFICIENT_SCOPE', 'NOT_FOUND', 'BAD_USER_INPUT', 'QUERY_TOO_DEEP', 'QUERY_TOO_COMPLEX']);

/**
 * Masks unexpected failures (a thrown Error, a bug, a SQLite fault) as "Internal server error" so nothing
 * internal leaks; GraphQLErrors raised on purpose (expected codes) and the executor's own coercion errors
 * pass through. The original goes to the server log (messages only, never request data).
 */
function mask(err: GraphQLError, log?: (line: string) => void): GraphQLError {
  const code = err.extensions?.['code'];
  const original = err.originalError;
  const ours = typeof code === 'string' && EXPECTED.has(code);
  if (ours || !original || original instanceof GraphQLError) return err;
  log?.(`member-api: unexpected error at ${err.path?.join('.') ?? '?'}: ${original.name}`);
  return new GraphQLError('Internal server error', { path: err.path, nodes: err.nodes, extensions: { code: 'INTERNAL_SERVER_ERROR' } });
}

const withCode = (errors: readonly GraphQLError[], code: string) =>
  errors.map((e) => (e.extensions?.['code'] ? e : new GraphQLError(e.message, { nodes: e.nodes, source: e.source, positions: e.positions, path: e.path, extensions: { ...e.extensions, code } })));

/** A query string's outcome before execution: a valid document, or the errors to answer with. */
type Prepared = { document: DocumentNode; errors?: undefined } | { document?: undefined; errors: readonly GraphQLError[] };

/** How many distinct query strings keep their parsed and validated document (the app sends about ten). */
export const DOCUMENT_CACHE_SIZE = 100;

/**
 * Parsed and validated documents by query string, per schema, least recently used evicted first. Parsing and
 * validating (spec rules plus the cost walk) are pure functions of (schema, query text): variables are not
 * looked at (a variable `first` counts as the maximum), so a hit is exactly what a fresh run would return.
 * Refusals are cached too, so a client repeating a bad query does not make the server redo the work.
 */
const documentCaches = new WeakMap<GraphQLSchema, Map<string, Prepared>>();

function prepare(schema: GraphQLSchema, query: string): Prepared {
  let cache = documentCaches.get(schema);
  if (!cache) {
    cache = new Map();
    documentCaches.set(schema, cache);
  }
  const hit = cache.get(query);
  if (hit) {
    // Map keeps insertion order: re-inserting marks the entry most recently used.
    cache.delete(query);
    cache.set(query, hit);
    return hit;
  }
  const prepared = parseAndValidate(schema, query);
  cache.set(query, prepared);
  if (cache.size > DOCUMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return prepared;
}

/** Whether `query` is in the schema's document cache now (tests: the bound and the eviction order). */
export function isDocumentCached(schema: GraphQLSchema, query: string): boolean {
  return documentCaches.get(schema)?.has(query) ?? false;
}

/** How many documents the schema's cache holds (at most DOCUMENT_CACHE_SIZE). */
export function cachedDocumentCount(schema: GraphQLSchema): number {
  return documentCaches.get(schema)?.size ?? 0;
}

function parseAndValidate(schema: GraphQLSchema, query: string): Prepared {
  let document: DocumentNode;
  try {
    document = parse(query, { maxTokens: 5_000 });
  } catch (err) {
    if (err instanceof GraphQLError) return { errors: withCode([err], 'GRAPHQL_PARSE_FAILED') };
    throw err;
  }
  const validationErrors = validate(schema, document, rules);
  if (validationErrors.length > 0) return { errors: withCode(validationErrors, 'GRAPHQL_VALIDATION_FAILED') };
  return { document };
}

/** parse -> validate (spec rules + depth/complexity; both cached by query text) -> execute, with error masking. */
export async function executeMemberRequest(
  schema: GraphQLSchema,
  request: GraphQLRequest,
  ctx: MemberContext,
  log?: (line: string) => void,
): Promise<ExecutionResult> {
  const { document, errors } = prepare(schema, request.query);
  if (errors) return { errors };
  const result = await execute({
    schema,
    document,
    variableValues: request.variables ?? undefined,
    operationName: request.operationName ?? undefined,
    contextValue: ctx,
  });
  if (!result.errors) return result;
  return { ...result, errors: result.errors.map((e) => mask(e, log)) };
}
