import { Headset } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { ConsultingServiceView } from '../../../../electron/common/view-models';
import { useApp, useSite } from '../../state/context';
import { useChannel } from '../../query';
import { ErrorState } from '../../ui/ErrorState';
import { formatDateTimeRange, weekdayName } from '../../ui/format';
import { EmptyState, Loading, ScreenHeader } from '../../ui/states';
import { VirtualList } from '../../ui/VirtualList';
import { OpenOnSite } from '../site-pages/index';
import { localTimeZone, nextOccurrence, slotInZone, zoneLabel } from './slot-times';

type Slot = ConsultingServiceView['slots'][number];

/**
 * One weekly slot in the student's zone ("Every Sunday, 9:00 PM – 11:00 PM"), from its next
 * occurrence; a slot the site sent unreadably is shown as sent, with its own zone.
 */
function SlotLine({
  slot,
  zone,
  now,
}: {
  readonly slot: Slot;
  readonly zone: string;
  readonly now: number;
}) {
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
  const next = nextOccurrence(slot, now);
  if (!next)
    return (
      <li data-testid="consulting-slot" data-as-sent="true">
        {t('consulting.slotAsSent', {
          weekday: weekdayName(slot.weekday, lng),
          start: slot.startTime,
          end: slot.endTime,
          zone: slot.timeZone,
        })}
      </li>
    );
  return <li data-testid="consulting-slot">{t('consulting.slot', slotInZone(next, zone, lng))}</li>;
}

function ServiceCard({
  s,
  zone,
  highlighted,
}: {
  readonly s: ConsultingServiceView;
  readonly zone: string;
  readonly highlighted: boolean;
}) {
  const { t, i18n } = useTranslation();
  const { navigate } = useApp();
  const site = useSite();
  const lng = i18n.language;
  const now = Date.now();
  const booked = s.bookedTimes.filter((b) => new Date(b.endsAt).getTime() >= now);
  return (
    <article
      className={`card service${highlighted ? ' highlighted' : ''}`}
      data-testid="consulting-service"
      data-service-id={s.id}
      data-highlighted={highlighted ? 'true' : undefined}
    >
      <h2>{s.title}</h2>
      <p className="muted">
        {t('consulting.with', { name: s.consultantName })} ·{' '}
        {t('consulting.minutes', { count: s.durationMinutes })}
        {s.courseTitle && (
          <>
            {' '}
            ·{' '}
            <button
              type="button"
              className="link-button"
              onClick={() => navigate({ screen: 'course', courseId: s.courseId })}
            >
              {t('consulting.forCourse', { title: s.courseTitle })}
            </button>
          </>
        )}
      </p>
      {s.description && <p>{s.description}</p>}
      {/* The service's weekly hours lead, as when the student can book; the booking itself is
          made on the school's site. The API's meetings are times taken by anyone (not the
          student's bookings), so they come last, closed. */}
      <h3 data-testid="consulting-when">{t('consulting.availability')}</h3>
      {s.slots.length === 0 ? (
        <p className="muted">{t('consulting.noSlots')}</p>
      ) : (
        <ul className="plain slots">
          {s.slots.map((slot, i) => (
            <SlotLine key={i} slot={slot} zone={zone} now={now} />
          ))}
        </ul>
      )}
      <p className="small">{t('consulting.howToBook')}</p>
      <div className="service-actions">
        <OpenOnSite
          siteId={site.id}
          page={{ kind: 'consulting', serviceId: s.id }}
          label={t('sitePages.consulting')}
          what={`${t('sitePages.consulting')}: ${s.title}`}
          small
          testId="open-consulting"
        />
      </div>
      <details className="booked">
        <summary>{t('consulting.bookedTitle', { count: booked.length })}</summary>
        <p className="muted small">{t('consulting.bookedExplain')}</p>
        {booked.length > 0 && (
          <ul className="plain">
            {booked.map((b, i) => (
              <li key={i}>{formatDateTimeRange(b.startsAt, b.endsAt, lng)}</li>
            ))}
          </ul>
        )}
      </details>
    </article>
  );
}

/** `highlight`: a service id to scroll into view and mark, as a search hit opened it. */
export function ConsultingScreen({ highlight }: { readonly highlight?: string | undefined } = {}) {
  const { t, i18n } = useTranslation();
  const site = useSite();
  const q = useChannel('consulting:list', { siteId: site.id });
  // Hours and booked times alike are shown in this computer's zone, named once here.
  const zone = localTimeZone();
  return (
    <div className="screen">
      <ScreenHeader title={t('consulting.title')} />
      <p className="muted">{t('consulting.intro')}</p>
      <p className="muted small" data-testid="consulting-zone">
        {t('consulting.zone', { zone: zoneLabel(zone, i18n.language, Date.now()) })}
      </p>
      {q.isPending ? (
        <Loading shape="cards" />
      ) : q.isError ? (
        <ErrorState
          title={t('consulting.loadFailed')}
          error={q.error}
          onRetry={() => void q.refetch()}
        />
      ) : q.data.length === 0 ? (
        <EmptyState title={t('consulting.empty')} icon={Headset} />
      ) : (
        <VirtualList
          items={q.data}
          estimateSize={260}
          gap={12}
          getKey={(s) => s.id}
          label={t('consulting.listLabel')}
          testId="consulting-list"
          scrollToKey={highlight}
          render={(s) => <ServiceCard s={s} zone={zone} highlighted={s.id === highlight} />}
        />
      )}
    </div>
  );
}
