import type { Unknown } from './site-values';
import type { OrderView, RefundingState } from './views/billing';

/**
 * One step of an order's refund story. The service gives, per payment, its creation and payment
 * times and a refund set (refundingState, refundRequestedAt, refundedAt, refundedAmount;
 * service-spec "Payment node"); the spec shows no state machine ("Payment and refund states: not
 * shown"), so a step is only what those fields say: a step whose time the site did not send has
 * `at: null` (shown without a date), and a refund state the app does not know is a step of its own,
 * shown as unknown rather than dropped.
 */
export type RefundStep =
  | { readonly kind: 'ordered'; readonly at: string }
  | { readonly kind: 'paid'; readonly at: string; readonly paymentId: string }
  | { readonly kind: 'refund-requested'; readonly at: string; readonly paymentId: string }
  /** Where the refund stands now: done (with the amount and, when sent, the time), in progress, rejected or unknown. */
  | {
      readonly kind: 'refund-outcome';
      readonly state: Exclude<RefundingState, 'none'> | Unknown;
      readonly at: string | null;
      readonly amount: number;
      readonly currency: string;
      readonly paymentId: string;
    };

/**
 * The timeline of an order with a refund (requested, under way, done, rejected or unknown), oldest
 * first; null when no payment of the order has one. The steps keep the logical order (ordered,
 * paid, requested, outcome) rather than sorting by time, so a date the site wrote badly cannot put
 * a refund before its payment.
 */
export function refundTimeline(order: OrderView): RefundStep[] | null {
  // The view lists payments newest first; the story is told oldest first.
  const payments = [...order.payments].reverse();
  if (!payments.some((p) => p.refund.state !== 'none')) return null;
  const steps: RefundStep[] = [{ kind: 'ordered', at: order.createdAt }];
  for (const p of payments) {
    if (p.refund.state === 'none') continue;
    if (p.paidAt) steps.push({ kind: 'paid', at: p.paidAt, paymentId: p.paymentId });
    if (p.refund.refundRequestedAt)
      steps.push({
        kind: 'refund-requested',
        at: p.refund.refundRequestedAt,
        paymentId: p.paymentId,
      });
    steps.push({
      kind: 'refund-outcome',
      state: p.refund.state,
      at: p.refund.refundedAt,
      amount: p.refund.refundedAmount,
      currency: p.currency,
      paymentId: p.paymentId,
    });
  }
  return steps;
}
