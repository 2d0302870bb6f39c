import type { Database } from 'better-sqlite3';
import { prepared } from '../statements';
import { searchState } from './state';
import type { WritableDB } from '../handles';

/**
 * A word character for the grams: a letter or a digit (unicode61 also splits on everything else).
 */
const WORD_CHAR = /^[\p{L}\p{N}]$/u;
const isWordChar = (ch: string): boolean => {
  const c = ch.charCodeAt(0);
  if (c < 128) return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  return WORD_CHAR.test(ch);
};

/**
 * The grams of a row's text: every word character with the next one when that is a word character
 * too, else alone. So each occurrence of a 2-character word term is a token, and each occurrence of
 * a 1-character term begins one.
 */
export function gramsOf(...texts: readonly string[]): string {
  let out = '';
  for (const text of texts) {
    let prev: string | null = null;
    for (const ch of text) {
      const word = isWordChar(ch);
      if (prev !== null) out += word ? `${prev}${ch} ` : `${prev} `;
      prev = word ? ch : null;
    }
    if (prev !== null) out += `${prev} `;
  }
  return out;
}

/**
 * Compact once this share of the indexed rows is gone (deleted rows' grams only slow the short-term
 * searches). The count is generous (a deleted row not indexed yet counts too): at worst a
 * compaction comes early.
 */
const GARBAGE_RATIO = 0.25;

/**
 * Drops the grams of every row. The rows are searched by the scan until the next pass indexes them
 * again: slower for a moment, never wrong. Used to compact, and when a site is removed, so nothing
 * derived from its text stays behind.
 */
export function forgetShortTerms(db: Database): void {
  prepared(db, "INSERT INTO search_grams (search_grams) VALUES ('delete-all')").run();
  prepared(
    db,
    'UPDATE search_state SET indexed_through = 0, indexed_rows = 0, garbage = 0 WHERE id = 1',
  ).run();
}

/**
 * Writes the grams of (at most `maxRows` of) the rows added since the last pass (all sites),
 * compacting first when many rows were deleted. Run after a sync commit in steps (warm.ts), off the
 * sync's critical path: the whole large seed costs ~250 ms. Returns how many rows it indexed (fewer
 * than `maxRows`: nothing is left).
 */
export function indexShortTerms(db: WritableDB, maxRows = Number.MAX_SAFE_INTEGER): number {
  return db.transaction(() => {
    let state = searchState(db);
    if (
      state.garbage > 0 &&
      state.garbage >= GARBAGE_RATIO * Math.max(1, state.indexed_rows - state.garbage)
    ) {
      forgetShortTerms(db);
      state = searchState(db);
    }
    const rows = prepared<
      { from: number; max: number },
      { rowid: number; title: string; body: string }
    >(
      db,
      'SELECT rowid, title, body FROM search_index WHERE rowid > CAST(@from AS INTEGER) ORDER BY rowid LIMIT @max',
    ).all({ from: state.indexed_through, max: maxRows });
    if (rows.length === 0) return 0;
    const insert = prepared<{ rowid: number; grams: string }>(
      db,
      'INSERT INTO search_grams (rowid, grams) VALUES (@rowid, @grams)',
    );
    for (const r of rows) insert.run({ rowid: r.rowid, grams: gramsOf(r.title, r.body) });
    prepared<{ through: number; rows: number }>(
      db,
      'UPDATE search_state SET indexed_through = @through, indexed_rows = indexed_rows + @rows WHERE id = 1',
    ).run({
      through: rows[rows.length - 1]!.rowid,
      rows: rows.length,
    });
    return rows.length;
  })();
}
