/**
 * 015: a course's display-only fields in one JSON column, as payments keep their line items: a
 * field the sync asks for that no column holds is kept there whole (course-display.ts), so such a
 * field needs no migration of its own. Rows written before hold none ('{}'): a field added to the
 * query changes the courses' digest, so the next sync rewrites them.
 */
export const version = 15;
export const name = '015-course-display';
export const sql = /* sql */ `
ALTER TABLE courses ADD COLUMN display TEXT NOT NULL DEFAULT '{}';
`;
