import { useTranslation } from 'react-i18next';
import type { OrderView } from '../../../../electron/common/view-models';
import { formatDate, formatMoney } from '../../ui/format';
import { useSite } from '../../state/context';
import { ReceiptButton } from '../export/ExportButtons';
import { summaryStateKey, summaryTone } from './labels';
import { PaymentDetails } from './PaymentDetails';
import { OpenOnSite } from '../site-pages/OpenOnSite';

/** An order (payments sharing a tradeNo): what was bought, its state, and each payment. */
export function OrderGroup({ order }: { readonly order: OrderView }) {
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
  const site = useSite();
  return (
    <article className="order card" data-testid="order-group" data-trade-no={order.tradeNo} data-state={order.summaryState}>
      <header className="order-head">
        <h3 className="order-title">{order.title || t('billing.untitled')}</h3>
        <span className={`state-badge ${summaryTone(order.summaryState)}`} data-testid="order-state">
          {t(summaryStateKey(order.summaryState))}
        </span>
      </header>
      <p className="muted small order-meta">
        {t('billing.orderNo', { tradeNo: order.tradeNo })} · {formatDate(order.createdAt, lng)} · {t('billing.paymentsCount', { count: order.payments.length })}
      </p>
      <p className="order-amounts">
        <span>{t('billing.total', { amount: formatMoney(order.totalAmount, order.currency, lng) })}</span>
        {order.paidAmount > 0 && order.paidAmount !== order.totalAmount && <span> · {t('billing.paid', { amount: formatMoney(order.paidAmount, order.currency, lng) })}</span>}
        {order.refundedAmount > 0 && <span> · {t('billing.refunded', { amount: formatMoney(order.refundedAmount, order.currency, lng) })}</span>}
      </p>
      <div className="order-actions">
        <ReceiptButton siteId={site.id} tradeNo={order.tradeNo} />
        <OpenOnSite siteId={site.id} page={{ kind: 'order', tradeNo: order.tradeNo }} label={t('sitePages.order')} what={`${t('sitePages.order')}: ${t('billing.orderNo', { tradeNo: order.tradeNo })}`} small testId="open-order" />
      </div>
      <div className="payments">
        {order.payments.map((p) => (
          <PaymentDetails key={p.paymentId} payment={p} />
        ))}
      </div>
    </article>
  );
}
