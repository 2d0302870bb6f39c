import type { Database } from 'better-sqlite3';
import type { SearchHit, SearchHitKind } from '../../common/view-models';
import { prepared } from './statements';

const INDEXED = {
  course: `INSERT INTO search_index (title, body, site_id, kind, item_id, course_id)
             SELECT title, '', site_id, 'course', id, id FROM courses WHERE site_id = @siteId`,
  section: `INSERT INTO search_index (title, body, site_id, kind, item_id, course_id)
              SELECT title, '', site_id, 'section', id, course_id FROM sections WHERE site_id = @siteId`,
  lecture: `INSERT INTO search_index (title, body, site_id, kind, item_id, course_id)
              SELECT title, '', site_id, 'lecture', id, course_id FROM lectures WHERE site_id = @siteId`,
  notification: `INSERT INTO search_index (title, body, site_id, kind, item_id, course_id)
                   SELECT title, body, site_id, 'notification', id, NULL FROM notifications WHERE site_id = @siteId`,
} as const satisfies Record<SearchHitKind, string>;

interface SearchState {
  next_rowid: number;
  indexed_through: number;
  indexed_rows: number;
  garbage: number;
}

function searchState(db: Database): SearchState {
  return prepared<void, SearchState>(db, 'SELECT next_rowid, indexed_through, indexed_rows, garbage FROM search_state WHERE id = 1').get()!;
}

// better-sqlite3 binds a JS number as REAL; FTS5 only uses a rowid constraint whose value is an INTEGER (a REAL one
// turned `rowid > ?` into a full scan, 13 ms on the large seed), hence the CASTs on rowid parameters below.

/** Rows left the index: their grams stay until the next compaction (indexShortTerms), and never match anything new. */
export function countSearchGarbage(db: Database, deleted: number): void {
  if (deleted > 0) prepared<{ deleted: number }>(db, 'UPDATE search_state SET garbage = garbage + @deleted WHERE id = 1').run({ deleted });
}

/**
 * Rebuilds one site's rows of the FTS5 index (all kinds, or those given) from its tables, inside the caller's
 * transaction, with rowids never used before. The short-term grams of the new rows are written after the commit (indexShortTerms): until then those
 * rows are searched by LIKE.
 */
export function rebuildSearchIndex(
  db: Database,
  siteId: string,
  kinds: readonly SearchHitKind[] = ['course', 'section', 'lecture', 'notification'],
): void {
  for (const kind of kinds) {
    const { changes } = prepared<{ siteId: string; kind: string }>(db, 'DELETE FROM search_index WHERE site_id = @siteId AND kind = @kind').run({
      siteId,
      kind,
    });
    countSearchGarbage(db, changes);
    const { first, count } = insertFromRowid(
      db,
      searchState(db).next_rowid,
      () => prepared<{ siteId: string }>(db, INDEXED[kind]).run({ siteId }).changes,
    );
    // The run of rowids the site's rows of this kind now hold (migration 009): what a search of the site reads.
    if (count === 0)
      prepared<{ siteId: string; kind: string }>(db, 'DELETE FROM search_ranges WHERE site_id = @siteId AND kind = @kind').run({ siteId, kind });
    else {
      prepared<{ siteId: string; kind: string; first: number; last: number }>(
        db,
        `INSERT INTO search_ranges (site_id, kind, first_rowid, last_rowid) VALUES (@siteId, @kind, @first, @last)
         ON CONFLICT (site_id, kind) DO UPDATE SET first_rowid = excluded.first_rowid, last_rowid = excluded.last_rowid`,
      ).run({ siteId, kind, first, last: first + count - 1 });
    }
  }
}

/**
 * Runs an insert whose rows must get rowids from `base` up (never reused, 007-short-terms). SQLite gives a new row
 * the largest rowid + 1 (https://sqlite.org/autoinc.html), so a placeholder at base - 1, removed in the same
 * transaction, makes the rows start at base: as fast as a plain INSERT ... SELECT (numbering the rows in SQL cost
 * ~40 ms more on the large seed's lectures).
 */
function insertFromRowid(db: Database, base: number, insert: () => number): { readonly first: number; readonly count: number } {
  const top = prepared<void, { rowid: number }>(db, 'SELECT rowid FROM search_index ORDER BY rowid DESC LIMIT 1').get()?.rowid ?? 0;
  const placeholder = top < base - 1 ? base - 1 : null;
  if (placeholder !== null) {
    prepared<{ rowid: number }>(
      db,
      "INSERT INTO search_index (rowid, title, body, site_id, kind, item_id) VALUES (CAST(@rowid AS INTEGER), '', '', '', '', '')",
    ).run({
      rowid: placeholder,
    });
  }
  const inserted = insert();
  if (placeholder !== null)
    prepared<{ rowid: number }>(db, 'DELETE FROM search_index WHERE rowid = CAST(@rowid AS INTEGER)').run({ rowid: placeholder });
  const first = Math.max(base, top + 1);
  prepared<{ next: number }>(db, 'UPDATE search_state SET next_rowid = @next WHERE id = 1').run({ next: first + inserted });
  return { first, count: inserted };
}

/** A word character for the grams: a letter or a digit (unicode61 also splits on everything else). */
const WORD_CHAR = /^[\p{L}\p{N}]$/u;
const isWordChar = (ch: string): boolean => {
  const c = ch.charCodeAt(0);
  if (c < 128) return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  return WORD_CHAR.test(ch);
};

/**
 * The grams of a row's text: every word character with the next one when that is a word character too, else alone.
 * So each occurrence of a 2-character word term is a token, and each occurrence of a 1-character term begins one.
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
 * Compact once this share of the indexed rows is gone (deleted rows' grams only slow the short-term searches). The
 * count is generous (a deleted row not indexed yet counts too): at worst a compaction comes early.
 */
const GARBAGE_RATIO = 0.25;

/**
 * Drops the grams of every row. The rows are searched by the scan until the next pass indexes them again: slower for
 * a moment, never wrong. Used to compact, and when a site is removed, so nothing derived from its text stays behind.
 */
export function forgetShortTerms(db: Database): void {
  prepared(db, "INSERT INTO search_grams (search_grams) VALUES ('delete-all')").run();
  prepared(db, 'UPDATE search_state SET indexed_through = 0, indexed_rows = 0, garbage = 0 WHERE id = 1').run();
}

/**
 * Writes the grams of (at most `maxRows` of) the rows added since the last pass (all sites), compacting first when
 * many rows were deleted. Run after a sync commit in steps (warm.ts), off the sync's critical path: the whole large
 * seed costs ~250 ms. Returns how many rows it indexed (fewer than `maxRows`: nothing is left).
 */
export function indexShortTerms(db: Database, maxRows = Number.MAX_SAFE_INTEGER): number {
  return db.transaction(() => {
    let state = searchState(db);
    if (state.garbage > 0 && state.garbage >= GARBAGE_RATIO * Math.max(1, state.indexed_rows - state.garbage)) {
      forgetShortTerms(db);
      state = searchState(db);
    }
    const rows = prepared<{ from: number; max: number }, { rowid: number; title: string; body: string }>(
      db,
      'SELECT rowid, title, body FROM search_index WHERE rowid > CAST(@from AS INTEGER) ORDER BY rowid LIMIT @max',
    ).all({ from: state.indexed_through, max: maxRows });
    if (rows.length === 0) return 0;
    const insert = prepared<{ rowid: number; grams: string }>(db, 'INSERT INTO search_grams (rowid, grams) VALUES (@rowid, @grams)');
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

/** A search as FTS5 can run it: a MATCH for the terms of 3+ characters, LIKE patterns for shorter ones. */
export interface ParsedSearch {
  /** FTS5 query: every term a quoted string (inner quotes doubled), so FTS syntax in the input is searched as text. */
  readonly match: string | null;
  /** LIKE patterns (with `\` escapes) for terms the trigram index cannot match (1 or 2 characters). */
  readonly like: readonly string[];
  /**
   * For those short terms made of letters and digits only: an FTS5 query of search_grams finding the rows that may
   * hold them (a 2-character term is a token, a 1-character one a token prefix). Null when there is none.
   */
  readonly grams: string | null;
  readonly terms: readonly string[];
}

const GRAM_TERM = /^[\p{L}\p{N}]{1,2}$/u;

/**
 * Parses what the user typed. Terms are split on white space, stripped of control characters, and only terms with a
 * letter or digit are kept (at most 16). Nothing the user types is ever interpreted as FTS5 syntax
 * (https://sqlite.org/fts5.html#fts5_strings): AND, NEAR, *, :, ^, parentheses and quotes are all just text.
 */
export function parseSearch(input: string): ParsedSearch | null {
  const terms = input
    .normalize('NFKC')
    .split(/\s+/u)
    .map((t) => t.replace(/\p{Cc}/gu, ''))
    .filter((t) => /[\p{L}\p{N}]/u.test(t))
    .slice(0, 16);
  if (terms.length === 0) return null;
  const long = terms.filter((t) => [...t].length >= 3);
  const short = terms.filter((t) => [...t].length < 3);
  const grams = short.filter((t) => GRAM_TERM.test(t)).map((t) => ([...t].length === 1 ? `"${t}"*` : `"${t}"`));
  return {
    match: long.length === 0 ? null : long.map((t) => `"${t.replace(/"/g, '""')}"`).join(' '),
    like: short.map((t) => `%${t.replace(/[\\%_]/g, (c) => `\\${c}`)}%`),
    grams: grams.length === 0 ? null : grams.join(' '),
    terms,
  };
}

interface HitRow {
  kind: SearchHitKind;
  item_id: string;
  course_id: string | null;
  title: string;
  body: string;
  snippet: string | null;
}

/** For LIKE-only searches (no FTS snippet): the text around the first match, the match wrapped in [[ ]]. */
function likeSnippet(title: string, body: string, terms: readonly string[]): string {
  for (const text of [title, body]) {
    const lower = text.toLowerCase();
    for (const term of terms) {
      const at = lower.indexOf(term.toLowerCase());
      if (at < 0) continue;
      const from = Math.max(0, at - 30);
      const to = Math.min(text.length, at + term.length + 30);
      return `${from > 0 ? '…' : ''}${text.slice(from, at)}[[${text.slice(at, at + term.length)}]]${text.slice(at + term.length, to)}${to < text.length ? '…' : ''}`;
    }
  }
  return title;
}

/** A run of search_index rowids holding one kind of one site's rows (migration 009). */
interface RowRun {
  readonly first: number;
  readonly last: number;
}

function runsOf(db: Database, siteId: string): RowRun[] {
  return prepared<{ siteId: string }, RowRun>(
    db,
    'SELECT first_rowid AS first, last_rowid AS last FROM search_ranges WHERE site_id = @siteId ORDER BY first_rowid',
  ).all({
    siteId,
  });
}

/**
 * Matches ranked per run of rowids at most. A common word matches nearly every row (every lecture is "Lecture n"):
 * ranking them all costs time in proportion to the data (167 ms at eight times the large seed), for a list the
 * student reads the top of. The first matches of each run in rowid order (the order the site sent them) are
 * ranked; a rarer term, with fewer matches than this, is ranked over all of them, as before.
 */
export const RANKED_PER_RUN = 500;

/** A term held by more rows of the whole index than this is ranked without FTS5's bm25 (see rankedRows). */
const COMMON_IN_INDEX = 5000;

/**
 * Full-text search over one site's course, section and lecture titles and notifications (title + body), best match
 * first. Substring matching in every script (trigram index); sites never mix (every query filters site_id).
 * Every query reads the site's own runs of rowids (search_ranges) only, so another site's rows are never walked,
 * and a term's matches are ranked per run up to RANKED_PER_RUN, so the work stays bounded (rankedRows).
 * Short terms (1-2 characters) narrow a trigram match with LIKE; alone, they are looked up in search_grams and
 * checked with the same LIKE, in rowid order as the scan they replace (rows not yet in search_grams are scanned).
 */
export function search(db: Database, siteId: string, query: string, limit = 50): SearchHit[] {
  const parsed = parseSearch(query);
  if (parsed === null) return [];
  const params: Record<string, string | number> = { siteId, limit };
  const likes = parsed.like.map((pattern, i) => {
    params[`like${i}`] = pattern;
    return `(s.title LIKE @like${i} ESCAPE '\\' OR s.body LIKE @like${i} ESCAPE '\\')`;
  });
  const runs = runsOf(db, siteId);
  const rows = parsed.match !== null ? rankedRows(db, parsed, runs, params, likes, limit) : shortTermRows(db, parsed, runs, params, likes, limit);
  return rows.map((r) => ({
    kind: r.kind,
    id: r.item_id,
    courseId: r.course_id,
    title: r.title,
    snippet: r.snippet ?? likeSnippet(r.title, r.body, parsed.terms),
  }));
}

const BETWEEN = 'CAST(@first AS INTEGER) AND CAST(@last AS INTEGER)';

/**
 * The site's matches, best first. The candidates are read per run, at most RANKED_PER_RUN + 1 each, rowids only.
 * - Every run had fewer (all the site's matches are here) and the whole index holds the term in at most
 *   COMMON_IN_INDEX rows (counted up to that bound): FTS5's bm25 ranks them, as before
 *   (https://sqlite.org/fts5.html#the_bm25_function). bm25 weighs a term by how many rows of the whole index hold
 *   it, and counting them walks the term's whole doclist, every site's.
 * - Otherwise (a common word, here or in another site): that count would cost time in proportion to the data
 *   (400 ms for "Lecture" at eight times the large seed). The candidates are ranked here with the same formula, Okapi BM25 (k1 = 1.2,
 *   b = 0.75, as FTS5), counted over the candidates themselves: each term's occurrences in the row's text, the
 *   text's length against the candidates' average, and the share of candidates holding the term.
 * The site is checked here, not in SQL: FTS5 takes `site_id = ?` on its UNINDEXED column as a filter of its own and
 * then reads every row's text without stopping at the LIMIT (69 ms instead of 0.5 ms for 500 course titles). A run
 * holds only the site's rows, or a few of another site's in a run migration 009 filled.
 */
function rankedRows(
  db: Database,
  parsed: ParsedSearch,
  runs: readonly RowRun[],
  params: Record<string, string | number>,
  likes: readonly string[],
  limit: number,
): HitRow[] {
  const match = parsed.match!;
  const where = ['s.search_index MATCH @match', `s.rowid BETWEEN ${BETWEEN}`, ...likes].join(' AND ');
  const candidatesOf = prepared<Record<string, string | number>, { rowid: number; site_id: string }>(
    db,
    `SELECT s.rowid AS rowid, s.site_id FROM search_index s WHERE ${where} LIMIT ${RANKED_PER_RUN + 1}`,
  );
  const { siteId, ...rest } = params;
  const candidates: number[] = [];
  let bounded = false;
  for (const run of runs) {
    const rows = candidatesOf.all({ ...rest, match, first: run.first, last: run.last });
    if (rows.length > RANKED_PER_RUN) {
      bounded = true;
      rows.length = RANKED_PER_RUN;
    }
    for (const row of rows) if (row.site_id === siteId) candidates.push(row.rowid);
  }
  // bm25's count of a term's rows walks its whole doclist, every site's: only for a term rare in the whole index.
  const common =
    bounded ||
    prepared<{ match: string }, { n: number }>(
      db,
      `SELECT count(*) AS n FROM (SELECT 1 FROM search_index WHERE search_index MATCH @match LIMIT ${COMMON_IN_INDEX + 1})`,
    ).get({
      match,
    })!.n > COMMON_IN_INDEX;
  let order: number[];
  if (!common) {
    // One scan a run (bm25 counts a term's rows once per statement run, not once per row).
    const scoreOf = prepared<Record<string, string | number>, { rowid: number; site_id: string; score: number }>(
      db,
      `SELECT s.rowid AS rowid, s.site_id, bm25(search_index) AS score FROM search_index s WHERE ${where} LIMIT ${RANKED_PER_RUN}`,
    );
    const scored: { rowid: number; score: number }[] = [];
    for (const run of runs)
      for (const row of scoreOf.all({ ...rest, match, first: run.first, last: run.last })) if (row.site_id === siteId) scored.push(row);
    scored.sort((a, b) => a.score - b.score || a.rowid - b.rowid);
    order = scored.map((c) => c.rowid);
  } else {
    const text = prepared<{ rowid: number }, { title: string; body: string }>(
      db,
      'SELECT title, body FROM search_index WHERE rowid = CAST(@rowid AS INTEGER)',
    );
    const rows = candidates.map((rowid) => ({ rowid, ...text.get({ rowid })! }));
    order = bm25OfCandidates(
      rows,
      parsed.terms.filter((t) => [...t].length >= 3),
    );
  }
  // The snippets of the hits shown only (snippet() reads the row's text and its matches).
  const hit = prepared<{ match: string; rowid: number }, HitRow>(
    db,
    `SELECT s.kind, s.item_id, s.course_id, s.title, s.body, snippet(search_index, -1, '[[', ']]', '…', 24) AS snippet
       FROM search_index s WHERE s.search_index MATCH @match AND s.rowid = CAST(@rowid AS INTEGER)`,
  );
  return order.slice(0, limit).map((rowid) => hit.get({ match, rowid })!);
}

/** Okapi BM25 over the candidates themselves (see rankedRows); their rowids, best first, then by rowid. */
function bm25OfCandidates(candidates: readonly { rowid: number; title: string; body: string }[], terms: readonly string[]): number[] {
  const fold = (text: string) => text.normalize('NFKC').toLowerCase();
  const needles = terms.map(fold);
  const rows = candidates.map((c) => {
    const text = `${fold(c.title)}\n${fold(c.body)}`;
    return { rowid: c.rowid, length: text.length, counts: needles.map((n) => occurrences(text, n)) };
  });
  const n = rows.length;
  const average = rows.reduce((sum, r) => sum + r.length, 0) / Math.max(1, n);
  const idf = needles.map((_, t) => {
    const holding = rows.filter((r) => r.counts[t]! > 0).length;
    return Math.log((n - holding + 0.5) / (holding + 0.5) + 1);
  });
  const scored = rows.map((r) => ({
    rowid: r.rowid,
    score: r.counts.reduce((sum, f, t) => sum + (idf[t]! * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * r.length) / average)), 0),
  }));
  scored.sort((a, b) => b.score - a.score || a.rowid - b.rowid);
  return scored.map((r) => r.rowid);
}

function occurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) count++;
  return count;
}

const HIT_COLUMNS = 's.kind, s.item_id, s.course_id, s.title, s.body, NULL AS snippet';

/** Rows of the runs, in rowid order, up to `limit`: `read(run)` reads one run's part (null: nothing to read there). */
function inRunOrder(runs: readonly RowRun[], limit: number, read: (run: RowRun, left: number) => HitRow[] | null, out: HitRow[] = []): HitRow[] {
  for (const run of runs) {
    if (out.length >= limit) break;
    for (const row of read(run, limit - out.length) ?? []) out.push(row);
  }
  return out;
}

function shortTermRows(
  db: Database,
  parsed: ParsedSearch,
  runs: readonly RowRun[],
  params: Record<string, string | number>,
  likes: readonly string[],
  limit: number,
): HitRow[] {
  const where = ['s.site_id = @siteId', ...likes].join(' AND ');
  const scan = prepared<Record<string, string | number>, HitRow>(
    db,
    `SELECT ${HIT_COLUMNS} FROM search_index s WHERE s.rowid BETWEEN ${BETWEEN} AND ${where} ORDER BY s.rowid LIMIT @limit`,
  );
  if (parsed.grams === null) return inRunOrder(runs, limit, (run, left) => scan.all({ ...params, first: run.first, last: run.last, limit: left }));
  // Rows up to indexed_through through the grams, in rowid order; the rows after them (a commit not indexed yet) by
  // scanning that rowid range only. Both in rowid order, so the two parts concatenate in the scan's order.
  const through = searchState(db).indexed_through;
  const grams = prepared<Record<string, string | number>, HitRow>(
    db,
    `SELECT ${HIT_COLUMNS} FROM search_grams g JOIN search_index s ON s.rowid = g.rowid
     WHERE g.search_grams MATCH @grams AND g.rowid BETWEEN ${BETWEEN} AND ${where} ORDER BY g.rowid LIMIT @limit`,
  );
  const indexed = inRunOrder(runs, limit, (run, left) =>
    run.first > through ? null : grams.all({ ...params, grams: parsed.grams!, first: run.first, last: Math.min(run.last, through), limit: left }),
  );
  return inRunOrder(
    runs,
    limit,
    (run, left) => (run.last <= through ? null : scan.all({ ...params, first: Math.max(run.first, through + 1), last: run.last, limit: left })),
    indexed,
  );
}
