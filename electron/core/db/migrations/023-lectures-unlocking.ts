/**
 * 031: the lectures still locked with a date, read alone. The calendar feed lists the unlocks ahead
 * and the plan places them; without this every lecture of every school was read to find the few
 * locked ones.
 */
export const version = 23;
export const name = '023-lectures-unlocking';
export const sql = /* sql */ `
CREATE INDEX IF NOT EXISTS lectures_unlocking ON lectures(unlock_at) WHERE is_locked = 1 AND unlock_at IS NOT NULL;
`;
