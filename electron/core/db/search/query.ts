import type { Database } from 'better-sqlite3';
import type { SearchHitKind } from '../../../common/view-models';
import type { HitRow } from './row';
import { prepared } from '../statements';
import { typoRows } from './fuzzy';
import { parseSearch, type ParsedSearch } from './parse';
import { bm25OfCandidates } from './rank';
import { BETWEEN, searchState } from './state';

export type { HitRow } from './row';

/**
 * What a search reads: the sites (the caller names them: the student's sites, or one) and the
 * kinds.
 */
export interface SearchScope {
  readonly siteIds: readonly string[];
  /** Only these kinds; every kind when absent or empty. */
  readonly kinds?: readonly SearchHitKind[];
  /** Hits returned at most. */
  readonly limit?: number;
  /**
   * Hits of one kind at most, so a word in every lecture title leaves room for the order or event
   * it also names.
   */
  readonly perKind?: number;
}

/** A run of search_index rowids holding one kind of one site's rows (migration 009). */
interface RowRun {
  readonly siteId: string;
  readonly kind: SearchHitKind;
  readonly first: number;
  readonly last: number;
}

function runsOf(db: Database, scope: SearchScope): RowRun[] {
  const kinds = scope.kinds && scope.kinds.length > 0 ? JSON.stringify(scope.kinds) : null;
  return prepared<{ sites: string; kinds: string | null }, RowRun>(
    db,
    `SELECT site_id AS siteId, kind, first_rowid AS first, last_rowid AS last FROM search_ranges
     WHERE site_id IN (SELECT value FROM json_each(@sites)) AND (@kinds IS NULL OR kind IN (SELECT value FROM json_each(@kinds)))
     ORDER BY first_rowid`,
  ).all({ sites: JSON.stringify(scope.siteIds), kinds });
}

/**
 * Matches ranked per run of rowids at most. A common word matches nearly every row (every lecture
 * is "Lecture n"):
 * ranking them all costs time in proportion to the data (167 ms at eight times the large seed), for
 * a list the student reads the top of. The first matches of each run in rowid order (the order the
 * site sent them) are ranked; a rarer term, with fewer matches than this, is ranked over all of
 * them, as before. Searching several sites shares this among them (down to MIN_RANKED_PER_RUN a
 * run), so the work stays that of about one site.
 */
export const RANKED_PER_RUN = 500;
const MIN_RANKED_PER_RUN = 100;

/**
 * A term held by more rows of the whole index than this is ranked without FTS5's bm25 (see
 * rankedRows).
 */
const COMMON_IN_INDEX = 5000;

/**
 * Full-text search over the scope's sites, best match first: course, section and lecture titles,
 * instructors, orders (items and trade number), payments (trade number, payment code, bank, invoice
 * number), digital products, events, consulting and notices (build.ts says what each row holds).
 * Substring matching in every script (trigram index). Every query reads the scope's own runs of
 * rowids (search_ranges) only, so another site's rows are never walked, and a term's matches are
 * ranked per run up to a bound, so the work stays bounded (rankedRows). Short terms (1-2
 * characters) narrow a trigram match with LIKE; alone, they are looked up in search_grams and
 * checked with the same LIKE, in rowid order as the scan they replace (rows not yet in search_grams
 * are scanned).
 */
export function searchRows(
  db: Database,
  query: string,
  scope: SearchScope,
): { rows: HitRow[]; parsed: ParsedSearch } | null {
  const parsed = parseSearch(query);
  if (parsed === null || scope.siteIds.length === 0) return null;
  const limit = scope.limit ?? 50;
  const cap = new KindCap(limit, scope.perKind ?? limit);
  const params: Record<string, string | number> = {};
  const likes = parsed.like.map((pattern, i) => {
    params[`like${i}`] = pattern;
    return `(s.title LIKE @like${i} ESCAPE '\\' OR s.body LIKE @like${i} ESCAPE '\\')`;
  });
  const runs = runsOf(db, scope);
  const perRun = Math.max(
    MIN_RANKED_PER_RUN,
    Math.floor(RANKED_PER_RUN / new Set(runs.map((r) => r.siteId)).size),
  );
  const rows =
    parsed.match !== null
      ? rankedRows(db, parsed, runs, params, likes, cap, perRun)
      : shortTermRows(db, parsed, runs, params, likes, cap);
  // Nothing found: a title one typo away from each term ("pyhton" finds Python), never instead of
  // an exact hit.
  if (rows.length === 0 && parsed.match !== null)
    return { rows: typoRows(db, parsed.terms, scope, limit), parsed };
  return { rows, parsed };
}

/** Counts hits per kind and in all: `take` says whether one more of a kind fits. */
class KindCap {
  private readonly counts = new Map<SearchHitKind, number>();
  private total = 0;
  constructor(
    readonly limit: number,
    readonly perKind: number,
  ) {}
  get full(): boolean {
    return this.total >= this.limit;
  }
  left(kind: SearchHitKind): number {
    return Math.max(
      0,
      Math.min(this.limit - this.total, this.perKind - (this.counts.get(kind) ?? 0)),
    );
  }
  take(kind: SearchHitKind): boolean {
    if (this.left(kind) === 0) return false;
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1);
    this.total++;
    return true;
  }
}

interface Candidate {
  rowid: number;
  site_id: string;
  kind: SearchHitKind;
}

/** A candidate with its text, read in the same scan (a common word's ranking needs it: rank.ts). */
interface CandidateText extends Candidate {
  title: string;
  body: string;
}

/**
 * The scope's matches, best first. The candidates are read per run, at most `perRun` + 1 each, with
 * their text.
 * - Every run had fewer (all the scope's matches are here) and the whole index holds the term in at
 *   most COMMON_IN_INDEX rows (counted up to that bound): FTS5's bm25 ranks them, as before
 *   (https://sqlite.org/fts5.html#the_bm25_function). bm25 weighs a term by how many rows of the
 *   whole index hold it (so its scores compare across sites), and counting them walks the term's
 *   whole doclist, every site's.
 * - Otherwise (a common word, here or in another site): that count would cost time in proportion to
 *   the data (400 ms for "Lecture" at eight times the large seed). The candidates are ranked here
 *   with the same formula, Okapi BM25 (k1 = 1.2, b = 0.75, as FTS5), counted over the candidates
 *   themselves (rank.ts).
 * The site and kind are checked here, not in SQL: FTS5 takes `site_id = ?` on its UNINDEXED column as a filter of its
 * own and then reads every row's text without stopping at the LIMIT (69 ms instead of 0.5 ms for 500 course titles).
 * A run holds only its site's rows of its kind, or a few others in a run migration 009 filled.
 */
function rankedRows(
  db: Database,
  parsed: ParsedSearch,
  runs: readonly RowRun[],
  params: Record<string, string | number>,
  likes: readonly string[],
  cap: KindCap,
  perRun: number,
): HitRow[] {
  const match = parsed.match!;
  const where = ['s.search_index MATCH @match', `s.rowid BETWEEN ${BETWEEN}`, ...likes].join(
    ' AND ',
  );
  // The text comes with the candidate, from the row the scan reads anyway: fetched a row at a time
  // afterwards, 1,500 candidates of a common word cost ~9 µs each (13 of the 19 ms of "Bulk" at
  // eight times the large seed).
  const candidatesOf = prepared<Record<string, string | number>, CandidateText>(
    db,
    `SELECT s.rowid AS rowid, s.site_id, s.kind, s.title, s.body FROM search_index s WHERE ${where} LIMIT @max`,
  );
  const ofRun = (run: RowRun, row: Candidate) =>
    row.site_id === run.siteId && row.kind === run.kind;
  const candidates: CandidateText[] = [];
  let bounded = false;
  for (const run of runs) {
    const rows = candidatesOf.all({
      ...params,
      match,
      first: run.first,
      last: run.last,
      max: perRun + 1,
    });
    if (rows.length > perRun) {
      bounded = true;
      rows.length = perRun;
    }
    for (const row of rows) if (ofRun(run, row)) candidates.push(row);
  }
  // bm25's count of a term's rows walks its whole doclist, every site's: only for a term rare in
  // the whole index.
  const common =
    bounded ||
    prepared<{ match: string }, { n: number }>(
      db,
      `SELECT count(*) AS n FROM (SELECT 1 FROM search_index WHERE search_index MATCH @match LIMIT ${COMMON_IN_INDEX + 1})`,
    ).get({ match })!.n > COMMON_IN_INDEX;
  let order: Candidate[];
  if (!common) {
    // One scan a run (bm25 counts a term's rows once per statement run, not once per row).
    const scoreOf = prepared<Record<string, string | number>, Candidate & { score: number }>(
      db,
      `SELECT s.rowid AS rowid, s.site_id, s.kind, bm25(search_index) AS score FROM search_index s WHERE ${where} LIMIT @max`,
    );
    const scored: (Candidate & { score: number })[] = [];
    for (const run of runs)
      for (const row of scoreOf.all({
        ...params,
        match,
        first: run.first,
        last: run.last,
        max: perRun,
      }))
        if (ofRun(run, row)) scored.push(row);
    order = scored.sort((a, b) => a.score - b.score || a.rowid - b.rowid);
  } else {
    const byRowid = new Map(candidates.map((c) => [c.rowid, c]));
    order = bm25OfCandidates(
      candidates,
      parsed.terms.filter((t) => [...t].length >= 3),
    ).map((rowid) => byRowid.get(rowid)!);
  }
  // The snippets of the hits shown only (snippet() reads the row's text and its matches).
  const hit = prepared<{ match: string; rowid: number }, HitRow>(
    db,
    `SELECT s.site_id, s.kind, s.item_id, s.course_id, s.title, s.body, snippet(search_index, -1, '[[', ']]', '…', 24) AS snippet
       FROM search_index s WHERE s.search_index MATCH @match AND s.rowid = CAST(@rowid AS INTEGER)`,
  );
  const out: HitRow[] = [];
  for (const c of order) {
    if (cap.full) break;
    if (cap.take(c.kind)) out.push(hit.get({ match, rowid: c.rowid })!);
  }
  return out;
}

const HIT_COLUMNS = 's.site_id, s.kind, s.item_id, s.course_id, s.title, s.body, NULL AS snippet';

/**
 * Rows of the runs, in rowid order, within the caps: `read(run, left)` reads one run's part (null:
 * nothing to read there).
 */
function inRunOrder(
  runs: readonly RowRun[],
  cap: KindCap,
  read: (run: RowRun, left: number) => HitRow[] | null,
  out: HitRow[] = [],
): HitRow[] {
  for (const run of runs) {
    if (cap.full) break;
    const left = cap.left(run.kind);
    if (left === 0) continue;
    for (const row of read(run, left) ?? []) if (cap.take(row.kind)) out.push(row);
  }
  return out;
}

function shortTermRows(
  db: Database,
  parsed: ParsedSearch,
  runs: readonly RowRun[],
  params: Record<string, string | number>,
  likes: readonly string[],
  cap: KindCap,
): HitRow[] {
  const where = ['s.site_id = @siteId', 's.kind = @kind', ...likes].join(' AND ');
  const scan = prepared<Record<string, string | number>, HitRow>(
    db,
    `SELECT ${HIT_COLUMNS} FROM search_index s WHERE s.rowid BETWEEN ${BETWEEN} AND ${where} ORDER BY s.rowid LIMIT @limit`,
  );
  const of = (run: RowRun, first: number, last: number, limit: number) => ({
    ...params,
    siteId: run.siteId,
    kind: run.kind,
    first,
    last,
    limit,
  });
  if (parsed.grams === null)
    return inRunOrder(runs, cap, (run, left) => scan.all(of(run, run.first, run.last, left)));
  // Rows up to indexed_through through the grams, in rowid order; the rows after them (a commit not
  // indexed yet) by scanning that rowid range only. Both in rowid order, so the two parts
  // concatenate in the scan's order.
  const through = searchState(db).indexed_through;
  const grams = prepared<Record<string, string | number>, HitRow>(
    db,
    `SELECT ${HIT_COLUMNS} FROM search_grams g JOIN search_index s ON s.rowid = g.rowid
     WHERE g.search_grams MATCH @grams AND g.rowid BETWEEN ${BETWEEN} AND ${where} ORDER BY g.rowid LIMIT @limit`,
  );
  const indexed = inRunOrder(runs, cap, (run, left) =>
    run.first > through
      ? null
      : grams.all({
          ...of(run, run.first, Math.min(run.last, through), left),
          grams: parsed.grams!,
        }),
  );
  return inRunOrder(
    runs,
    cap,
    (run, left) =>
      run.last <= through
        ? null
        : scan.all(of(run, Math.max(run.first, through + 1), run.last, left)),
    indexed,
  );
}
