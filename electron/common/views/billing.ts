import type { Unknown } from '../site-values';
import type { IsoDateTime } from './base';

/** Billing: payments, orders, payment instructions, totals per currency. */

export type PaymentState =
  'not_paid' | 'paid' | 'expired' | 'failed' | 'manual_enrolled' | 'refunded';
export type PaymentType =
  'credit_card' | 'atm' | 'cvs' | 'line_pay' | 'apple_pay' | 'manual' | 'free';
export type RefundingState =
  'none' | 'requested' | 'processing' | 'partially_refunded' | 'refunded' | 'rejected';
export type LineItemType =
  'CurriculumPlan' | 'MembershipPlan' | 'Ticket' | 'DigitalProduct' | 'OrderBump' | 'Meeting';

export interface PaymentInstructions {
  readonly bankCode: string | null;
  readonly bankName: string | null;
  readonly codeNo: string;
  readonly expiredAt: IsoDateTime | null;
  /** expiredAt is in the past. */
  readonly isExpired: boolean;
}

export interface PaymentView {
  readonly paymentId: string;
  readonly tradeNo: string;
  readonly amount: number;
  readonly currency: string;
  /** Enums here are 'unknown' for a value this version does not know (site-values.ts). Dates are
   * the site's text:
   * one that does not parse is shown as "unknown". */
  readonly paymentType: PaymentType | Unknown;
  readonly paymentState: PaymentState | Unknown;
  readonly createdAt: IsoDateTime;
  readonly paidAt: IsoDateTime | null;
  readonly adjustments: readonly {
    readonly kind: 'coupon' | 'promotion' | Unknown;
    readonly code: string | null;
    readonly title: string;
    readonly amount: number;
  }[];
  readonly invoice: {
    readonly number: string;
    readonly kind: 'personal' | 'company' | 'donation' | Unknown;
    readonly title: string | null;
    readonly taxId: string | null;
    readonly issuedAt: IsoDateTime;
    readonly voidedAt: IsoDateTime | null;
  } | null;
  readonly lineItems: readonly {
    readonly id: string;
    readonly itemType: LineItemType | Unknown;
    readonly title: string;
    readonly quantity: number;
    readonly originalAmount: number;
    readonly discountAmount: number;
    readonly finalAmount: number;
  }[];
  readonly installment: {
    readonly periods: number;
    readonly amountPerPeriod: number;
    readonly bankName: string | null;
  } | null;
  readonly refund: {
    readonly state: RefundingState | Unknown;
    readonly refundedAmount: number;
    readonly refundedAt: IsoDateTime | null;
    readonly refundRequestedAt: IsoDateTime | null;
  };
  /** ATM / convenience-store instructions on unpaid or expired rows. */
  readonly instructions: PaymentInstructions | null;
}

/** Payments grouped by tradeNo (service-spec: one node is one payment, not one order). */
export interface OrderView {
  readonly tradeNo: string;
  readonly currency: string;
  /** Earliest createdAt of its payments. */
  readonly createdAt: IsoDateTime;
  /** Sum of the paid payments. */
  readonly paidAmount: number;
  readonly refundedAmount: number;
  /** Sum of all payment amounts. */
  readonly totalAmount: number;
  /**
   * Derived: 'refunded' | 'partially_refunded' | 'paid' | 'awaiting_payment' | 'expired' | 'failed'
   * | 'mixed'.
   */
  readonly summaryState:
    | 'paid'
    | 'partially_refunded'
    | 'refunded'
    | 'awaiting_payment'
    | 'expired'
    | 'failed'
    | 'manual_enrolled'
    | 'mixed';
  /** Line items of the order (deduplicated across its payments). */
  readonly title: string;
  readonly payments: readonly PaymentView[];
}

/**
 * Purchases filters, applied by the core at read time from each order's state
 * (OrderView.summaryState, judged against the clock of the call): waiting = awaiting_payment; paid
 * = paid; refunded = refunded or partially refunded; failed = failed or expired (the payment never
 * went through). "all" also holds manual and mixed orders.
 */
export const ORDER_FILTERS = ['all', 'waiting', 'paid', 'refunded', 'failed'] as const;
export type OrderFilter = (typeof ORDER_FILTERS)[number];

/** Money per currency: what reached the school (paid, and refunded later) and what went back. */
export interface CurrencyTotal {
  readonly currency: string;
  readonly paid: number;
  readonly refunded: number;
}

/**
 * Money spent in one year (the year an order was placed, as the school wrote its date) in one
 * currency: what reached the school minus what went back.
 */
export interface YearSpending {
  readonly year: string;
  readonly currency: string;
  readonly paid: number;
  readonly refunded: number;
  /** paid - refunded. */
  readonly spent: number;
  readonly orderCount: number;
}

/**
 * The whole billing at once (tests, scripts). The screen reads BillingSummary and pages
 * (billing:orders).
 */
export interface BillingView {
  /** Newest first. */
  readonly orders: readonly OrderView[];
  /**
   * Unpaid ATM / convenience-store rows whose instructions have not expired, soonest expiry first.
   */
  readonly pendingInstructions: readonly PaymentView[];
  readonly totals: readonly CurrencyTotal[];
}

/**
 * The head of the billing screen: counts, totals and the soonest payable codes; the orders come in
 * pages.
 */
export interface BillingSummary {
  readonly orderCount: number;
  readonly paymentCount: number;
  /** Unpaid ATM / convenience-store rows still payable now. */
  readonly pendingCount: number;
  /** The first of them, soonest deadline first (the rest: billing:instructions). */
  readonly pendingInstructions: readonly PaymentView[];
  /** Per currency, by currency code. */
  readonly totals: readonly CurrencyTotal[];
}
