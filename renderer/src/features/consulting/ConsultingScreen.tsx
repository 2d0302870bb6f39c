import { Headset } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { ConsultingServiceView } from '../../../../electron/common/view-models';
import { useApp, useSite } from '../../state/context';
import { useChannel } from '../../query';
import { ErrorState } from '../../ui/ErrorState';
import { formatDateTimeRange, timeZoneName, weekdayName } from '../../ui/format';
import { EmptyState, Loading, ScreenHeader } from '../../ui/states';
import { VirtualList } from '../../ui/VirtualList';
import { OpenOnSite } from '../site-pages/OpenOnSite';

function ServiceCard({ s }: { readonly s: ConsultingServiceView }) {
  const { t, i18n } = useTranslation();
  const { navigate } = useApp();
  const site = useSite();
  const lng = i18n.language;
  const now = Date.now();
  const booked = s.bookedTimes.filter((b) => new Date(b.endsAt).getTime() >= now);
  return (
    <article className="card service" data-testid="consulting-service" data-service-id={s.id}>
      <h2>{s.title}</h2>
      <p className="muted">
        {t('consulting.with', { name: s.consultantName })} · {t('consulting.minutes', { count: s.durationMinutes })}
        {s.courseTitle && (
          <>
            {' '}
            ·{' '}
            <button type="button" className="link-button" onClick={() => navigate({ screen: 'course', courseId: s.courseId })}>
              {t('consulting.forCourse', { title: s.courseTitle })}
            </button>
          </>
        )}
      </p>
      {s.description && <p>{s.description}</p>}
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
      <h3>{t('consulting.availability')}</h3>
      {s.slots.length === 0 ? (
        <p className="muted">{t('consulting.noSlots')}</p>
      ) : (
        <ul className="plain slots">
          {s.slots.map((slot, i) => (
            <li key={i}>
              {t('consulting.slot', {
                weekday: weekdayName(slot.weekday, lng),
                start: slot.startTime,
                end: slot.endTime,
                zone: timeZoneName(slot.timeZone, lng),
              })}
            </li>
          ))}
        </ul>
      )}
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

export function ConsultingScreen() {
  const { t } = useTranslation();
  const site = useSite();
  const q = useChannel('consulting:list', { siteId: site.id });
  return (
    <div className="screen">
      <ScreenHeader title={t('consulting.title')} />
      <p className="muted">{t('consulting.intro')}</p>
      {q.isPending ? (
        <Loading shape="cards" />
      ) : q.isError ? (
        <ErrorState title={t('consulting.loadFailed')} error={q.error} onRetry={() => void q.refetch()} />
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
          render={(s) => <ServiceCard s={s} />}
        />
      )}
    </div>
  );
}
