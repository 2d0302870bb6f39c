/**
 * Upcoming dates across the schools: unlocks, access ends, payment deadlines and registered events.
 */
import { z } from 'zod';
import { getEntitlements, getPayableUntil } from '../db/index';
import { prepared } from '../db/index';
import { freshness, paymentCode, schoolsFor, type ToolContext } from './context';
import { envelope, framed, siteIdArg } from './output-schemas';
import { schoolLine } from './school-text';
import { defineTool } from './tool-types';

const dateSchema = z.object({
  kind: z.enum(['lecture-unlocks', 'access-ends', 'payment-deadline', 'event']),
  siteId: z.string(),
  at: z.string(),
  title: z.string(),
  courseId: z.string().nullable(),
  amount: z.number().nullable(),
  currency: z.string().nullable(),
  paymentCode: z.string().nullable().describe('Masked unless the student allows codes in full'),
  isOnline: z.boolean().nullable(),
});
type DateRow = z.infer<typeof dateSchema>;
const none = {
  courseId: null,
  amount: null,
  currency: null,
  paymentCode: null,
  isOnline: null,
} as const;

/** Timestamps in SQL as ms, as db/reminders.ts reads the school's ISO dates. */
const ms = (column: string) => `CAST(unixepoch(${column}, 'subsec') * 1000 AS INTEGER)`;

function courseDates(ctx: ToolContext, siteId: string, from: number, to: number): DateRow[] {
  // The partial index of the locked lectures with a date (migration 023) keeps this a handful of
  // rows at any size; left to itself the planner took the site's index and read every lecture.
  const unlocks = prepared<
    { siteId: string; from: number; to: number },
    { course_id: string; course: string; title: string; at: string }
  >(
    ctx.db,
    `SELECT l.course_id, c.title AS course, l.title, l.unlock_at AS at FROM lectures l INDEXED BY lectures_unlocking
     JOIN courses c ON c.site_id = l.site_id AND c.id = l.course_id
     WHERE l.site_id = @siteId AND l.is_locked = 1 AND l.unlock_at IS NOT NULL
       AND ${ms('l.unlock_at')} BETWEEN @from AND @to ORDER BY l.unlock_at LIMIT 200`,
  ).all({ siteId, from, to });
  const ends = prepared<
    { siteId: string; from: number; to: number },
    { id: string; title: string; at: string }
  >(
    ctx.db,
    `SELECT id, title, expire_date AS at FROM courses
     WHERE site_id = @siteId AND has_lifetime_access = 0 AND expire_date IS NOT NULL
       AND ${ms('expire_date')} BETWEEN @from AND @to ORDER BY expire_date LIMIT 200`,
  ).all({ siteId, from, to });
  return [
    ...unlocks.map((u) => ({
      ...none,
      kind: 'lecture-unlocks' as const,
      siteId,
      at: u.at,
      title: schoolLine(`${u.course}: ${u.title}`),
      courseId: u.course_id,
    })),
    ...ends.map((e) => ({
      ...none,
      kind: 'access-ends' as const,
      siteId,
      at: e.at,
      title: schoolLine(e.title),
      courseId: e.id,
    })),
  ];
}

function paymentDates(ctx: ToolContext, siteId: string, to: number): DateRow[] {
  return getPayableUntil(ctx.db, siteId, ctx.now, to, 100).flatMap((p) => {
    const at = p.instructions?.expiredAt ?? null;
    if (at === null || Date.parse(at) > to) return [];
    const title = p.lineItems.map((l) => l.title).join(', ') || p.tradeNo;
    return [
      {
        ...none,
        kind: 'payment-deadline' as const,
        siteId,
        at,
        title: schoolLine(title),
        amount: p.amount,
        currency: p.currency,
        paymentCode: paymentCode(ctx, p.instructions!.codeNo),
      },
    ];
  });
}

function eventDates(ctx: ToolContext, siteId: string, from: number, to: number): DateRow[] {
  return getEntitlements(ctx.db, siteId, ctx.now).eventRegistrations.flatMap((e) => {
    const t = Date.parse(e.startsAt);
    if (e.isPast || !(t >= from && t <= to)) return [];
    return [
      {
        ...none,
        kind: 'event' as const,
        siteId,
        at: e.startsAt,
        title: schoolLine(e.title),
        isOnline: e.isOnline,
      },
    ];
  });
}

export const listUpcoming = defineTool({
  name: 'list_upcoming',
  title: 'Upcoming dates',
  description:
    'Dates in the coming days, soonest first: lectures that unlock, course access that ends, payment code ' +
    'deadlines (when purchases are allowed) and events the student registered for.',
  category: 'dates',
  input: z.object({
    siteId: siteIdArg,
    days: z.number().int().min(1).max(365).default(30).describe('How many days ahead'),
  }),
  output: envelope({ from: z.string(), to: z.string(), dates: z.array(dateSchema) }),
  readOnly: true,
  run(ctx, { siteId, days }) {
    const schools = schoolsFor(ctx, 'dates', siteId);
    const purchases = new Set(schoolsFor(ctx, 'purchases', undefined).map((s) => s.siteId));
    const from = ctx.now.getTime();
    const to = from + days * 86_400_000;
    const dates = schools
      .flatMap((s) => [
        ...courseDates(ctx, s.siteId, from, to),
        ...(purchases.has(s.siteId) ? paymentDates(ctx, s.siteId, to) : []),
        ...eventDates(ctx, s.siteId, from, to),
      ])
      .map((d) => ({ d, t: Date.parse(d.at) }))
      // Stable: equal instants keep their school's order, as before the keys were read once.
      .sort((a, b) => a.t - b.t)
      .slice(0, 300)
      .map(({ d }) => d);
    const value = {
      ...framed(
        schools.map((s) => freshness(ctx, s)),
        ['dates[].title'],
      ),
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      dates,
    };
    return { value, rows: dates.length };
  },
});
