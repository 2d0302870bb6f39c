import { useTranslation } from 'react-i18next';
import type { DigitalProductView, EventRegistrationView } from '../../../../electron/common/view-models';
import { useSite } from '../../app/context';
import { useChannel } from '../../query';
import { ErrorState } from '../../ui/ErrorState';
import { formatDate, formatDateTimeRange } from '../../ui/format';
import { EmptyState, Loading, ScreenHeader } from '../../ui/states';

function ProductRow({ p }: { readonly p: DigitalProductView }) {
  const { t, i18n } = useTranslation();
  return (
    <li className="card entitlement" data-testid="digital-product">
      <h3>{p.title}</h3>
      {p.description && <p>{p.description}</p>}
      <p className="muted small">
        <span className="tag">{p.format}</span> {t('entitlements.deliveredAt', { date: formatDate(p.deliveredAt, i18n.language) })}
        {p.expireDate && <> · {t('library.access.until', { date: formatDate(p.expireDate, i18n.language) })}</>}
      </p>
      {p.downloadUrl && (
        <a className="button small" href={p.downloadUrl} target="_blank" rel="noopener noreferrer">
          {t('entitlements.download')}
        </a>
      )}
    </li>
  );
}

function EventRow({ e }: { readonly e: EventRegistrationView }) {
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
  return (
    <li className={e.isPast ? 'card entitlement past' : 'card entitlement'} data-testid="event-registration" data-past={e.isPast ? 'true' : 'false'}>
      <h3>{e.title}</h3>
      <p>
        <time dateTime={e.startsAt}>{formatDateTimeRange(e.startsAt, e.endsAt, lng)}</time>
      </p>
      <p className="muted small">
        {e.isOnline ? t('entitlements.online') : (e.location ?? t('entitlements.noLocation'))} · {t('entitlements.ticket', { name: e.ticketName })} ·{' '}
        {t('entitlements.registeredAt', { date: formatDate(e.registeredAt, lng) })}
      </p>
      {e.joinUrl && !e.isPast && (
        <a className="button small" href={e.joinUrl} target="_blank" rel="noopener noreferrer">
          {t('entitlements.join')}
        </a>
      )}
    </li>
  );
}

export function EntitlementsScreen() {
  const { t } = useTranslation();
  const site = useSite();
  const q = useChannel('entitlements:get', { siteId: site.id });
  if (q.isPending) return <Loading />;
  const upcoming = q.data?.eventRegistrations.filter((e) => !e.isPast).sort((a, b) => a.startsAt.localeCompare(b.startsAt)) ?? [];
  const past = q.data?.eventRegistrations.filter((e) => e.isPast).sort((a, b) => b.startsAt.localeCompare(a.startsAt)) ?? [];
  return (
    <div className="screen">
      <ScreenHeader title={t('entitlements.title')} />
      {q.isError ? (
        <ErrorState title={t('entitlements.loadFailed')} error={q.error} onRetry={() => void q.refetch()} />
      ) : (
        <>
          <section aria-labelledby="products-title">
            <h2 id="products-title">{t('entitlements.products')}</h2>
            {q.data.digitalProducts.length === 0 ? (
              <EmptyState title={t('entitlements.noProducts')} />
            ) : (
              <ul className="plain grid">
                {q.data.digitalProducts.map((p) => (
                  <ProductRow key={p.id} p={p} />
                ))}
              </ul>
            )}
          </section>
          <section aria-labelledby="upcoming-title">
            <h2 id="upcoming-title">{t('entitlements.upcoming')}</h2>
            {upcoming.length === 0 ? (
              <EmptyState title={t('entitlements.noUpcoming')} />
            ) : (
              <ul className="plain grid">
                {upcoming.map((e) => (
                  <EventRow key={e.id} e={e} />
                ))}
              </ul>
            )}
          </section>
          {past.length > 0 && (
            <section aria-labelledby="past-title">
              <h2 id="past-title">{t('entitlements.past')}</h2>
              <ul className="plain grid">
                {past.map((e) => (
                  <EventRow key={e.id} e={e} />
                ))}
              </ul>
            </section>
          )}
        </>
      )}
    </div>
  );
}
