import {
  Bell,
  CircleUserRound,
  Headset,
  House,
  LibraryBig,
  NotebookPen,
  Plus,
  Receipt,
  Settings,
  Sun,
  Ticket,
  type LucideIcon,
} from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { UnreadBadge } from '../features/notifications/index';
import { useApp } from '../state/context';
import type { SimpleScreen } from '../state/routes';

const SITE_SCREENS: readonly { screen: SimpleScreen; key: string; icon: LucideIcon }[] = [
  { screen: 'today', key: 'nav.today', icon: Sun },
  { screen: 'library', key: 'nav.library', icon: LibraryBig },
  { screen: 'notes', key: 'nav.notes', icon: NotebookPen },
  { screen: 'notifications', key: 'nav.notifications', icon: Bell },
  { screen: 'billing', key: 'nav.billing', icon: Receipt },
  { screen: 'entitlements', key: 'nav.entitlements', icon: Ticket },
  { screen: 'consulting', key: 'nav.consulting', icon: Headset },
  { screen: 'profile', key: 'nav.profile', icon: CircleUserRound },
];

export function Nav({ showSiteScreens }: { readonly showSiteScreens: boolean }) {
  const { t } = useTranslation();
  const { route, navigate, site } = useApp();
  // Without a signed-in site the one home item (the welcome or sign-in screen) stands for Today and
  // the library alike.
  const current =
    route.screen === 'course' || (!showSiteScreens && route.screen === 'today')
      ? 'library'
      : route.screen;
  const item = (screen: SimpleScreen, key: string, Icon: LucideIcon) => (
    <li key={screen}>
      <button
        type="button"
        className="nav-item"
        aria-current={current === screen ? 'page' : undefined}
        onClick={() => navigate({ screen })}
        data-testid={`nav-${screen}`}
        // The label is hidden in a narrow window; the tooltip keeps it discoverable for pointer
        // users.
        title={t(key)}
      >
        <span className="nav-icon">
          <Icon />
        </span>
        <span className="nav-label">{t(key)}</span>
        {screen === 'notifications' && site && (
          <UnreadBadge siteId={site.id} testId="unread-badge" />
        )}
      </button>
    </li>
  );
  return (
    <nav className="sidebar" aria-label={t('nav.label')}>
      <ul>
        {showSiteScreens && SITE_SCREENS.map((s) => item(s.screen, s.key, s.icon))}
        {!showSiteScreens && item('library', 'nav.home', House)}
      </ul>
      <ul className="nav-bottom">
        {site && item('add-site', 'nav.addSite', Plus)}
        {item('settings', 'nav.settings', Settings)}
      </ul>
    </nav>
  );
}
