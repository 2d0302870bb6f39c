import { assertNever } from '../../../electron/common/result';
import { BillingScreen } from '../features/billing/index';
import { ConsultingScreen } from '../features/consulting/index';
import { CourseScreen } from '../features/course/index';
import { EntitlementsScreen } from '../features/entitlements/index';
import { LibraryScreen } from '../features/library/index';
import { NotificationsScreen } from '../features/notifications/index';
import { NotesScreen } from '../features/notes/index';
import { ProfileScreen } from '../features/profile/index';
import { SearchScreen } from '../features/search/index';
import { SettingsScreen } from '../features/settings/index';
import { SiteSignInScreen, WelcomeScreen } from '../features/sites/index';
import { TodayScreen } from '../features/today/index';
import { useApp } from '../state/context';
import { useReleaseFirstScreen } from '../state/first-screen';

/**
 * The routed screen. Site screens need a site with data; otherwise the welcome or sign-in screen
 * shows.
 */
export function ScreenView({ hasData }: { readonly hasData: boolean }) {
  const { route, site } = useApp();
  // Today releases the last session's frame itself, once it has its data; any other screen does at
  // once.
  useReleaseFirstScreen(route.screen !== 'today' || !site || !hasData);
  if (route.screen === 'settings') return <SettingsScreen />;
  if (route.screen === 'add-site')
    return (
      <WelcomeScreen first={site === null} {...(route.invite ? { invite: route.invite } : {})} />
    );
  if (!site) return <WelcomeScreen first />;
  if (!hasData) return <SiteSignInScreen site={site} />;
  switch (route.screen) {
    case 'today':
      return <TodayScreen />;
    case 'library':
      return <LibraryScreen />;
    case 'course':
      return (
        <CourseScreen
          courseId={route.courseId}
          highlight={
            route.lectureId
              ? `l:${route.lectureId}`
              : route.sectionId
                ? `s:${route.sectionId}`
                : undefined
          }
        />
      );
    case 'billing':
      return <BillingScreen {...(route.tradeNo ? { tradeNo: route.tradeNo } : {})} />;
    case 'entitlements':
      return <EntitlementsScreen highlight={route.itemId} />;
    case 'consulting':
      return <ConsultingScreen highlight={route.itemId} />;
    case 'notifications':
      return <NotificationsScreen highlight={route.itemId} />;
    case 'profile':
      return <ProfileScreen />;
    case 'search':
      return <SearchScreen route={route} />;
    case 'notes':
      return <NotesScreen route={route} />;
    default:
      return assertNever(route, 'route');
  }
}
