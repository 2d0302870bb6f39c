import { useTranslation } from 'react-i18next';
import { refundTimeline, type RefundStep } from '../../../../electron/common/refund-timeline';
import type { OrderView } from '../../../../electron/common/view-models';
import { formatDateTime, formatMoney } from '../../ui/format';

/**
 * What one step says: its words (a refund state the app does not know reads "unknown"), then its
 * date.
 */
function stepText(
  step: RefundStep,
  t: (key: string, vars?: Record<string, unknown>) => string,
  lng: string,
): string {
  switch (step.kind) {
    case 'ordered':
      return t('billing.timeline.ordered');
    case 'paid':
      return t('billing.timeline.paid');
    case 'refund-requested':
      return t('billing.timeline.requested');
    case 'refund-outcome': {
      const amount = formatMoney(step.amount, step.currency, lng);
      return t(`billing.timeline.outcome.${step.state}`, { amount });
    }
  }
}

/**
 * The story of a refunded (or refund-requested) order, oldest first: ordered, paid, refund
 * requested, and where the refund stands, each with the date the school sent (a step without one
 * says so). Only what the data holds.
 */
export function RefundTimeline({ order }: { readonly order: OrderView }) {
  const { t, i18n } = useTranslation();
  const steps = refundTimeline(order);
  if (!steps) return null;
  const lng = i18n.language;
  return (
    <section
      className="refund-timeline"
      aria-label={t('billing.timeline.title')}
      data-testid="refund-timeline"
    >
      <p className="small timeline-title">{t('billing.timeline.title')}</p>
      <ol>
        {steps.map((s, i) => (
          <li
            key={i}
            data-step={s.kind}
            data-state={s.kind === 'refund-outcome' ? s.state : undefined}
          >
            <span className="timeline-what">{stepText(s, t, lng)}</span>{' '}
            <span className="muted small">
              {s.at ? formatDateTime(s.at, lng) : t('billing.timeline.noDate')}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
