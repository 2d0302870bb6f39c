import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSite } from '../../app/context';
import { useChannel, useChannelMutation } from '../../query';
import { ErrorState } from '../../ui/ErrorState';
import { EmptyState, Loading, ScreenHeader } from '../../ui/states';
import { useNow } from '../../ui/useNow';
import { VirtualList } from '../../ui/VirtualList';
import { NotificationRow } from './NotificationRow';
import { Subscriptions } from './Subscriptions';

export function NotificationsScreen() {
  const { t } = useTranslation();
  const site = useSite();
  const now = useNow(60_000);
  const q = useChannel('notifications:list', { siteId: site.id });
  const markRead = useChannelMutation('notifications:mark-read');
  const markAll = useChannelMutation('notifications:mark-all-read');
  const [onlyUnread, setOnlyUnread] = useState(false);
  const [showSettings, setShowSettings] = useState(false);
  const items = useMemo(() => (q.data?.items ?? []).filter((n) => !onlyUnread || n.readAt === null), [q.data, onlyUnread]);
  const canWrite = !site.missingScopes.includes('account:write');

  return (
    <div className="screen">
      <ScreenHeader title={t('notifications.title')}>
        <button type="button" className="button" aria-expanded={showSettings} aria-controls="subscriptions-panel" onClick={() => setShowSettings((v) => !v)} data-testid="subscriptions-toggle">
          {t('notifications.subscriptions.button')}
        </button>
        {q.data && q.data.items.length > 0 && (
          <>
            <label className="toggle">
              <input type="checkbox" checked={onlyUnread} onChange={(e) => setOnlyUnread(e.target.checked)} /> {t('notifications.onlyUnread')}
            </label>
            <button
              type="button"
              className="button"
              disabled={q.data.unreadCount === 0 || markAll.isPending || !canWrite}
              onClick={() => markAll.mutate({ siteId: site.id })}
              data-testid="mark-all-read"
            >
              {t('notifications.markAllRead')}
            </button>
          </>
        )}
      </ScreenHeader>
      {q.isPending ? (
        <Loading />
      ) : q.isError ? (
        <ErrorState title={t('notifications.loadFailed')} error={q.error} onRetry={() => void q.refetch()} />
      ) : (
        <>
          <p className="muted count-line" role="status" data-testid="unread-summary">
            {t('notifications.unreadCount', { count: q.data.unreadCount })}
          </p>
          {showSettings && <Subscriptions siteId={site.id} subscriptions={q.data.subscriptions} />}
          {(markRead.error ?? markAll.error) && <ErrorState error={markRead.error ?? markAll.error} compact />}
          {items.length === 0 ? (
            <EmptyState title={onlyUnread ? t('notifications.emptyUnread') : t('notifications.empty')} icon="✉" />
          ) : (
            <VirtualList
              items={items}
              estimateSize={110}
              gap={8}
              getKey={(n) => n.id}
              label={t('notifications.listLabel')}
              testId="notification-list"
              render={(n) => (
                <NotificationRow
                  n={n}
                  now={now}
                  busy={!canWrite || (markRead.isPending && markRead.variables?.notificationId === n.id)}
                  onMarkRead={() => markRead.mutate({ siteId: site.id, notificationId: n.id })}
                />
              )}
            />
          )}
        </>
      )}
    </div>
  );
}
