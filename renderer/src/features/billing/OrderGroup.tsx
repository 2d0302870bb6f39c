import { ChevronRight } from 'lucide-react';
import { useId, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import type { OrderView } from '../../../../electron/common/view-models';
import { formatDate, formatMoney } from '../../ui/format';
import { useSite } from '../../state/context';
import { ReceiptButton } from '../export/index';
import { summaryStateKey, summaryTone } from './labels';
import { PaymentDetails } from './PaymentDetails';
import { RefundTimeline } from './RefundTimeline';
import { OpenOnSite } from '../site-pages/index';

/**
 * An order (payments sharing a tradeNo). Collapsed it is one row: what was bought, when, how much,
 * its state. Its heading holds a disclosure button (the WAI-ARIA APG accordion pattern:
 * aria-expanded, aria-controls) that shows the receipt button, the link to the site and each
 * payment. Whether it is open is kept by the caller, so it survives the row leaving and re-entering
 * a virtualized list.
 */
export function OrderGroup({
  order,
  expanded,
  onToggle,
  highlighted = false,
  headingRef,
}: {
  readonly order: OrderView;
  readonly expanded: boolean;
  readonly onToggle: () => void;
  /**
   * The order the student was taken to (Today, a notice, the palette): marked, its heading
   * focusable.
   */
  readonly highlighted?: boolean;
  readonly headingRef?: Ref<HTMLHeadingElement>;
}) {
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
  const site = useSite();
  const detailsId = useId();
  return (
    <article
      className={`order card${expanded ? ' expanded' : ''}${highlighted ? ' highlighted' : ''}`}
      data-testid="order-group"
      data-trade-no={order.tradeNo}
      data-state={order.summaryState}
      data-expanded={expanded}
      data-highlighted={highlighted ? 'true' : undefined}
    >
      <header className="order-head">
        <h3 className="order-title" ref={headingRef} tabIndex={headingRef ? -1 : undefined}>
          <button
            type="button"
            className="order-toggle"
            aria-expanded={expanded}
            aria-controls={detailsId}
            onClick={onToggle}
            data-testid="order-toggle"
          >
            <ChevronRight aria-hidden="true" className="order-chevron" size={18} />
            <span>{order.title || t('billing.untitled')}</span>
          </button>
        </h3>
        <span
          className={`state-badge ${summaryTone(order.summaryState)}`}
          data-testid="order-state"
        >
          {t(summaryStateKey(order.summaryState))}
        </span>
      </header>
      <p className="muted small order-meta">
        {t('billing.orderNo', { tradeNo: order.tradeNo })} · {formatDate(order.createdAt, lng)} ·{' '}
        {t('billing.paymentsCount', { count: order.payments.length })}
      </p>
      <p className="order-amounts">
        <span>
          {t('billing.total', { amount: formatMoney(order.totalAmount, order.currency, lng) })}
        </span>
        {order.paidAmount > 0 && order.paidAmount !== order.totalAmount && (
          <span>
            {' '}
            · {t('billing.paid', { amount: formatMoney(order.paidAmount, order.currency, lng) })}
          </span>
        )}
        {order.refundedAmount > 0 && (
          <span>
            {' '}
            ·{' '}
            {t('billing.refunded', {
              amount: formatMoney(order.refundedAmount, order.currency, lng),
            })}
          </span>
        )}
      </p>
      <div id={detailsId} className="order-details" hidden={!expanded} data-testid="order-details">
        {expanded && (
          <>
            <div className="order-actions">
              <ReceiptButton siteId={site.id} tradeNo={order.tradeNo} />
              <OpenOnSite
                siteId={site.id}
                page={{ kind: 'order', tradeNo: order.tradeNo }}
                label={t('sitePages.order')}
                what={`${t('sitePages.order')}: ${t('billing.orderNo', { tradeNo: order.tradeNo })}`}
                small
                testId="open-order"
              />
            </div>
            <RefundTimeline order={order} />
            <div className="payments">
              {order.payments.map((p) => (
                <PaymentDetails key={p.paymentId} payment={p} />
              ))}
            </div>
          </>
        )}
      </div>
    </article>
  );
}
