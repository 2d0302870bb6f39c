/**
 * 021: what changed for the student at each sync (db/change-record.ts): new or unlocked lectures, a
 * course's access date moved or ended, a course added or gone, a payment paid, expired or refunded,
 * a new product or event. Written in the sync's own commit, by comparing what it stored with what
 * it replaced; bounded per site (the newest CHANGE_RECORD_KEPT rows), gone with the site.
 * `seen_at`: Today showed it ("Since you last looked").
 */
export const version = 21;
export const name = '021-change-record';
export const sql = /* sql */ `
CREATE TABLE change_record (
  id INTEGER PRIMARY KEY,
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  at TEXT NOT NULL,
  kind TEXT NOT NULL,
  item_id TEXT NOT NULL,
  course_id TEXT,
  title TEXT NOT NULL,
  detail TEXT NOT NULL,             -- JSON object: the kind's numbers and dates
  seen_at TEXT
) STRICT;
CREATE INDEX change_record_of_site ON change_record(site_id, id);
CREATE INDEX change_record_unseen ON change_record(site_id, id) WHERE seen_at IS NULL;
`;
