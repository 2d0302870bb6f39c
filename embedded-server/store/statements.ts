import type { Database, Statement } from 'better-sqlite3';

/**
 * Prepared statements, one per (database handle, SQL text), reused for the life of the handle.
 * better-sqlite3's `prepare` compiles the SQL every time it is called, which costs more than
 * running a small statement (a token pair insert: about 70 µs to prepare, 30 µs to run), and every
 * request of the token endpoint and every bearer check ran several. SQLite re-prepares a cached
 * statement by itself after a schema change (https://sqlite.org/c3ref/prepare.html,
 * sqlite3_prepare_v2), and a closed handle makes it throw exactly as `prepare` would. Statements
 * handed out here are never switched to raw/pluck/expand mode (rawStmt keeps its own).
 */
const cache = new WeakMap<Database, Map<string, Statement>>();

export function prepared<P extends unknown[] = unknown[], R = unknown>(
  db: Database,
  sql: string,
): Statement<P, R> {
  let perDb = cache.get(db);
  if (!perDb) {
    perDb = new Map();
    cache.set(db, perDb);
  }
  let s = perDb.get(sql);
  if (!s) {
    s = db.prepare(sql);
    perDb.set(sql, s);
  }
  return s as unknown as Statement<P, R>;
}
