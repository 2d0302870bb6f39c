/**
 * The typed `graphql()` tag: documents are checked against the member schema by the TypeScript
 * compiler (gql.tada), so a query naming a field the schema lacks fails `npm run typecheck`.
 */
import { initGraphQLTada } from 'gql.tada';
import type { introspection } from './graphql-env';

export const graphql = initGraphQLTada<{
  introspection: typeof introspection;
  scalars: { DateTime: string; ID: string };
}>();

export type { FragmentOf, ResultOf, VariablesOf } from 'gql.tada';
