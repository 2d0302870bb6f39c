import { createContext, useContext } from 'react';
import type { SiteSummary } from '../../../electron/common/view-models';
import type { Route } from './routes';

export interface AppContextValue {
  readonly sites: readonly SiteSummary[];
  /** The site the screens show, or null before any site is added. */
  readonly site: SiteSummary | null;
  readonly selectSite: (siteId: string) => void;
  readonly route: Route;
  readonly navigate: (route: Route) => void;
  /**
   * Navigates only if the user is still on `from` (e.g. after a sign-in started there finishes).
   */
  readonly navigateFrom: (from: Route['screen'], to: Route) => void;
}

export const AppContext = createContext<AppContextValue | null>(null);

export function useApp(): AppContextValue {
  const value = useContext(AppContext);
  if (!value) throw new Error('useApp outside the app shell');
  return value;
}

/** For screens that only render with a site. */
export function useSite(): SiteSummary {
  const { site } = useApp();
  if (!site) throw new Error('useSite without a site');
  return site;
}
