import type { Database } from 'better-sqlite3';
import type { SearchHitKind } from '../../../common/view-models';
import { prepared } from '../statements';
import type { HitRow } from './row';

/**
 * A term this long, of letters and digits, may be a typo of a title's word ("pyhton"); a shorter
 * one is too ambiguous.
 */
const MIN_TYPO_LENGTH = 4;
const TERM = /^[\p{L}\p{N}]+$/u;
/**
 * Patterns tried per search at most, and hits read per pattern: the fallback stays a few index
 * lookups.
 */
const MAX_PATTERNS = 48;
const PER_PATTERN = 50;

/**
 * The spellings one edit away from `term` (Damerau-Levenshtein distance 1) as LIKE patterns: two
 * neighbours swapped and one letter left out as they are, one letter wrong or one missing as `_`.
 * Only patterns holding three letters in a row are kept: the trigram index looks those up
 * (https://sqlite.org/fts5.html#the_trigram_tokenizer), any other would scan every row.
 */
export function typoPatterns(term: string): string[] {
  const c = [...term];
  const out = new Set<string>();
  for (let i = 0; i + 1 < c.length; i++)
    out.add([...c.slice(0, i), c[i + 1], c[i], ...c.slice(i + 2)].join(''));
  for (let i = 0; i < c.length; i++) out.add([...c.slice(0, i), ...c.slice(i + 1)].join(''));
  for (let i = 0; i < c.length; i++) out.add([...c.slice(0, i), '_', ...c.slice(i + 1)].join(''));
  for (let i = 0; i <= c.length; i++) out.add([...c.slice(0, i), '_', ...c.slice(i)].join(''));
  out.delete(term);
  return [...out]
    .filter((p) => /[^_]{3}/u.test(p))
    .map((p) => `%${p.replace(/[\\%]/g, (ch) => `\\${ch}`)}%`);
}

/**
 * When a search finds nothing: the titles one typo away from each long term, in the scope's sites
 * and kinds, in the index's order. Every term must match (a title holding a typo of each); a search
 * that found something never comes here, so an exact hit is never crowded out by a near one.
 */
export function typoRows(
  db: Database,
  terms: readonly string[],
  scope: { readonly siteIds: readonly string[]; readonly kinds?: readonly SearchHitKind[] },
  limit: number,
): HitRow[] {
  const long = terms.filter((t) => [...t].length >= MIN_TYPO_LENGTH && TERM.test(t));
  if (long.length === 0 || long.length !== terms.length) return [];
  const sites = new Set(scope.siteIds);
  const kinds = scope.kinds && scope.kinds.length > 0 ? new Set(scope.kinds) : null;
  const byTitle = prepared<{ pattern: string; max: number }, HitRow & { rowid: number }>(
    db,
    `SELECT s.rowid AS rowid, s.site_id, s.kind, s.item_id, s.course_id, s.title, s.body, NULL AS snippet
       FROM search_index s WHERE s.title LIKE @pattern ESCAPE '\\' LIMIT @max`,
  );
  let found: Map<number, HitRow> | null = null;
  let budget = MAX_PATTERNS;
  for (const term of long) {
    const lower = term.toLowerCase();
    const matches = new Map<number, HitRow>();
    for (const pattern of typoPatterns(lower)) {
      if (budget-- <= 0) break;
      for (const row of byTitle.all({ pattern, max: PER_PATTERN }))
        if (
          sites.has(row.site_id) &&
          (kinds === null || kinds.has(row.kind)) &&
          (found === null || found.has(row.rowid))
        )
          matches.set(row.rowid, row);
    }
    found = matches;
    if (found.size === 0) return [];
  }
  return [...found!.entries()]
    .sort(([a], [b]) => a - b)
    .slice(0, limit)
    .map(([, row]) => row);
}
