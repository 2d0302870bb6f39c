/**
 * 003: the course detail reads one course's lectures in section order. With only (site_id,
 * course_id) the planner preferred walking every lecture of the site in (section_id, position)
 * order to skip a sort; this index answers the query exactly (found by the view benchmark on the
 * large seed, test/bench/sync.bench.ts).
 */
export const version = 3;
export const name = '003-view-indexes';
export const sql = /* sql */ `
CREATE INDEX lectures_by_course_section ON lectures(site_id, course_id, section_id, position);
DROP INDEX lectures_by_course;
`;
