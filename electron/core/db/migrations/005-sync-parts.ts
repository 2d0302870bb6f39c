/**
 * 005: a digest of each part of the last snapshot committed per site. A re-sync whose part is
 * unchanged skips rewriting it (and its search rows), so a no-change re-sync costs the fetch and
 * little else.
 */
export const version = 5;
export const name = '005-sync-parts';
export const sql = /* sql */ `
CREATE TABLE sync_parts (
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  part TEXT NOT NULL,
  digest TEXT NOT NULL,
  PRIMARY KEY (site_id, part)
) STRICT;
`;
