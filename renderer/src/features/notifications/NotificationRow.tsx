import { ArrowRight, CheckCheck, RefreshCw } from 'lucide-react';
import { useCallback, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { NoticeLink } from '../../../../electron/common/notice-links';
import type { NoticeTarget, NotificationView } from '../../../../electron/common/view-models';
import { formatDateTime, formatRelative, machineDate } from '../../ui/format';
import { kindIcon } from './labels';
import { NoticeTargetPanel, openLabelKey } from './NoticeTargetPanel';
import './notice-target.css';

export function NotificationRow({
  n,
  now,
  onMarkRead,
  busy,
  link,
  onOpen,
  opening,
  opened,
  highlighted = false,
}: {
  readonly n: NotificationView;
  readonly now: number;
  readonly onMarkRead: () => void;
  readonly busy: boolean;
  /** Where the notice leads (from its url), or null: then it is only shown. */
  readonly link: NoticeLink | null;
  readonly onOpen: () => void;
  readonly opening: boolean;
  /** What opening it showed in place (an event, or why it leads nowhere). */
  readonly opened: Extract<NoticeTarget, { kind: 'event' | 'none' }> | null;
  /** The notice a search hit opened: outlined (and scrolled into view by the list). */
  readonly highlighted?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const unread = n.readAt === null;
  const KindIcon = kindIcon(n.kind);
  // "Mark read" pressed here: once the notice reads as read, the button is gone and its place takes
  // the focus.
  const markedHere = useRef(false);
  const readMarkRef = useCallback((el: HTMLElement | null) => {
    if (el && markedHere.current) {
      markedHere.current = false;
      el.focus();
    }
  }, []);
  const markRead = () => {
    markedHere.current = true;
    onMarkRead();
  };
  return (
    <article
      className={`notification card${unread ? ' unread' : ''}${highlighted ? ' highlighted' : ''}`}
      data-testid="notification-row"
      data-notification-id={n.id}
      data-highlighted={highlighted ? 'true' : undefined}
      data-unread={unread ? 'true' : 'false'}
    >
      <span className={`kind-icon kind-${n.kind}`} aria-hidden="true">
        <KindIcon />
      </span>
      <div className="notification-body">
        <h2 className="notification-title">
          {unread && <span className="unread-dot" aria-hidden="true" />}
          {unread && <span className="visually-hidden">{t('notifications.unread')}: </span>}
          {n.title}
        </h2>
        <p className="notification-text">{n.body}</p>
        <p className="muted small">
          <span className="tag">
            {n.kind === 'unknown' ? t('common.unknown') : t(`notifications.kind.${n.kind}`)}
          </span>{' '}
          <time
            dateTime={machineDate(n.createdAt)}
            title={formatDateTime(n.createdAt, i18n.language)}
          >
            {formatRelative(n.createdAt, now, i18n.language)}
          </time>
          {/* The separator outside the inline-flex badge, whose leading space a flex box would drop. */}
          {n.pendingSync && (
            <>
              {' · '}
              <span
                className="pending-sync"
                data-testid="pending-sync"
                title={t('notifications.pendingSyncExplain')}
              >
                <RefreshCw aria-hidden="true" />
                {t('notifications.pendingSync')}
              </span>
            </>
          )}
        </p>
        {opened && <NoticeTargetPanel target={opened} />}
      </div>
      <div className="notification-actions">
        {link && (
          <button
            type="button"
            className="button small primary"
            onClick={onOpen}
            disabled={opening}
            data-testid="open-notice"
            data-link={link.kind}
            aria-label={t('notifications.open.label', {
              action: t(openLabelKey(link)),
              title: n.title,
            })}
          >
            {t(openLabelKey(link))}
            <ArrowRight aria-hidden="true" />
          </button>
        )}
        {unread ? (
          <button
            type="button"
            className="button small"
            onClick={markRead}
            disabled={busy}
            data-testid="mark-read"
            aria-label={t('notifications.markReadLabel', { title: n.title })}
          >
            {t('notifications.markRead')}
          </button>
        ) : (
          // Where focus goes when "Mark read" (which it replaces) is pressed: never lost to the
          // page's body.
          <span
            className="muted small read-mark"
            tabIndex={-1}
            ref={readMarkRef}
            data-testid="read-mark"
          >
            <CheckCheck aria-hidden="true" />
            {t('notifications.read')}
          </span>
        )}
      </div>
    </article>
  );
}
