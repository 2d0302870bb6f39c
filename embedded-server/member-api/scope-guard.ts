import {
  defaultFieldResolver,
  GraphQLError,
  isObjectType,
  Kind,
  type ConstDirectiveNode,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import type { MemberContext } from './context';

/**
 * The one `@requiresScope` guard (service-spec "Protected resources"): a token holding one account
 * scope and asking for a field of the other gets HTTP 200, the data it may see, and this error for
 * the field. Applied by wrapping every annotated field's resolver, so no resolver can forget the
 * check.
 */
export function insufficientScopeError(scope: string): GraphQLError {
  return new GraphQLError(`This field requires the ${scope} scope.`, {
    extensions: { code: 'INSUFFICIENT_SCOPE', requiredScope: scope },
  });
}

/** The `scope` argument of a `@requiresScope` directive among `directives`, if any. */
function scopeOf(directives: readonly ConstDirectiveNode[] | undefined): string | undefined {
  const d = directives?.find((x) => x.name.value === 'requiresScope');
  const arg = d?.arguments?.find((a) => a.name.value === 'scope');
  return arg?.value.kind === Kind.STRING ? arg.value.value : undefined;
}

/**
 * The scope a field needs: its own `@requiresScope`, else its type's. Read from the SDL the schema
 * was built from.
 */
function requiredScope(
  type: GraphQLObjectType,
  field: GraphQLField<unknown, unknown>,
): string | undefined {
  return scopeOf(field.astNode?.directives) ?? scopeOf(type.astNode?.directives);
}

function objectTypes(schema: GraphQLSchema): GraphQLObjectType[] {
  return Object.values(schema.getTypeMap()).filter(
    (t): t is GraphQLObjectType => isObjectType(t) && !t.name.startsWith('__'),
  );
}

/**
 * Wraps the resolver of every `@requiresScope` field of `schema` in place and returns the schema.
 * Only for a schema this module's caller has just built (memberSchema): field configs are not
 * shared with anything else.
 */
export function applyScopeGuard(schema: GraphQLSchema): GraphQLSchema {
  for (const type of objectTypes(schema)) {
    for (const field of Object.values(type.getFields())) {
      const required = requiredScope(type, field);
      if (!required) continue;
      const resolve = field.resolve ?? defaultFieldResolver;
      field.resolve = (source, args, ctx: MemberContext, info) => {
        if (!ctx.scopes.has(required)) throw insufficientScopeError(required);
        return resolve(source, args, ctx, info);
      };
    }
  }
  return schema;
}

/** Root fields and the scope each needs, read from the schema (used by the HTTP layer and docs). */
export function requiredScopes(schema: GraphQLSchema): Map<string, string> {
  const out = new Map<string, string>();
  for (const root of [schema.getQueryType(), schema.getMutationType()]) {
    if (!root) continue;
    for (const [name, field] of Object.entries(root.getFields())) {
      const scope = requiredScope(root, field);
      if (scope) out.set(`${root.name}.${name}`, scope);
    }
  }
  return out;
}
