import type { CoreHandlers } from '../../common/ipc-contract';
import type { SiteSummary } from '../../common/view-models';
import { DEMO_CLIENT_ID, DEMO_SITE_KEYS } from '../demo/demo-servers';
import { CoreError } from '../errors';
import { requireSite, type AppServices } from './services';

type SiteChannel =
  | 'sites:list'
  | 'sites:check'
  | 'sites:add'
  | 'sites:add-demo'
  | 'sites:sign-in'
  | 'sites:cancel-sign-in'
  | 'sites:sign-out'
  | 'sites:remove';

export type SiteHandlersDeps = Pick<
  AppServices,
  | 'sites'
  | 'sync'
  | 'scheduler'
  | 'desktop'
  | 'demo'
  | 'downloads'
  | 'writer'
  | 'firstScreen'
  | 'emit'
  | 'log'
>;

/** Deletes what the app keeps of a site: its saved first frame, saved files and offline data. */
async function dropOfflineData(
  s: Pick<SiteHandlersDeps, 'sync' | 'firstScreen' | 'downloads' | 'writer' | 'emit'>,
  siteId: string,
): Promise<void> {
  s.sync.cancel(siteId);
  // First: the saved first frame shows this data too, and must not outlive it even if what follows
  // fails.
  await s.firstScreen.forget();
  try {
    await s.downloads.removeSite(siteId, { forgetSetting: true });
  } catch (cause) {
    throw new CoreError(
      'storage-error',
      'The saved files of this site could not be deleted.',
      undefined,
      { cause },
    );
  }
  try {
    await s.writer.call('site:remove', { siteId });
  } catch (cause) {
    throw new CoreError(
      'storage-error',
      'The offline data of this site could not be deleted.',
      undefined,
      { cause },
    );
  }
  s.emit('data:changed', { siteId });
}

/** Starts the demo's servers and adds each of its sites. */
async function addDemoSites({ sites, demo }: Pick<SiteHandlersDeps, 'sites' | 'demo'>) {
  if (!demo)
    throw new CoreError('forbidden', 'Demo mode is not available in this version of the app.');
  let origins;
  try {
    origins = await demo.start();
  } catch (cause) {
    throw new CoreError(
      'server-unavailable',
      'The demo site could not be started. Restart the app and try again.',
      undefined,
      { cause },
    );
  }
  const added: SiteSummary[] = [];
  for (const key of DEMO_SITE_KEYS) {
    added.push(
      await sites.add({
        baseUrl: origins[key],
        clientId: DEMO_CLIENT_ID,
        isDemo: true,
        label: demo.label(key),
      }),
    );
  }
  return added;
}

/** Add, sign in, sign out and remove sites; the offline data of a site goes with it when asked. */
export function createSiteHandlers(s: SiteHandlersDeps): Pick<CoreHandlers, SiteChannel> {
  const { sites, sync, desktop, demo, scheduler, log } = s;
  return {
    'sites:list': async () => sites.list(),
    'sites:check': async ({ baseUrl }) => sites.describe(baseUrl),
    'sites:add': async (input) =>
      sites.add({
        baseUrl: input.baseUrl,
        clientId: input.clientId,
        ...(input.clientSecret !== undefined ? { clientSecret: input.clientSecret } : {}),
      }),
    'sites:add-demo': () => addDemoSites(s),
    'sites:sign-in': async ({ siteId }) => {
      requireSite(s, siteId);
      const site = await sites.signIn(siteId);
      scheduler.setOnline(true);
      // First data right after the sign-in; sync:now called meanwhile joins this run.
      void scheduler
        .runSync(siteId)
        .catch((error: unknown) => log.warn('sync after sign-in failed', { siteId, error }));
      return site;
    },
    'sites:cancel-sign-in': async ({ siteId }) => {
      requireSite(s, siteId);
      sites.cancelSignIn(siteId);
    },
    'sites:sign-out': async ({ siteId, removeData }) => {
      requireSite(s, siteId);
      sync.cancel(siteId);
      const result = await desktop.track(sites.signOut(siteId));
      if (removeData) await dropOfflineData(s, siteId);
      // Queued: keep asking the site, not only at the next sync interval.
      if (result.pending) scheduler.startProbing();
      return result;
    },
    'sites:remove': async ({ siteId }) => {
      requireSite(s, siteId);
      sync.cancel(siteId);
      await desktop.track(sites.remove(siteId));
      await dropOfflineData(s, siteId);
      await desktop.notifier.forget(siteId);
      // The last demo site is gone: its servers have nothing left to serve (add-demo starts them
      // again).
      if (demo?.running && !sites.list().some((site) => site.isDemo)) await demo.stop();
    },
  };
}
