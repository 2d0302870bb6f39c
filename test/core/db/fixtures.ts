import type { SearchHitContext } from '../../../electron/common/view-models';
import { COURSE_DISPLAY_FIELDS, type CourseDisplay } from '../../../electron/core/db';
import type {
  CourseRecord,
  NotificationRecord,
  PaymentRecord,
  SiteSnapshot,
} from '../../../electron/core/db/records';

/**
 * Every display-only field of the course query left null (course-display.ts), so a field the query
 * gains asks nothing of the fixtures; one that may not be null fails to compile here and gets a
 * value.
 */
export function noDisplay(): CourseDisplay {
  const none = Object.fromEntries(COURSE_DISPLAY_FIELDS.map((field) => [field, null]));
  return none as { [K in keyof CourseDisplay]: null };
}

/** Small hand-made snapshots in the member API's shapes, for store tests that need no server. */
export function course(id: string, overrides: Partial<CourseRecord> = {}): CourseRecord {
  return {
    ...noDisplay(),
    id,
    slug: `slug-${id}`,
    title: `Course ${id}`,
    description: null,
    coverImageUrl: null,
    instructorName: 'Ann',
    enrolledAt: '2026-01-01T00:00:00.000Z',
    expireDate: null,
    hasLifetimeAccess: true,
    detailProgress: {
      totalLectures: 2,
      readLectures: 1,
      completedLectures: 1,
      percent: 50,
      completedAt: null,
    },
    lastWatchedLecture: {
      lectureId: `${id}-l2`,
      positionSeconds: 42,
      watchedAt: '2026-02-01T00:00:00.000Z',
    },
    sections: [
      {
        id: `${id}-s1`,
        title: `Section of ${id}`,
        position: 1,
        lectures: [
          {
            lectureId: `${id}-l1`,
            title: 'Welcome',
            position: 1,
            state: 'completed',
            isLocked: false,
            unlockAt: null,
            duration: 60,
          },
          {
            lectureId: `${id}-l2`,
            title: 'Knife skills',
            position: 2,
            state: 'read',
            isLocked: true,
            unlockAt: '2026-03-01T00:00:00.000Z',
            duration: 300,
          },
        ],
      },
    ],
    ...overrides,
  };
}

export function notification(
  id: string,
  overrides: Partial<NotificationRecord> = {},
): NotificationRecord {
  return {
    id,
    kind: 'announcement',
    title: `Notice ${id}`,
    body: 'Body text',
    url: null,
    createdAt: '2026-01-02T00:00:00.000Z',
    readAt: null,
    ...overrides,
  };
}

export function payment(id: string, overrides: Partial<PaymentRecord> = {}): PaymentRecord {
  return {
    id,
    tradeNo: `T-${id}`,
    amount: 1000,
    currency: 'TWD',
    paymentType: 'credit_card',
    createdAt: '2026-01-03T00:00:00.000Z',
    paidAt: '2026-01-03T00:01:00.000Z',
    paymentState: 'paid',
    adjustments: [],
    invoice: null,
    lineitems: [
      {
        id: `li-${id}`,
        itemType: 'CurriculumPlan',
        title: `Plan ${id}`,
        quantity: 1,
        originalAmount: 1000,
        discountAmount: 0,
        finalAmount: 1000,
      },
    ],
    installment: null,
    refundingState: 'none',
    refundedAmount: 0,
    refundedAt: null,
    refundRequestedAt: null,
    bankCode: null,
    bankName: null,
    codeNo: null,
    expiredAt: null,
    ...overrides,
  };
}

export function snapshot(prefix: string): SiteSnapshot {
  return {
    profile: {
      id: `u-${prefix}`,
      name: `User ${prefix}`,
      email: `${prefix}@example.com`,
      avatar: null,
      schools: [{ id: `sch-${prefix}`, name: 'School', subdomain: prefix, roles: ['student'] }],
    },
    courses: [
      course(`${prefix}-c1`, { title: `Cooking basics ${prefix}` }),
      course(`${prefix}-c2`),
    ],
    digitalProducts: [],
    eventRegistrations: [],
    consultingServices: [],
    payments: [payment(`${prefix}-p1`)],
    notifications: [
      notification(`${prefix}-n1`),
      notification(`${prefix}-n2`, { readAt: '2026-01-05T00:00:00.000Z' }),
    ],
    subscriptions: [{ topic: 'announcements', channel: 'email', enabled: true }],
  };
}

/** A search hit's context with nothing in it: tests name what a kind has. */
export function hitContext(overrides: Partial<SearchHitContext> = {}): SearchHitContext {
  return {
    course: null,
    section: null,
    lectureState: null,
    percent: null,
    person: null,
    courseCount: null,
    tradeNo: null,
    amount: null,
    orderState: null,
    paymentState: null,
    at: null,
    ...overrides,
  };
}
