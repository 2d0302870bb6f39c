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

/** Rebuilds one site's rows of the FTS5 index (all kinds, or those given) from its tables, inside the caller's transaction. */
export function rebuildSearchIndex(db: Database, siteId: string, kinds: readonly SearchHitKind[] = ['course', 'section', 'lecture', 'notification']): void {
  for (const kind of kinds) {
    prepared<{ siteId: string; kind: string }>(db, 'DELETE FROM search_index WHERE site_id = @siteId AND kind = @kind').run({ siteId, kind });
    prepared<{ siteId: string }>(db, INDEXED[kind]).run({ siteId });
  }
}

/** A search as FTS5 can run it: a MATCH for the terms of 3+ characters, LIKE patterns for shorter ones. */
export interface ParsedSearch {
  /** FTS5 query: every term a quoted string (inner quotes doubled), so FTS syntax in the input is searched as text. */
  readonly match: string | null;
  /** LIKE patterns (with `\` escapes) for terms the trigram index cannot match (1 or 2 characters). */
  readonly like: readonly string[];
  readonly terms: readonly string[];
}

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
  return {
    match: long.length === 0 ? null : long.map((t) => `"${t.replace(/"/g, '""')}"`).join(' '),
    like: short.map((t) => `%${t.replace(/[\\%_]/g, (c) => `\\${c}`)}%`),
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

/**
 * Full-text search over one site's course, section and lecture titles and notifications (title + body), best match
 * first. Substring matching in every script (trigram index); sites never mix (every query filters site_id).
 */
export function search(db: Database, siteId: string, query: string, limit = 50): SearchHit[] {
  const parsed = parseSearch(query);
  if (parsed === null) return [];
  const where = ['site_id = @siteId'];
  const params: Record<string, string | number> = { siteId, limit };
  if (parsed.match !== null) {
    where.push('search_index MATCH @match');
    params.match = parsed.match;
  }
  parsed.like.forEach((pattern, i) => {
    where.push(`(title LIKE @like${i} ESCAPE '\\' OR body LIKE @like${i} ESCAPE '\\')`);
    params[`like${i}`] = pattern;
  });
  const snippet = parsed.match !== null ? "snippet(search_index, -1, '[[', ']]', '…', 24)" : 'NULL';
  const sql = `SELECT kind, item_id, course_id, title, body, ${snippet} AS snippet FROM search_index
     WHERE ${where.join(' AND ')} ORDER BY ${parsed.match !== null ? 'rank' : 'rowid'} LIMIT @limit`;
  return prepared<Record<string, string | number>, HitRow>(db, sql)
    .all(params)
    .map((r) => ({
      kind: r.kind,
      id: r.item_id,
      courseId: r.course_id,
      title: r.title,
      snippet: r.snippet ?? likeSnippet(r.title, r.body, parsed.terms),
    }));
}
