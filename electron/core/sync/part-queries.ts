import type { ResultOf, TadaDocumentNode } from 'gql.tada';
import type { SyncPhase } from '../../common/view-models';
import { PART_NAMES, type PagedPart, type PartName, type SYNCED_PARTS } from '../db/index';
import {
  ConsultingServicesQuery,
  CoursesQuery,
  DigitalProductsQuery,
  EventRegistrationsQuery,
  NotificationSubscriptionsQuery,
  NotificationsQuery,
  PAGE_SIZE,
  PaymentsQuery,
  ProfileQuery,
} from '../graphql/documents';

type Document = TadaDocumentNode<unknown, never>;
type ViewerOf<D extends Document> =
  ResultOf<D> extends { viewer: infer V } ? NonNullable<V> : never;

/**
 * How the sync asks for one part: its query, where the part sits in the answer, and the progress
 * phase it counts in.
 */
interface PartQuery {
  readonly phase: SyncPhase;
  readonly document: Document;
  /** From the answer's `data` to the part (a connection, or the whole value). */
  readonly path: readonly string[];
}
export interface PagedQuery extends PartQuery {
  readonly paged: true;
  readonly pageSize: number;
  /**
   * The connection comes newest first, and a part longer than the page bound (site-data.ts
   * MAX_PAGES_PER_PART) is kept to its newest pages rather than refused: a very long history is old
   * news, not a broken site.
   */
  readonly keepsNewest?: true;
}
export interface WholeQuery extends PartQuery {
  readonly paged: false;
}

/**
 * A connection of `viewer`, paged to its end; the field name is checked against the document's
 * result.
 */
function connection<D extends Document>(
  phase: SyncPhase,
  document: D,
  field: keyof ViewerOf<D> & string,
  pageSize: number,
): PagedQuery {
  return { paged: true, phase, document, path: ['viewer', field], pageSize };
}

/** A part that arrives whole in one answer: `viewer` itself, or one field of it. */
function whole<D extends Document>(
  phase: SyncPhase,
  document: D,
  field?: keyof ViewerOf<D> & string,
): WholeQuery {
  return {
    paged: false,
    phase,
    document,
    path: field === undefined ? ['viewer'] : ['viewer', field],
  };
}

/**
 * The query of each synced part. Keyed by db/parts.ts SYNCED_PARTS, the one table of synced parts:
 * a part added there without its query here, or paged there and whole here, is a type error.
 */
export const PART_QUERIES = {
  profile: whole('profile', ProfileQuery),
  courses: connection('courses', CoursesQuery, 'enrolledCourses', PAGE_SIZE.courses),
  digitalProducts: connection(
    'digital-products',
    DigitalProductsQuery,
    'digitalProducts',
    PAGE_SIZE.digitalProducts,
  ),
  eventRegistrations: connection(
    'events',
    EventRegistrationsQuery,
    'eventRegistrations',
    PAGE_SIZE.eventRegistrations,
  ),
  consultingServices: connection(
    'consulting',
    ConsultingServicesQuery,
    'consultingServices',
    PAGE_SIZE.consultingServices,
  ),
  payments: connection('payments', PaymentsQuery, 'payments', PAGE_SIZE.payments),
  // Newest first (embedded-server README decisions: notifications by creation time, newest first).
  notifications: {
    ...connection('notifications', NotificationsQuery, 'notifications', PAGE_SIZE.notifications),
    keepsNewest: true,
  },
  subscriptions: whole(
    'notifications',
    NotificationSubscriptionsQuery,
    'notificationSubscriptions',
  ),
} as const satisfies {
  readonly [P in PartName]-?: (typeof SYNCED_PARTS)[P]['paged'] extends true
    ? PagedQuery
    : WholeQuery;
};

/** The progress phases the parts count in (a part's share of the fraction is its phase's). */
export const FETCH_PHASES: readonly SyncPhase[] = [
  ...new Set(PART_NAMES.map((part) => PART_QUERIES[part].phase)),
];

/**
 * The order the parts are started in: the longest chains of pages first, so they take the first
 * slots of the fetch's bound, then the rest in SYNCED_PARTS order.
 */
const LONGEST_FIRST: readonly PagedPart[] = ['payments', 'courses', 'notifications'];
export const FETCH_ORDER: readonly PartName[] = [
  ...LONGEST_FIRST,
  ...PART_NAMES.filter((part) => !(LONGEST_FIRST as readonly PartName[]).includes(part)),
];
