import { isTransientErrorCode } from '../common/errors';
import type { SiteSummary, SyncRunSummary } from '../common/view-models';
import type { DesktopServices } from './desktop/desktop-services';
import type { Logger } from './log';
import type { SiteManager } from './sites/site-manager';
import type { SyncService } from './sync/service';

/**
 * When the sites are synced: at start, on the settings' interval, when the network comes back, and
 * on demand (a sign-in, the menu, sync:now). It also keeps the online state: a run or a replay that
 * could not reach its site marks the app offline, and while offline the sites are probed until one
 * answers.
 */

const DEFAULT_OFFLINE_PROBE_MS = 30_000;

export interface SyncSchedulerDeps {
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
  /**
   * Runs before the startup sync, once the window shows (the offline database's integrity check).
   */
  readonly beforeStartupSync?: () => Promise<void>;
  /**
   * Work due with time rather than with a sync (reminders), every 5 "minutes" (minuteMs), online or
   * not.
   */
  readonly onTick?: () => Promise<void>;
}

/** In minutes: an "hour before" reminder comes at most this late. */
const TICK_MINUTES = 5;

export type SyncSchedulerOptions = SyncSchedulerDeps;

export interface SyncScheduler {
  isOnline(): boolean;
  setOnline(online: boolean): void;
  /**
   * Keeps probing while offline or while a sign-out waits for its site (also when no site is signed
   * in).
   */
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

/**
 * The schedule (see above) as a part: the online state and its probe, the interval, the reminders'
 * tick and the startup sync. Its timers start when it is made and stop at close().
 */
export class SiteSyncScheduler implements SyncScheduler {
  readonly #deps: SyncSchedulerDeps;
  #online = true;
  #closed = false;
  #autoTimer: NodeJS.Timeout | null = null;
  #probeTimer: NodeJS.Timeout | null = null;
  readonly #tick: NodeJS.Timeout | null;
  readonly #startupSync: NodeJS.Timeout;

  constructor(deps: SyncSchedulerDeps) {
    this.#deps = deps;
    this.reschedule();
    const { onTick, log } = deps;
    this.#tick = onTick
      ? setInterval(
          () => void onTick().catch((error: unknown) => log.warn('timed work failed', { error })),
          TICK_MINUTES * this.#minuteMs,
        )
      : null;
    this.#tick?.unref();
    // Shortly after start, once the window shows: the check, then a sync. The offline data is shown
    // at once and refreshed behind it.
    this.#startupSync = setTimeout(
      () =>
        void (deps.beforeStartupSync?.() ?? Promise.resolve()).then(() => this.syncAll('startup')),
      1000,
    );
    this.#startupSync.unref();
  }

  get #minuteMs(): number {
    return this.#deps.minuteMs ?? 60_000;
  }

  isOnline(): boolean {
    return this.#online;
  }

  setOnline(next: boolean): void {
    if (next === this.#online) return;
    this.#online = next;
    this.#deps.onOnlineChange(next);
    if (next) {
      this.#stopProbing();
      // The network is back: send what was queued and refresh every site.
      void this.syncAll('network-back');
    } else {
      this.startProbing();
    }
  }

  startProbing(): void {
    if (this.#probeTimer || this.#closed) return;
    this.#probeTimer = setInterval(
      () => void this.#probe(),
      this.#deps.offlineProbeMs ?? DEFAULT_OFFLINE_PROBE_MS,
    );
    this.#probeTimer.unref();
  }

  async runSync(siteId: string): Promise<SyncRunSummary> {
    const { sites, sync, desktop } = this.#deps;
    // Counted as work under way: an update never restarts the app in the middle of it.
    const summary = await desktop.track(sync.syncNow(siteId));
    const synced = summary.outcome === 'completed' || summary.outcome === 'partial';
    if (synced) {
      sites.setMissingScopes(siteId, summary.missingScopes);
      this.setOnline(true);
    } else if (summary.error && isTransientErrorCode(summary.error.code)) {
      this.setOnline(false);
    }
    this.#deps.onRunEnded(siteId);
    const site = sites.getSite(siteId);
    if (site && synced) await this.#deps.afterSync(site);
    return summary;
  }

  async syncAll(reason: string): Promise<SyncRunSummary[]> {
    if (this.#closed) return [];
    const { sites, log } = this.#deps;
    log.info('syncing every signed-in site', { reason });
    // Queued sign-outs ride on the same beat (RFC 7009: revoke as soon as the site can be reached).
    void sites
      .retryPendingRevocations()
      .catch((error: unknown) => log.warn('retrying revocations failed', { error }));
    const results = await Promise.allSettled(readySites(sites).map((s) => this.runSync(s.id)));
    return results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  }

  reschedule(): void {
    if (this.#autoTimer) clearInterval(this.#autoTimer);
    this.#autoTimer = null;
    const minutes = this.#deps.autoSyncMinutes();
    if (this.#closed || minutes <= 0) return;
    this.#autoTimer = setInterval(() => void this.syncAll('schedule'), minutes * this.#minuteMs);
    this.#autoTimer.unref();
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#startupSync);
    if (this.#tick) clearInterval(this.#tick);
    if (this.#autoTimer) clearInterval(this.#autoTimer);
    this.#stopProbing();
  }

  #stopProbing(): void {
    if (this.#probeTimer) clearInterval(this.#probeTimer);
    this.#probeTimer = null;
  }

  #signOutPending(): boolean {
    return this.#deps.sites.list().some((s) => s.status === 'sign-out-pending');
  }

  async #probe(): Promise<void> {
    const { sites, sync, log } = this.#deps;
    // A sign-out queued while the site was unreachable is sent as soon as it answers (RFC 7009),
    // even when no signed-in site is left to probe with.
    if (this.#signOutPending())
      await sites
        .retryPendingRevocations()
        .catch((error: unknown) => log.warn('retrying revocations failed', { error }));
    for (const site of readySites(sites)) {
      if (await sync.probe(site.id).catch(() => false)) return this.setOnline(true);
    }
    if (this.#online && !this.#signOutPending()) this.#stopProbing();
  }
}

export function createSyncScheduler(deps: SyncSchedulerDeps): SyncScheduler {
  return new SiteSyncScheduler(deps);
}

/**
 * The schedule as the parts made before it reach it. Settings, the sync service and the desktop
 * services call the schedule back (an interval changed, a replay found the site gone, the machine
 * woke), and the scheduler needs them to be made first; they get this link, and app-core.ts
 * connects the scheduler to it once it is made. A call before that is refused with an error that
 * names the link.
 */
export class ScheduleLink implements Pick<SyncScheduler, 'reschedule' | 'setOnline' | 'syncAll'> {
  #scheduler: SyncScheduler | null = null;

  connect(scheduler: SyncScheduler): void {
    if (this.#scheduler) throw new Error('The schedule link is connected already.');
    this.#scheduler = scheduler;
  }

  reschedule(): void {
    this.#connected().reschedule();
  }

  setOnline(online: boolean): void {
    this.#connected().setOnline(online);
  }

  syncAll(reason: string): Promise<SyncRunSummary[]> {
    return this.#connected().syncAll(reason);
  }

  #connected(): SyncScheduler {
    if (!this.#scheduler) throw new Error('The sync schedule was reached before it was made.');
    return this.#scheduler;
  }
}
