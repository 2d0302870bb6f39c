/**
 * What a sync hands the store: one site's data as the member API returned it (service-spec "Member API:
 * viewer"), already paged to the end. Shapes follow the schema so the sync's typed results fit without copying.
 */
export interface ProfileRecord {
  readonly id: string;
  readonly name: string;
  readonly email: string;
  readonly avatar: string | null;
  readonly schools: readonly { readonly id: string; readonly name: string; readonly subdomain: string; readonly roles: readonly string[] }[];
}

export interface LectureRecord {
  readonly lectureId: string;
  readonly title: string;
  readonly position: number;
  readonly state: 'unread' | 'read' | 'completed';
  readonly isLocked: boolean;
  readonly unlockAt: string | null;
  readonly duration: number;
}

export interface SectionRecord {
  readonly id: string;
  readonly title: string;
  readonly position: number;
  readonly lectures: readonly LectureRecord[];
}

export interface CourseRecord {
  readonly id: string;
  readonly slug: string;
  readonly title: string;
  readonly description: string | null;
  readonly coverImageUrl: string | null;
  readonly instructorName: string | null;
  readonly enrolledAt: string;
  readonly expireDate: string | null;
  readonly hasLifetimeAccess: boolean;
  readonly detailProgress: {
    readonly totalLectures: number;
    readonly readLectures: number;
    readonly completedLectures: number;
    readonly percent: number;
    readonly completedAt: string | null;
  };
  readonly lastWatchedLecture: { readonly lectureId: string; readonly positionSeconds: number; readonly watchedAt: string | null } | null;
  readonly sections: readonly SectionRecord[];
}

export interface DigitalProductRecord {
  readonly id: string;
  readonly title: string;
  readonly description: string | null;
  readonly format: string;
  readonly deliveredAt: string;
  readonly expireDate: string | null;
  readonly downloadUrl: string | null;
}

export interface EventRegistrationRecord {
  readonly id: string;
  readonly eventId: string;
  readonly title: string;
  readonly startsAt: string;
  readonly endsAt: string;
  readonly location: string | null;
  readonly isOnline: boolean;
  readonly joinUrl: string | null;
  readonly ticketName: string;
  readonly registeredAt: string;
}

export interface ConsultingServiceRecord {
  readonly id: string;
  readonly title: string;
  readonly description: string | null;
  readonly durationMinutes: number;
  readonly consultantName: string;
  readonly courseId: string;
  readonly slots: readonly { readonly weekday: number; readonly startTime: string; readonly endTime: string; readonly timeZone: string }[];
  readonly meetings: readonly { readonly id: string; readonly startsAt: string; readonly endsAt: string }[];
}

export interface PaymentRecord {
  readonly id: string;
  readonly tradeNo: string;
  readonly amount: number;
  readonly currency: string;
  readonly paymentType: string;
  readonly createdAt: string;
  readonly paidAt: string | null;
  readonly paymentState: string;
  readonly adjustments: readonly { readonly kind: string; readonly code: string | null; readonly title: string; readonly amount: number }[];
  readonly invoice: {
    readonly number: string;
    readonly kind: string;
    readonly title: string | null;
    readonly taxId: string | null;
    readonly issuedAt: string;
    readonly voidedAt: string | null;
  } | null;
  readonly lineitems: readonly {
    readonly id: string;
    readonly itemType: string;
    readonly title: string;
    readonly quantity: number;
    readonly originalAmount: number;
    readonly discountAmount: number;
    readonly finalAmount: number;
  }[];
  readonly installment: { readonly periods: number; readonly amountPerPeriod: number; readonly bankName: string | null } | null;
  readonly refundingState: string;
  readonly refundedAmount: number;
  readonly refundedAt: string | null;
  readonly refundRequestedAt: string | null;
  readonly bankCode: string | null;
  readonly bankName: string | null;
  readonly codeNo: string | null;
  readonly expiredAt: string | null;
}

export interface NotificationRecord {
  readonly id: string;
  readonly kind: string;
  readonly title: string;
  readonly body: string;
  readonly url: string | null;
  readonly createdAt: string;
  readonly readAt: string | null;
}

export interface SubscriptionRecord {
  readonly topic: string;
  readonly channel: string;
  readonly enabled: boolean;
}

/**
 * One site's snapshot. A part left undefined was not fetched (e.g. refused for a missing scope): its rows
 * are kept as they are. A part given (even empty) replaces what was stored.
 */
export interface SiteSnapshot {
  readonly profile?: ProfileRecord;
  readonly courses?: readonly CourseRecord[];
  readonly digitalProducts?: readonly DigitalProductRecord[];
  readonly eventRegistrations?: readonly EventRegistrationRecord[];
  readonly consultingServices?: readonly ConsultingServiceRecord[];
  readonly payments?: readonly PaymentRecord[];
  readonly notifications?: readonly NotificationRecord[];
  readonly subscriptions?: readonly SubscriptionRecord[];
}
