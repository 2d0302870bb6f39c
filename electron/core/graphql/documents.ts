/**
 * The member API documents the sync runs (service-spec "Member API: viewer", "Member GraphQL
 * operations"). One query per connection so each can be paged to the end on its own cursor, and so
 * a field refused for a missing scope (HTTP 200 with `errors`) costs only its own part of the
 * snapshot.
 */
import { graphql, type ResultOf } from './graphql';

/** Page sizes: spec "Limits" caps payments at 50; the schema caps the others at 100. Courses nest
 * sections and lectures, so their pages are smaller to keep each response modest.
 */
export const PAGE_SIZE = {
  courses: 25,
  digitalProducts: 100,
  consultingServices: 100,
  eventRegistrations: 100,
  payments: 50,
  notifications: 100,
} as const;

export const ProfileQuery = graphql(`
  query SyncProfile {
    viewer {
      id
      name
      email
      avatar
      schools {
        id
        name
        subdomain
        roles
      }
    }
  }
`);

export const CoursesQuery = graphql(`
  query SyncCourses($first: Int!, $after: String) {
    viewer {
      enrolledCourses(first: $first, after: $after) {
        totalCount
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes {
          id
          slug
          title
          description
          coverImageUrl
          instructorName
          enrolledAt
          expireDate
          hasLifetimeAccess
          detailProgress {
            totalLectures
            readLectures
            completedLectures
            percent
            completedAt
          }
          lastWatchedLecture {
            lectureId
            positionSeconds
            watchedAt
          }
          sections {
            id
            title
            position
            lectures {
              lectureId
              title
              position
              state
              isLocked
              unlockAt
              duration
            }
          }
        }
      }
    }
  }
`);

export const DigitalProductsQuery = graphql(`
  query SyncDigitalProducts($first: Int!, $after: String) {
    viewer {
      digitalProducts(first: $first, after: $after) {
        totalCount
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes {
          id
          title
          description
          format
          deliveredAt
          expireDate
          downloadUrl
        }
      }
    }
  }
`);

export const ConsultingServicesQuery = graphql(`
  query SyncConsultingServices($first: Int!, $after: String) {
    viewer {
      consultingServices(first: $first, after: $after) {
        totalCount
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes {
          id
          title
          description
          durationMinutes
          consultantName
          courseId
          slots {
            weekday
            startTime
            endTime
            timeZone
          }
          meetings {
            id
            startsAt
            endsAt
          }
        }
      }
    }
  }
`);

export const EventRegistrationsQuery = graphql(`
  query SyncEventRegistrations($first: Int!, $after: String) {
    viewer {
      eventRegistrations(first: $first, after: $after) {
        totalCount
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes {
          id
          eventId
          title
          startsAt
          endsAt
          location
          isOnline
          joinUrl
          ticketName
          registeredAt
        }
      }
    }
  }
`);

export const PaymentsQuery = graphql(`
  query SyncPayments($first: Int!, $after: String) {
    viewer {
      payments(first: $first, after: $after) {
        totalCount
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes {
          id
          tradeNo
          amount
          currency
          paymentType
          createdAt
          paidAt
          paymentState
          adjustments {
            kind
            code
            title
            amount
          }
          invoice {
            number
            kind
            title
            taxId
            issuedAt
            voidedAt
          }
          lineitems {
            id
            itemType
            title
            quantity
            originalAmount
            discountAmount
            finalAmount
          }
          installment {
            periods
            amountPerPeriod
            bankName
          }
          refundingState
          refundedAmount
          refundedAt
          refundRequestedAt
          bankCode
          bankName
          codeNo
          expiredAt
        }
      }
    }
  }
`);

/** Notifications and subscriptions need `account:read` (spec "Member GraphQL operations"). */
export const NotificationsQuery = graphql(`
  query SyncNotifications($first: Int!, $after: String) {
    viewer {
      notifications(first: $first, after: $after) {
        totalCount
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes {
          id
          kind
          title
          body
          url
          createdAt
          readAt
        }
      }
    }
  }
`);

export const NotificationSubscriptionsQuery = graphql(`
  query SyncNotificationSubscriptions {
    viewer {
      notificationSubscriptions {
        topic
        channel
        enabled
      }
    }
  }
`);

/** A cheap reachability probe the core runs while offline. */
export const ProbeQuery = graphql(`
  query SyncProbe {
    viewer {
      id
    }
  }
`);

// Mutations need `account:write` (spec "Scopes": exactly these three).
export const MarkNotificationReadMutation = graphql(`
  mutation OutboxMarkNotificationRead($id: ID!) {
    markNotificationRead(id: $id) {
      id
      readAt
    }
  }
`);

export const MarkAllNotificationsReadMutation = graphql(`
  mutation OutboxMarkAllNotificationsRead {
    markAllNotificationsRead {
      updatedCount
      unreadNotificationCount
    }
  }
`);

export const UpdateNotificationSubscriptionMutation = graphql(`
  mutation OutboxUpdateNotificationSubscription($input: UpdateNotificationSubscriptionInput!) {
    updateNotificationSubscription(input: $input) {
      topic
      channel
      enabled
    }
  }
`);

type Viewer<Q> = Q extends { viewer: infer V } ? NonNullable<V> : never;
type ConnectionNodes<C> = C extends { nodes: readonly (infer N)[] } ? N : never;

export type ProfileData = Viewer<ResultOf<typeof ProfileQuery>>;
export type CourseNode = ConnectionNodes<Viewer<ResultOf<typeof CoursesQuery>>['enrolledCourses']>;
export type DigitalProductNode = ConnectionNodes<
  Viewer<ResultOf<typeof DigitalProductsQuery>>['digitalProducts']
>;
export type ConsultingServiceNode = ConnectionNodes<
  Viewer<ResultOf<typeof ConsultingServicesQuery>>['consultingServices']
>;
export type EventRegistrationNode = ConnectionNodes<
  Viewer<ResultOf<typeof EventRegistrationsQuery>>['eventRegistrations']
>;
export type PaymentNode = ConnectionNodes<Viewer<ResultOf<typeof PaymentsQuery>>['payments']>;
export type NotificationNode = ConnectionNodes<
  Viewer<ResultOf<typeof NotificationsQuery>>['notifications']
>;
export type SubscriptionNode = Viewer<
  ResultOf<typeof NotificationSubscriptionsQuery>
>['notificationSubscriptions'][number];
