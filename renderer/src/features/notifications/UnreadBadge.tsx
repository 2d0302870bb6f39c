import { useTranslation } from 'react-i18next';
import { useChannel } from '../../query';

/**
 * Unread notices of one site as a badge, read from the site's offline copy; nothing when there are
 * none. `lead`: what screen readers hear before the count (", " after a site's name in the site
 * menu).
 */
export function UnreadBadge({
  siteId,
  testId,
  lead = '',
}: {
  readonly siteId: string;
  readonly testId: string;
  readonly lead?: string;
}) {
  const { t } = useTranslation();
  const count = useChannel('notifications:summary', { siteId }).data?.unreadCount ?? 0;
  if (count === 0) return null;
  return (
    <span className="badge" data-testid={testId}>
      <span aria-hidden="true">{count > 99 ? '99+' : count}</span>
      <span className="visually-hidden">
        {lead}
        {t('notifications.unreadCount', { count })}
      </span>
    </span>
  );
}
