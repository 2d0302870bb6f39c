import type { CoreHandlers } from '../../common/ipc-contract';
import { getUnseenChanges } from '../db/index';
import type { AppServices } from './services';

/** "Since you last looked" on Today: the change record's unseen rows, and marking them seen. */
export function createChangeHandlers(
  s: Pick<AppServices, 'db' | 'writer' | 'sites' | 'clock'>,
): Pick<CoreHandlers, 'changes:unseen' | 'changes:mark-seen'> {
  const siteIds = () => s.sites.list().map((site) => site.id);
  return {
    'changes:unseen': async () => getUnseenChanges(s.db, siteIds()),
    'changes:mark-seen': async ({ upTo, siteId }) => ({
      seen: await s.writer.call('changes:mark-seen', {
        siteIds: siteId === undefined ? siteIds() : [siteId],
        upTo,
        now: new Date(s.clock.now()).toISOString(),
      }),
    }),
  };
}
