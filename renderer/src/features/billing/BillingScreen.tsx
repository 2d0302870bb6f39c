import { useTranslation } from 'react-i18next';
import { useSite } from '../../app/context';
import { useChannel } from '../../query';
import { ErrorState } from '../../ui/ErrorState';
import { formatMoney } from '../../ui/format';
import { EmptyState, Loading, ScreenHeader } from '../../ui/states';
import { VirtualList } from '../../ui/VirtualList';
import { Instructions } from './Instructions';
import { OrderGroup } from './OrderGroup';

export function BillingScreen() {
  const { t, i18n } = useTranslation();
  const site = useSite();
  const q = useChannel('billing:get', { siteId: site.id });
  return (
    <div className="screen">
      <ScreenHeader title={t('billing.title')} />
      {q.isPending ? (
        <Loading />
      ) : q.isError ? (
        <ErrorState title={t('billing.loadFailed')} error={q.error} onRetry={() => void q.refetch()} />
      ) : q.data.orders.length === 0 ? (
        <EmptyState title={t('billing.empty.title')} icon="¤">
          <p className="muted">{t('billing.empty.text')}</p>
        </EmptyState>
      ) : (
        <>
          <section aria-labelledby="totals-title" className="totals">
            <h2 id="totals-title" className="visually-hidden">
              {t('billing.totals')}
            </h2>
            {q.data.totals.map((tot) => (
              <div className="card total-card" key={tot.currency} data-testid="billing-total">
                <p className="muted small">{t('billing.totalIn', { currency: tot.currency })}</p>
                <p className="big-number">{formatMoney(tot.paid, tot.currency, i18n.language)}</p>
                {tot.refunded > 0 && <p className="small">{t('billing.refunded', { amount: formatMoney(tot.refunded, tot.currency, i18n.language) })}</p>}
              </div>
            ))}
          </section>
          {q.data.pendingInstructions.length > 0 && (
            <section aria-labelledby="pending-title" className="pending-instructions card attention" data-testid="pending-instructions">
              <h2 id="pending-title">{t('billing.pendingTitle', { count: q.data.pendingInstructions.length })}</h2>
              {q.data.pendingInstructions.map((p) => (
                <Instructions key={p.paymentId} payment={p} showAmount />
              ))}
            </section>
          )}
          <h2 className="list-heading">{t('billing.orders', { count: q.data.orders.length })}</h2>
          <VirtualList items={q.data.orders} estimateSize={260} gap={12} getKey={(o) => o.tradeNo} label={t('billing.ordersLabel')} testId="order-list" render={(o) => <OrderGroup order={o} />} />
        </>
      )}
    </div>
  );
}
