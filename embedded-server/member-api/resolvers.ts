import { GraphQLError, GraphQLScalarType, Kind, type GraphQLFieldResolver } from 'graphql';
import type { MemberContext, MemberData } from './context';
import { checkFirst, decodeCursor, encodeCursor } from './cursor';
import type { Page, PageKey } from '../store/content-sql';
import { COURSE_COLUMNS, type EnrolledCourseRow } from '../store/content-courses';
import type { ConsultingServiceRow, MeetingRow, SlotRow } from '../store/content-entitlements';
import { PAY, type PaymentTuple } from '../store/content-payments';
import type { NotificationRow } from '../store/content-notifications';
import { absoluteSiteUrl } from '../covers/paths';
import { schemaFields } from './row-fields';
import { memberPicture } from '../oidc/claims';
import type {
  Connection,
  CourseProgress,
  MutationResolvers,
  Notification,
  QueryResolvers,
  ResolversParentTypes,
  Section,
  ViewerResolvers,
} from './schema-types';

/**
 * Connection page sizes: `first` at most 100 (decision); payments pages hold at most 50 nodes (spec
 * "Limits").
 */
export const MAX_FIRST = 100;
export const MAX_PAYMENTS_FIRST = 50;

export const NOTIFICATION_TOPICS = [
  'announcements',
  'course_updates',
  'payments',
  'events',
  'marketing',
] as const;
export const NOTIFICATION_CHANNELS = ['email', 'in_app', 'push'] as const;
/** Decision (README): every topic is on by default except marketing, which is opt-in. */
const defaultEnabled = (topic: string): boolean => topic !== 'marketing';

const DateTime = new GraphQLScalarType({
  name: 'DateTime',
  description: 'ISO 8601 date-time in UTC.', // stored as epoch milliseconds, always sent as ISO 8601 UTC
  serialize(value) {
    if (typeof value === 'number') return new Date(value).toISOString();
    if (value instanceof Date) return value.toISOString();
    if (typeof value === 'string' && !Number.isNaN(Date.parse(value)))
      return new Date(value).toISOString();
    throw new GraphQLError('DateTime cannot represent this value.');
  },
  parseValue(value) {
    if (typeof value !== 'string' || Number.isNaN(Date.parse(value)))
      throw new GraphQLError('DateTime must be an ISO 8601 string.');
    return Date.parse(value);
  },
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING || Number.isNaN(Date.parse(ast.value)))
      throw new GraphQLError('DateTime must be an ISO 8601 string.');
    return Date.parse(ast.value);
  },
});

/**
 * A Relay connection (Cursor Connections spec: PageInfo with both directions' flags and cursors).
 */
function connection<R, N>(
  tag: string,
  page: Page<R>,
  key: (r: R) => PageKey,
  toNode: (r: R) => N,
): Connection<N> {
  const { rows, hasNextPage, hasPreviousPage } = page;
  const nodes = rows.map(toNode);
  const cursor = (r: R | undefined): string | null =>
    r === undefined ? null : encodeCursor(tag, key(r));
  return {
    nodes,
    edges: () => rows.map((r, i) => ({ cursor: cursor(r)!, node: nodes[i]! })),
    pageInfo: {
      hasNextPage,
      hasPreviousPage,
      startCursor: cursor(rows[0]),
      endCursor: cursor(rows.at(-1)),
    },
    totalCount: page.totalCount,
  };
}

function groupBy<T>(rows: readonly T[], key: (r: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = m.get(k);
    if (list) list.push(r);
    else m.set(k, [r]);
  }
  return m;
}

interface CourseCounts {
  total: number;
  read: number;
  completed: number;
}

/**
 * Loads the trees of every course on a page at the first request for any of them: no N+1 per
 * course. The sections and lectures come memoised (the same for every viewer); the nodes are plain
 * objects built here with the viewer's state (graphql's default resolver reads them), and the
 * progress counts come from the same pass, so they can never disagree with the lectures.
 */
function coursePageBatch(data: MemberData, rows: readonly EnrolledCourseRow[], now: number) {
  let loaded: { sections: Map<string, Section[]>; counts: Map<string, CourseCounts> } | null = null;
  function load() {
    const { trees, states } = data.courseTrees(rows.map((r) => r.id));
    const sections = new Map<string, Section[]>();
    const counts = new Map<string, CourseCounts>();
    for (const [courseId, tree] of trees) {
      const c: CourseCounts = { total: 0, read: 0, completed: 0 };
      const nodes: Section[] = [];
      for (const s of tree) {
        const lectures: Section['lectures'] = [];
        for (const [lectureId, title, position, duration, unlockAt] of s.lectures) {
          const state = states.get(lectureId) ?? 'unread';
          if (state === 'completed') {
            c.completed++;
            c.read++;
          } else if (state === 'read') c.read++;
          // Drip content: locked until its unlock time has passed.
          lectures.push({
            lectureId,
            title,
            position,
            state,
            isLocked: unlockAt !== null && unlockAt > now,
            unlockAt,
            duration,
          });
        }
        c.total += lectures.length;
        nodes.push({ id: s.id, title: s.title, position: s.position, lectures });
      }
      sections.set(courseId, nodes);
      // A course without sections had no counts before either: detailProgress reads "undefined" as
      // zeros.
      if (tree.length > 0) counts.set(courseId, c);
    }
    return { sections, counts };
  }
  const get = () => (loaded ??= load());
  return {
    sections: (courseId: string): Section[] => get().sections.get(courseId) ?? [],
    progress: (courseId: string): CourseCounts | undefined => get().counts.get(courseId),
  };
}

/** What the resolvers hand graphql for a schema type (the mappers of generate-types.ts). */
export type Node<T extends keyof ResolversParentTypes> = ResolversParentTypes[T];

function courseConnection(
  ctx: MemberContext,
  first: number,
  after: PageKey | null,
): Connection<Node<'Course'>> {
  const page = ctx.data.enrolledCourses(first, after);
  const batch = coursePageBatch(ctx.data, page.rows, ctx.now);
  return connection(
    'course',
    page,
    (r) => ({ t: r.enrolled_at, id: r.enrollment_id }),
    (r): Node<'Course'> => ({
      // The course's own columns (id, slug, title, description, instructorName, ...); the fields
      // below are the ones the schema answers differently from the column.
      ...schemaFields(r, COURSE_COLUMNS),
      // Stored site-relative by the seeds; the API always answers an absolute URL (README, "Course
      // covers").
      coverImageUrl: absoluteSiteUrl(r.cover_image_url, ctx.baseUrl),
      enrolledAt: r.enrolled_at,
      expireDate: r.has_lifetime_access ? null : r.expire_at,
      hasLifetimeAccess: r.has_lifetime_access === 1,
      // Functions on the source object are called by graphql's default resolver, only when
      // selected.
      detailProgress: (): CourseProgress => {
        const p = batch.progress(r.id);
        const total = p?.total ?? 0;
        const completed = p?.completed ?? 0;
        return {
          totalLectures: total,
          readLectures: p?.read ?? 0,
          completedLectures: completed,
          percent: total === 0 ? 0 : Math.round((completed / total) * 1000) / 10,
          completedAt: r.completed_at,
        };
      },
      lastWatchedLecture: r.last_lecture_id
        ? {
            lectureId: r.last_lecture_id,
            positionSeconds: r.last_position_seconds ?? 0,
            watchedAt: r.last_watched_at,
          }
        : null,
      sections: () => batch.sections(r.id),
    }),
  );
}

function consultingConnection(
  ctx: MemberContext,
  first: number,
  after: PageKey | null,
): Connection<Node<'ConsultingService'>> {
  const page = ctx.data.consultingServices(first, after);
  let details: { slots: Map<string, SlotRow[]>; meetings: Map<string, MeetingRow[]> } | null = null;
  const get = () => {
    if (!details) {
      const d = ctx.data.consultingDetails(page.rows.map((r) => r.id));
      details = {
        slots: groupBy(d.slots, (s) => s.service_id),
        meetings: groupBy(d.meetings, (m) => m.service_id),
      };
    }
    return details;
  };
  return connection(
    'consulting',
    page,
    (r: ConsultingServiceRow) => ({ t: r.created_at, id: r.id }),
    (r): Node<'ConsultingService'> => ({
      id: r.id,
      title: r.title,
      description: r.description,
      durationMinutes: r.duration_minutes,
      consultantName: r.consultant_name,
      courseId: r.course_id,
      slots: () =>
        (get().slots.get(r.id) ?? []).map((slot) => ({
          weekday: slot.weekday,
          startTime: slot.start_time,
          endTime: slot.end_time,
          timeZone: slot.time_zone,
        })),
      // Everyone's meetings, without owner (spec "Consulting service").
      meetings: () =>
        (get().meetings.get(r.id) ?? []).map((m) => ({
          id: m.id,
          startsAt: m.starts_at,
          endsAt: m.ends_at,
        })),
    }),
  );
}

// The invoice and installment columns are written together (store insertPayment): a row with an
// invoice number has a kind and an issue time. Were one null, graphql answers its non-null error,
// as before.
function invoiceOf(r: PaymentTuple): Node<'Payment'>['invoice'] {
  const P = PAY;
  return r[P.invoice_number] === null
    ? null
    : {
        number: r[P.invoice_number]!,
        kind: r[P.invoice_kind]!,
        title: r[P.invoice_title],
        taxId: r[P.invoice_tax_id],
        issuedAt: r[P.invoice_issued_at]!,
        voidedAt: r[P.invoice_voided_at],
      };
}

function installmentOf(r: PaymentTuple): Node<'Payment'>['installment'] {
  const P = PAY;
  return r[P.installment_periods] === null
    ? null
    : {
        periods: r[P.installment_periods]!,
        amountPerPeriod: r[P.installment_amount_per_period] ?? 0,
        bankName: r[P.installment_bank_name],
      };
}

function paymentConnection(
  ctx: MemberContext,
  first: number,
  after: PageKey | null,
): Connection<Node<'Payment'>> {
  const page = ctx.data.payments(first, after);
  let details: ReturnType<MemberData['paymentDetails']> | null = null;
  let adj: Map<string, ReturnType<MemberData['paymentDetails']>['adjustments']> | null = null;
  let items: Map<string, ReturnType<MemberData['paymentDetails']>['lineItems']> | null = null;
  const load = () => {
    if (!details) {
      details = ctx.data.paymentDetails(page.rows.map((r) => r[PAY.id]));
      adj = groupBy(details.adjustments, (a) => a.payment_id);
      items = groupBy(details.lineItems, (l) => l.payment_id);
    }
  };
  const P = PAY;
  return connection(
    'payment',
    page,
    (r: PaymentTuple) => ({ t: r[P.created_at], id: r[P.id] }),
    (r): Node<'Payment'> => {
      const id = r[P.id];
      return {
        id,
        tradeNo: r[P.trade_no],
        amount: r[P.amount],
        currency: r[P.currency],
        paymentType: r[P.payment_type],
        createdAt: r[P.created_at],
        paidAt: r[P.paid_at],
        paymentState: r[P.payment_state],
        adjustments: () => {
          load();
          return (adj!.get(id) ?? []).map((a) => ({
            kind: a.kind,
            code: a.code,
            title: a.title,
            amount: a.amount,
          }));
        },
        invoice: invoiceOf(r),
        lineitems: () => {
          load();
          return (items!.get(id) ?? []).map((l) => ({
            id: l.id,
            itemType: l.item_type,
            title: l.title,
            quantity: l.quantity,
            originalAmount: l.original_amount,
            discountAmount: l.discount_amount,
            finalAmount: l.final_amount,
          }));
        },
        installment: installmentOf(r),
        refundingState: r[P.refunding_state],
        refundedAmount: r[P.refunded_amount],
        refundedAt: r[P.refunded_at],
        refundRequestedAt: r[P.refund_requested_at],
        bankCode: r[P.bank_code],
        bankName: r[P.bank_name],
        codeNo: r[P.code_no],
        expiredAt: r[P.expired_at],
      };
    },
  );
}

export const notificationNode = (n: NotificationRow): Notification => ({
  id: n.id,
  kind: n.kind,
  title: n.title,
  body: n.body,
  url: n.url,
  createdAt: n.created_at,
  readAt: n.read_at,
});

function subscriptions(ctx: MemberContext): Node<'NotificationSubscription'>[] {
  const explicit = new Map(
    ctx.data.subscriptions().map((s) => [`${s.topic}/${s.channel}`, s.enabled === 1]),
  );
  return NOTIFICATION_TOPICS.flatMap((topic) =>
    NOTIFICATION_CHANNELS.map((channel) => ({
      topic,
      channel,
      enabled: explicit.get(`${topic}/${channel}`) ?? defaultEnabled(topic),
    })),
  );
}

/**
 * A field resolver of any schema (attachResolvers' input; the member map below is typed from the
 * SDL).
 */
type AnyResolver = GraphQLFieldResolver<never, never, never>;

/**
 * A resolver map: custom scalars by name, and field resolvers by type and field (schema.ts
 * attachResolvers).
 */
export interface MemberResolvers {
  readonly [typeName: string]: GraphQLScalarType | Readonly<Record<string, AnyResolver>>;
}

/**
 * Every field of the type has its resolver: one left out fails typecheck instead of answering null.
 */
export type Complete<R> = Required<Omit<R, '__isTypeOf'>>;

export const resolvers = {
  DateTime,
  Query: {
    // The viewer is the token's member; its fields read through the context.
    viewer: () => ({}),
  } satisfies Complete<QueryResolvers<MemberContext>>,
  Viewer: {
    id: (_v, _a, ctx) => ctx.userId,
    name: (_v, _a, ctx) => ctx.data.profile()?.name ?? '',
    email: (_v, _a, ctx) => ctx.data.profile()?.email ?? '',
    // Same URL as UserInfo's `picture` (one function), so the app shows one avatar whichever it
    // read.
    avatar: (_v, _a, ctx) => {
      const user = ctx.data.profile();
      return user ? memberPicture(ctx.baseUrl, user) : null;
    },
    schools: (_v, _a, ctx) => ctx.data.schools(),
    enrolledCourses: (_v, a, ctx) =>
      courseConnection(ctx, checkFirst(a.first, MAX_FIRST, 20), decodeCursor('course', a.after)),
    digitalProducts: (_v, a, ctx) =>
      connection(
        'product',
        ctx.data.digitalProducts(
          checkFirst(a.first, MAX_FIRST, 20),
          decodeCursor('product', a.after),
        ),
        (r) => ({ t: r.delivered_at, id: r.id }),
        (r): Node<'DigitalProduct'> => ({
          id: r.id,
          title: r.title,
          description: r.description,
          format: r.format,
          deliveredAt: r.delivered_at,
          expireDate: r.expire_at,
          downloadUrl: absoluteSiteUrl(r.download_url, ctx.baseUrl),
        }),
      ),
    consultingServices: (_v, a, ctx) =>
      consultingConnection(
        ctx,
        checkFirst(a.first, MAX_FIRST, 20),
        decodeCursor('consulting', a.after),
      ),
    eventRegistrations: (_v, a, ctx) =>
      connection(
        'event',
        ctx.data.eventRegistrations(
          checkFirst(a.first, MAX_FIRST, 20),
          decodeCursor('event', a.after),
        ),
        (r) => ({ t: r.registered_at, id: r.id }),
        (r): Node<'EventRegistration'> => ({
          id: r.id,
          eventId: r.event_id,
          title: r.title,
          startsAt: r.starts_at,
          endsAt: r.ends_at,
          location: r.location,
          isOnline: r.is_online === 1,
          joinUrl: r.join_url,
          ticketName: r.ticket_name,
          registeredAt: r.registered_at,
        }),
      ),
    // Spec "Limits": up to 50 nodes a page. A client asking for more (first 51..100) gets a page of
    // 50 and hasNextPage, as from the real service; above 100 is refused like every other
    // connection.
    payments: (_v, a, ctx) =>
      paymentConnection(
        ctx,
        Math.min(checkFirst(a.first, MAX_FIRST, MAX_PAYMENTS_FIRST), MAX_PAYMENTS_FIRST),
        decodeCursor('payment', a.after),
      ),
    notifications: (_v, a, ctx) =>
      connection(
        a.unreadOnly ? 'notification-unread' : 'notification',
        ctx.data.notifications(
          checkFirst(a.first, MAX_FIRST, 20),
          decodeCursor(a.unreadOnly ? 'notification-unread' : 'notification', a.after),
          a.unreadOnly === true,
        ),
        (r) => ({ t: r.created_at, id: r.id }),
        notificationNode,
      ),
    unreadNotificationCount: (_v, _a, ctx) => ctx.data.unreadCount(),
    notificationSubscriptions: (_v, _a, ctx) => subscriptions(ctx),
  } satisfies Complete<ViewerResolvers<MemberContext>>,
  Mutation: {
    markNotificationRead: (_r, a, ctx) => {
      const row = ctx.data.markNotificationRead(a.id);
      // Another member's id answers exactly like an unknown id: no existence oracle.
      if (!row)
        throw new GraphQLError('Notification not found.', { extensions: { code: 'NOT_FOUND' } });
      return notificationNode(row);
    },
    markAllNotificationsRead: (_r, _a, ctx) => {
      const updatedCount = ctx.data.markAllNotificationsRead();
      return { updatedCount, unreadNotificationCount: ctx.data.unreadCount() };
    },
    updateNotificationSubscription: (_r, a, ctx) => {
      ctx.data.updateSubscription(a.input.topic, a.input.channel, a.input.enabled);
      return { topic: a.input.topic, channel: a.input.channel, enabled: a.input.enabled };
    },
  } satisfies Complete<MutationResolvers<MemberContext>>,
} satisfies MemberResolvers;
