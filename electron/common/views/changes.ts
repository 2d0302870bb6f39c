/**
 * "Since you last looked": what changed for the student at the syncs since Today last showed it.
 */
import type { IsoDateTime, SiteId } from './base';

export const CHANGE_KINDS = [
  'lectures-new',
  'lectures-unlocked',
  'access-moved',
  'access-ended',
  'course-added',
  'course-gone',
  'payment-paid',
  'payment-expired',
  'payment-refunded',
  'product-new',
  'event-new',
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

export interface ChangeView {
  readonly id: number;
  readonly siteId: SiteId;
  readonly at: IsoDateTime;
  readonly kind: ChangeKind;
  /**
   * A course, payment (its order's trade number in `tradeNo`), product or event registration id.
   */
  readonly itemId: string;
  readonly courseId: string | null;
  /** The course's, product's, event's or order's title as the school sent it (cleaned). */
  readonly title: string;
  /** lectures-new / -unlocked: how many; access-moved: the dates before and after. */
  readonly count: number | null;
  readonly from: IsoDateTime | null;
  readonly to: IsoDateTime | null;
  readonly tradeNo: string | null;
}

export interface ChangeGroup {
  readonly siteId: SiteId;
  readonly changes: readonly ChangeView[];
}
