import type { Database, Statement } from 'better-sqlite3';

/**
 * Prepared statements, compiled once per connection and reused (better-sqlite3 recommends preparing
 * once). Every statement uses named parameters (`@name`).
 */
const cache = new WeakMap<Database, Map<string, Statement>>();

export function prepared<P extends object | void = void, R = unknown>(
  db: Database,
  sql: string,
): Statement<P extends void ? [] : [P], R> {
  let perDb = cache.get(db);
  if (!perDb) {
    perDb = new Map();
    cache.set(db, perDb);
  }
  let statement = perDb.get(sql);
  if (!statement) {
    statement = db.prepare(sql);
    perDb.set(sql, statement);
  }
  return statement as unknown as Statement<P extends void ? [] : [P], R>;
}

export const bool = (value: boolean): number => (value ? 1 : 0);
export const json = (value: unknown): string => JSON.stringify(value);
