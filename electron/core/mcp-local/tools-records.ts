/**
 * The tools over the rest of a school's copy: notices, purchases and codes, products, profile,
 * search.
 */
import { z } from 'zod';
import { ORDER_FILTERS } from '../../common/views/billing';
import { SEARCH_HIT_KINDS, type SearchHitKind } from '../../common/views/settings';
import {
  getEntitlements,
  getNotificationsPage,
  getNotificationsSummary,
  getOrdersPage,
  getProfile,
  searchEverything,
} from '../db/index';
import { isCoreError } from '../errors';
import type { ConsentCategory } from './consent';
import { freshness, paymentCode, schoolsFor } from './context';
import { envelope, framed, limitArg, siteIdArg } from './output-schemas';
import { schoolLine, schoolLineOrNull, schoolParagraphs } from './school-text';
import { defineTool, type LocalTool } from './tool-types';

const listNotifications = defineTool({
  name: 'list_notifications',
  title: 'Notifications',
  description: "The school's notices to the student, newest first.",
  category: 'notifications',
  input: z.object({
    siteId: siteIdArg,
    onlyUnread: z.boolean().default(false),
    limit: limitArg(50, 20),
  }),
  output: envelope({
    notifications: z.array(
      z.object({
        siteId: z.string(),
        id: z.string(),
        kind: z.string(),
        title: z.string(),
        body: z.string(),
        createdAt: z.string(),
        read: z.boolean(),
      }),
    ),
    unread: z.array(z.object({ siteId: z.string(), count: z.number() })),
  }),
  readOnly: true,
  run(ctx, { siteId, onlyUnread, limit }) {
    const schools = schoolsFor(ctx, 'notifications', siteId);
    const notifications = schools
      .flatMap((s) =>
        getNotificationsPage(ctx.db, s.siteId, { offset: 0, limit, onlyUnread }).items.map((n) => ({
          siteId: s.siteId,
          id: n.id,
          kind: n.kind,
          title: schoolLine(n.title),
          body: schoolParagraphs(n.body),
          createdAt: n.createdAt,
          read: n.readAt !== null,
        })),
      )
      .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt))
      .slice(0, limit);
    const unread = schools.map((s) => ({
      siteId: s.siteId,
      count: getNotificationsSummary(ctx.db, s.siteId).unreadCount,
    }));
    const value = {
      ...framed(
        schools.map((s) => freshness(ctx, s)),
        ['notifications[].title', 'notifications[].body'],
      ),
      notifications,
      unread,
    };
    return { value, rows: notifications.length };
  },
});

const listPurchases = defineTool({
  name: 'list_purchases',
  title: 'Purchases and payment codes',
  description:
    'Orders, newest first, with their state, amounts and, for unpaid ATM or convenience-store payments, the ' +
    'code and its deadline (masked unless the student allows codes in full).',
  category: 'purchases',
  input: z.object({
    siteId: siteIdArg,
    state: z.enum(ORDER_FILTERS).default('all'),
    limit: limitArg(50, 20),
  }),
  output: envelope({
    orders: z.array(
      z.object({
        siteId: z.string(),
        tradeNo: z.string(),
        title: z.string(),
        state: z.string(),
        createdAt: z.string(),
        totalAmount: z.number(),
        paidAmount: z.number(),
        currency: z.string(),
        payments: z.array(
          z.object({
            paymentType: z.string(),
            paymentState: z.string(),
            amount: z.number(),
            paymentCode: z.string().nullable(),
            bankCode: z.string().nullable(),
            payBy: z.string().nullable(),
          }),
        ),
      }),
    ),
    codesInFull: z.boolean(),
  }),
  readOnly: true,
  run(ctx, { siteId, state, limit }) {
    const schools = schoolsFor(ctx, 'purchases', siteId);
    const orders = schools.flatMap((s) =>
      getOrdersPage(ctx.db, s.siteId, ctx.now, { offset: 0, limit, state }).items.map((o) => ({
        siteId: s.siteId,
        tradeNo: o.tradeNo,
        title: schoolLine(o.title),
        state: o.summaryState,
        createdAt: o.createdAt,
        totalAmount: o.totalAmount,
        paidAmount: o.paidAmount,
        currency: o.currency,
        payments: o.payments.map((p) => ({
          paymentType: p.paymentType,
          paymentState: p.paymentState,
          amount: p.amount,
          paymentCode: p.instructions ? paymentCode(ctx, p.instructions.codeNo) : null,
          bankCode: p.instructions?.bankCode ?? null,
          payBy: p.instructions?.expiredAt ?? null,
        })),
      })),
    );
    const value = {
      ...framed(
        schools.map((s) => freshness(ctx, s)),
        ['orders[].title'],
      ),
      orders,
      codesInFull: ctx.consent.fullPaymentCodes,
    };
    return { value, rows: orders.length };
  },
});

const listProducts = defineTool({
  name: 'list_products',
  title: 'Products and files',
  description:
    'Digital products the student holds (books, files), with their format and access end.',
  category: 'products',
  input: z.object({ siteId: siteIdArg }),
  output: envelope({
    products: z.array(
      z.object({
        siteId: z.string(),
        id: z.string(),
        title: z.string(),
        format: z.string(),
        deliveredAt: z.string(),
        accessEndsAt: z.string().nullable(),
      }),
    ),
  }),
  readOnly: true,
  run(ctx, { siteId }) {
    const schools = schoolsFor(ctx, 'products', siteId);
    const products = schools.flatMap((s) =>
      getEntitlements(ctx.db, s.siteId, ctx.now).digitalProducts.map((p) => ({
        siteId: s.siteId,
        id: p.id,
        title: schoolLine(p.title),
        format: schoolLine(p.format, 40),
        deliveredAt: p.deliveredAt,
        accessEndsAt: p.expireDate,
      })),
    );
    const value = {
      ...framed(
        schools.map((s) => freshness(ctx, s)),
        ['products[].title', 'products[].format'],
      ),
      products,
    };
    return { value, rows: products.length };
  },
});

const getProfileTool = defineTool({
  name: 'get_profile',
  title: 'Profile',
  description: "The student's name and e-mail address at a school.",
  category: 'profile',
  input: z.object({ siteId: siteIdArg }),
  output: envelope({
    profiles: z.array(z.object({ siteId: z.string(), name: z.string(), email: z.string() })),
  }),
  readOnly: true,
  run(ctx, { siteId }) {
    const schools = schoolsFor(ctx, 'profile', siteId);
    const profiles = schools.flatMap((s) => {
      try {
        const p = getProfile(ctx.db, s.siteId);
        return [
          { siteId: s.siteId, name: schoolLine(p.name, 200), email: schoolLine(p.email, 320) },
        ];
      } catch (error) {
        if (isCoreError(error, 'not-found')) return [];
        throw error;
      }
    });
    const value = {
      ...framed(
        schools.map((s) => freshness(ctx, s)),
        ['profiles[].name'],
      ),
      profiles,
    };
    return { value, rows: profiles.length };
  },
});

/** Which consent category each kind of search hit belongs to. */
const HIT_CATEGORY: Readonly<Record<SearchHitKind, ConsentCategory>> = {
  course: 'courses',
  section: 'courses',
  lecture: 'courses',
  instructor: 'courses',
  order: 'purchases',
  payment: 'purchases',
  product: 'products',
  event: 'dates',
  consulting: 'dates',
  notification: 'notifications',
};

const searchTool = defineTool({
  name: 'search',
  title: 'Search',
  description:
    "The app's own search over the offline copy: courses, lectures, instructors, notices, products, events " +
    'and orders, only of the kinds the student allows for each school.',
  category: 'courses',
  input: z.object({
    query: z.string().min(1).max(200),
    siteId: siteIdArg,
    kinds: z.array(z.enum(SEARCH_HIT_KINDS)).max(10).optional(),
    limit: limitArg(50, 20),
  }),
  output: envelope({
    hits: z.array(
      z.object({
        siteId: z.string(),
        kind: z.string(),
        id: z.string(),
        courseId: z.string().nullable(),
        title: z.string(),
        snippet: z.string().describe('Text around the match, the match in [[ ]]'),
      }),
    ),
  }),
  readOnly: true,
  run(ctx, { query, siteId, kinds, limit }) {
    const schools = searchSchools(ctx, siteId);
    const hits = schools.flatMap((s) => {
      const allowedKinds = SEARCH_HIT_KINDS.filter(
        (k) =>
          (kinds === undefined || kinds.includes(k)) &&
          ctx.consent.schools[s.siteId]?.categories[HIT_CATEGORY[k]] === true,
      );
      if (allowedKinds.length === 0) return [];
      return searchEverything(
        ctx.db,
        query,
        { siteIds: [s.siteId], kinds: allowedKinds, limit, perKind: limit },
        ctx.now,
      ).map((h) => ({
        siteId: h.siteId,
        kind: h.kind,
        id: h.id,
        courseId: h.courseId,
        title: schoolLine(h.title),
        snippet: schoolLineOrNull(h.snippet, 400) ?? '',
      }));
    });
    const value = {
      ...framed(
        schools.map((s) => freshness(ctx, s)),
        ['hits[].title', 'hits[].snippet'],
      ),
      hits: hits.slice(0, limit),
    };
    return { value, rows: Math.min(limit, hits.length) };
  },
});

/** Search reads every category a school allows; a school with none of them is not searched. */
function searchSchools(ctx: Parameters<LocalTool['run']>[0], siteId: string | undefined) {
  const all = ctx.schools.filter((s) => {
    const c = ctx.consent.schools[s.siteId];
    return c?.enabled === true && Object.values(c.categories).some(Boolean);
  });
  if (siteId === undefined) return all;
  const school = all.find((s) => s.siteId === siteId);
  if (!school) return schoolsFor(ctx, 'courses', siteId);
  return [school];
}

export const RECORD_TOOLS: readonly LocalTool[] = [
  listNotifications,
  listPurchases,
  listProducts,
  getProfileTool,
  searchTool,
];
