import type { SyncRunSummary, SyncStatus } from '../../common/view-models';
import { stampCompletions } from './completions';
import { countPending, failedEntries } from './outbox';
import { hasSite } from './sites';
import { json, prepared } from './statements';
import { changingViews } from './view-cache';
import type { ReadableDB, WritableDB } from './handles';

/**
 * Records a finished run. A site removed meanwhile is not brought back (its history went with it).
 */
export function recordSyncRun(db: WritableDB, summary: SyncRunSummary): void {
  changingViews(db, summary.siteId, [], () => {
    if (!hasSite(db, summary.siteId)) return;
    prepared<Record<string, unknown>>(
      db,
      `INSERT INTO sync_runs (site_id, started_at, finished_at, outcome, counts, missing_scopes, error_code, error_message)
       VALUES (@siteId, @startedAt, @finishedAt, @outcome, @counts, @missingScopes, @errorCode, @errorMessage)`,
    ).run({
      siteId: summary.siteId,
      startedAt: summary.startedAt,
      finishedAt: summary.finishedAt,
      outcome: summary.outcome,
      counts: json(summary.counts),
      missingScopes: json(summary.missingScopes),
      errorCode: summary.error?.code ?? null,
      errorMessage: summary.error?.message ?? null,
    });
    // A good run stamps the lectures its commit first found completed with its time
    // (013-lecture-completions).
    if (summary.outcome === 'completed' || summary.outcome === 'partial')
      stampCompletions(db, summary.siteId, summary.finishedAt);
    // Keep a short history.
    prepared<{ siteId: string }>(
      db,
      'DELETE FROM sync_runs WHERE site_id = @siteId AND id NOT IN (SELECT id FROM sync_runs WHERE site_id = @siteId ORDER BY id DESC LIMIT 50)',
    ).run({ siteId: summary.siteId });
  });
}

interface RunRow {
  started_at: string;
  finished_at: string;
  outcome: SyncRunSummary['outcome'];
  counts: string;
  missing_scopes: string;
  error_code: string | null;
  error_message: string | null;
}

export interface StoredSyncState {
  readonly lastSyncedAt: string | null;
  readonly lastAttemptAt: string | null;
  readonly lastError: { readonly code: string; readonly message: string } | null;
  readonly missingScopes: readonly string[];
  readonly lastRun: SyncRunSummary | null;
}

/** What the sync history says about a site (SyncStatus without the live parts). */
export function getStoredSyncState(db: ReadableDB, siteId: string): StoredSyncState {
  const last = prepared<{ siteId: string }, RunRow>(
    db,
    'SELECT * FROM sync_runs WHERE site_id = @siteId ORDER BY id DESC LIMIT 1',
  ).get({ siteId });
  const lastGood = prepared<{ siteId: string }, { finished_at: string; missing_scopes: string }>(
    db,
    "SELECT finished_at, missing_scopes FROM sync_runs WHERE site_id = @siteId AND outcome IN ('completed', 'partial') ORDER BY id DESC LIMIT 1",
  ).get({ siteId });
  const lastRun: SyncRunSummary | null = last
    ? {
        siteId,
        startedAt: last.started_at,
        finishedAt: last.finished_at,
        outcome: last.outcome,
        counts: JSON.parse(last.counts) as Record<string, number>,
        missingScopes: JSON.parse(last.missing_scopes) as string[],
        error:
          last.error_code === null
            ? null
            : { code: last.error_code, message: last.error_message ?? '' },
      }
    : null;
  return {
    lastSyncedAt: lastGood?.finished_at ?? null,
    lastAttemptAt: last?.started_at ?? null,
    lastError:
      lastRun?.outcome === 'failed' || lastRun?.outcome === 'cancelled' ? lastRun.error : null,
    missingScopes: lastGood ? (JSON.parse(lastGood.missing_scopes) as string[]) : [],
    lastRun,
  };
}

/**
 * When the site last synced well (completed or partial), or null: the one source of a site
 * summary's lastSyncedAt.
 */
export function getLastSyncedAt(db: ReadableDB, siteId: string): string | null {
  return getStoredSyncState(db, siteId).lastSyncedAt;
}

/** The SyncStatus view: the stored history and outbox, plus what only the running service knows. */
export function getSyncStatus(
  db: ReadableDB,
  siteId: string,
  live: {
    readonly running: boolean;
    readonly online: boolean;
    readonly reach: SyncStatus['reach'];
  },
): Omit<SyncStatus, 'view'> {
  const stored = getStoredSyncState(db, siteId);
  return {
    siteId,
    running: live.running,
    lastSyncedAt: stored.lastSyncedAt,
    lastAttemptAt: stored.lastAttemptAt,
    lastError: stored.lastError,
    missingScopes: stored.missingScopes,
    pendingChanges: countPending(db, siteId),
    failedChanges: failedEntries(db, siteId).map((e) => ({
      id: String(e.id),
      description: e.description,
      error: e.lastError ?? '',
    })),
    online: live.online,
    reach: live.reach,
  };
}
