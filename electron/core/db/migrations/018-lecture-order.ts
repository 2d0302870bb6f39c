/**
 * 018: a lecture's place in its course (`ord`: sections by position, then lectures by position,
 * 1-based), written by the sync with the lecture. A course card's next step needs only four
 * lectures of its course: the first, the last watched, the first not completed and the first not
 * completed after the last watched (db/next-step.ts). Without a stored order, finding them meant
 * reading and sorting every lecture of every course on the page through the sections join: 2,571
 * rows and 6 ms for a page of 50 courses at the large seed, 11 ms of the library page's 12, on the
 * thread that paints. With `ord` each is one step down an index.
 *
 * Rows already here are numbered as the views ordered them (section position, lecture position; the
 * order rows were written breaks a tie), so a database from before this migration shows the same
 * next steps.
 */
export const version = 18;
export const name = '018-lecture-order';
export const sql = /* sql */ `
ALTER TABLE lectures ADD COLUMN ord INTEGER NOT NULL DEFAULT 0;
UPDATE lectures SET ord = numbered.n
  FROM (SELECT l.site_id, l.id,
               row_number() OVER (PARTITION BY l.site_id, l.course_id ORDER BY s.position, s.rowid, l.position, l.rowid) AS n
          FROM lectures l JOIN sections s ON s.site_id = l.site_id AND s.id = l.section_id) AS numbered
 WHERE lectures.site_id = numbered.site_id AND lectures.id = numbered.id;
CREATE INDEX lectures_in_order ON lectures(site_id, course_id, ord);
CREATE INDEX lectures_to_do ON lectures(site_id, course_id, ord) WHERE state <> 'completed';
`;
