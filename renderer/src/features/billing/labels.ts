import type {
  LineItemType,
  OrderView,
  PaymentState,
  PaymentType,
  PaymentView,
  RefundingState,
} from '../../../../electron/common/view-models';
import { assertNever } from '../../../../electron/common/result';
import type { Unknown } from '../../../../electron/common/site-values';

export function paymentStateKey(s: PaymentState | Unknown): string {
  switch (s) {
    case 'unknown':
      return 'common.unknown';
    case 'not_paid':
    case 'paid':
    case 'expired':
    case 'failed':
    case 'manual_enrolled':
    case 'refunded':
      return `billing.paymentState.${s}`;
    default:
      return assertNever(s, 'payment state');
  }
}

export function paymentTypeKey(s: PaymentType | Unknown): string {
  switch (s) {
    case 'unknown':
      return 'common.unknown';
    case 'credit_card':
    case 'atm':
    case 'cvs':
    case 'line_pay':
    case 'apple_pay':
    case 'manual':
    case 'free':
      return `billing.paymentType.${s}`;
    default:
      return assertNever(s, 'payment type');
  }
}

export function refundingStateKey(s: RefundingState | Unknown): string {
  switch (s) {
    case 'unknown':
      return 'common.unknown';
    case 'none':
    case 'requested':
    case 'processing':
    case 'partially_refunded':
    case 'refunded':
    case 'rejected':
      return `billing.refundState.${s}`;
    default:
      return assertNever(s, 'refunding state');
  }
}

export function lineItemTypeKey(s: LineItemType | Unknown): string {
  switch (s) {
    case 'unknown':
      return 'common.unknown';
    case 'CurriculumPlan':
    case 'MembershipPlan':
    case 'Ticket':
    case 'DigitalProduct':
    case 'OrderBump':
    case 'Meeting':
      return `billing.itemType.${s}`;
    default:
      return assertNever(s, 'line item type');
  }
}

export function summaryStateKey(s: OrderView['summaryState']): string {
  switch (s) {
    case 'paid':
    case 'partially_refunded':
    case 'refunded':
    case 'awaiting_payment':
    case 'expired':
    case 'failed':
    case 'manual_enrolled':
    case 'mixed':
      return `billing.orderState.${s}`;
    default:
      return assertNever(s, 'order state');
  }
}

/** Tone of a state badge; the words always carry the meaning, the colour only repeats it. */
export function summaryTone(s: OrderView['summaryState']): 'ok' | 'warn' | 'bad' | 'neutral' {
  switch (s) {
    case 'paid':
    case 'manual_enrolled':
      return 'ok';
    case 'awaiting_payment':
    case 'partially_refunded':
    case 'mixed':
      return 'warn';
    case 'expired':
    case 'failed':
      return 'bad';
    case 'refunded':
      return 'neutral';
    default:
      return assertNever(s, 'order state');
  }
}

export function paymentTone(p: PaymentView): 'ok' | 'warn' | 'bad' | 'neutral' {
  switch (p.paymentState) {
    case 'paid':
    case 'manual_enrolled':
      return 'ok';
    case 'not_paid':
      return 'warn';
    case 'expired':
    case 'failed':
      return 'bad';
    case 'refunded':
    case 'unknown':
      return 'neutral';
    default:
      return assertNever(p.paymentState, 'payment state');
  }
}

export function invoiceKindKey(kind: 'personal' | 'company' | 'donation' | Unknown): string {
  switch (kind) {
    case 'unknown':
      return 'common.unknown';
    case 'personal':
    case 'company':
    case 'donation':
      return `billing.invoiceKind.${kind}`;
    default:
      return assertNever(kind, 'invoice kind');
  }
}
