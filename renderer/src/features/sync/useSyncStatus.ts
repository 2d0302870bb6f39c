import { useLiveState } from '../../state/live-state';
import { useChannel } from '../../query';

/** The site's sync status with the live progress and network events folded in. */
export function useSyncStatus(siteId: string) {
  const live = useLiveState();
  // Events drive the updates; polling is the safety net (faster while a run is on or nothing was synced yet).
  const status = useChannel(
    'sync:status',
    { siteId },
    {
      staleTime: 5_000,
      refetchInterval: (q) => (q.state.data?.running || q.state.data?.lastSyncedAt === null ? 2_000 : 30_000),
    },
  );
  const progress = live.sync[siteId];
  const running = progress ? progress.running : (status.data?.running ?? false);
  const online = live.online ?? status.data?.online ?? true;
  return { status, progress: progress?.running ? progress : null, running, online };
}
