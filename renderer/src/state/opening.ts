import type { QueryClient } from '@tanstack/react-query';
import type { SiteSummary } from '../../../electron/common/view-models';
import { call } from '../api';
import { channelKey } from '../query';
import { readEntry } from './history-entries';
import type { Route } from './routes';

/** The site the student last chose (per window origin), so the app opens on it. */
export const ACTIVE_SITE_KEY = 'learning-desktop.active-site';

/**
 * The site the screens show: the one chosen last if it is still listed, else the first signed-in
 * one, else the first.
 */
export function pickSite(sites: readonly SiteSummary[], chosen: string | null): SiteSummary | null {
  return (
    sites.find((s) => s.id === chosen) ??
    sites.find((s) => s.status === 'ready') ??
    sites[0] ??
    null
  );
}

/**
 * The screen the app opens on once signed in: Today (what to do next, every school); the library is
 * one click away.
 */
export const FIRST_ROUTE: Route = { screen: 'today' };

/** Whether a site has offline data to show (the shell shows its screens, Today first). */
export function hasOfflineData(site: SiteSummary): boolean {
  return site.status === 'ready' || site.lastSyncedAt !== null || site.status === 'sign-in-needed';
}

/**
 * The library's first page, as LibraryScreen's useChannelPages asks for it (same key, same first
 * page).
 */
export const LIBRARY_FIRST_PAGE = 50;

/**
 * The library's choices when the app opens: the prefetch below and LibraryScreen start from the
 * same ones.
 */
export const LIBRARY_OPENING_CHOICES = { filter: 'all', sort: 'service' } as const;

/**
 * Asks for what the first screen shows before React has rendered anything (the window's strings
 * load meanwhile):
 * the site list, and the first screen's data. That screen is Today, unless the page is reloaded on
 * another one (its history entry names it): Today reads every school at once and waits for nothing;
 * the library reads the site the app will open on, so the site chosen last is asked for at once,
 * and only when the list names another one is that one asked for next. The screens then find their
 * data in the query cache (or on its way).
 */
export function prefetchOpeningScreen(
  client: QueryClient,
  chosen: string | null = localStorage.getItem(ACTIVE_SITE_KEY),
  route: Route = readEntry(history.state)?.route ?? FIRST_ROUTE,
): void {
  if (route.screen === 'today')
    void client.prefetchQuery({
      queryKey: channelKey('today:get'),
      queryFn: () => call('today:get'),
    });
  const library = (siteId: string) =>
    void client.prefetchInfiniteQuery({
      queryKey: channelKey('library:page', { siteId, ...LIBRARY_OPENING_CHOICES }),
      queryFn: ({ pageParam }) =>
        call('library:page', { siteId, ...LIBRARY_OPENING_CHOICES, ...pageParam }),
      initialPageParam: { offset: 0, limit: LIBRARY_FIRST_PAGE },
    });
  const wantsLibrary = route.screen === 'library';
  if (wantsLibrary && chosen !== null) library(chosen);
  client.fetchQuery({ queryKey: channelKey('sites:list'), queryFn: () => call('sites:list') }).then(
    (sites) => {
      const site = pickSite(sites, chosen);
      if (wantsLibrary && site && site.id !== chosen && hasOfflineData(site)) library(site.id);
    },
    // The shell asks again and shows the error.
    () => undefined,
  );
}
