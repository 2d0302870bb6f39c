/**
 * 013: when the app first saw each lecture completed, the history the weekly summary and the
 * active-weeks streak are counted from. The service sends a lecture's state but no time for it
 * (service-spec "Lecture": title, state, isLocked, unlockAt, duration), so the time is the app's
 * own: the sync that first found the lecture completed stamps it (seen_ms, epoch ms; NULL between
 * the commit and the run's record, read as "now").
 *
 * A lecture already completed when the app first synced the courses, or when this migration runs,
 * is a baseline row: completed at a time nobody knows, so it counts in no week, and it is not
 * counted again later.
 */
export const version = 13;
export const name = '013-lecture-completions';
export const sql = /* sql */ `
CREATE TABLE lecture_completions (
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  lecture_id TEXT NOT NULL,
  course_id TEXT NOT NULL,
  duration INTEGER NOT NULL,        -- seconds, the lecture's length when it was seen completed
  baseline INTEGER NOT NULL,        -- 1: already completed before the app's history began
  seen_at TEXT,                     -- ISO 8601, the sync that first saw it completed
  seen_ms INTEGER,
  PRIMARY KEY (site_id, lecture_id)
) STRICT;
CREATE INDEX lecture_completions_by_time ON lecture_completions(site_id, seen_ms) WHERE baseline = 0;
INSERT INTO lecture_completions (site_id, lecture_id, course_id, duration, baseline, seen_at, seen_ms)
  SELECT site_id, id, course_id, max(duration, 0), 1, NULL, NULL FROM lectures WHERE state = 'completed';
`;
