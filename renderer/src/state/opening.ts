import type { QueryClient } from '@tanstack/react-query';
import type { SiteSummary } from '../../../electron/common/view-models';
import { call } from '../api';
import { channelKey } from '../query';

/** The site the student last chose (per window origin), so the app opens on it. */
export const ACTIVE_SITE_KEY = 'learning-desktop.active-site';

/** The site the screens show: the one chosen last if it is still listed, else the first signed-in one, else the first. */
export function pickSite(sites: readonly SiteSummary[], chosen: string | null): SiteSummary | null {
  return sites.find((s) => s.id === chosen) ?? sites.find((s) => s.status === 'ready') ?? sites[0] ?? null;
}

/** Whether a site has offline data to show (the shell shows its screens, the library first). */
export function hasOfflineData(site: SiteSummary): boolean {
  return site.status === 'ready' || site.lastSyncedAt !== null || site.status === 'sign-in-needed';
}

/** The library's first page, as LibraryScreen's useChannelPages asks for it (same key, same first page). */
export const LIBRARY_FIRST_PAGE = 50;

/** The library's choices when the app opens: the prefetch below and LibraryScreen start from the same ones. */
export const LIBRARY_OPENING_CHOICES = { filter: 'all', sort: 'service' } as const;

/**
 * Asks for what the first screen shows before React has rendered anything (the window's strings load meanwhile):
 * the site list, and the library's first page of the site the app will open on. The library does not wait for the
 * site list: the site chosen last is asked for at once, and only when the list names another one is that one asked
 * for next. The screens then find both in the query cache (or on their way).
 */
export function prefetchOpeningScreen(client: QueryClient, chosen: string | null = localStorage.getItem(ACTIVE_SITE_KEY)): void {
  const library = (siteId: string) =>
    void client.prefetchInfiniteQuery({
      queryKey: channelKey('library:page', { siteId, ...LIBRARY_OPENING_CHOICES }),
      queryFn: ({ pageParam }) => call('library:page', { siteId, ...LIBRARY_OPENING_CHOICES, ...pageParam }),
      initialPageParam: { offset: 0, limit: LIBRARY_FIRST_PAGE },
    });
  if (chosen !== null) library(chosen);
  client.fetchQuery({ queryKey: channelKey('sites:list'), queryFn: () => call('sites:list') }).then(
    (sites) => {
      const site = pickSite(sites, chosen);
      if (site && site.id !== chosen && hasOfflineData(site)) library(site.id);
    },
    // The shell asks again and shows the error.
    () => undefined,
  );
}
