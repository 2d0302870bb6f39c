/**
 * 020: the student's own notes and bookmarks at a moment of a lecture (db/notes.ts). Kept only on
 * this computer: the school's API has no notes. No foreign key to `sites` or `lectures`: a sync
 * rewrites the lectures whole, a school renames or removes them, and a site removed may keep its
 * notes when the student says so. A note therefore carries what it needs to be shown and opened
 * without them: the school's name and address, the course's title and slug, the section's and
 * lecture's titles and the lecture's place as they were when it was written (the views prefer the
 * saved copy's current ones while the lecture is there).
 *
 * `search_text` is the note's title and text in the search index's one form (search/normalize.ts),
 * matched through `notes_search`, an FTS5 trigram index over it (external content: the text is
 * stored once, in `notes`), kept in step by the triggers. A deleted note is kept with `deleted_at`
 * for a moment, so it can be put back.
 */
export const version = 20;
export const name = '020-notes';
export const sql = /* sql */ `
CREATE TABLE notes (
  id INTEGER PRIMARY KEY,
  site_id TEXT NOT NULL,
  course_id TEXT NOT NULL,
  lecture_id TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('note', 'bookmark')),
  position_seconds INTEGER NOT NULL CHECK (position_seconds >= 0),
  title TEXT NOT NULL,
  body TEXT NOT NULL,
  school TEXT NOT NULL,
  site_url TEXT NOT NULL,
  course_title TEXT NOT NULL,
  course_slug TEXT NOT NULL,
  section_title TEXT NOT NULL,
  lecture_title TEXT NOT NULL,
  lecture_ord INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  deleted_at TEXT,
  search_text TEXT NOT NULL
) STRICT;
CREATE INDEX notes_newest ON notes(created_at DESC, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX notes_of_site ON notes(site_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX notes_of_course ON notes(site_id, course_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX notes_deleted ON notes(deleted_at) WHERE deleted_at IS NOT NULL;
CREATE VIRTUAL TABLE notes_search USING fts5(
  search_text,
  content = 'notes',
  content_rowid = 'id',
  tokenize = 'trigram remove_diacritics 1'
);
CREATE TRIGGER notes_search_insert AFTER INSERT ON notes BEGIN
  INSERT INTO notes_search (rowid, search_text) VALUES (new.id, new.search_text);
END;
CREATE TRIGGER notes_search_delete AFTER DELETE ON notes BEGIN
  INSERT INTO notes_search (notes_search, rowid, search_text) VALUES ('delete', old.id, old.search_text);
END;
CREATE TRIGGER notes_search_update AFTER UPDATE OF search_text ON notes BEGIN
  INSERT INTO notes_search (notes_search, rowid, search_text) VALUES ('delete', old.id, old.search_text);
  INSERT INTO notes_search (rowid, search_text) VALUES (new.id, new.search_text);
END;
`;
