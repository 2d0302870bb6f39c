import { queryServer } from './member-token';

// What the server holds, asked with our own hand-written documents (independent of the sync's).
export const SERVER_VIEWER = /* GraphQL */ `
  query Everything {
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
      enrolledCourses(first: 100) {
        totalCount
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
      digitalProducts(first: 100) {
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
      eventRegistrations(first: 100) {
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
      consultingServices(first: 100) {
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
      notifications(first: 100) {
        totalCount
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
      unreadNotificationCount
      notificationSubscriptions {
        topic
        channel
        enabled
      }
    }
  }
`;
export const SERVER_PAYMENTS = /* GraphQL */ `
  query Payments($after: String) {
    viewer {
      payments(first: 50, after: $after) {
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
`;

/* eslint-disable @typescript-eslint/no-explicit-any -- the answers are compared field by field by the tests */
export async function serverPayments(url: string, token: string): Promise<any[]> {
  const all: any[] = [];
  let after: string | null = null;
  for (;;) {
    const data: any = await queryServer(url, token, SERVER_PAYMENTS, { after });
    all.push(...data.viewer.payments.nodes);
    if (!data.viewer.payments.pageInfo.hasNextPage) return all;
    after = data.viewer.payments.pageInfo.endCursor;
  }
}
