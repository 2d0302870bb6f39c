import type { IsoDateTime, SiteId } from './base';

/** A sync: its progress, its status, the summary of a run. */

export type SyncPhase =
  'idle' | 'profile' | 'courses' | 'digital-products' | 'consulting' | 'events' | 'payments' | 'notifications' | 'committing' | 'outbox';

export interface SyncProgress {
  readonly siteId: SiteId;
  readonly running: boolean;
  readonly phase: SyncPhase;
  readonly pagesFetched: number;
  readonly itemsFetched: number;
  /** 0..1 when the total is known, else null. */
  readonly fraction: number | null;
}

export interface SyncStatus {
  readonly siteId: SiteId;
  readonly running: boolean;
  readonly lastSyncedAt: IsoDateTime | null;
  readonly lastAttemptAt: IsoDateTime | null;
  /** The last run's failure, if it failed. */
  readonly lastError: { readonly code: string; readonly message: string } | null;
  /** Scopes the server refused; the rest was synced. */
  readonly missingScopes: readonly string[];
  /** Outbox entries not yet accepted by the site. */
  readonly pendingChanges: number;
  /** Outbox entries the site refused (shown to the user). */
  readonly failedChanges: readonly { readonly id: string; readonly description: string; readonly error: string }[];
  readonly online: boolean;
}

export interface SyncRunSummary {
  readonly siteId: SiteId;
  readonly startedAt: IsoDateTime;
  readonly finishedAt: IsoDateTime;
  readonly outcome: 'completed' | 'partial' | 'failed' | 'cancelled';
  readonly counts: Readonly<Record<string, number>>;
  readonly missingScopes: readonly string[];
  readonly error: { readonly code: string; readonly message: string } | null;
}
