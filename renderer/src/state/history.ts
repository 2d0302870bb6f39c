import { useCallback, useEffect, useRef, useState } from 'react';
import { readEntry, replacesEntry, sameRoute, type HistoryEntry } from './history-entries';
import type { Route, Screen } from './routes';

/**
 * Back and Forward across the app's screens, on the page's own session history (history.pushState):
 * the browser host's Back button, Alt+Left/Right and the mouse's back and forward buttons all walk
 * it, and so does the Electron window (its keys and buttons are wired in
 * features/desktop/AppCommands). Each entry keeps the route and the site it was shown for. The URL
 * never changes: the bundle loads from app:// and from the loopback host alike.
 */

/** The route the app shows, moved by navigate() and by the history's Back and Forward. */
export function useRouteHistory(
  initial: Route,
  siteId: string | null,
  onSite: (siteId: string) => void,
) {
  const [route, setRoute] = useState<Route>(() => readEntry(history.state)?.route ?? initial);
  const current = useRef(route);
  const site = useRef(siteId);
  site.current = siteId;

  useEffect(() => {
    history.replaceState(
      { route: current.current, siteId: site.current } satisfies HistoryEntry,
      '',
    );
    const onPop = (e: PopStateEvent) => {
      const entry = readEntry(e.state);
      if (!entry) return;
      current.current = entry.route;
      setRoute(entry.route);
      if (entry.siteId && entry.siteId !== site.current) onSite(entry.siteId);
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [onSite]);

  // The site an entry belongs to is the one shown when it is left: a site chosen on a screen
  // updates its entry.
  useEffect(() => {
    history.replaceState({ route: current.current, siteId } satisfies HistoryEntry, '');
  }, [siteId]);

  const navigate = useCallback((next: Route) => {
    if (sameRoute(current.current, next)) return;
    const entry: HistoryEntry = { route: next, siteId: site.current };
    if (replacesEntry(current.current, next)) history.replaceState(entry, '');
    else history.pushState(entry, '');
    current.current = next;
    setRoute(next);
  }, []);

  const navigateFrom = useCallback(
    (from: Screen, next: Route) => {
      if (current.current.screen === from) navigate(next);
    },
    [navigate],
  );

  return { route, navigate, navigateFrom };
}
