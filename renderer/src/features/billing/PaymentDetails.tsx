import { useContext } from 'react';
import { useTranslation } from 'react-i18next';
import type { PaymentView } from '../../../../electron/common/view-models';
import { formatDate, formatDateTime, formatMoney } from '../../ui/format';
import { useNow } from '../../ui/useNow';
import { Instructions, InstructionsPlace, isPayable, pendingInstructionsId } from './Instructions';
import {
  invoiceKindKey,
  lineItemTypeKey,
  paymentStateKey,
  paymentTone,
  paymentTypeKey,
  refundingStateKey,
} from './labels';

/** One payment of an order: method, state, items, adjustments, installments, invoice, refund. */
export function PaymentDetails({ payment: p }: { readonly payment: PaymentView }) {
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
  const money = (n: number) => formatMoney(n, p.currency, lng);
  const now = useNow(60_000);
  return (
    <div className="payment" data-testid="payment" data-payment-state={p.paymentState}>
      <div className="payment-head">
        <span className="payment-amount">{money(p.amount)}</span>
        <span>{t(paymentTypeKey(p.paymentType))}</span>
        <span className={`state-badge ${paymentTone(p)}`}>
          {t(paymentStateKey(p.paymentState))}
        </span>
        <span className="muted small">
          {p.paidAt
            ? t('billing.paidAt', { date: formatDateTime(p.paidAt, lng) })
            : t('billing.createdAt', { date: formatDateTime(p.createdAt, lng) })}
        </span>
      </div>

      {p.lineItems.length > 0 && (
        <table className="items">
          <caption className="visually-hidden">{t('billing.items.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('billing.items.item')}</th>
              <th scope="col" className="num">
                {t('billing.items.original')}
              </th>
              <th scope="col" className="num">
                {t('billing.items.discount')}
              </th>
              <th scope="col" className="num">
                {t('billing.items.final')}
              </th>
            </tr>
          </thead>
          <tbody>
            {p.lineItems.map((li) => (
              <tr key={li.id}>
                <td>
                  {li.title}
                  <span className="muted small">
                    {' '}
                    · {t(lineItemTypeKey(li.itemType))}
                    {li.quantity > 1 && <> × {li.quantity}</>}
                  </span>
                </td>
                <td className="num">{money(li.originalAmount)}</td>
                <td className="num">{li.discountAmount ? `−${money(li.discountAmount)}` : '—'}</td>
                <td className="num">{money(li.finalAmount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      {p.adjustments.length > 0 && (
        <ul className="plain adjustments">
          {p.adjustments.map((a, i) => (
            <li key={i}>
              <span className="tag">
                {t(a.kind === 'coupon' ? 'billing.coupon' : 'billing.promotion')}
              </span>{' '}
              {a.title}
              {a.code && (
                <>
                  {' '}
                  <code>{a.code}</code>
                </>
              )}{' '}
              <span className="num">−{money(Math.abs(a.amount))}</span>
            </li>
          ))}
        </ul>
      )}

      {p.installment && (
        <p className="small">
          {t('billing.installment', {
            count: p.installment.periods,
            amount: money(p.installment.amountPerPeriod),
          })}
          {p.installment.bankName && <> · {p.installment.bankName}</>}
        </p>
      )}

      {p.invoice && (
        <p className="small">
          {t('billing.invoice', {
            number: p.invoice.number,
            kind: t(invoiceKindKey(p.invoice.kind)),
            date: formatDate(p.invoice.issuedAt, lng),
          })}
          {p.invoice.title && <> · {p.invoice.title}</>}
          {p.invoice.taxId && <> · {t('billing.taxId', { id: p.invoice.taxId })}</>}
          {p.invoice.voidedAt && (
            <>
              {' '}
              <strong className="state-badge bad">
                {t('billing.invoiceVoided', { date: formatDate(p.invoice.voidedAt, lng) })}
              </strong>
            </>
          )}
        </p>
      )}

      {p.refund.state !== 'none' && (
        <div className="refund" data-testid="refund">
          <span className="state-badge neutral">{t(refundingStateKey(p.refund.state))}</span>
          {p.refund.refundedAmount > 0 && (
            <span> {t('billing.refundedAmount', { amount: money(p.refund.refundedAmount) })}</span>
          )}
          {p.refund.refundRequestedAt && (
            <span className="muted small">
              {' '}
              ·{' '}
              {t('billing.refundRequestedAt', {
                date: formatDate(p.refund.refundRequestedAt, lng),
              })}
            </span>
          )}
          {p.refund.refundedAt && (
            <span className="muted small">
              {' '}
              · {t('billing.refundedAt', { date: formatDate(p.refund.refundedAt, lng) })}
            </span>
          )}
        </div>
      )}

      {p.instructions &&
        (isPayable(p, now) ? <InstructionsAbove payment={p} /> : <Instructions payment={p} />)}
    </div>
  );
}

/**
 * A code still payable is shown once on the screen, in the "waiting for you" section (with the copy
 * button, deadline and calendar reminder); its order says where that is from here
 * (InstructionsPlace), and takes the student there.
 */
function InstructionsAbove({ payment }: { readonly payment: PaymentView }) {
  const { t } = useTranslation();
  const place = useContext(InstructionsPlace);
  const go = () => {
    const target =
      document.getElementById(pendingInstructionsId(payment.paymentId)) ??
      document.getElementById('pending-title');
    target?.scrollIntoView({ block: 'center' });
    target?.focus();
  };
  return (
    <p className="small instructions-above" data-testid="instructions-above">
      {t(place === 'below' ? 'billing.instructionsBelow' : 'billing.instructionsAbove')}{' '}
      <button
        type="button"
        className="button small ghost"
        onClick={go}
        data-testid="instructions-go"
      >
        {t('billing.instructionsGoTo')}
      </button>
    </p>
  );
}
