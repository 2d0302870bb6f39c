import { searchForm } from './normalize';

/**
 * A search as FTS5 can run it: a MATCH for the terms of 3+ characters, LIKE patterns for shorter
 * ones.
 */
export interface ParsedSearch {
  /**
   * FTS5 query: every term a quoted string (inner quotes doubled), so FTS syntax in the input is
   * searched as text.
   */
  readonly match: string | null;
  /**
   * LIKE patterns (with `\` escapes) for terms the trigram index cannot match (1 or 2 characters).
   */
  readonly like: readonly string[];
  /**
   * For those short terms made of letters and digits only: an FTS5 query of search_grams finding
   * the rows that may hold them (a 2-character term is a token, a 1-character one a token prefix).
   * Null when there is none.
   */
  readonly grams: string | null;
  readonly terms: readonly string[];
}

const GRAM_TERM = /^[\p{L}\p{N}]{1,2}$/u;

/**
 * Parses what the user typed. Terms are split on white space, stripped of control characters, and
 * only terms with a letter or digit are kept (at most 16). Nothing the user types is ever
 * interpreted as FTS5 syntax (https://sqlite.org/fts5.html#fts5_strings): AND, NEAR, *, :, ^,
 * parentheses and quotes are all just text.
 */
export function parseSearch(input: string): ParsedSearch | null {
  // The index's own form (normalize.ts): a query typed or pasted in any width finds the text either
  // way.
  const terms = searchForm(input)
    .split(/\s+/u)
    .map((t) => t.replace(/\p{Cc}/gu, ''))
    .filter((t) => /[\p{L}\p{N}]/u.test(t))
    .slice(0, 16);
  if (terms.length === 0) return null;
  const long = terms.filter((t) => [...t].length >= 3);
  const short = terms.filter((t) => [...t].length < 3);
  const grams = short
    .filter((t) => GRAM_TERM.test(t))
    .map((t) => ([...t].length === 1 ? `"${t}"*` : `"${t}"`));
  return {
    match: long.length === 0 ? null : long.map((t) => `"${t.replace(/"/g, '""')}"`).join(' '),
    like: short.map((t) => `%${t.replace(/[\\%_]/g, (c) => `\\${c}`)}%`),
    grams: grams.length === 0 ? null : grams.join(' '),
    terms,
  };
}

/**
 * For LIKE-only searches (no FTS snippet): the text around the first match, the match wrapped in [[
 * ]].
 */
export function likeSnippet(title: string, body: string, terms: readonly string[]): string {
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
