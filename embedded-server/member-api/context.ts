import type { Database } from 'better-sqlite3';
import * as courses from '../store/content-courses';
import * as ent from '../store/content-entitlements';
import * as pay from '../store/content-payments';
import * as ntf from '../store/content-notifications';
import { schoolsOfUser, type SchoolMembershipRow } from '../store/content-viewer';
import { getUserById, type UserRow } from '../store/identity';
import type { Page, PageKey } from '../store/content-sql';

/**
 * The per-request context of the member GraphQL API. Resolvers reach data only through `data`,
 * which is bound to the token's school and member: no resolver can read another member's rows by
 * accident.
 */
export interface MemberContext {
  readonly schoolId: string;
  readonly userId: string;
  /** Scopes granted to the access token (the guard reads them). */
  readonly scopes: ReadonlySet<string>;
  /** Milliseconds since the epoch, fixed for the request so one response is self-consistent. */
  readonly now: number;
  /**
   * The site's base URL (= issuer, `http://127.0.0.1:<port>`): site-relative URLs in the data
   * resolve against it.
   */
  readonly baseUrl: string;
  readonly data: MemberData;
}

export function createMemberContext(
  db: Database,
  opts: {
    schoolId: string;
    userId: string;
    scopes: readonly string[];
    now: number;
    baseUrl: string;
  },
): MemberContext {
  return {
    schoolId: opts.schoolId,
    userId: opts.userId,
    scopes: new Set(opts.scopes),
    now: opts.now,
    baseUrl: opts.baseUrl,
    data: new MemberData(db, opts.schoolId, opts.userId, opts.now),
  };
}

export class MemberData {
  private user: UserRow | undefined | null = null;

  constructor(
    private readonly db: Database,
    private readonly schoolId: string,
    private readonly userId: string,
    readonly now: number,
  ) {}

  private req(first: number, after: PageKey | null) {
    return { schoolId: this.schoolId, userId: this.userId, first, after };
  }

  profile(): UserRow | undefined {
    if (this.user === null) this.user = getUserById(this.db, this.userId);
    return this.user;
  }

  schools(): SchoolMembershipRow[] {
    return schoolsOfUser(this.db, this.userId);
  }

  enrolledCourses(first: number, after: PageKey | null): Page<courses.EnrolledCourseRow> {
    return courses.listEnrolledCourses(this.db, this.req(first, after));
  }

  /**
   * Sections and lectures of one page of courses (memoised per course, store/content-memo.ts) and
   * the viewer's state of their lectures (read every time): at most three statements for the page,
   * no N+1 per course.
   */
  courseTrees(courseIds: readonly string[]): {
    trees: Map<string, readonly courses.TreeSection[]>;
    states: Map<string, courses.LectureRow['state']>;
  } {
    if (courseIds.length === 0) return { trees: new Map(), states: new Map() };
    return {
      trees: courses.courseTreeContent(this.db, courseIds),
      states: courses.lectureStates(this.db, this.userId, courseIds),
    };
  }

  digitalProducts(first: number, after: PageKey | null): Page<ent.DeliveredProductRow> {
    return ent.listDeliveredProducts(this.db, this.req(first, after));
  }

  eventRegistrations(first: number, after: PageKey | null): Page<ent.EventRegistrationRow> {
    return ent.listEventRegistrations(this.db, this.req(first, after));
  }

  consultingServices(first: number, after: PageKey | null): Page<ent.ConsultingServiceRow> {
    return ent.listConsultingServicesForMember(this.db, {
      ...this.req(first, after),
      now: this.now,
    });
  }

  consultingDetails(serviceIds: readonly string[]): {
    slots: ent.SlotRow[];
    meetings: ent.MeetingRow[];
  } {
    if (serviceIds.length === 0) return { slots: [], meetings: [] };
    return {
      slots: ent.slotsForServices(this.db, serviceIds),
      meetings: ent.meetingsForServices(this.db, serviceIds),
    };
  }

  payments(first: number, after: PageKey | null): Page<pay.PaymentTuple> {
    return pay.listPaymentTuples(this.db, this.req(first, after));
  }

  paymentDetails(paymentIds: readonly string[]): {
    adjustments: pay.AdjustmentRow[];
    lineItems: pay.LineItemRow[];
  } {
    if (paymentIds.length === 0) return { adjustments: [], lineItems: [] };
    return {
      adjustments: pay.adjustmentsForPayments(this.db, paymentIds),
      lineItems: pay.lineItemsForPayments(this.db, paymentIds),
    };
  }

  notifications(
    first: number,
    after: PageKey | null,
    unreadOnly: boolean,
  ): Page<ntf.NotificationRow> {
    return ntf.listNotifications(this.db, { ...this.req(first, after), unreadOnly });
  }

  unreadCount(): number {
    return ntf.countUnread(this.db, this.schoolId, this.userId);
  }

  subscriptions(): ntf.SubscriptionRow[] {
    return ntf.listSubscriptions(this.db, this.schoolId, this.userId);
  }

  markNotificationRead(id: string): ntf.NotificationRow | undefined {
    return ntf.markRead(this.db, this.schoolId, this.userId, id, this.now);
  }

  markAllNotificationsRead(): number {
    return ntf.markAllRead(this.db, this.schoolId, this.userId, this.now);
  }

  updateSubscription(topic: string, channel: string, enabled: boolean): void {
    ntf.upsertSubscription(this.db, this.schoolId, this.userId, {
      topic,
      channel,
      enabled: enabled ? 1 : 0,
    });
  }
}
