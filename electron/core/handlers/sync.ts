import type { CoreHandlers } from '../../common/ipc-contract';
import { siteStatusView } from '../sync/site-status';
import type { SyncScheduler } from '../sync-scheduler';
import type { SyncService } from '../sync/service';
import { requireSite, type SiteLookup } from './services';

/** Sync a site now, cancel its run, read its status. */
export interface SyncHandlersDeps extends SiteLookup {
  readonly sync: Pick<SyncService, 'cancel' | 'status'>;
  readonly scheduler: Pick<SyncScheduler, 'runSync'>;
}

export function createSyncHandlers(
  s: SyncHandlersDeps,
): Pick<CoreHandlers, 'sync:now' | 'sync:cancel' | 'sync:status'> {
  return {
    'sync:now': async ({ siteId }) => {
      requireSite(s, siteId);
      return s.scheduler.runSync(siteId);
    },
    'sync:cancel': async ({ siteId }) => {
      requireSite(s, siteId);
      s.sync.cancel(siteId);
    },
    'sync:status': async ({ siteId }) => {
      const site = requireSite(s, siteId);
      const status = s.sync.status(siteId);
      return { ...status, view: siteStatusView(site, status) };
    },
  };
}
