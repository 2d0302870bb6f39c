import { z } from 'zod';
import type { Route } from '../http/types';
import * as ent from '../store/content-entitlements';
import * as courses from '../store/content-courses';
import * as catalog from '../store/content-catalog';
import * as rec from '../store/content-records';
import * as pay from '../store/content-payments';
import { countMembersOfSchool, memberOfSchool, pageMembersOfSchool } from '../store/content-viewer';
import {
  adminRoute,
  conflict,
  iso,
  isoDate,
  newId,
  notFound,
  ok,
  pageOf,
  pageQuery,
  pageResult,
  pageWindow,
  requireSchoolMember,
} from './handler';

/**
 * Events (events:*), digital products (digital_products:*), members (members:*), analytics
 * (analytics:read).
 */

const eventOut = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  startsAt: z.string(),
  endsAt: z.string(),
  location: z.string().nullable(),
  isOnline: z.boolean(),
  joinUrl: z.string().nullable(),
  published: z.boolean(),
});
const toEvent = (e: ent.EventRow): z.infer<typeof eventOut> => ({
  id: e.id,
  title: e.title,
  description: e.description,
  startsAt: iso(e.starts_at)!,
  endsAt: iso(e.ends_at)!,
  location: e.location,
  isOnline: e.is_online === 1,
  joinUrl: e.join_url,
  published: e.is_published === 1,
});
const eventCreate = z
  .object({
    title: z.string().min(1).max(200),
    description: z.string().max(5000).nullable().default(null),
    startsAt: isoDate,
    endsAt: isoDate,
    location: z.string().max(500).nullable().default(null),
    isOnline: z.boolean().default(false),
    joinUrl: z.url().nullable().default(null),
    published: z.boolean().default(true),
  })
  .refine((e) => Date.parse(e.endsAt) > Date.parse(e.startsAt), {
    message: 'endsAt must be after startsAt',
    path: ['endsAt'],
  });

const productOut = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  format: z.string(),
  downloadUrl: z.string().nullable(),
  price: z.number(),
  currency: z.string(),
});
const toProduct = (p: ent.DigitalProductRow): z.infer<typeof productOut> => ({
  id: p.id,
  title: p.title,
  description: p.description,
  format: p.format,
  downloadUrl: p.download_url,
  price: p.price,
  currency: p.currency,
});
const productCreate = z.object({
  title: z.string().min(1).max(200),
  description: z.string().max(5000).nullable().default(null),
  format: z.enum(['ebook', 'template', 'audio', 'video', 'software', 'other']),
  downloadUrl: z.url().nullable().default(null),
  price: z.number().min(0).default(0),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .default('TWD'),
});
const deliveryCreate = z.object({
  userId: z.string().min(1),
  expiresAt: isoDate.nullable().default(null),
});

const memberOut = z.object({
  userId: z.string(),
  name: z.string(),
  email: z.string(),
  roles: z.array(z.string()),
  notes: z.record(z.string(), z.unknown()).nullable(),
});
const memberPatch = z.object({
  note: z.string().max(2000).optional(),
  tags: z.array(z.string().max(50)).max(20).optional(),
});

export const catalogRoutes: Route[] = [
  adminRoute({
    method: 'GET',
    path: '/events',
    operationId: 'listEvents',
    summary: 'List events',
    tag: 'events',
    scope: 'events:read',
    query: pageQuery,
    response: pageOf(eventOut),
    run: ({ ctx, schoolId, query }) => {
      const w = pageWindow(query);
      const { rows, total } = ent.listEvents(ctx.server.db, schoolId, w.limit, w.offset);
      return pageResult(rows.map(toEvent), total, w);
    },
  }),
  adminRoute({
    method: 'POST',
    path: '/events',
    operationId: 'createEvent',
    summary: 'Create an event',
    tag: 'events',
    scope: 'events:write',
    body: eventCreate,
    response: eventOut,
    run: ({ ctx, schoolId, now, body }) => {
      const row: ent.EventRow = {
        id: newId('evt'),
        school_id: schoolId,
        title: body.title,
        description: body.description,
        starts_at: Date.parse(body.startsAt),
        ends_at: Date.parse(body.endsAt),
        location: body.location,
        is_online: body.isOnline ? 1 : 0,
        join_url: body.joinUrl,
        is_published: body.published ? 1 : 0,
        created_at: now,
      };
      ent.insertEvent(ctx.server.db, row);
      return ok(toEvent(row), 201);
    },
  }),
  adminRoute({
    method: 'DELETE',
    path: '/events/:eventId',
    operationId: 'deleteEvent',
    summary: 'Delete an event and its registrations',
    tag: 'events',
    scope: 'events:write',
    run: ({ ctx, schoolId, params }) => {
      if (!ent.deleteEvent(ctx.server.db, schoolId, params.eventId!)) throw notFound('event');
      return ok(null, 204);
    },
  }),
  adminRoute({
    method: 'GET',
    path: '/digital_products',
    operationId: 'listDigitalProducts',
    summary: 'List digital products',
    tag: 'digital_products',
    scope: 'digital_products:read',
    query: pageQuery,
    response: pageOf(productOut),
    run: ({ ctx, schoolId, query }) => {
      const w = pageWindow(query);
      const { rows, total } = ent.listDigitalProducts(ctx.server.db, schoolId, w.limit, w.offset);
      return pageResult(rows.map(toProduct), total, w);
    },
  }),
  adminRoute({
    method: 'POST',
    path: '/digital_products',
    operationId: 'createDigitalProduct',
    summary: 'Create a digital product',
    tag: 'digital_products',
    scope: 'digital_products:write',
    body: productCreate,
    response: productOut,
    run: ({ ctx, schoolId, now, body }) => {
      const row: ent.DigitalProductRow = {
        id: newId('dgp'),
        school_id: schoolId,
        title: body.title,
        description: body.description,
        format: body.format,
        download_url: body.downloadUrl,
        price: body.price,
        currency: body.currency,
        created_at: now,
      };
      ent.insertDigitalProduct(ctx.server.db, row);
      return ok(toProduct(row), 201);
    },
  }),
  adminRoute({
    method: 'POST',
    path: '/digital_products/:productId/deliveries',
    operationId: 'deliverDigitalProduct',
    summary: 'Deliver a digital product to a member',
    tag: 'digital_products',
    scope: 'digital_products:write',
    body: deliveryCreate,
    response: z.object({
      id: z.string(),
      productId: z.string(),
      userId: z.string(),
      deliveredAt: z.string(),
      expiresAt: z.string().nullable(),
    }),
    conflicts: 'the member already holds this product',
    alsoStatus: {
      status: 200,
      description: "The member's delivery whose access had ended, renewed in place (same id).",
    },
    run: ({ ctx, schoolId, now, params, body }) => {
      const db = ctx.server.db;
      if (!ent.getDigitalProduct(db, schoolId, params.productId!))
        throw notFound('digital product');
      requireSchoolMember(db, schoolId, body.userId, 'body');
      const expireAt = body.expiresAt ? Date.parse(body.expiresAt) : null;
      // One delivery per member and product: a second one would list the product twice in the
      // member's library.
      const existing = ent.findDelivery(db, schoolId, body.userId, params.productId!);
      if (existing && (existing.expire_at === null || existing.expire_at > now))
        throw conflict('the member already holds this product');
      if (existing) {
        ent.renewDelivery(db, existing.id, now, expireAt);
        return ok(
          {
            id: existing.id,
            productId: params.productId!,
            userId: body.userId,
            deliveredAt: iso(now)!,
            expiresAt: iso(expireAt),
          },
          200,
        );
      }
      const row = {
        id: newId('dlv'),
        school_id: schoolId,
        user_id: body.userId,
        product_id: params.productId!,
        delivered_at: now,
        expire_at: body.expiresAt ? Date.parse(body.expiresAt) : null,
      };
      ent.insertDelivery(db, row);
      return ok(
        {
          id: row.id,
          productId: row.product_id,
          userId: row.user_id,
          deliveredAt: iso(now)!,
          expiresAt: iso(row.expire_at),
        },
        201,
      );
    },
  }),
  adminRoute({
    method: 'GET',
    path: '/members',
    operationId: 'listMembers',
    summary: 'Members of the school with their roles, by user id',
    tag: 'members',
    scope: 'members:read',
    query: pageQuery,
    response: pageOf(memberOut),
    run: ({ ctx, schoolId, query }) => {
      const db = ctx.server.db;
      const w = pageWindow(query);
      const { rows, total } = pageMembersOfSchool(db, schoolId, w.limit, w.offset);
      return pageResult(
        rows.map((m) => ({
          ...m,
          notes:
            rec.getRecord(db, schoolId, 'members', `mbr_${schoolId}_${m.userId}`)?.data ?? null,
        })),
        total,
        w,
      );
    },
  }),
  adminRoute({
    method: 'PATCH',
    path: '/members/:userId',
    operationId: 'updateMember',
    summary: 'Set the operator note and tags of a member',
    tag: 'members',
    scope: 'members:write',
    body: memberPatch,
    response: memberOut,
    run: ({ ctx, schoolId, now, params, body }) => {
      const db = ctx.server.db;
      const member = memberOfSchool(db, schoolId, params.userId!);
      if (!member) throw notFound('member');
      const id = `mbr_${schoolId}_${member.userId}`;
      const current = rec.getRecord(db, schoolId, 'members', id)?.data ?? {};
      const saved = rec.putRecord(db, schoolId, 'members', id, { ...current, ...body }, now);
      return ok({ ...member, notes: saved.data });
    },
  }),
  adminRoute({
    method: 'GET',
    path: '/analytics/summary',
    operationId: 'getAnalyticsSummary',
    summary: 'Headline numbers of the school',
    tag: 'analytics',
    scope: 'analytics:read',
    response: z.object({
      courses: z.number().int(),
      students: z.number().int(),
      members: z.number().int(),
      revenue: z.array(
        z.object({
          currency: z.string(),
          paid: z.number(),
          refunded: z.number(),
          payments: z.number().int(),
        }),
      ),
    }),
    run: ({ ctx, schoolId }) => {
      const db = ctx.server.db;
      return ok({
        courses: catalog.listCourses(db, schoolId, 1, 0).total,
        students: courses.countStudents(db, schoolId),
        members: countMembersOfSchool(db, schoolId),
        revenue: pay.sumPaid(db, schoolId).map((r) => ({
          currency: r.currency,
          paid: r.total,
          refunded: r.refunded,
          payments: r.count,
        })),
      });
    },
  }),
];
