import { z } from 'zod';

/**
 * The `outputSchema` of every /mcp tool (MCP 2025-06-18 "Structured content"): a client may check
 * what a tool answers, and the SDK checks it here before sending (an answer that does not fit is a
 * server bug, not data). The member tools answer what the member GraphQL API answers, so these
 * follow `member-api/schema/*.graphql`.
 */

const iso = z.string().describe('ISO 8601 date-time in UTC');
const pageInfo = z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() });

export const searchCoursesOutput = {
  courses: z.array(
    z.object({
      id: z.string(),
      slug: z.string(),
      title: z.string(),
      description: z.string().nullable(),
      instructorName: z.string().nullable(),
      price: z.number(),
      currency: z.string().describe('ISO 4217'),
    }),
  ),
};

export const schoolInfoOutput = {
  id: z.string(),
  name: z.string(),
  subdomain: z.string(),
  url: z.string(),
  locale: z.string().nullable(),
  timeZone: z.string().nullable(),
  publishedCourses: z.number().int(),
};

export const upcomingEventsOutput = {
  events: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      startsAt: iso,
      endsAt: iso,
      location: z.string().nullable(),
      isOnline: z.boolean(),
    }),
  ),
};

export const myCoursesOutput = {
  viewer: z.object({
    enrolledCourses: z.object({
      totalCount: z.number().int(),
      pageInfo,
      nodes: z.array(
        z.object({
          id: z.string(),
          slug: z.string(),
          title: z.string(),
          expireDate: iso.nullable(),
          hasLifetimeAccess: z.boolean(),
          detailProgress: z.object({
            totalLectures: z.number().int(),
            completedLectures: z.number().int(),
            percent: z.number(),
          }),
          lastWatchedLecture: z
            .object({ lectureId: z.string(), positionSeconds: z.number().int() })
            .nullable(),
        }),
      ),
    }),
  }),
};

export const courseProgressOutput = {
  courseId: z.string(),
  totalLectures: z.number().int(),
  completedLectures: z.number().int(),
  percent: z.number(),
  lastWatchedLecture: z
    .object({ lectureId: z.string(), positionSeconds: z.number().int() })
    .nullable(),
  sections: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      lectures: z.array(
        z.object({
          lectureId: z.string(),
          title: z.string(),
          state: z.enum(['unread', 'read', 'completed']),
          isLocked: z.boolean(),
          unlockAt: iso.nullable(),
        }),
      ),
    }),
  ),
};

export const myPaymentsOutput = {
  viewer: z.object({
    payments: z.object({
      totalCount: z.number().int(),
      pageInfo,
      nodes: z.array(
        z.object({
          id: z.string(),
          tradeNo: z.string(),
          amount: z.number(),
          currency: z.string(),
          paymentType: z.string(),
          paymentState: z.string(),
          createdAt: iso,
          paidAt: iso.nullable(),
          refundingState: z.string(),
          refundedAmount: z.number(),
          bankCode: z.string().nullable(),
          bankName: z.string().nullable(),
          codeNo: z.string().nullable(),
          expiredAt: iso.nullable(),
          lineitems: z.array(
            z.object({ itemType: z.string(), title: z.string(), finalAmount: z.number() }),
          ),
        }),
      ),
    }),
  }),
};

export const notificationsOutput = {
  viewer: z.object({
    unreadNotificationCount: z.number().int(),
    notifications: z.object({
      totalCount: z.number().int(),
      pageInfo,
      nodes: z.array(
        z.object({
          id: z.string(),
          kind: z.string(),
          title: z.string(),
          body: z.string(),
          url: z.string().nullable(),
          createdAt: iso,
          readAt: iso.nullable(),
        }),
      ),
    }),
  }),
};

export const markReadOutput = {
  markNotificationRead: z.object({ id: z.string(), readAt: iso.nullable() }),
};
