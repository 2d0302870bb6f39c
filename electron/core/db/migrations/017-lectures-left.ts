/**
 * 017: what is left of a course (lectures not completed, their length) read from an index alone.
 * The progress summary's paces and the course views count a course's open lectures and sum their
 * durations; through lectures_by_course_section every lecture's row was read from the table (29 ms
 * of the window's first progress call at the large seed, linear in the data); with state and
 * duration in the index the count never leaves it (4 ms).
 */
export const version = 17;
export const name = '017-lectures-left';
export const sql = /* sql */ `
CREATE INDEX IF NOT EXISTS lectures_left ON lectures(site_id, course_id, state, duration);
`;
