/** The Today home: what to do next across every school kept on this computer. */
import type { IsoDateTime, SiteId } from './base';
import type { PaymentView } from './billing';
import type { CourseNextStep } from './courses';

/** A course being watched: most recently watched first, any school. */
export interface TodayCourse {
  readonly siteId: SiteId;
  readonly courseId: string;
  readonly title: string;
  readonly coverImageUrl: string | null;
  readonly lastWatchedAt: IsoDateTime | null;
  readonly percent: number;
  /** resume, next, start or locked (the home lists only courses that can still be watched). */
  readonly nextStep: CourseNextStep;
}

export type TodayAttention =
  /** Access to an unfinished course ends within 14 days. */
  | {
      readonly kind: 'access-ending';
      readonly siteId: SiteId;
      readonly courseId: string;
      readonly title: string;
      readonly endsAt: IsoDateTime;
      readonly percent: number;
    }
  /** An unpaid ATM or convenience-store code, payable until expiresAt. */
  | {
      readonly kind: 'payment-due';
      readonly siteId: SiteId;
      readonly paymentId: string;
      readonly tradeNo: string;
      readonly title: string;
      readonly amount: number;
      readonly currency: string;
      readonly paymentType: PaymentView['paymentType'];
      readonly codeNo: string;
      readonly expiresAt: IsoDateTime | null;
    }
  /** An event the student registered for starts within 7 days. */
  | {
      readonly kind: 'event-soon';
      readonly siteId: SiteId;
      readonly registrationId: string;
      readonly title: string;
      readonly startsAt: IsoDateTime;
      readonly isOnline: boolean;
      readonly joinUrl: string | null;
    }
  /** A lecture locked in the saved copy whose unlock date has passed since the last sync. */
  | {
      readonly kind: 'lecture-unlocked';
      readonly siteId: SiteId;
      readonly courseId: string;
      readonly courseTitle: string;
      readonly lectureId: string;
      readonly lectureTitle: string;
      readonly unlockedAt: IsoDateTime;
    };

export interface TodaySite {
  readonly siteId: SiteId;
  readonly label: string;
  /** When the saved copy was last brought up to date (null: never synced). */
  readonly lastSyncedAt: IsoDateTime | null;
  readonly unreadCount: number;
}

export interface TodayView {
  /** The clock the view was read at. */
  readonly now: IsoDateTime;
  readonly continueLearning: readonly TodayCourse[];
  /** Soonest first. */
  readonly attention: readonly TodayAttention[];
  /** Every school kept on this computer, in the order they were added. */
  readonly sites: readonly TodaySite[];
}
