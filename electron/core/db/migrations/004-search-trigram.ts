/**
 * 004: the search index moves to the FTS5 trigram tokenizer
 * (https://sqlite.org/fts5.html#the_trigram_tokenizer). unicode61 splits on spaces, so a Chinese
 * title such as 個人理財入門 was one token and 理財 could not be found; the demo sites are bilingual
 * (zh-TW). Trigrams match any substring of three or more characters in every script; shorter terms
 * are matched with LIKE on the same table (search.ts). The rows are re-indexed from the tables.
 */
export const version = 4;
export const name = '004-search-trigram';
export const sql = /* sql */ `
DROP TABLE search_index;
CREATE VIRTUAL TABLE search_index USING fts5(
  title,
  body,
  site_id UNINDEXED,
  kind UNINDEXED,
  item_id UNINDEXED,
  course_id UNINDEXED,
  tokenize = 'trigram remove_diacritics 1'
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
