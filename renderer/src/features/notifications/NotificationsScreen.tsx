import { BellOff } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { readNoticeLink } from '../../../../electron/common/notice-links';
import type { NoticeTarget, NotificationView } from '../../../../electron/common/view-models';
import { useApp, useSite } from '../../state/context';
import { useChannel, useChannelMutation, useChannelPages } from '../../query';
import { ErrorState } from '../../ui/ErrorState';
import { EmptyState, Loading, ScreenHeader } from '../../ui/states';
import { useNow } from '../../ui/useNow';
import { PagedList } from '../../ui/PagedList';
import { NotificationRow } from './NotificationRow';
import { Subscriptions } from './Subscriptions';

const noticeKey = (n: NotificationView) => n.id;

/**
 * Counts and subscriptions from the summary; the notices a page at a time, newest first, filtered
 * by the core ("only unread" is part of the query). A mark-read refetches the summary and the pages
 * loaded (useChannelMutation). `highlight`: a notice id to scroll into view and mark, as a search
 * hit opened it.
 */
export function NotificationsScreen({
  highlight,
}: { readonly highlight?: string | undefined } = {}) {
  const { t } = useTranslation();
  const site = useSite();
  const now = useNow(60_000);
  const [onlyUnread, setOnlyUnread] = useState(false);
  const summary = useChannel('notifications:summary', { siteId: site.id });
  const notices = useChannelPages(
    'notifications:page',
    { siteId: site.id, onlyUnread },
    { getKey: noticeKey, keepPrevious: true },
  );
  const markRead = useChannelMutation('notifications:mark-read');
  const markAll = useChannelMutation('notifications:mark-all-read');
  const { navigate } = useApp();
  const openNotice = useChannelMutation('notifications:open');
  // What an opened notice shows in place, by notice id (an event, or why it leads nowhere).
  const [shown, setShown] = useState<
    Readonly<Record<string, Extract<NoticeTarget, { kind: 'event' | 'none' }>>>
  >({});
  // Opening a notice marks it read (queued offline like Mark read), then goes where it leads.
  const open = (notificationId: string) =>
    openNotice.mutate(
      { siteId: site.id, notificationId },
      {
        onSuccess: (target) => {
          switch (target.kind) {
            case 'course':
              return navigate({ screen: 'course', courseId: target.courseId });
            case 'order':
              return navigate({ screen: 'billing', tradeNo: target.tradeNo });
            case 'consulting':
              return navigate({ screen: 'consulting' });
            case 'event':
            case 'none':
              return setShown((prev) => ({ ...prev, [notificationId]: target }));
          }
        },
      },
    );
  // A notice opened from search may sit on a later page: the pages load until it is among them (or
  // none is left).
  const found = highlight === undefined || notices.items.some((n) => n.id === highlight);
  const morePages = notices.items.length < notices.total;
  useEffect(() => {
    if (!found && morePages && !notices.query.isFetchingNextPage) notices.loadMore();
  }, [found, morePages, notices]);
  const [showSettings, setShowSettings] = useState(false);
  const canWrite = !site.missingScopes.includes('account:write');
  const failed = summary.error ?? notices.query.error;
  const head = summary.data;

  return (
    <div className="screen">
      <ScreenHeader title={t('notifications.title')}>
        <button
          type="button"
          className="button"
          aria-expanded={showSettings}
          aria-controls="subscriptions-panel"
          onClick={() => setShowSettings((v) => !v)}
          data-testid="subscriptions-toggle"
        >
          {t('notifications.subscriptions.button')}
        </button>
        {head && head.total > 0 && (
          <>
            <label className="toggle">
              <input
                type="checkbox"
                checked={onlyUnread}
                onChange={(e) => setOnlyUnread(e.target.checked)}
              />{' '}
              {t('notifications.onlyUnread')}
            </label>
            <button
              type="button"
              className="button"
              disabled={head.unreadCount === 0 || markAll.isPending || !canWrite}
              onClick={() => markAll.mutate({ siteId: site.id })}
              data-testid="mark-all-read"
            >
              {t('notifications.markAllRead')}
            </button>
          </>
        )}
      </ScreenHeader>
      {failed ? (
        <ErrorState
          title={t('notifications.loadFailed')}
          error={failed}
          onRetry={() => {
            void summary.refetch();
            void notices.query.refetch();
          }}
        />
      ) : !head || notices.query.isPending ? (
        <Loading shape="rows" />
      ) : (
        <>
          <p className="muted count-line" role="status" data-testid="unread-summary">
            {t('notifications.unreadCount', { count: head.unreadCount })}
          </p>
          {showSettings && <Subscriptions siteId={site.id} subscriptions={head.subscriptions} />}
          {(markRead.error ?? markAll.error) && (
            <ErrorState error={markRead.error ?? markAll.error} compact />
          )}
          {openNotice.error && (
            <ErrorState title={t('notifications.open.failed')} error={openNotice.error} compact />
          )}
          {notices.items.length === 0 ? (
            <EmptyState
              title={onlyUnread ? t('notifications.emptyUnread') : t('notifications.empty')}
              icon={BellOff}
            />
          ) : (
            <>
              <PagedList
                pages={notices}
                estimateSize={110}
                gap={8}
                getKey={noticeKey}
                scrollToKey={found ? highlight : undefined}
                label={t('notifications.listLabel')}
                testId="notification-list"
                render={(n) => (
                  <NotificationRow
                    n={n}
                    now={now}
                    busy={
                      !canWrite ||
                      (markRead.isPending && markRead.variables?.notificationId === n.id)
                    }
                    onMarkRead={() =>
                      markRead.mutate(
                        { siteId: site.id, notificationId: n.id },
                        { onSuccess: () => onlyUnread && focusAfterLeaving(n.id) },
                      )
                    }
                    link={readNoticeLink(n.url, site.baseUrl)}
                    onOpen={() => open(n.id)}
                    opening={openNotice.isPending && openNotice.variables?.notificationId === n.id}
                    opened={shown[n.id] ?? null}
                    highlighted={n.id === highlight}
                  />
                )}
              />
            </>
          )}
        </>
      )}
    </div>
  );
}

/**
 * "Only unread" shown: a notice marked read leaves the list, and the focus with it. It goes to the
 * next notice's "Mark read" (the one the student is likely to read next), or the screen's heading
 * when none is left.
 */
function focusAfterLeaving(notificationId: string): void {
  const rows = () => [
    ...document.querySelectorAll<HTMLElement>('[data-testid="notification-row"]'),
  ];
  const at = rows().findIndex((r) => r.dataset['notificationId'] === notificationId);
  let frames = 0;
  const step = () => {
    const now = rows();
    if (now.some((r) => r.dataset['notificationId'] === notificationId) && frames++ < 60) {
      requestAnimationFrame(step);
      return;
    }
    // The student moved on meanwhile (clicked or tabbed elsewhere): their focus stays.
    if (document.activeElement && document.activeElement !== document.body) return;
    const next = now[Math.max(0, at)] ?? now[now.length - 1];
    (
      next?.querySelector<HTMLElement>('[data-testid="mark-read"]') ??
      document.getElementById('screen-title')
    )?.focus();
  };
  requestAnimationFrame(step);
}
