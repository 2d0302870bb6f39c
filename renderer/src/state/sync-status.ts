import type { UseQueryOptions } from '@tanstack/react-query';
import type { SiteStatusView, SyncStatus } from '../../../electron/common/view-models';
import { useLiveState } from './live-state';
import { useChannel } from '../query';

/** Before the core has answered: nothing is claimed (no green, no failure). */
const UNKNOWN: SiteStatusView = { state: 'ok', tone: 'busy', reason: null, lastSyncedAt: null };

/**
 * The site's sync status with the live progress and network events folded in, and its one status
 * view (the core's sync/site-status.ts): the status bar, the banners and the header chip all read
 * `view` from here, so they agree.
 */
export function useSyncStatus(siteId: string) {
  // Events drive the updates; polling is the safety net (faster while a run is on or nothing was
  // synced yet).
  return useFoldedStatus(siteId, {
    staleTime: 5_000,
    refetchInterval: (q) =>
      q.state.data?.running || q.state.data?.lastSyncedAt === null ? 2_000 : 30_000,
  });
}

type StatusQueryOptions = Omit<UseQueryOptions<SyncStatus, Error>, 'queryKey' | 'queryFn'>;

function useFoldedStatus(siteId: string, options: StatusQueryOptions) {
  const live = useLiveState();
  const status = useChannel('sync:status', { siteId }, options);
  const progress = live.sync[siteId];
  const running = progress ? progress.running : (status.data?.running ?? false);
  const online = live.online ?? status.data?.online ?? true;
  const core = status.data?.view ?? UNKNOWN;
  // A run the live events report before the status is read again: shown as syncing (a sign-in
  // needed still wins).
  const view: SiteStatusView =
    running && core.state !== 'needs-sign-in'
      ? { ...core, state: 'syncing', tone: 'busy', reason: null }
      : !running && core.state === 'syncing'
        ? { ...core, state: 'ok', tone: 'busy' }
        : core;
  return { status, progress: progress?.running ? progress : null, running, online, view };
}

/**
 * Whether an action that needs the school (open its page, resume a lecture, book) can work now: the
 * computer has a network and this school answered at its last contact, as its one status view says.
 * Every such button on every screen asks this (OpenOnSite), so the course page never offers what
 * Today and My courses refuse.
 */
export function useSchoolReachable(siteId: string): boolean {
  // No polling of its own: a screen may hold a hundred of these, and the status bar's query already
  // refreshes.
  const { online, view } = useFoldedStatus(siteId, { staleTime: 5_000 });
  const browserOnline = typeof navigator === 'undefined' || navigator.onLine !== false;
  return online && browserOnline && view.state !== 'offline' && view.state !== 'not-answering';
}

/**
 * The short word of a status (the header chip); `ok` is said by the caller (the site's sign-in
 * state).
 */
export function statusChipKey(state: Exclude<SiteStatusView['state'], 'ok'>): string {
  switch (state) {
    case 'syncing':
      return 'siteStatus.chip.syncing';
    case 'offline':
      return 'siteStatus.chip.offline';
    case 'not-answering':
      return 'siteStatus.chip.notAnswering';
    case 'needs-sign-in':
      return 'siteStatus.chip.needsSignIn';
    case 'failed':
      return 'siteStatus.chip.failed';
  }
}

/** Why a status is not ok, in the status bar after the time of the last good sync. */
export function statusReasonKey(state: SiteStatusView['state']): string | null {
  switch (state) {
    case 'ok':
    case 'syncing':
      return null;
    case 'offline':
      return 'siteStatus.reason.offline';
    case 'not-answering':
      return 'siteStatus.reason.notAnswering';
    case 'needs-sign-in':
      return 'siteStatus.reason.needsSignIn';
    case 'failed':
      return 'siteStatus.reason.failed';
  }
}
