/**
 * 002: full-text search (SQLite FTS5, https://sqlite.org/fts5.html) over course, section and
 * lecture titles and notifications (title + body). One index for every site; `site_id` is an
 * UNINDEXED column every query filters on. The rows already stored are indexed here, so a database
 * synced by version 1 searches at once.
 */
export const version = 2;
export const name = '002-search';
export const sql = /* sql */ `
CREATE VIRTUAL TABLE search_index USING fts5(
  title,
  body,
  site_id UNINDEXED,
  kind UNINDEXED,
  item_id UNINDEXED,
  course_id UNINDEXED,
  tokenize = 'unicode61 remove_diacritics 2'
);

INSERT INTO search_index (title, body, site_id, kind, item_id, course_id)
  SELECT title, '', site_id, 'course', id, id FROM courses;
INSERT INTO search_index (title, body, site_id, kind, item_id, course_id)
  SELECT title, '', site_id, 'section', id, course_id FROM sections;
INSERT INTO search_index (title, body, site_id, kind, item_id, course_id)
  SELECT title, '', site_id, 'lecture', id, course_id FROM lectures;
INSERT INTO search_index (title, body, site_id, kind, item_id, course_id)
  SELECT title, body, site_id, 'notification', id, NULL FROM notifications;
`;
