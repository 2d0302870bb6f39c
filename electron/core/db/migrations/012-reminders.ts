/**
 * 012: what the reminders (db/reminders.ts) already said, so each one is said once.
 * - `reminder_sites`: when a site's reminders were first decided (its first sync). Whatever was
 *   already due then is what the student had at that sync: it is marked, never announced.
 * - `reminder_marks`: one row per reminder decided (announced, or marked in silence: switched off,
 *   or at the baseline). `due_at` is the instant the reminder is about (the access end, the event
 *   start, the unlock), part of the key: a course whose access is renewed, or an event moved, is
 *   reminded of again for its new date.
 * Both go with their site (ON DELETE CASCADE).
 */
export const version = 12;
export const name = '012-reminders';
export const sql = /* sql */ `
CREATE TABLE IF NOT EXISTS reminder_sites (
  site_id TEXT PRIMARY KEY REFERENCES sites(id) ON DELETE CASCADE,
  baseline_at TEXT NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS reminder_marks (
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  subject_id TEXT NOT NULL,
  threshold TEXT NOT NULL,
  due_at TEXT NOT NULL,
  marked_at TEXT NOT NULL,
  announced INTEGER NOT NULL,
  PRIMARY KEY (site_id, kind, subject_id, threshold, due_at)
) STRICT;
`;
