/**
 * What a sync hands the store: one site's data as the member API returned it (service-spec "Member
 * API:
 * viewer"), already paged to the end. Each record is the result type of the document the sync sends
 * (graphql/documents.ts, typed against the member schema by gql.tada), so a field the query asks
 * for is in the record by construction: the store and the views see it or fail to compile, never
 * drop it unseen.
 */
import type {
  ConsultingServiceNode,
  CourseNode,
  DigitalProductNode,
  EventRegistrationNode,
  NotificationNode,
  PaymentNode,
  ProfileData,
  SubscriptionNode,
} from '../graphql/documents';

/**
 * A document's result as the store receives it: read-only, and every enum widened to string. The
 * schema's enums name the values known when this build was made; a site may send others, which are
 * shown, not thrown, so no code may treat them as a closed set.
 */
export type Received<T> = T extends string
  ? string
  : T extends number | boolean | null | undefined
    ? T
    : T extends readonly (infer E)[]
      ? readonly Received<E>[]
      : { readonly [K in keyof T]: Received<T[K]> };

export type ProfileRecord = Received<ProfileData>;
export type CourseRecord = Received<CourseNode>;
export type SectionRecord = CourseRecord['sections'][number];
export type LectureRecord = SectionRecord['lectures'][number];
export type DigitalProductRecord = Received<DigitalProductNode>;
export type EventRegistrationRecord = Received<EventRegistrationNode>;
export type ConsultingServiceRecord = Received<ConsultingServiceNode>;
export type PaymentRecord = Received<PaymentNode>;
export type NotificationRecord = Received<NotificationNode>;
export type SubscriptionRecord = Received<SubscriptionNode>;

/**
 * One site's snapshot. A part left undefined was not fetched (e.g. refused for a missing scope):
 * its rows are kept as they are. A part given (even empty) replaces what was stored.
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
