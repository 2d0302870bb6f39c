import {
  execute,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  parse,
  specifiedRules,
  validate,
  visit,
  BREAK,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
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
  pageSize: (field) =>
    field === 'payments'
      ? { default: 50, max: MAX_PAYMENTS_FIRST }
      : { default: 20, max: MAX_FIRST },
});
const rules = [...specifiedRules, limitsRule];

/** Codes of errors a client may see verbatim; anything else is masked. */
const EXPECTED = new Set([
  'INSUFFICIENT_SCOPE',
  'NOT_FOUND',
  'BAD_USER_INPUT',
  'QUERY_TOO_DEEP',
  'QUERY_TOO_COMPLEX',
]);

/**
 * Masks unexpected failures (a thrown Error, a bug, a SQLite fault) as "Internal server error" so
 * nothing internal leaks; GraphQLErrors raised on purpose (expected codes) and the executor's own
 * coercion errors pass through. The original goes to the server log (messages only, never request
 * data).
 */
function mask(err: GraphQLError, log?: (line: string) => void): GraphQLError {
  const code = err.extensions?.['code'];
  const original = err.originalError;
  const ours = typeof code === 'string' && EXPECTED.has(code);
  if (ours || !original || original instanceof GraphQLError) return err;
  log?.(`member-api: unexpected error at ${err.path?.join('.') ?? '?'}: ${original.name}`);
  return new GraphQLError('Internal server error', {
    path: err.path,
    nodes: err.nodes,
    extensions: { code: 'INTERNAL_SERVER_ERROR' },
  });
}

const withCode = (errors: readonly GraphQLError[], code: string) =>
  errors.map((e) =>
    e.extensions?.['code']
      ? e
      : new GraphQLError(e.message, {
          nodes: e.nodes,
          source: e.source,
          positions: e.positions,
          path: e.path,
          extensions: { ...e.extensions, code },
        }),
  );

/**
 * A query string's outcome before execution: a valid document, or the errors to answer with. A
 * valid document also counts its runs and keeps its operations compiled by graphql-jit (from its
 * second run; null: graphql-js only).
 */
type Prepared =
  | {
      document: DocumentNode;
      runs: number;
      compiled: Map<OperationDefinitionNode, CompiledQuery | null>;
      errors?: undefined;
    }
  | { document?: undefined; errors: readonly GraphQLError[] };

/**
 * How many distinct query strings keep their parsed and validated document (the app sends about
 * ten).
 */
export const DOCUMENT_CACHE_SIZE = 100;

/**
 * Parsed and validated documents by query string, per schema, least recently used evicted first.
 * Parsing and validating (spec rules plus the cost walk) are pure functions of (schema, query
 * text): variables are not looked at (a variable `first` counts as the maximum), so a hit is
 * exactly what a fresh run would return. Refusals are cached too, so a client repeating a bad query
 * does not make the server redo the work.
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

/**
 * Whether `query` is in the schema's document cache now (tests: the bound and the eviction order).
 */
export function isDocumentCached(schema: GraphQLSchema, query: string): boolean {
  return documentCaches.get(schema)?.has(query) ?? false;
}

/** How many documents the schema's cache holds (at most DOCUMENT_CACHE_SIZE). */
export function cachedDocumentCount(schema: GraphQLSchema): number {
  return documentCaches.get(schema)?.size ?? 0;
}

/**
 * Answers given so far by each executor (tests: that the compiled path answers, not the fallback).
 */
export const executorAnswers = { compiled: 0, graphqlJs: 0 };

/**
 * Whether an operation of the cached document `query` runs compiled by graphql-jit (tests: the fast
 * path is taken).
 */
export function isDocumentCompiled(schema: GraphQLSchema, query: string): boolean {
  const prepared = documentCaches.get(schema)?.get(query);
  return (
    prepared?.document !== undefined && [...prepared.compiled.values()].some((c) => c !== null)
  );
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
  if (validationErrors.length > 0)
    return { errors: withCode(validationErrors, 'GRAPHQL_VALIDATION_FAILED') };
  return { document, runs: 0, compiled: new Map() };
}

/** Whether the document asks for `__schema` or `__type` anywhere (operations or fragments). */
function hasIntrospection(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    Field(node) {
      if (node.name.value === '__schema' || node.name.value === '__type') {
        found = true;
        return BREAK;
      }
      return undefined;
    },
  });
  return found;
}

/**
 * The operation compiled by graphql-jit, or null when graphql-js runs it: mutations (they have side
 * effects, so they must never run twice, see below), introspection (graphql-jit answers it
 * differently) and anything graphql-jit refuses to compile. Compiled once per (document, operation)
 * and kept with the cached document.
 */
function compiledOperation(
  schema: GraphQLSchema,
  prepared: Prepared & { document: DocumentNode },
  operation: OperationDefinitionNode,
): CompiledQuery | null {
  const hit = prepared.compiled.get(operation);
  if (hit !== undefined) return hit;
  let compiled: CompiledQuery | null = null;
  if (operation.operation === 'query' && !hasIntrospection(prepared.document)) {
    try {
      const c = compileQuery(schema, prepared.document, operation.name?.value);
      if (isCompiledQuery(c)) compiled = c;
    } catch {
      compiled = null;
    }
  }
  prepared.compiled.set(operation, compiled);
  return compiled;
}

/**
 * Runs a read-only operation with graphql-jit when it can answer exactly as graphql-js does: an
 * answer without errors is taken as it is. Any error (variables graphql-js would refuse, a scope
 * error, a resolver fault, a null in a non-null field) and the operation is run again by
 * graphql-js, whose answer is the one returned: every error message, path, location and null
 * propagation of the spec stays graphql-js's own. Queries only read (resolvers of Query fields
 * never write), so running one twice changes nothing.
 */
async function executeCompiled(
  schema: GraphQLSchema,
  prepared: Prepared & { document: DocumentNode },
  request: GraphQLRequest,
  ctx: MemberContext,
): Promise<ExecutionResult | null> {
  // A document seen once runs on graphql-js: compiling (~2 ms for the courses page) pays off from
  // its second run, and a client sending ever new documents does not make the server compile each
  // of them.
  if (++prepared.runs < 2) return null;
  const operation = getOperationAST(prepared.document, request.operationName ?? undefined);
  if (operation?.operation !== 'query') return null;
  const compiled = compiledOperation(schema, prepared, operation);
  if (!compiled) return null;
  const variables = request.variables ?? {};
  if (operation.variableDefinitions?.length) {
    const coerced = getVariableValues(schema, operation.variableDefinitions, variables, {
      maxErrors: 50,
    });
    if (coerced.errors) return null;
  }
  let result: ExecutionResult;
  try {
    result = await compiled.query(undefined, ctx, variables);
  } catch {
    return null;
  }
  return result.errors ? null : result;
}

/**
 * parse -> validate (spec rules + depth/complexity; both cached by query text) -> execute, with
 * error masking. A query that graphql-jit answers without errors takes that answer
 * (executeCompiled); everything else, graphql-js.
 */
export async function executeMemberRequest(
  schema: GraphQLSchema,
  request: GraphQLRequest,
  ctx: MemberContext,
  log?: (line: string) => void,
): Promise<ExecutionResult> {
  const prepared = prepare(schema, request.query);
  if (prepared.errors) return { errors: prepared.errors };
  const { document } = prepared;
  const fast = await executeCompiled(schema, prepared, request, ctx);
  if (fast) {
    executorAnswers.compiled++;
    return fast;
  }
  executorAnswers.graphqlJs++;
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
