import type { EventName, IpcEvents } from '../../common/ipc-contract';
import type { SiteSummary } from '../../common/view-models';
import type { DemoServers } from '../demo/demo-servers';
import type { DesktopServices } from '../desktop/desktop-services';
import type { FirstScreenStore } from '../desktop/first-screen';
import type { DownloadManager } from '../downloads/manager';
import { CoreError } from '../errors';
import type { Logger } from '../log';
import type { LiveSettings } from '../settings/live-settings';
import type { SiteManager } from '../sites/site-manager';
import type { SyncScheduler } from '../sync-scheduler';
import type { SyncService } from '../sync/service';
import type { DbWriter } from '../worker/writer';
import type { ReadableDB } from '../db/index';

export type Emit = <E extends EventName>(event: E, payload: IpcEvents[E]) => void;

/** The services the composition root built, as the per-area handler modules use them. */
export interface AppServices {
  /** The main process's read-only connection: every view reads here. */
  readonly db: ReadableDB;
  readonly writer: DbWriter;
  readonly sites: SiteManager;
  readonly sync: SyncService;
  readonly scheduler: SyncScheduler;
  readonly desktop: DesktopServices;
  readonly downloads: DownloadManager;
  readonly demo: DemoServers | null;
  readonly settings: LiveSettings;
  /** The next cold start's first frame (desktop/first-screen.ts). */
  readonly firstScreen: FirstScreenStore;
  readonly clock: { now(): number };
  readonly log: Logger;
  readonly emit: Emit;
}

/** What a handler module needs of the site list to check the site a request names. */
export interface SiteLookup {
  readonly sites: Pick<SiteManager, 'getSite'>;
}

/**
 * The site a request names, or `not-found` (a renderer may ask about a site removed a moment ago).
 */
export function requireSite(services: SiteLookup, siteId: string): SiteSummary {
  const site = services.sites.getSite(siteId);
  if (!site)
    throw new CoreError('not-found', 'That site is not in your list. It may have been removed.');
  return site;
}
