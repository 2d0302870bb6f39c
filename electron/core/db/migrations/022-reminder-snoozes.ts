/**
 * 030: reminders the student put off (an hour, or to tomorrow morning), from the notification or
 * from Today. One row per item: when its time comes the item is reminded of again, once, if it
 * still matters (a code not yet paid, an event not yet begun); the row then goes. With its site (ON
 * DELETE CASCADE). And when the reminders last ran.
 */
export const version = 22;
export const name = '022-reminder-snoozes';
export const sql = /* sql */ `
CREATE TABLE IF NOT EXISTS reminder_snoozes (
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  subject_id TEXT NOT NULL,
  until_ms INTEGER NOT NULL,
  snoozed_at TEXT NOT NULL,
  PRIMARY KEY (site_id, kind, subject_id)
) STRICT;
-- When the reminders last ran: a moment after it that is long past now came while the app was not running (late).
CREATE TABLE IF NOT EXISTS reminder_runs (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  last_run_ms INTEGER NOT NULL
) STRICT;
`;
