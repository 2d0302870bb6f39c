import type { Unknown } from '../site-values';
import type { IsoDateTime } from './base';

/** Notifications and their subscriptions. */

export type NotificationKind =
  'announcement' | 'course_update' | 'payment' | 'event' | 'consulting';
export type NotificationTopic =
  'announcements' | 'course_updates' | 'payments' | 'events' | 'marketing';
export type NotificationChannel = 'email' | 'in_app' | 'push';

export interface NotificationView {
  readonly id: string;
  /** 'unknown' for a kind this version does not know (site-values.ts). */
  readonly kind: NotificationKind | Unknown;
  readonly title: string;
  readonly body: string;
  readonly url: string | null;
  readonly createdAt: IsoDateTime;
  readonly readAt: IsoDateTime | null;
  /** A local change (mark read) not yet accepted by the site. */
  readonly pendingSync: boolean;
}

export interface NotificationSubscriptionView {
  readonly topic: NotificationTopic;
  readonly channel: NotificationChannel;
  readonly enabled: boolean;
  readonly pendingSync: boolean;
}

/**
 * The whole inbox at once (tests, scripts). The screen reads NotificationsSummary and pages
 * (notifications:page).
 */
export interface NotificationsView {
  readonly items: readonly NotificationView[];
  readonly unreadCount: number;
  readonly subscriptions: readonly NotificationSubscriptionView[];
}

export interface NotificationsSummary {
  /** Every notification, read or not. */
  readonly total: number;
  readonly unreadCount: number;
  readonly subscriptions: readonly NotificationSubscriptionView[];
}

/**
 * Where opening a notice leads (the core reads its url, common/notice-links.ts, and looks the id up
 * in the saved copy): a course, an order in Purchases, an event with its join link, a consulting
 * service; or nowhere, with why.
 */
export type NoticeTarget =
  | { readonly kind: 'course'; readonly courseId: string; readonly lectureId: string | null }
  | { readonly kind: 'order'; readonly tradeNo: string }
  | {
      readonly kind: 'event';
      readonly registrationId: string;
      readonly title: string;
      readonly startsAt: IsoDateTime;
      readonly endsAt: IsoDateTime;
      readonly isOnline: boolean;
      readonly location: string | null;
      /** As the site sent it; the screen opens it only through its external-URL check. */
      readonly joinUrl: string | null;
    }
  | { readonly kind: 'consulting'; readonly serviceId: string }
  /** `no-link`: the notice names no page the app knows; `not-in-copy`: it names one the saved copy does not hold. */
  | { readonly kind: 'none'; readonly reason: 'no-link' | 'not-in-copy' };
