import { ArrowUpRight } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { ProductOfflineView } from '../../../../electron/common/downloads';
import type {
  DigitalProductView,
  EventRegistrationView,
} from '../../../../electron/common/view-models';
import { ProductOffline } from '../downloads/index';
import { EventCalendarButton } from '../export/index';
import { useSite } from '../../state/context';
import { useChannel } from '../../query';
import { ErrorState } from '../../ui/ErrorState';
import { formatDate, formatDateTimeRange, machineDate } from '../../ui/format';
import { EmptyState, Loading, ScreenHeader } from '../../ui/states';
import { useNow } from '../../ui/useNow';
import { VirtualList } from '../../ui/VirtualList';

/**
 * The kinds of file a school sells (the operator API's list); another word a site sends is shown as
 * sent.
 */
const FORMATS = new Set(['ebook', 'template', 'audio', 'video', 'image', 'software', 'other']);
const formatLabel = (format: string, t: (key: string) => string) =>
  FORMATS.has(format) ? t(`entitlements.format.${format}`) : format;

function ProductRow({
  p,
  now,
  siteId,
  offline,
  highlighted,
}: {
  readonly p: DigitalProductView;
  readonly now: number;
  readonly siteId: string;
  readonly offline: ProductOfflineView | undefined;
  /** The product a search hit opened. */
  readonly highlighted: boolean;
}) {
  const { t, i18n } = useTranslation();
  // Access to the product has ended: said so, and no download offered.
  const expired = p.expireDate !== null && Date.parse(p.expireDate) <= now;
  return (
    <article
      className={`card entitlement${highlighted ? ' highlighted' : ''}`}
      data-testid="digital-product"
      data-id={p.id}
      data-highlighted={highlighted ? 'true' : undefined}
    >
      <h3>{p.title}</h3>
      {p.description && <p>{p.description}</p>}
      <p className="muted small">
        <span className="tag" data-testid="product-format">
          {formatLabel(p.format, t)}
        </span>{' '}
        {t('entitlements.deliveredAt', { date: formatDate(p.deliveredAt, i18n.language) })}
        {p.expireDate && (
          <>
            {' '}
            ·{' '}
            {expired ? (
              <strong className="state-badge bad" data-testid="product-expired">
                {t('library.access.expired', { date: formatDate(p.expireDate, i18n.language) })}
              </strong>
            ) : (
              t('library.access.until', { date: formatDate(p.expireDate, i18n.language) })
            )}
          </>
        )}
      </p>
      {/* Saved into the app's data folder and opened inside the app, not handed to the browser. */}
      <ProductOffline siteId={siteId} product={p} offline={offline} expired={expired} />
      {p.urlRefused && !expired && <LinkRefused />}
    </article>
  );
}

/**
 * A link the site sent that the app does not open (not https, or carrying a password): said, not
 * offered.
 */
function LinkRefused() {
  const { t } = useTranslation();
  return (
    <p className="muted small" data-testid="link-refused">
      {t('entitlements.linkRefused')}
    </p>
  );
}

function EventRow({
  e,
  siteId,
  highlighted,
}: {
  readonly e: EventRegistrationView;
  readonly siteId: string;
  readonly highlighted: boolean;
}) {
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
  return (
    <article
      className={`card entitlement${e.isPast ? ' past' : ''}${highlighted ? ' highlighted' : ''}`}
      data-testid="event-registration"
      data-id={e.id}
      data-highlighted={highlighted ? 'true' : undefined}
      data-past={e.isPast ? 'true' : 'false'}
    >
      <h3>{e.title}</h3>
      <p>
        <time dateTime={machineDate(e.startsAt)}>
          {formatDateTimeRange(e.startsAt, e.endsAt, lng)}
        </time>
      </p>
      <p className="muted small">
        {e.isOnline ? t('entitlements.online') : (e.location ?? t('entitlements.noLocation'))} ·{' '}
        {t('entitlements.ticket', { name: e.ticketName })} ·{' '}
        {t('entitlements.registeredAt', { date: formatDate(e.registeredAt, lng) })}
      </p>
      {!e.isPast && (
        <div className="row">
          {e.joinUrl && (
            <a className="button small" href={e.joinUrl} target="_blank" rel="noopener noreferrer">
              {t('entitlements.join')}
              <ArrowUpRight aria-hidden="true" className="open-on-site-arrow" />
            </a>
          )}
          <EventCalendarButton siteId={siteId} registrationId={e.id} title={e.title} />
        </div>
      )}
      {e.urlRefused && !e.isPast && <LinkRefused />}
    </article>
  );
}

/**
 * `highlight`: a product or registration id to scroll into view and mark, as a search hit opened
 * it.
 */
export function EntitlementsScreen({
  highlight,
}: { readonly highlight?: string | undefined } = {}) {
  const { t } = useTranslation();
  const site = useSite();
  const q = useChannel('entitlements:get', { siteId: site.id });
  // The offline copies come from this computer only (no network): shown even when the site is down.
  const offline = useChannel('downloads:list', { siteId: site.id }, { staleTime: Infinity });
  const offlineById = new Map((offline.data ?? []).map((v) => [v.productId, v]));
  const now = useNow(60_000);
  if (q.isPending) return <Loading shape="cards" />;
  const upcoming =
    q.data?.eventRegistrations
      .filter((e) => !e.isPast)
      .sort((a, b) => a.startsAt.localeCompare(b.startsAt)) ?? [];
  const past =
    q.data?.eventRegistrations
      .filter((e) => e.isPast)
      .sort((a, b) => b.startsAt.localeCompare(a.startsAt)) ?? [];
  return (
    <div className="screen">
      <ScreenHeader title={t('entitlements.title')} />
      {q.isError ? (
        <ErrorState
          title={t('entitlements.loadFailed')}
          error={q.error}
          onRetry={() => void q.refetch()}
        />
      ) : (
        // One parent for the three lists: a list growing as its rows are measured resizes it, which
        // tells every VirtualList below to measure its offset in the scroller again (VirtualList
        // observes its parent).
        <div className="entitlement-lists">
          <h2 id="products-title">{t('entitlements.products')}</h2>
          {q.data.digitalProducts.length === 0 ? (
            <EmptyState title={t('entitlements.noProducts')} />
          ) : (
            <VirtualList
              items={q.data.digitalProducts}
              estimateSize={150}
              gap={12}
              getKey={(p) => p.id}
              label={t('entitlements.products')}
              testId="product-list"
              scrollToKey={highlight}
              render={(p) => (
                <ProductRow
                  p={p}
                  now={now}
                  siteId={site.id}
                  offline={offlineById.get(p.id)}
                  highlighted={p.id === highlight}
                />
              )}
            />
          )}
          <h2 id="upcoming-title">{t('entitlements.upcoming')}</h2>
          {upcoming.length === 0 ? (
            <EmptyState title={t('entitlements.noUpcoming')} />
          ) : (
            <VirtualList
              items={upcoming}
              estimateSize={140}
              gap={12}
              getKey={(e) => e.id}
              label={t('entitlements.upcoming')}
              testId="upcoming-list"
              scrollToKey={highlight}
              render={(e) => <EventRow e={e} siteId={site.id} highlighted={e.id === highlight} />}
            />
          )}
          {past.length > 0 && (
            <>
              <h2 id="past-title">{t('entitlements.past')}</h2>
              <VirtualList
                items={past}
                estimateSize={120}
                gap={12}
                getKey={(e) => e.id}
                label={t('entitlements.past')}
                testId="past-list"
                scrollToKey={highlight}
                render={(e) => <EventRow e={e} siteId={site.id} highlighted={e.id === highlight} />}
              />
            </>
          )}
        </div>
      )}
    </div>
  );
}
