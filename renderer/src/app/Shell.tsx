import { GraduationCap } from 'lucide-react';
import { useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../api';
import { useChannel } from '../query';
import { ErrorBoundary } from '../ui/ErrorBoundary';
import { ErrorState } from '../ui/ErrorState';
import { Loading } from '../ui/states';
import { ScrollContext } from '../ui/VirtualList';
import { AppContext, type AppContextValue } from '../state/context';
import { ACTIVE_SITE_KEY, FIRST_ROUTE, hasOfflineData, pickSite } from '../state/opening';
import { Nav } from './Nav';
import { useRouteHistory } from '../state/history';
import { useWindowTitle } from '../state/window-title';
import { ScreenFallback } from './ScreenFallback';
import { ScreenView } from './ScreenView';
import { AppCommands } from '../features/desktop/index';
import { SearchBox } from '../features/search/index';
import { SiteSwitcher } from '../features/sites/index';
import { SiteBanners, StatusBar } from '../features/sync/index';
import { InviteListener } from '../features/invite/index';
import { AssistantRequests } from '../features/assistant/index';
import { useReleaseFirstScreen } from '../state/first-screen';
import { useScreenPlace } from '../state/screen-place';

/** A part of the frame that failed is left out; the screen and the navigation stay. */
const quiet = () => null;

export function Shell() {
  const { t } = useTranslation();
  const sitesQuery = useChannel('sites:list', undefined);
  const sites = useMemo(() => sitesQuery.data ?? [], [sitesQuery.data]);
  const [chosen, setChosen] = useState<string | null>(() => localStorage.getItem(ACTIVE_SITE_KEY));
  // The page's storage is per origin (the browser host's changes with its port): the core keeps the
  // choice too.
  const saved =
    useChannel('settings:get', undefined, { staleTime: Infinity }).data?.lastSiteId ?? null;
  const mainRef = useRef<HTMLElement>(null);
  const site = pickSite(sites, chosen ?? saved);

  const selectSite = useCallback((siteId: string) => {
    localStorage.setItem(ACTIVE_SITE_KEY, siteId);
    setChosen(siteId);
    void call('settings:update', { lastSiteId: siteId }).catch(() => undefined);
  }, []);
  const { route, navigate, navigateFrom } = useRouteHistory(
    FIRST_ROUTE,
    site?.id ?? null,
    selectSite,
  );
  const routeDetail = route.screen === 'course' ? route.courseId : '';
  useWindowTitle(route);
  // The site list failed: its error shows, not the last session's frame.
  useReleaseFirstScreen(sitesQuery.isError);

  useScreenPlace(mainRef, route, site?.id ?? null);

  const value: AppContextValue = useMemo(
    () => ({ sites, site, selectSite, route, navigate, navigateFrom }),
    [sites, site, selectSite, route, navigate, navigateFrom],
  );

  const screenKey = `${route.screen}\u0000${routeDetail}\u0000${site?.id ?? ''}`;
  const hasData = site !== null && hasOfflineData(site);

  return (
    <AppContext.Provider value={value}>
      {/* The menu's, the keyboard's and the OS notifications' commands. */}
      <AppCommands />
      <InviteListener />
      <a className="skip-link" href="#main">
        {t('shell.skip')}
      </a>
      <div className="layout" data-has-site={site ? 'true' : 'false'}>
        <header className="topbar">
          <span className="brand">
            <span className="brand-mark" aria-hidden="true">
              <GraduationCap />
            </span>
            <span className="brand-name">{t('app.name')}</span>
          </span>
          <ErrorBoundary area="site-switcher" resetKey={site?.id ?? ''} fallback={quiet}>
            <SiteSwitcher />
          </ErrorBoundary>
          <span className="spacer" />
          {site && hasData && (
            <ErrorBoundary area="search-box" resetKey={site.id} fallback={quiet}>
              <SearchBox />
            </ErrorBoundary>
          )}
        </header>
        <Nav showSiteScreens={site !== null && hasData} />
        <ScrollContext.Provider value={mainRef}>
          <main id="main" ref={mainRef} tabIndex={-1} className="main">
            {site && hasData && (
              <ErrorBoundary area="site-banners" resetKey={site.id} fallback={quiet}>
                <SiteBanners />
              </ErrorBoundary>
            )}
            <ErrorBoundary area="assistant-requests" fallback={quiet}>
              <AssistantRequests />
            </ErrorBoundary>
            {sitesQuery.isPending ? (
              <Loading shape="cards" />
            ) : sitesQuery.isError && route.screen !== 'settings' ? (
              <ErrorState
                title={t('shell.sitesFailed')}
                error={sitesQuery.error}
                onRetry={() => void sitesQuery.refetch()}
              />
            ) : (
              // One boundary per screen and site: moving to another screen or site starts it over.
              <ErrorBoundary
                area="screen"
                resetKey={screenKey}
                fallback={(_error, reset) => <ScreenFallback onRetry={reset} />}
              >
                <ScreenView hasData={hasData} />
              </ErrorBoundary>
            )}
          </main>
        </ScrollContext.Provider>
        <footer className="footer">
          {/* Until the site list has loaded, "no site" would be a guess. */}
          {site && hasData ? (
            <ErrorBoundary area="status-bar" resetKey={site.id} fallback={quiet}>
              <StatusBar />
            </ErrorBoundary>
          ) : sitesQuery.isPending ? null : (
            <span className="muted">
              {site ? t('shell.notSignedIn', { site: site.label }) : t('shell.noSite')}
            </span>
          )}
        </footer>
      </div>
    </AppContext.Provider>
  );
}
