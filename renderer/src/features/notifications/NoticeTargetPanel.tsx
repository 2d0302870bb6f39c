import { CalendarClock, ArrowUpRight } from 'lucide-react';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { externalUrl } from '../../../../electron/common/external-url';
import type { NoticeLink } from '../../../../electron/common/notice-links';
import type { NoticeTarget } from '../../../../electron/common/view-models';
import { useApp } from '../../state/context';
import { formatDateTime } from '../../ui/format';

/** The button's words for where a notice leads (known from its url before it is opened). */
export function openLabelKey(link: NoticeLink): string {
  switch (link.kind) {
    case 'course':
      return 'notifications.open.course';
    case 'order':
      return 'notifications.open.order';
    case 'event':
      return 'notifications.open.event';
    case 'consulting':
      return 'notifications.open.consulting';
  }
}

/**
 * What an opened notice shows in place: its event (when, where, the join link), or why it leads
 * nowhere. A course, an order or a service is a screen of its own: the screen navigates there
 * instead.
 */
export function NoticeTargetPanel({
  target,
}: {
  readonly target: Extract<NoticeTarget, { kind: 'event' | 'none' }>;
}) {
  const { t, i18n } = useTranslation();
  const { navigate } = useApp();
  // Keyboard and screen-reader users land on what the notice led to.
  const focusOnMount = useCallback((el: HTMLElement | null) => el?.focus(), []);
  if (target.kind === 'none')
    return (
      <p
        className="notice-target muted small"
        role="status"
        data-testid="notice-target-none"
        tabIndex={-1}
        ref={focusOnMount}
      >
        {t(
          target.reason === 'not-in-copy'
            ? 'notifications.open.notInCopy'
            : 'notifications.open.noLink',
        )}
      </p>
    );
  const join = target.joinUrl ? externalUrl(target.joinUrl) : null;
  return (
    <section
      className="notice-target card"
      aria-labelledby={`notice-event-${target.registrationId}`}
      data-testid="notice-event"
    >
      <h3 id={`notice-event-${target.registrationId}`} tabIndex={-1} ref={focusOnMount}>
        <CalendarClock aria-hidden="true" /> {target.title}
      </h3>
      <p className="small">
        {t('notifications.open.when', {
          start: formatDateTime(target.startsAt, i18n.language),
          end: formatDateTime(target.endsAt, i18n.language),
        })}
        {' · '}
        {target.isOnline
          ? t('entitlements.online')
          : (target.location ?? t('entitlements.noLocation'))}
      </p>
      <div className="notice-target-actions">
        {join ? (
          <a
            className="button small primary"
            href={join}
            target="_blank"
            rel="noopener noreferrer"
            data-testid="notice-event-join"
          >
            {t('entitlements.join')}
            <ArrowUpRight aria-hidden="true" className="open-on-site-arrow" />
          </a>
        ) : (
          <span className="muted small">{t('notifications.open.noJoinLink')}</span>
        )}
        <button
          type="button"
          className="button small"
          onClick={() => navigate({ screen: 'entitlements' })}
        >
          {t('notifications.open.allEvents')}
        </button>
      </div>
    </section>
  );
}
