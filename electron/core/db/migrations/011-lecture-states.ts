/**
 * 011: a lecture's state is the site's word, kept as sent. The spec names three states (unread,
 * read, completed), but a site may add another; the CHECK of 001 turned such a value into a failed
 * sync for the whole site, where the screens show a state they do not know as "unknown"
 * (common/views knownOr). SQLite cannot drop a CHECK in place, so the table is rebuilt as
 * https://sqlite.org/lang_altertable.html#otheralter describes: nothing references lectures, and
 * its indexes are made again.
 */
export const version = 11;
export const name = '011-lecture-states';
export const sql = /* sql */ `
CREATE TABLE lectures_011 (
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  course_id TEXT NOT NULL,
  section_id TEXT NOT NULL,
  title TEXT NOT NULL,
  position INTEGER NOT NULL,
  state TEXT NOT NULL,
  is_locked INTEGER NOT NULL,
  unlock_at TEXT,
  duration INTEGER NOT NULL,        -- seconds
  PRIMARY KEY (site_id, id),
  FOREIGN KEY (site_id, section_id) REFERENCES sections(site_id, id) ON DELETE CASCADE
) STRICT;
INSERT INTO lectures_011 (site_id, id, course_id, section_id, title, position, state, is_locked, unlock_at, duration)
  SELECT site_id, id, course_id, section_id, title, position, state, is_locked, unlock_at, duration FROM lectures;
DROP TABLE lectures;
ALTER TABLE lectures_011 RENAME TO lectures;
CREATE INDEX lectures_by_section ON lectures(site_id, section_id, position);
CREATE INDEX lectures_by_course_section ON lectures(site_id, course_id, section_id, position);
CREATE INDEX lectures_locked ON lectures(site_id, course_id) WHERE is_locked = 1;
`;
