/**
 * The `downloads:*` channels: the renderer names a site and a product, never an address or a path
 * (the address comes from the synced offline data, the path from the manifest). Opening never runs
 * a file: the inline types are served by the app itself, anything else is shown in its folder
 * (Electron) or located (browser host).
 */
import type { CoreHandlers } from '../../common/ipc-contract';
import type { OpenOutcome } from '../../common/downloads';
import type { DownloadManager } from '../downloads/manager';

type DownloadChannel = Extract<keyof CoreHandlers, `downloads:${string}`>;

export interface DownloadHandlersDeps {
  readonly manager: DownloadManager;
  /** Throws not-found for a site that is not in the list. */
  readonly requireSite: (siteId: string) => unknown;
  readonly siteIds: () => string[];
  /**
   * Electron's shell.showItemInFolder; null where the host cannot show a folder (the browser host).
   */
  readonly showInFolder: ((path: string) => void | Promise<void>) | null;
}

export function createDownloadHandlers(
  deps: DownloadHandlersDeps,
): Pick<CoreHandlers, DownloadChannel> {
  const { manager } = deps;
  return {
    'downloads:list': async ({ siteId }) => {
      deps.requireSite(siteId);
      // The products screen asks for this: a "Save" may follow.
      void manager.prepare(siteId).catch(() => false);
      return manager.list(siteId);
    },
    'downloads:save': async ({ siteId, productId, confirmLarge }) => {
      deps.requireSite(siteId);
      return await manager.save(
        siteId,
        productId,
        confirmLarge === undefined ? {} : { confirmLarge },
      );
    },
    'downloads:pause': async ({ siteId, productId }) => (
      deps.requireSite(siteId),
      await manager.pause(siteId, productId)
    ),
    'downloads:cancel': async ({ siteId, productId }) => (
      deps.requireSite(siteId),
      await manager.cancel(siteId, productId)
    ),
    'downloads:remove': async ({ siteId, productId }) => (
      deps.requireSite(siteId),
      await manager.remove(siteId, productId)
    ),
    'downloads:remove-all': async ({ siteId }) => {
      const targets = siteId === undefined ? deps.siteIds() : (deps.requireSite(siteId), [siteId]);
      // "Remove all" also turns "keep every product offline" off: otherwise the next sync brings it
      // all back.
      for (const id of targets) await manager.removeSite(id, { forgetSetting: true });
    },
    'downloads:open': async ({ siteId, productId }) => {
      deps.requireSite(siteId);
      const found = await manager.locate(siteId, productId);
      let outcome: OpenOutcome;
      if (found.viewAs)
        outcome = { kind: 'view', url: found.url, viewAs: found.viewAs, name: found.name };
      else if (deps.showInFolder) {
        await deps.showInFolder(found.path);
        outcome = { kind: 'shown-in-folder', path: found.path };
      } else outcome = { kind: 'located', path: found.path };
      return outcome;
    },
    'downloads:storage': async () => manager.storage(deps.siteIds()),
    'downloads:set-keep-all': async ({ siteId, keepAll }) => {
      deps.requireSite(siteId);
      await manager.setKeepAll(siteId, keepAll);
      return manager.storage(deps.siteIds());
    },
  };
}
