import type { IsoDateTime } from './base';

/**
 * What the student holds besides courses: digital products, event registrations, consulting
 * services.
 */

export interface DigitalProductView {
  readonly id: string;
  readonly title: string;
  readonly description: string | null;
  readonly format: string;
  readonly deliveredAt: IsoDateTime;
  readonly expireDate: IsoDateTime | null;
  /**
   * Null also when the site sent an address the app does not open (external-url.ts); then
   * `urlRefused`.
   */
  readonly downloadUrl: string | null;
  readonly urlRefused?: true;
}

export interface EventRegistrationView {
  readonly id: string;
  readonly eventId: string;
  readonly title: string;
  readonly startsAt: IsoDateTime;
  readonly endsAt: IsoDateTime;
  readonly location: string | null;
  readonly isOnline: boolean;
  /**
   * Null also when the site sent an address the app does not open (external-url.ts); then
   * `urlRefused`.
   */
  readonly joinUrl: string | null;
  readonly urlRefused?: true;
  readonly ticketName: string;
  readonly registeredAt: IsoDateTime;
  readonly isPast: boolean;
}

export interface ConsultingServiceView {
  readonly id: string;
  readonly title: string;
  readonly description: string | null;
  readonly durationMinutes: number;
  readonly consultantName: string;
  readonly courseId: string;
  readonly courseTitle: string | null;
  readonly slots: readonly {
    readonly weekday: number;
    readonly startTime: string;
    readonly endTime: string;
    readonly timeZone: string;
  }[];
  /** Times already booked on the service by anyone; never the viewer's own bookings. */
  readonly bookedTimes: readonly { readonly startsAt: IsoDateTime; readonly endsAt: IsoDateTime }[];
}

export interface EntitlementsView {
  readonly digitalProducts: readonly DigitalProductView[];
  readonly eventRegistrations: readonly EventRegistrationView[];
}
