import { forgetShortTerms } from './search';
import { prepared } from './statements';
import { changingViews } from './view-cache';
import type { AnyDB, ReadableDB, WritableDB } from './handles';

/**
 * Every stored row belongs to a site; the auth/sites module keeps the site's configuration, we keep
 * its id.
 */
export function ensureSite(db: WritableDB, siteId: string, now: Date = new Date()): void {
  prepared<{ id: string; createdAt: string }>(
    db,
    'INSERT INTO sites (id, created_at) VALUES (@id, @createdAt) ON CONFLICT (id) DO NOTHING',
  ).run({
    id: siteId,
    createdAt: now.toISOString(),
  });
}

/**
 * Deletes the site and, through ON DELETE CASCADE, all its offline data, outbox and sync history.
 */
export function removeSiteData(db: WritableDB, siteId: string): void {
  changingViews(
    db,
    siteId,
    'all',
    db.transaction(() => {
      // FTS5 tables take no foreign keys: clear the site's search rows explicitly. The short-term
      // grams index is dropped whole (a contentless table cannot delete one site's rows cheaply):
      // the student asked for this site's data to go, so nothing derived from its text stays; the
      // other sites' rows are scanned until re-indexed.
      prepared<{ siteId: string }>(db, 'DELETE FROM search_index WHERE site_id = @siteId').run({
        siteId,
      });
      forgetShortTerms(db);
      prepared<{ siteId: string }>(db, 'DELETE FROM sites WHERE id = @siteId').run({ siteId });
    }),
  );
}

export function listSiteIds(db: ReadableDB): string[] {
  return prepared<void, { id: string }>(db, 'SELECT id FROM sites ORDER BY id')
    .all()
    .map((r) => r.id);
}

export function hasSite(db: AnyDB, siteId: string): boolean {
  return (
    prepared<{ siteId: string }>(db, 'SELECT 1 FROM sites WHERE id = @siteId').get({ siteId }) !==
    undefined
  );
}
