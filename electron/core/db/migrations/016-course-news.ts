/**
 * 016: lectures a course gained at a sync, until the student opens the course (db/course-news.ts).
 * Not a column of `courses`: a sync rewrites that table whole, and the count must outlive the
 * rewrite. No foreign key to `courses` for the same reason; rows of a course gone from the saved
 * copy are dropped at the next rewrite.
 */
export const version = 16;
export const name = '016-course-news';
export const sql = /* sql */ `
CREATE TABLE IF NOT EXISTS course_news (
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  course_id TEXT NOT NULL,
  new_lectures INTEGER NOT NULL CHECK (new_lectures > 0),
  PRIMARY KEY (site_id, course_id)
) STRICT;
`;
