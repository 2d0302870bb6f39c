/**
 * A row's columns under their schema names (`cover_image_url` -> `coverImageUrl`), for the
 * resolvers: a schema field with a column of the same name is answered by graphql's default
 * resolver without a line of its own, and one with no such column fails to compile where the node
 * is built (its type is the schema's, schema-types.ts).
 */

/** `snake_case` -> `camelCase`, as a type. */
export type Camel<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<Camel<Tail>>}`
  : S;

export type SchemaFields<R, K extends keyof R & string> = { [C in K as Camel<C>]: R[C] };

const camel = (column: string): string =>
  column.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** The `columns` of `row`, renamed to camelCase; the other columns of the row are left out. */
export function schemaFields<R extends object, K extends keyof R & string>(
  row: R,
  columns: readonly K[],
): SchemaFields<R, K> {
  return Object.fromEntries(columns.map((c) => [camel(c), row[c]])) as SchemaFields<R, K>;
}
