/**
 * Search: the index is written at commit time in the writer (build.ts) and its short terms right
 * after (grams.ts); a query reads the runs of its sites and kinds (query.ts), ranks a bounded
 * number of matches (rank.ts) and reads the context of the hits it returns (context.ts).
 */
import type { SearchHit } from '../../../common/view-models';
import { siteText } from '../../../common/site-values';
import { contextOf } from './context';
import { likeSnippet } from './parse';
import { searchRows, type SearchScope } from './query';
import { shownSnippet } from './shown';
import type { ReadableDB } from '../handles';

export { ALL_KINDS, rebuildSearchIndex, searchKindsOf } from './build';
export { forgetShortTerms, gramsOf, indexShortTerms } from './grams';
export { parseSearch, type ParsedSearch } from './parse';
export { RANKED_PER_RUN, type SearchScope } from './query';
export { countSearchGarbage } from './state';

/**
 * What the search screen asks for (ipc-contract 'search:query'): 100 hits at most, 25 of one kind
 * when every kind is asked for, so a word in every lecture title leaves room for the orders and
 * events it also names.
 */
export const SEARCH_LIMIT = 100;
export const SEARCH_PER_KIND = 25;

/** Every hit in scope, best first, with its context. */
export function searchEverything(
  db: ReadableDB,
  query: string,
  scope: SearchScope,
  now = new Date(),
): SearchHit[] {
  const found = searchRows(db, query, scope);
  if (found === null) return [];
  return found.rows.map((r) => {
    const { context, title, body } = contextOf(db, r, now);
    const shown = siteText(title ?? r.title);
    const snippet = r.snippet ?? likeSnippet(r.title, r.body, found.parsed.terms);
    const ofTitle = shownSnippet(snippet, r.title, shown);
    return {
      kind: r.kind,
      id: r.item_id,
      siteId: r.site_id,
      courseId: r.course_id,
      // The school's own title, from the row the hit points to (the index's is in search form, for
      // matching only); the index's when that row is gone since (a sync between) or no one row
      // holds it (an order's items).
      title: shown,
      // A snippet in the school's own text (shown.ts): of the title, else of the body.
      snippet:
        ofTitle !== snippet || body === undefined || body === null
          ? ofTitle
          : shownSnippet(snippet, r.body, siteText(body, Number.MAX_SAFE_INTEGER)),
      context,
    };
  });
}

/** One site's hits of every kind, best first, `limit` at most. */
export function search(db: ReadableDB, siteId: string, query: string, limit = 50): SearchHit[] {
  return searchEverything(db, query, { siteIds: [siteId], limit });
}
