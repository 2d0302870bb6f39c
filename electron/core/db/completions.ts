import type { Database } from 'better-sqlite3';
import { prepared } from './statements';

/**
 * Writes of lecture_completions (013-lecture-completions), called from the courses' replace in the
 * commit's transaction: the first commit of a site's courses has no "before", so what is completed
 * then is the baseline.
 */
export function isFirstCoursesCommit(db: Database, siteId: string): boolean {
  return (
    prepared<{ siteId: string }, { n: number }>(
      db,
      "SELECT count(*) AS n FROM sync_parts WHERE site_id = @siteId AND part = 'courses'",
    ).get({
      siteId,
    })!.n === 0
  );
}

/**
 * Lectures completed now and not before get their row, unstamped: the run's record stamps it with
 * the sync's time (sync-runs.ts). A lecture completed earlier keeps its first row (one reset and
 * completed again counts once).
 */
export function recordCompletions(db: Database, siteId: string, baseline: boolean): void {
  prepared<{ siteId: string; baseline: number }>(
    db,
    `INSERT OR IGNORE INTO lecture_completions (site_id, lecture_id, course_id, duration, baseline)
     SELECT site_id, id, course_id, max(duration, 0), @baseline FROM lectures WHERE site_id = @siteId AND state = 'completed'`,
  ).run({ siteId, baseline: baseline ? 1 : 0 });
}

/** Stamps the rows a good run's commit added with the run's time (the sync's clock). */
export function stampCompletions(db: Database, siteId: string, finishedAt: string): void {
  const ms = Date.parse(finishedAt);
  if (!Number.isFinite(ms)) return;
  prepared<{ siteId: string; at: string; ms: number }>(
    db,
    'UPDATE lecture_completions SET seen_at = @at, seen_ms = @ms WHERE site_id = @siteId AND seen_ms IS NULL AND baseline = 0',
  ).run({ siteId, at: new Date(ms).toISOString(), ms });
}
