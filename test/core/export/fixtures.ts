import type { CourseDetail, OrderView, PaymentView } from '../../../electron/common/view-models';
import { noDisplay } from '../db/fixtures';

/** View models as the offline database gives them, for the pure file writers. */
export function paymentView(id: string, overrides: Partial<PaymentView> = {}): PaymentView {
  return {
    paymentId: id,
    tradeNo: `T-${id}`,
    amount: 1200,
    currency: 'TWD',
    paymentType: 'credit_card',
    paymentState: 'paid',
    createdAt: '2026-01-05T06:30:00.000Z',
    paidAt: '2026-01-05T06:31:00.000Z',
    adjustments: [],
    invoice: null,
    lineItems: [
      {
        id: `li-${id}`,
        itemType: 'CurriculumPlan',
        title: `Plan ${id}`,
        quantity: 1,
        originalAmount: 1200,
        discountAmount: 0,
        finalAmount: 1200,
      },
    ],
    installment: null,
    refund: { state: 'none', refundedAmount: 0, refundedAt: null, refundRequestedAt: null },
    instructions: null,
    ...overrides,
  };
}

export function orderView(
  tradeNo: string,
  payments: readonly PaymentView[],
  overrides: Partial<OrderView> = {},
): OrderView {
  return {
    tradeNo,
    currency: payments[0]!.currency,
    createdAt: payments[payments.length - 1]!.createdAt,
    paidAmount: payments.filter((p) => p.paymentState === 'paid').reduce((n, p) => n + p.amount, 0),
    refundedAmount: payments.reduce((n, p) => n + p.refund.refundedAmount, 0),
    totalAmount: payments.reduce((n, p) => n + p.amount, 0),
    summaryState: 'paid',
    title: payments.flatMap((p) => p.lineItems.map((li) => li.title)).join(', '),
    payments,
    ...overrides,
  };
}

export function courseDetail(overrides: Partial<CourseDetail> = {}): CourseDetail {
  return {
    ...noDisplay(),
    courseId: 'c1',
    slug: 'knife-skills',
    title: 'Knife skills',
    description: null,
    coverImageUrl: null,
    instructorName: 'Ann',
    enrolledAt: '2026-01-01T00:00:00.000Z',
    expireDate: '2026-09-30T15:59:59.000Z',
    hasLifetimeAccess: false,
    isExpired: false,
    expiresSoon: false,
    totalLectures: 10,
    completedLectures: 4,
    readLectures: 5,
    percent: 40,
    completedAt: null,
    continueWatching: null,
    siteId: 's',
    lecturesLeft: 6,
    secondsLeft: 3_600,
    newLectures: 0,
    nextStep: { kind: 'none' },
    sections: [],
    lastWatched: null,
    ...overrides,
  };
}
