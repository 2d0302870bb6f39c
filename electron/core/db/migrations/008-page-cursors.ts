/**
 * 008: the page cursors of each paged part as its last committed fetch walked them (a JSON array:
 * the `after` of each page, the first null). The next sync asks for those pages a few ahead at a
 * time instead of one round trip after another (sync/fetch-snapshot.ts `cursors`), so a re-sync of
 * a long history does not cost a round trip a page, from the first sync after the app starts too.
 * NULL: none known (a part committed without them).
 */
export const version = 8;
export const name = '008-page-cursors';
export const sql = /* sql */ `
ALTER TABLE sync_parts ADD COLUMN cursors TEXT;
`;
