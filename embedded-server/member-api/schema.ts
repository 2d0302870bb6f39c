import {
  buildSchema,
  defaultFieldResolver,
  getNamedType,
  isLeafType,
  isObjectType,
  isScalarType,
  type GraphQLFieldResolver,
  type GraphQLSchema,
} from 'graphql';
import { resolvers, type MemberResolvers } from './resolvers';
import { applyScopeGuard } from './scope-guard';
import { loadTypeDefs } from './schema-sdl';

/**
 * Puts the resolver map onto a schema built from SDL: scalar behaviour onto the built scalar, field
 * resolvers onto their fields. A name that is not in the schema is a programming error and throws
 * at build time.
 *
 * Built with graphql alone (no @graphql-tools): under vitest, vite resolves `graphql` to index.mjs
 * while Node loads index.js for packages it imports itself, so a helper package would bring a
 * second copy of graphql ("Cannot use GraphQLSchema from another module"). With graphql the only
 * package involved, every importer of `graphql` gets the same copy in either loader.
 */
export function attachResolvers(schema: GraphQLSchema, map: MemberResolvers): GraphQLSchema {
  for (const [typeName, value] of Object.entries(map)) {
    const type = schema.getType(typeName);
    if (isScalarType(type) && isScalarType(value)) {
      type.serialize = value.serialize;
      type.parseValue = value.parseValue;
      type.parseLiteral = value.parseLiteral;
      continue;
    }
    if (!isObjectType(type) || isScalarType(value))
      throw new Error(`member schema: no object type ${typeName} for its resolvers`);
    const fields = type.getFields();
    for (const [fieldName, resolve] of Object.entries(value)) {
      const field = fields[fieldName];
      if (!field)
        throw new Error(
          `member schema: ${typeName}.${fieldName} has a resolver but is not in the schema`,
        );
      field.resolve = resolve as GraphQLFieldResolver<unknown, unknown>;
    }
  }
  return schema;
}

/**
 * Gives every object- or list-typed field without a resolver graphql's default resolver,
 * explicitly. The resolvers' source objects hold functions for the parts loaded only when selected
 * (a course's `sections`, a payment's `adjustments`...), which graphql-js's default resolver calls;
 * graphql-jit (execute.ts) reads a field without a resolver as a plain property and would not. Same
 * answers from graphql-js (it runs the same function); leaf fields keep no resolver (none of them
 * is a function, and graphql-jit reads them inline, its main saving).
 */
export function explicitObjectResolvers(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      if (!field.resolve && !isLeafType(getNamedType(field.type)))
        field.resolve = defaultFieldResolver;
    }
  }
  return schema;
}

let cached: GraphQLSchema | null = null;

/**
 * The member schema with resolvers and the scope guard. Built once per process: it is immutable
 * afterwards.
 */
export function memberSchema(): GraphQLSchema {
  cached ??= applyScopeGuard(
    explicitObjectResolvers(attachResolvers(buildSchema(loadTypeDefs()), resolvers)),
  );
  return cached;
}
