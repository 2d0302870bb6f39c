import type { DemoFaultsView } from '../../common/demo-faults';
import { NO_DEMO_FAULTS } from '../../common/demo-faults';
import type { CoreHandlers } from '../../common/ipc-contract';
import type { DemoServers } from '../demo/demo-servers';
import { CoreError } from '../errors';
import { readySites } from '../sync-scheduler';
import type { AppServices } from './services';

/** The demo's fault panel: switch faults on the demo sites, rotate their signing keys. */
export type DemoHandlersDeps = Pick<AppServices, 'demo' | 'sites' | 'scheduler' | 'log'>;

export function createDemoHandlers(
  s: DemoHandlersDeps,
): Pick<CoreHandlers, 'demo:faults' | 'demo:set-faults' | 'demo:rotate-signing-key'> {
  const { demo } = s;
  let signingKeyRotations = 0;
  function requireDemo(): DemoServers {
    if (!demo)
      throw new CoreError('forbidden', 'The demo is not available in this version of the app.');
    return demo;
  }
  function demoFaultsView(): DemoFaultsView {
    return {
      running: demo?.running ?? false,
      faults: demo?.faults() ?? NO_DEMO_FAULTS,
      signingKeyRotations,
    };
  }
  /**
   * After a switch, the demo sites are synced at once so the student sees the effect now, not at
   * the next interval.
   */
  function syncDemoSitesSoon(): void {
    for (const site of readySites(s.sites).filter((site) => site.isDemo)) {
      void s.scheduler
        .runSync(site.id)
        .catch((error: unknown) =>
          s.log.warn('sync after a demo fault change failed', { siteId: site.id, error }),
        );
    }
  }
  return {
    'demo:faults': async () => (requireDemo(), demoFaultsView()),
    'demo:set-faults': async (patch) => {
      requireDemo().setFaults(patch);
      syncDemoSitesSoon();
      return demoFaultsView();
    },
    'demo:rotate-signing-key': async () => {
      const rotated = await requireDemo().rotateSigningKeys();
      if (rotated === 0) throw new CoreError('forbidden', 'The demo sites are not running.');
      signingKeyRotations++;
      return demoFaultsView();
    },
  };
}
