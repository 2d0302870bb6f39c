/**
 * 010: the lectures still locked in the saved copy, indexed by themselves (a partial index: a
 * handful of rows among tens of thousands). The Today home asks which of them opened since the last
 * sync on every read; without it that read scanned every lecture of every site.
 */
export const version = 10;
export const name = '010-locked-lectures';
export const sql = /* sql */ `
CREATE INDEX lectures_locked ON lectures(site_id, course_id) WHERE is_locked = 1;
`;
