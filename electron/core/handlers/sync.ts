import type { CoreHandlers } from '../../common/ipc-contract';
import { requireSite, type AppServices } from './services';

/** Sync a site now, cancel its run, read its status. */
export function createSyncHandlers(s: AppServices): Pick<CoreHandlers, 'sync:now' | 'sync:cancel' | 'sync:status'> {
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
      requireSite(s, siteId);
      return s.sync.status(siteId);
    },
  };
}
