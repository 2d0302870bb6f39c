import type { SiteSummary, SiteStatusView, SyncStatus } from '../../common/view-models';

/**
 * A site's one status, from what the core knows of it: its sign-in, the run under way, how it
 * answered at its last contact (net/reachability.ts) and the last run's failure. The status bar,
 * the banners and the header chip all render this view, so they can never disagree (no green
 * "Synced" beside a banner saying otherwise).
 *
 * The order is the order of what the student must know first: a sign-in only they can fix, then a
 * run under way, then no network at all, then the school not answering, then any other failure of
 * the last run.
 */
export function siteStatusView(
  site: Pick<SiteSummary, 'status'> | null,
  status: Omit<SyncStatus, 'view'>,
): SiteStatusView {
  const lastSyncedAt = status.lastSyncedAt;
  const error = status.lastError;
  // Signed out (its copy kept) is a sign-in only the student can give too: never a green "Synced"
  // under that banner.
  if (
    site?.status === 'sign-in-needed' ||
    site?.status === 'sign-out-unconfirmed' ||
    site?.status === 'signed-out' ||
    error?.code === 'sign-in-needed'
  ) {
    return {
      state: 'needs-sign-in',
      tone: 'danger',
      reason: { code: 'sign-in-needed', message: error?.message ?? '' },
      lastSyncedAt,
    };
  }
  if (status.running) return { state: 'syncing', tone: 'busy', reason: null, lastSyncedAt };
  if (status.reach === 'offline')
    return {
      state: 'offline',
      tone: 'warning',
      reason: error ?? { code: 'network-unavailable', message: '' },
      lastSyncedAt,
    };
  if (status.reach === 'not-answering') {
    return {
      state: 'not-answering',
      tone: 'warning',
      reason: error ?? { code: 'site-unreachable', message: '' },
      lastSyncedAt,
    };
  }
  // A cancelled run is the student's own choice, not a failure: the saved copy stands as it was.
  if (error && error.code !== 'sync-cancelled')
    return { state: 'failed', tone: 'danger', reason: error, lastSyncedAt };
  return { state: 'ok', tone: 'ok', reason: null, lastSyncedAt };
}
