import type { IsoDateTime, SiteId } from './base';

/** A sync: its progress, its status, the summary of a run. */

export type SyncPhase =
  | 'idle'
  | 'profile'
  | 'courses'
  | 'digital-products'
  | 'consulting'
  | 'events'
  | 'payments'
  | 'notifications'
  | 'committing'
  | 'outbox';

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
  /**
   * Parts too long to keep whole, of which the last good sync kept the newest `kept` items (the
   * notices of a long history).
   */
  readonly keptNewest?: readonly KeptNewest[];
  /** Outbox entries not yet accepted by the site. */
  readonly pendingChanges: number;
  /** Outbox entries the site refused (shown to the user). */
  readonly failedChanges: readonly {
    readonly id: string;
    readonly description: string;
    readonly error: string;
  }[];
  readonly online: boolean;
  /**
   * How the site stood at its last contact (core/net/reachability.ts has the rule): answering, not
   * answering (the school's trouble), offline (this computer has no network), or unknown before the
   * first contact.
   */
  readonly reach: SiteReach;
  /** The one status the status bar, the banners and the header chip all render. */
  readonly view: SiteStatusView;
}

/** A part of which only the newest items were kept: more pages than the app reads in one sync. */
export interface KeptNewest {
  readonly part: string;
  readonly kept: number;
}

export type SiteReach = 'unknown' | 'answering' | 'not-answering' | 'offline';

export type SiteStatusState =
  'ok' | 'syncing' | 'offline' | 'not-answering' | 'needs-sign-in' | 'failed';

/** A site's status in one word and a colour, with its reason and the time of the last good sync. */
export interface SiteStatusView {
  readonly state: SiteStatusState;
  /**
   * green, a sync under way, amber (the school or the network is away; the saved copy stands), red
   * (you must act, or it broke).
   */
  readonly tone: 'ok' | 'busy' | 'warning' | 'danger';
  /** Why it is not ok: the error code and message of the failure (null when ok or syncing). */
  readonly reason: { readonly code: string; readonly message: string } | null;
  readonly lastSyncedAt: IsoDateTime | null;
}

export interface SyncRunSummary {
  readonly siteId: SiteId;
  readonly startedAt: IsoDateTime;
  readonly finishedAt: IsoDateTime;
  readonly outcome: 'completed' | 'partial' | 'failed' | 'cancelled';
  readonly counts: Readonly<Record<string, number>>;
  readonly missingScopes: readonly string[];
  /** The parts of which only the newest items were kept (see SyncStatus). */
  readonly keptNewest?: readonly KeptNewest[];
  readonly error: { readonly code: string; readonly message: string } | null;
}
