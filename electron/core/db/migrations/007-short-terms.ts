/**
 * 007: search terms of one or two letters or digits (理財, py, 數) without a full scan. The trigram
 * index (004) needs three characters, and LIKE over every title and body cost 7-17 ms on the large
 * seed (the target is 5 ms).
 * - `search_grams`: per search_index row (same rowid), each word character followed by the next one
 *   (a bigram), or alone at the end of a word. A 2-character term is one token; a 1-character term
 *   is a prefix query answered by the 1-character prefix index
 *   (https://sqlite.org/fts5.html#prefix_indexes). Contentless with detail=none: it only has to say
 *   which rows hold a token (https://sqlite.org/fts5.html#contentless_tables). Candidates are
 *   checked with the same LIKE as before, so results are exactly those of the scan.
 * - search_index rowids are never reused (`next_rowid`): grams of a deleted row can only point at
 *   nothing, so deleting rows never has to touch search_grams (which is slow on a contentless
 *   table); `garbage` counts them against `indexed_rows` and the index is rebuilt when they pile
 *   up.
 * - `indexed_through`: rows up to this rowid have their grams; rows above it (written by the last
 *   commit, indexed right after it, search.ts indexShortTerms) are still searched by LIKE, so a
 *   search is never wrong, only slower for a moment. A database migrated here starts at 0: LIKE
 *   until the first index pass.
 */
export const version = 7;
export const name = '007-short-terms';
export const sql = /* sql */ `
CREATE VIRTUAL TABLE search_grams USING fts5(
  grams,
  content = '',
  detail = none,
  prefix = '1',
  tokenize = 'unicode61 remove_diacritics 1'
);

CREATE TABLE search_state (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  next_rowid INTEGER NOT NULL,
  indexed_through INTEGER NOT NULL,
  indexed_rows INTEGER NOT NULL,
  garbage INTEGER NOT NULL
) STRICT;
INSERT INTO search_state (id, next_rowid, indexed_through, indexed_rows, garbage)
  VALUES (1, coalesce((SELECT rowid FROM search_index ORDER BY rowid DESC LIMIT 1), 0) + 1, 0, 0, 0);
`;
