import { isTransientErrorCode } from '../common/errors';
import type { SiteSummary, SyncRunSummary } from '../common/view-models';
import type { DesktopServices } from './desktop/desktop-services';
import type { Logger } from './log';
import type { SiteManager } from './sites/site-manager';
import type { SyncService } from './sync/service';

/**
 * When the sites are synced: at start, on the settings' interval, when the network comes back, and on demand
 * (a sign-in, the menu, sync:now). It also keeps the online state: a run or a replay that could not reach its
 * site marks the app offline, and while offline the sites are probed until one answers.
 */

const DEFAULT_OFFLINE_PROBE_MS = 30_000;

export interface SyncSchedulerOptions {
  readonly sites: Pick<
    SiteManager,
    'list' | 'getSite' | 'retryPendingRevocations' | 'setMissingScopes'
  >;
  readonly sync: Pick<SyncService, 'syncNow' | 'probe'>;
  /** Runs are work under way: an update never restarts the app in the middle of one. */
  readonly desktop: Pick<DesktopServices, 'track'>;
  /** settings.autoSyncMinutes, read each time the schedule is set. */
  readonly autoSyncMinutes: () => number;
  /** While offline, how often the sites are probed to notice the network is back (default 30 s). */
  readonly offlineProbeMs?: number;
  /** Length of the "minute" of autoSyncMinutes (default 60 000; tests shorten it). */
  readonly minuteMs?: number;
  readonly log: Logger;
  /** The online state changed (`network:changed`). */
  readonly onOnlineChange: (online: boolean) => void;
  /** A run ended: the site list shows its lastSyncedAt and missing scopes. */
  readonly onRunEnded: (siteId: string) => void;
  /** A run completed (or partly): what follows a sync (notifications, saved product files). */
  readonly afterSync: (site: SiteSummary) => Promise<void>;
  /** Runs before the startup sync, once the window shows (the offline database's integrity check). */
  readonly beforeStartupSync?: () => Promise<void>;
  /** Work due with time rather than with a sync (reminders), every 5 "minutes" (minuteMs), online or not. */
  readonly onTick?: () => Promise<void>;
}

/** In minutes: an "hour before" reminder comes at most this late. */
const TICK_MINUTES = 5;

export interface SyncScheduler {
  isOnline(): boolean;
  setOnline(online: boolean): void;
  /** Keeps probing while offline or while a sign-out waits for its site (also when no site is signed in). */
  startProbing(): void;
  runSync(siteId: string): Promise<SyncRunSummary>;
  syncAll(reason: string): Promise<SyncRunSummary[]>;
  /** The interval changed: set the schedule again. */
  reschedule(): void;
  close(): void;
}

export function readySites(sites: Pick<SiteManager, 'list'>): SiteSummary[] {
  return sites.list().filter((s) => s.status === 'ready');
}

export function createSyncScheduler(options: SyncSchedulerOptions): SyncScheduler {
  const { sites, sync, desktop, log } = options;
  let online = true;
  let closed = false;
  let autoTimer: NodeJS.Timeout | null = null;
  let probeTimer: NodeJS.Timeout | null = null;

  function setOnline(next: boolean): void {
    if (next === online) return;
    online = next;
    options.onOnlineChange(online);
    if (online) {
      stopProbing();
      // The network is back: send what was queued and refresh every site.
      void syncAll('network-back');
    } else {
      startProbing();
    }
  }

  function startProbing(): void {
    if (probeTimer || closed) return;
    probeTimer = setInterval(
      () => void probe(),
      options.offlineProbeMs ?? DEFAULT_OFFLINE_PROBE_MS,
    );
    probeTimer.unref();
  }
  function stopProbing(): void {
    if (probeTimer) clearInterval(probeTimer);
    probeTimer = null;
  }
  const signOutPending = () => sites.list().some((s) => s.status === 'sign-out-pending');
  async function probe(): Promise<void> {
    // A sign-out queued while the site was unreachable is sent as soon as it answers (RFC 7009), even when no
    // signed-in site is left to probe with.
    if (signOutPending())
      await sites
        .retryPendingRevocations()
        .catch((error: unknown) => log.warn('retrying revocations failed', { error }));
    for (const site of readySites(sites)) {
      if (await sync.probe(site.id).catch(() => false)) return setOnline(true);
    }
    if (online && !signOutPending()) stopProbing();
  }

  async function runSync(siteId: string): Promise<SyncRunSummary> {
    // Counted as work under way: an update never restarts the app in the middle of it.
    const summary = await desktop.track(sync.syncNow(siteId));
    if (summary.outcome === 'completed' || summary.outcome === 'partial') {
      sites.setMissingScopes(siteId, summary.missingScopes);
      setOnline(true);
    } else if (summary.error && isTransientErrorCode(summary.error.code)) {
      setOnline(false);
    }
    options.onRunEnded(siteId);
    const synced = sites.getSite(siteId);
    if (synced && (summary.outcome === 'completed' || summary.outcome === 'partial'))
      await options.afterSync(synced);
    return summary;
  }

  async function syncAll(reason: string): Promise<SyncRunSummary[]> {
    if (closed) return [];
    log.info('syncing every signed-in site', { reason });
    // Queued sign-outs ride on the same beat (RFC 7009: revoke as soon as the site can be reached).
    void sites
      .retryPendingRevocations()
      .catch((error: unknown) => log.warn('retrying revocations failed', { error }));
    const results = await Promise.allSettled(readySites(sites).map((s) => runSync(s.id)));
    return results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  }

  function reschedule(): void {
    if (autoTimer) clearInterval(autoTimer);
    autoTimer = null;
    const minutes = options.autoSyncMinutes();
    if (closed || minutes <= 0) return;
    autoTimer = setInterval(() => void syncAll('schedule'), minutes * (options.minuteMs ?? 60_000));
    autoTimer.unref();
  }
  reschedule();
  const tick = options.onTick
    ? setInterval(
        () =>
          void options.onTick!().catch((error: unknown) =>
            log.warn('timed work failed', { error }),
          ),
        TICK_MINUTES * (options.minuteMs ?? 60_000),
      )
    : null;
  tick?.unref();
  // Shortly after start, once the window shows: the check, then a sync. The offline data is shown at once and
  // refreshed behind it.
  const startupSync = setTimeout(
    () => void (options.beforeStartupSync?.() ?? Promise.resolve()).then(() => syncAll('startup')),
    1000,
  );
  startupSync.unref();

  return {
    isOnline: () => online,
    setOnline,
    startProbing,
    runSync,
    syncAll,
    reschedule,
    close() {
      closed = true;
      clearTimeout(startupSync);
      if (tick) clearInterval(tick);
      if (autoTimer) clearInterval(autoTimer);
      stopProbing();
    },
  };
}
