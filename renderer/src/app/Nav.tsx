import { useTranslation } from 'react-i18next';
import { useChannel } from '../query';
import { useApp } from './context';
import type { SimpleScreen } from './routes';

const SITE_SCREENS: readonly { screen: SimpleScreen; key: string; icon: string }[] = [
  { screen: 'library', key: 'nav.library', icon: '▦' },
  { screen: 'notifications', key: 'nav.notifications', icon: '✉' },
  { screen: 'billing', key: 'nav.billing', icon: '¤' },
  { screen: 'entitlements', key: 'nav.entitlements', icon: '◈' },
  { screen: 'consulting', key: 'nav.consulting', icon: '☏' },
  { screen: 'profile', key: 'nav.profile', icon: '☺' },
];

function UnreadBadge({ siteId }: { readonly siteId: string }) {
  const { t } = useTranslation();
  const q = useChannel('notifications:summary', { siteId });
  const count = q.data?.unreadCount ?? 0;
  if (count === 0) return null;
  return (
    <span className="badge" data-testid="unread-badge">
      <span aria-hidden="true">{count > 99 ? '99+' : count}</span>
      <span className="visually-hidden">{t('notifications.unreadCount', { count })}</span>
    </span>
  );
}

export function Nav({ showSiteScreens }: { readonly showSiteScreens: boolean }) {
  const { t } = useTranslation();
  const { route, navigate, site } = useApp();
  const current = route.screen === 'course' ? 'library' : route.screen;
  const item = (screen: SimpleScreen, key: string, icon: string) => (
    <li key={screen}>
      <button
        type="button"
        className="nav-item"
        aria-current={current === screen ? 'page' : undefined}
        onClick={() => navigate({ screen })}
        data-testid={`nav-${screen}`}
      >
        <span className="nav-icon" aria-hidden="true">
          {icon}
        </span>
        <span className="nav-label">{t(key)}</span>
        {screen === 'notifications' && site && <UnreadBadge siteId={site.id} />}
      </button>
    </li>
  );
  return (
    <nav className="sidebar" aria-label={t('nav.label')}>
      <ul>
        {showSiteScreens && SITE_SCREENS.map((s) => item(s.screen, s.key, s.icon))}
        {!showSiteScreens && item('library', 'nav.home', '⌂')}
      </ul>
      <ul className="nav-bottom">
        {site && item('add-site', 'nav.addSite', '+')}
        {item('settings', 'nav.settings', '⚙')}
      </ul>
    </nav>
  );
}
