/**
 * The tools over what the student is learning: schools, Today, courses, one course, progress and
 * pace.
 */
import { z } from 'zod';
import { LIBRARY_FILTERS, LIBRARY_SORTS } from '../../common/views/courses';
import {
  getCourseDetail,
  getLibraryPage,
  getPacePage,
  getToday,
  getWeekProgress,
} from '../db/index';
import { isCoreError } from '../errors';
import { sitePageUrl } from '../net/site-pages';
import { CONSENT_CATEGORIES } from './consent';
import {
  freshness,
  freshnessSchema,
  paymentCode,
  schoolsFor,
  ToolRefusal,
  type ToolContext,
} from './context';
import { allowedSchools } from './consent';
import { nextStepOf } from './next-step';
import { envelope, framed, limitArg, nextStepSchema, siteIdArg } from './output-schemas';
import { schoolLine } from './school-text';
import { defineTool, type LocalTool } from './tool-types';

const listSchools = defineTool({
  name: 'list_schools',
  title: 'Schools',
  description:
    'The schools the student keeps in Learning Desktop and allows you to read, with how old each copy is ' +
    'and which kinds of data you may read. Call this first; other tools take its siteId.',
  category: null,
  input: z.object({}),
  output: envelope({
    allowed: z.array(freshnessSchema.extend({ categories: z.array(z.enum(CONSENT_CATEGORIES)) })),
  }),
  readOnly: true,
  run(ctx) {
    const ids = new Set(allowedSchools(ctx.consent, null));
    const schools = ctx.schools.filter((s) => ids.has(s.siteId));
    const fresh = schools.map((s) => freshness(ctx, s));
    const allowed = schools.map((s, i) => ({
      ...fresh[i]!,
      categories: CONSENT_CATEGORIES.filter((c) => ctx.consent.schools[s.siteId]?.categories[c]),
    }));
    return { value: { ...framed(fresh, ['allowed[].name']), allowed }, rows: allowed.length };
  },
});

const continueSchema = z.object({
  siteId: z.string(),
  courseId: z.string(),
  title: z.string(),
  percent: z.number(),
  lastWatchedAt: z.string().nullable(),
  nextStep: nextStepSchema,
});
const attentionSchema = z.object({
  kind: z.enum(['access-ending', 'payment-due', 'event-soon', 'lecture-unlocked']),
  siteId: z.string(),
  title: z.string(),
  at: z.string().nullable().describe('When it ends, is due, starts or unlocked'),
  courseId: z.string().nullable(),
  amount: z.number().nullable(),
  currency: z.string().nullable(),
  paymentCode: z.string().nullable().describe('Masked unless the student allows codes in full'),
});

type Attention = ReturnType<typeof getToday>['attention'][number];
type Allowed = Record<'courses' | 'dates' | 'purchases', ReadonlySet<string>>;

/** One of Today's attention items as the assistant gets it, or nothing when its category is off. */
function attentionItem(
  ctx: ToolContext,
  { courses, dates, purchases }: Allowed,
  a: Attention,
): z.infer<typeof attentionSchema>[] {
  const base = { courseId: null, amount: null, currency: null, paymentCode: null };
  switch (a.kind) {
    case 'access-ending':
      if (!courses.has(a.siteId)) return [];
      return [
        {
          ...base,
          kind: a.kind,
          siteId: a.siteId,
          title: schoolLine(a.title),
          at: a.endsAt,
          courseId: a.courseId,
        },
      ];
    case 'lecture-unlocked':
      if (!courses.has(a.siteId)) return [];
      return [
        {
          ...base,
          kind: a.kind,
          siteId: a.siteId,
          title: schoolLine(`${a.courseTitle}: ${a.lectureTitle}`),
          at: a.unlockedAt,
          courseId: a.courseId,
        },
      ];
    case 'event-soon':
      if (!dates.has(a.siteId)) return [];
      return [
        { ...base, kind: a.kind, siteId: a.siteId, title: schoolLine(a.title), at: a.startsAt },
      ];
    case 'payment-due':
      if (!purchases.has(a.siteId)) return [];
      return [
        {
          ...base,
          kind: a.kind,
          siteId: a.siteId,
          title: schoolLine(a.title),
          at: a.expiresAt,
          amount: a.amount,
          currency: a.currency,
          paymentCode: paymentCode(ctx, a.codeNo),
        },
      ];
  }
}

const getTodayTool = defineTool({
  name: 'get_today',
  title: 'Today',
  description:
    "What the student should do next, as the app's Today screen shows it: courses to continue and what " +
    'needs attention soon (access ending, payment deadlines, events, lectures that unlocked).',
  category: 'courses',
  input: z.object({}),
  output: envelope({
    now: z.string(),
    continueLearning: z.array(continueSchema),
    attention: z.array(attentionSchema),
  }),
  readOnly: true,
  run(ctx) {
    const schools = schoolsFor(ctx, 'courses', undefined);
    const may = (cat: 'courses' | 'dates' | 'purchases') =>
      new Set(schoolsFor(ctx, cat, undefined).map((s) => s.siteId));
    const courses = may('courses');
    const dates = may('dates');
    const purchases = may('purchases');
    const data = getToday(ctx.db, ctx.now);
    const continueLearning = data.continueLearning
      .filter((c) => courses.has(c.siteId))
      .map((c) => ({
        siteId: c.siteId,
        courseId: c.courseId,
        title: schoolLine(c.title),
        percent: c.percent,
        lastWatchedAt: c.lastWatchedAt,
        nextStep: nextStepOf(c.nextStep),
      }));
    const allowed = { courses, dates, purchases };
    const attention = data.attention.flatMap((a) => attentionItem(ctx, allowed, a));
    const value = {
      ...framed(
        schools.map((s) => freshness(ctx, s)),
        [
          'continueLearning[].title',
          'continueLearning[].nextStep.lectureTitle',
          'attention[].title',
        ],
      ),
      now: ctx.now.toISOString(),
      continueLearning,
      attention,
    };
    return { value, rows: continueLearning.length + attention.length };
  },
});

const courseRowSchema = z.object({
  siteId: z.string(),
  courseId: z.string(),
  title: z.string(),
  instructorName: z.string().nullable(),
  percent: z.number(),
  lecturesLeft: z.number(),
  minutesLeft: z.number(),
  accessEndsAt: z.string().nullable(),
  hasLifetimeAccess: z.boolean(),
  isExpired: z.boolean(),
  expiresSoon: z.boolean(),
  nextStep: nextStepSchema,
});

const listCourses = defineTool({
  name: 'list_courses',
  title: 'Courses',
  description:
    "The student's courses with progress, time left and access end, filtered and ordered like the app's library.",
  category: 'courses',
  input: z.object({
    siteId: siteIdArg,
    filter: z.enum(LIBRARY_FILTERS).default('all'),
    sort: z.enum(LIBRARY_SORTS).default('recent'),
    limit: limitArg(50, 20),
    offset: z.number().int().min(0).max(100_000).default(0).describe('Per school'),
  }),
  output: envelope({
    courses: z.array(courseRowSchema),
    totals: z.array(z.object({ siteId: z.string(), matching: z.number(), courses: z.number() })),
  }),
  readOnly: true,
  run(ctx, { siteId, filter, sort, limit, offset }) {
    const schools = schoolsFor(ctx, 'courses', siteId);
    const courses: z.infer<typeof courseRowSchema>[] = [];
    const totals: { siteId: string; matching: number; courses: number }[] = [];
    for (const school of schools) {
      const page = getLibraryPage(ctx.db, school.siteId, ctx.now, { filter, sort, offset, limit });
      totals.push({ siteId: school.siteId, matching: page.total, courses: page.courseCount });
      for (const c of page.items)
        courses.push({
          siteId: school.siteId,
          courseId: c.courseId,
          title: schoolLine(c.title),
          instructorName: c.instructorName === null ? null : schoolLine(c.instructorName, 120),
          percent: c.percent,
          lecturesLeft: c.lecturesLeft,
          minutesLeft: Math.round(c.secondsLeft / 60),
          accessEndsAt: c.expireDate,
          hasLifetimeAccess: c.hasLifetimeAccess,
          isExpired: c.isExpired,
          expiresSoon: c.expiresSoon,
          nextStep: nextStepOf(c.nextStep),
        });
    }
    const value = {
      ...framed(
        schools.map((s) => freshness(ctx, s)),
        ['courses[].title', 'courses[].instructorName', 'courses[].nextStep.lectureTitle'],
      ),
      courses,
      totals,
    };
    return { value, rows: courses.length };
  },
});

const lectureSchema = z.object({
  lectureId: z.string(),
  title: z.string(),
  state: z.string().describe('unread, read, completed (unknown: a state this app does not know)'),
  isLocked: z.boolean(),
  unlockAt: z.string().nullable(),
  durationSeconds: z.number(),
  lastPositionSeconds: z.number().nullable().describe('Set on the last watched lecture'),
  url: z.string().nullable().describe("The school's page of the lecture; null while locked"),
});

const getCourse = defineTool({
  name: 'get_course',
  title: 'One course',
  description:
    "One course's sections and lectures: state, lock and unlock time, duration, last position and the " +
    "school's link to each lecture.",
  category: 'courses',
  input: z.object({
    siteId: z.string().min(1).max(100),
    courseId: z.string().min(1).max(200),
  }),
  output: envelope({
    course: courseRowSchema.extend({
      url: z.string().nullable(),
      sections: z.array(
        z.object({ sectionId: z.string(), title: z.string(), lectures: z.array(lectureSchema) }),
      ),
    }),
  }),
  readOnly: true,
  run(ctx, { siteId, courseId }) {
    const [school] = schoolsFor(ctx, 'courses', siteId);
    let c;
    try {
      c = getCourseDetail(ctx.db, school!.siteId, courseId, ctx.now);
    } catch (error) {
      if (isCoreError(error, 'not-found'))
        throw new ToolRefusal(
          `No course "${schoolLine(courseId, 100)}" in this school. Call list_courses.`,
          'error',
        );
      throw error;
    }
    const link = (page: Parameters<typeof sitePageUrl>[1]) => {
      try {
        return sitePageUrl(school!.baseUrl, page);
      } catch {
        return null;
      }
    };
    const sections = c.sections.map((s) => ({
      sectionId: s.sectionId,
      title: schoolLine(s.title),
      lectures: s.lectures.map((l) => {
        const position = l.isLastWatched ? (c.lastWatched?.positionSeconds ?? 0) : null;
        return {
          lectureId: l.lectureId,
          title: schoolLine(l.title),
          state: l.state,
          isLocked: l.isLocked,
          unlockAt: l.unlockAt,
          durationSeconds: l.durationSeconds,
          lastPositionSeconds: position,
          url: l.isLocked
            ? null
            : link({
                kind: 'lecture',
                slug: c.slug,
                lectureId: l.lectureId,
                positionSeconds: position ?? 0,
              }),
        };
      }),
    }));
    const course = {
      siteId: school!.siteId,
      courseId: c.courseId,
      title: schoolLine(c.title),
      instructorName: c.instructorName === null ? null : schoolLine(c.instructorName, 120),
      percent: c.percent,
      lecturesLeft: c.lecturesLeft,
      minutesLeft: Math.round(c.secondsLeft / 60),
      accessEndsAt: c.expireDate,
      hasLifetimeAccess: c.hasLifetimeAccess,
      isExpired: c.isExpired,
      expiresSoon: c.expiresSoon,
      nextStep: nextStepOf(c.nextStep),
      url: link({ kind: 'course', slug: c.slug }),
      sections,
    };
    const rows = 1 + sections.reduce((n, s) => n + s.lectures.length, 0);
    const value = {
      ...framed(
        [freshness(ctx, school!)],
        [
          'course.title',
          'course.instructorName',
          'course.nextStep.lectureTitle',
          'course.sections[].title',
          'course.sections[].lectures[].title',
        ],
      ),
      course,
    };
    return { value, rows };
  },
});

const weekSchema = z.object({ weekStart: z.string(), lectures: z.number(), minutes: z.number() });

const getProgress = defineTool({
  name: 'get_progress',
  title: 'Progress and pace',
  description:
    'Lectures completed this week and last week, the streak of active weeks, and for each course with an ' +
    'end date what is left and how many minutes a day it takes to finish before access ends, soonest end ' +
    'first (a page per school: paceMore says more follow at the next offset).',
  category: 'courses',
  input: z.object({
    siteId: siteIdArg,
    limit: limitArg(200, 20).describe('Courses with a pace per school, at most 200'),
    offset: z.number().int().min(0).max(100_000).default(0).describe('Per school'),
  }),
  output: envelope({
    timeZone: z.string(),
    progress: z.array(
      z.object({
        siteId: z.string(),
        thisWeek: weekSchema,
        lastWeek: weekSchema,
        streakWeeks: z.number(),
        pace: z.array(
          z.object({
            courseId: z.string(),
            title: z.string(),
            lecturesLeft: z.number(),
            minutesLeft: z.number(),
            accessEndsAt: z.string(),
            daysLeft: z.number(),
            minutesPerDay: z.number().describe('Minutes of content a day to finish in time'),
          }),
        ),
        paceMore: z.boolean().describe('More courses with an end date follow after this page'),
      }),
    ),
  }),
  readOnly: true,
  run(ctx, { siteId, limit, offset }) {
    const schools = schoolsFor(ctx, 'courses', siteId);
    const week = (w: { weekStart: string; lectures: number; seconds: number }) => ({
      weekStart: w.weekStart,
      lectures: w.lectures,
      minutes: Math.round(w.seconds / 60),
    });
    let rows = 0;
    const progress = schools.map((school) => {
      // The weeks are a few rows; the paces a bounded page (thousands of courses at a large
      // school).
      const p = getWeekProgress(ctx.db, school.siteId, ctx.now, ctx.timeZone);
      const pace = getPacePage(ctx.db, school.siteId, ctx.now, { offset, limit });
      rows += 1 + pace.items.length;
      return {
        siteId: school.siteId,
        thisWeek: week(p.thisWeek),
        lastWeek: week(p.lastWeek),
        streakWeeks: p.streakWeeks,
        paceMore: pace.more,
        pace: pace.items.map((c) => {
          const days = Math.max(0, (Date.parse(c.expireDate) - ctx.now.getTime()) / 86_400_000);
          const minutes = Math.round(c.secondsLeft / 60);
          return {
            courseId: c.courseId,
            title: schoolLine(c.title),
            lecturesLeft: c.lecturesLeft,
            minutesLeft: minutes,
            accessEndsAt: c.expireDate,
            daysLeft: Math.floor(days),
            minutesPerDay: Math.ceil(minutes / Math.max(1, Math.floor(days))),
          };
        }),
      };
    });
    const value = {
      ...framed(
        schools.map((s) => freshness(ctx, s)),
        ['progress[].pace[].title'],
      ),
      timeZone: ctx.timeZone,
      progress,
    };
    return { value, rows };
  },
});

export const LEARNING_TOOLS: readonly LocalTool[] = [
  listSchools,
  getTodayTool,
  listCourses,
  getCourse,
  getProgress,
];
