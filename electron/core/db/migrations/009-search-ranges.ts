/**
 * 009: where each site's rows sit in the search index. A site's rows of one kind are written
 * together, with rowids never used before (search.ts rebuildSearchIndex), so they are one run of
 * rowids; a search constrains FTS5 to the runs of its site (a rowid range, which FTS5 seeks to)
 * instead of walking every site's matches and filtering them afterwards: a common word matched
 * every row of every site and ranked them all before the site filter applied. Filled here from the
 * rows as they are: the older rows of one site may interleave with another's, so the first ranges
 * can be wider than the site's rows (the site filter stays); every rebuild writes the exact run.
 */
export const version = 9;
export const name = '009-search-ranges';
export const sql = /* sql */ `
CREATE TABLE search_ranges (
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  first_rowid INTEGER NOT NULL,
  last_rowid INTEGER NOT NULL,
  PRIMARY KEY (site_id, kind)
) STRICT;
INSERT INTO search_ranges (site_id, kind, first_rowid, last_rowid)
  SELECT site_id, kind, min(rowid), max(rowid) FROM search_index WHERE site_id IN (SELECT id FROM sites) GROUP BY site_id, kind;
`;
