/**
 * 019: the search index holds its text in one form (db/search/normalize.ts `search_form`: NFKC,
 * then cleaned as every view shows a site's text), the form a query is matched in, so a title with
 * a full-width colon is found by its own title typed or pasted either way, and no hit carries the
 * site's line breaks or bidi controls. The rows already indexed are rewritten in place (same
 * rowids, so search_ranges still hold); their short-term grams are dropped and written again by the
 * next pass (slower short searches for a moment, never wrong). The order rows gain the words of
 * their states and kinds and their tickets' names from the next commit of the payments: the stored
 * payments' digest is forgotten, so the next sync rewrites them even when nothing changed at the
 * school.
 */
export const version = 19;
export const name = '019-search-form';
export const sql = /* sql */ `
UPDATE search_index SET title = search_form(title), body = search_form(body)
  WHERE title <> search_form(title) OR body <> search_form(body);
INSERT INTO search_grams (search_grams) VALUES ('delete-all');
UPDATE search_state SET indexed_through = 0, indexed_rows = 0, garbage = 0 WHERE id = 1;
DELETE FROM sync_parts WHERE part = 'payments';
`;
