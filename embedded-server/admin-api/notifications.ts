import { z } from 'zod';
import type { Route } from '../http/types';
import * as ntf from '../store/content-notifications';
import { membersOfSchool } from '../store/content-viewer';
import {
  AdminError,
  adminRoute,
  iso,
  newId,
  notFound,
  ok,
  pageOf,
  pageQuery,
  pageResult,
  pageWindow,
} from './handler';

/**
 * Notifications published to members. Decision (README): announcements are posts, so publishing and
 * deleting need posts:write and listing needs posts:read. What is published here is what
 * viewer.notifications shows.
 */

const KINDS = ['announcement', 'course_update', 'payment', 'event', 'consulting'] as const;

const notificationOut = z.object({
  id: z.string(),
  userId: z.string(),
  kind: z.string(),
  title: z.string(),
  body: z.string(),
  url: z.string().nullable(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
});
const toOut = (n: ntf.NotificationRow): z.infer<typeof notificationOut> => ({
  id: n.id,
  userId: n.user_id,
  kind: n.kind,
  title: n.title,
  body: n.body,
  url: n.url,
  createdAt: iso(n.created_at)!,
  readAt: iso(n.read_at),
});

const publish = z.object({
  /** Recipients; omitted = every member of the school. */
  userIds: z.array(z.string().min(1)).min(1).max(1000).optional(),
  kind: z.enum(KINDS).default('announcement'),
  title: z.string().min(1).max(200),
  body: z.string().min(1).max(5000),
  url: z.string().max(2000).nullable().default(null),
});

export const notificationRoutes: Route[] = [
  adminRoute({
    method: 'GET',
    path: '/notifications',
    operationId: 'listNotifications',
    summary: 'Notifications sent to members, newest first',
    tag: 'posts',
    scope: 'posts:read',
    query: pageQuery,
    response: pageOf(notificationOut),
    run: ({ ctx, schoolId, query }) => {
      const w = pageWindow(query);
      const { rows, total } = ntf.listSchoolNotifications(
        ctx.server.db,
        schoolId,
        w.limit,
        w.offset,
      );
      return pageResult(rows.map(toOut), total, w);
    },
  }),
  adminRoute({
    method: 'POST',
    path: '/notifications',
    operationId: 'publishNotification',
    summary: 'Publish a notification to members (one row per recipient)',
    tag: 'posts',
    scope: 'posts:write',
    body: publish,
    response: z.object({ data: z.array(notificationOut) }),
    run: ({ ctx, schoolId, now, body }) => {
      const db = ctx.server.db;
      const members = new Set(membersOfSchool(db, schoolId).map((m) => m.userId));
      const recipients = body.userIds ?? [...members];
      const strangers = recipients.filter((u) => !members.has(u));
      if (strangers.length > 0) {
        throw new AdminError(
          400,
          'invalid_request',
          'every recipient must be a member of the school',
          strangers.map((u) => ({ path: 'userIds', message: `${u} is not a member` })),
        );
      }
      const rows = recipients.map((userId): ntf.NotificationRow => ({
        id: newId('ntf'),
        school_id: schoolId,
        user_id: userId,
        kind: body.kind,
        title: body.title,
        body: body.body,
        url: body.url,
        created_at: now,
        read_at: null,
      }));
      db.transaction(() => rows.forEach((r) => ntf.insertNotification(db, r)))();
      return ok({ data: rows.map(toOut) }, 201);
    },
  }),
  adminRoute({
    method: 'DELETE',
    path: '/notifications/:notificationId',
    operationId: 'deleteNotification',
    summary: 'Delete a notification',
    tag: 'posts',
    scope: 'posts:write',
    run: ({ ctx, schoolId, params }) => {
      if (!ntf.deleteNotification(ctx.server.db, schoolId, params.notificationId!))
        throw notFound('notification');
      return ok(null, 204);
    },
  }),
];
