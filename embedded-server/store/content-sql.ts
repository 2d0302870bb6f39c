import type { Database, Statement } from 'better-sqlite3';
import { prepared } from './statements';

/**
 * The shared prepared-statement cache (./statements), typed for the content modules' named
 * parameters.
 */
export function stmt<P extends object = object, R = unknown>(
  db: Database,
  sql: string,
): Statement<[P] | [], R> {
  return prepared<[P] | [], R>(db, sql);
}

const rawCache = new WeakMap<Database, Map<string, Statement>>();

/**
 * Like `stmt`, but the statement returns rows as arrays (better-sqlite3 `raw` mode): no object per
 * row.
 */
export function rawStmt(db: Database, sql: string): Statement<[object], unknown[]> {
  let perDb = rawCache.get(db);
  if (!perDb) {
    perDb = new Map();
    rawCache.set(db, perDb);
  }
  let s = perDb.get(sql);
  if (!s) {
    s = db.prepare(sql).raw(true);
    perDb.set(sql, s);
  }
  return s as unknown as Statement<[object], unknown[]>;
}

/**
 * Lists travel as one JSON parameter and are unpacked with json_each, so one statement serves any
 * batch size.
 */
export function jsonIds(ids: readonly string[]): string {
  return JSON.stringify(ids);
}

/**
 * Keyset position of a row in a list ordered by (time DESC, id DESC). Cursors are opaque encodings
 * of it.
 */
export interface PageKey {
  readonly t: number;
  readonly id: string;
}

export interface PageRequest {
  readonly schoolId: string;
  readonly userId: string;
  readonly first: number;
  readonly after: PageKey | null;
}

export interface Page<T> {
  readonly rows: T[];
  readonly hasNextPage: boolean;
  /**
   * Relay: with forward paging, true when the page starts after a cursor (the cursor's row comes
   * before it).
   */
  readonly hasPreviousPage: boolean;
  readonly totalCount: number;
}

/** Runs a keyset page query that selected `first + 1` rows and trims the look-ahead row. */
export function toPage<T>(
  rows: T[],
  req: { readonly first: number; readonly after: PageKey | null },
  totalCount: number,
): Page<T> {
  const hasNextPage = rows.length > req.first;
  return {
    rows: hasNextPage ? rows.slice(0, req.first) : rows,
    hasNextPage,
    hasPreviousPage: req.after !== null,
    totalCount,
  };
}

/** Named parameters shared by every keyset page statement (see KEYSET below). */
export function pageParams(req: PageRequest): Record<string, unknown> {
  return {
    school: req.schoolId,
    user: req.userId,
    limit: req.first + 1,
    afterT: req.after ? req.after.t : FIRST_PAGE.t,
    afterId: req.after ? req.after.id : FIRST_PAGE.id,
  };
}

/**
 * Position "before every row": the first page is a keyset page too, so one statement serves every
 * page and its WHERE clause is a pure index range (times are epoch milliseconds, far below this
 * bound).
 */
export const FIRST_PAGE: PageKey = { t: Number.MAX_SAFE_INTEGER, id: '' };

/**
 * WHERE fragment for "strictly after the cursor" in (col DESC, id DESC) order. A row-value
 * comparison, so SQLite turns it into a range on the (school_id, user_id, time DESC, id DESC)
 * indexes: page n costs the same as page 1. (The earlier `:afterT IS NULL OR ...` form defeated the
 * range and rescanned from the newest row, which made walking every page quadratic.)
 */
export function keyset(timeCol: string, idCol: string): string {
  return `(${timeCol}, ${idCol}) < (:afterT, :afterId)`;
}
