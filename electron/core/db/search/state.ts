import type { Database } from 'better-sqlite3';
import { prepared } from '../statements';

/**
 * The search index's bookkeeping (migration 007): rowids handed out, rows with grams, rows gone
 * since.
 */
export interface SearchState {
  next_rowid: number;
  indexed_through: number;
  indexed_rows: number;
  garbage: number;
}

export function searchState(db: Database): SearchState {
  return prepared<void, SearchState>(
    db,
    'SELECT next_rowid, indexed_through, indexed_rows, garbage FROM search_state WHERE id = 1',
  ).get()!;
}

/**
 * Rows left the index: their grams stay until the next compaction (indexShortTerms), and never
 * match anything new.
 */
export function countSearchGarbage(db: Database, deleted: number): void {
  if (deleted > 0)
    prepared<{ deleted: number }>(
      db,
      'UPDATE search_state SET garbage = garbage + @deleted WHERE id = 1',
    ).run({ deleted });
}

// better-sqlite3 binds a JS number as REAL; FTS5 only uses a rowid constraint whose value is an
// INTEGER (a REAL one turned `rowid > ?` into a full scan, 13 ms on the large seed), hence the
// CASTs on rowid parameters.
export const BETWEEN = 'CAST(@first AS INTEGER) AND CAST(@last AS INTEGER)';
