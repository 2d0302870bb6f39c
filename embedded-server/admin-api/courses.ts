import { z } from 'zod';
import type { Route } from '../http/types';
import * as courses from '../store/content-courses';
import * as catalog from '../store/content-catalog';
import {
  adminRoute,
  AdminError,
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
 * Operator routes for courses (courses:*), their curriculum (curriculum:*) and enrolments
 * (students:*).
 */

const courseOut = z.object({
  id: z.string(),
  slug: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  instructorName: z.string().nullable(),
  price: z.number(),
  currency: z.string(),
  published: z.boolean(),
  createdAt: z.string(),
});
const toCourse = (r: courses.CourseRow): z.infer<typeof courseOut> => ({
  id: r.id,
  slug: r.slug,
  title: r.title,
  description: r.description,
  instructorName: r.instructor_name,
  price: r.price,
  currency: r.currency,
  published: r.is_published === 1,
  createdAt: iso(r.created_at)!,
});

const courseCreate = z.object({
  slug: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'lowercase words joined by hyphens'),
  title: z.string().min(1).max(200),
  description: z.string().max(5000).nullable().optional(),
  instructorName: z.string().max(200).nullable().optional(),
  price: z.number().min(0).default(0),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'ISO 4217 code')
    .default('TWD'),
  published: z.boolean().default(false),
});
const coursePatch = z
  .object({
    title: z.string().min(1).max(200),
    description: z.string().max(5000).nullable(),
    instructorName: z.string().max(200).nullable(),
    price: z.number().min(0),
    published: z.boolean(),
  })
  .partial();

const lectureOut = z.object({
  id: z.string(),
  title: z.string(),
  position: z.number().int(),
  duration: z.number().int(),
  unlockAt: z.string().nullable(),
});
const sectionOut = z.object({
  id: z.string(),
  title: z.string(),
  position: z.number().int(),
  lectures: z.array(lectureOut),
});

const sectionCreate = z.object({ title: z.string().min(1).max(200) });
const lectureCreate = z.object({
  title: z.string().min(1).max(200),
  duration: z.number().int().min(0).max(86_400),
  unlockAt: isoDate.nullable().optional(),
});

const enrollmentOut = z.object({
  userId: z.string(),
  courseId: z.string(),
  enrolledAt: z.string(),
  expiresAt: z.string().nullable(),
  hasLifetimeAccess: z.boolean(),
});
const toEnrollment = (e: courses.EnrollmentRow): z.infer<typeof enrollmentOut> => ({
  userId: e.user_id,
  courseId: e.course_id,
  enrolledAt: iso(e.enrolled_at)!,
  expiresAt: iso(e.expire_at),
  hasLifetimeAccess: e.has_lifetime_access === 1,
});
const enrollCreate = z
  .object({
    userId: z.string().min(1),
    /** Omitted with lifetime access. */
    expiresAt: isoDate.optional(),
    lifetime: z.boolean().default(false),
  })
  .refine((v) => v.lifetime !== (v.expiresAt !== undefined), {
    message: 'give either lifetime: true or expiresAt',
    path: ['expiresAt'],
  });

function requireCourse(
  db: Parameters<typeof catalog.getCourse>[0],
  schoolId: string,
  id: string,
): courses.CourseRow {
  const c = catalog.getCourse(db, schoolId, id);
  if (!c) throw notFound('course');
  return c;
}

export const courseRoutes: Route[] = [
  adminRoute({
    method: 'GET',
    path: '/courses',
    operationId: 'listCourses',
    summary: 'List courses',
    tag: 'courses',
    scope: 'courses:read',
    query: pageQuery,
    response: pageOf(courseOut),
    run: ({ ctx, schoolId, query }) => {
      const w = pageWindow(query);
      const { rows, total } = catalog.listCourses(ctx.server.db, schoolId, w.limit, w.offset);
      return pageResult(rows.map(toCourse), total, w);
    },
  }),
  adminRoute({
    method: 'GET',
    path: '/courses/:courseId',
    operationId: 'getCourse',
    summary: 'Get one course',
    tag: 'courses',
    scope: 'courses:read',
    response: courseOut,
    run: ({ ctx, schoolId, params }) =>
      ok(toCourse(requireCourse(ctx.server.db, schoolId, params.courseId!))),
  }),
  adminRoute({
    method: 'POST',
    path: '/courses',
    operationId: 'createCourse',
    summary: 'Create a course',
    tag: 'courses',
    scope: 'courses:write',
    body: courseCreate,
    response: courseOut,
    conflicts: 'a course with this slug exists at the school',
    run: ({ ctx, schoolId, now, body }) => {
      const db = ctx.server.db;
      const row: courses.CourseRow = {
        id: newId('crs'),
        school_id: schoolId,
        slug: body.slug,
        title: body.title,
        description: body.description ?? null,
        cover_image_url: null,
        instructor_name: body.instructorName ?? null,
        price: body.price,
        currency: body.currency,
        is_published: body.published ? 1 : 0,
        created_at: now,
      };
      try {
        catalog.insertCourse(db, row);
      } catch (err) {
        if (err instanceof Error && /UNIQUE/.test(err.message))
          throw conflict('a course with this slug exists');
        throw err;
      }
      return ok(toCourse(row), 201);
    },
  }),
  adminRoute({
    method: 'PATCH',
    path: '/courses/:courseId',
    operationId: 'updateCourse',
    summary: 'Update a course',
    tag: 'courses',
    scope: 'courses:write',
    body: coursePatch,
    response: courseOut,
    run: ({ ctx, schoolId, params, body }) => {
      const db = ctx.server.db;
      const patch: Parameters<typeof catalog.updateCourse>[3] = {};
      if (body.title !== undefined) patch.title = body.title;
      if (body.description !== undefined) patch.description = body.description;
      if (body.instructorName !== undefined) patch.instructor_name = body.instructorName;
      if (body.price !== undefined) patch.price = body.price;
      if (body.published !== undefined) patch.is_published = body.published ? 1 : 0;
      if (!catalog.updateCourse(db, schoolId, params.courseId!, patch)) throw notFound('course');
      return ok(toCourse(requireCourse(db, schoolId, params.courseId!)));
    },
  }),
  // ---- curriculum ----
  adminRoute({
    method: 'GET',
    path: '/courses/:courseId/curriculum',
    operationId: 'getCurriculum',
    summary: 'Sections and lectures of a course',
    tag: 'curriculum',
    scope: 'curriculum:read',
    response: z.object({ courseId: z.string(), sections: z.array(sectionOut) }),
    run: ({ ctx, schoolId, params }) => {
      const db = ctx.server.db;
      const course = requireCourse(db, schoolId, params.courseId!);
      const sections = courses.sectionsForCourses(db, [course.id]);
      const lectures = courses.lecturesOfCourses(db, [course.id]);
      return ok({
        courseId: course.id,
        sections: sections.map((s) => ({
          id: s.id,
          title: s.title,
          position: s.position,
          lectures: lectures
            .filter((l) => l.section_id === s.id)
            .map((l) => ({
              id: l.id,
              title: l.title,
              position: l.position,
              duration: l.duration,
              unlockAt: iso(l.unlock_at),
            })),
        })),
      });
    },
  }),
  adminRoute({
    method: 'POST',
    path: '/courses/:courseId/sections',
    operationId: 'createSection',
    summary: 'Add a section at the end of a course',
    tag: 'curriculum',
    scope: 'curriculum:write',
    body: sectionCreate,
    response: z.object({ id: z.string(), title: z.string(), position: z.number().int() }),
    run: ({ ctx, schoolId, params, body }) => {
      const db = ctx.server.db;
      const course = requireCourse(db, schoolId, params.courseId!);
      const row = {
        id: newId('sec'),
        course_id: course.id,
        title: body.title,
        position: catalog.nextSectionPosition(db, course.id),
      };
      catalog.insertSection(db, row);
      return ok({ id: row.id, title: row.title, position: row.position }, 201);
    },
  }),
  adminRoute({
    method: 'POST',
    path: '/courses/:courseId/sections/:sectionId/lectures',
    operationId: 'createLecture',
    summary: 'Add a lecture at the end of a section',
    tag: 'curriculum',
    scope: 'curriculum:write',
    body: lectureCreate,
    response: lectureOut,
    run: ({ ctx, schoolId, params, body }) => {
      const db = ctx.server.db;
      const course = requireCourse(db, schoolId, params.courseId!);
      const section = catalog.getSection(db, course.id, params.sectionId!);
      if (!section) throw notFound('section');
      const unlockAt = body.unlockAt ? Date.parse(body.unlockAt) : null;
      const row = {
        id: newId('lec'),
        course_id: course.id,
        section_id: section.id,
        title: body.title,
        position: catalog.nextLecturePosition(db, section.id),
        duration: body.duration,
        unlock_at: unlockAt,
      };
      catalog.insertLecture(db, row);
      return ok(
        {
          id: row.id,
          title: row.title,
          position: row.position,
          duration: row.duration,
          unlockAt: iso(unlockAt),
        },
        201,
      );
    },
  }),
  adminRoute({
    method: 'DELETE',
    path: '/courses/:courseId/lectures/:lectureId',
    operationId: 'deleteLecture',
    summary: 'Delete a lecture',
    tag: 'curriculum',
    scope: 'curriculum:write',
    run: ({ ctx, schoolId, params }) => {
      const course = requireCourse(ctx.server.db, schoolId, params.courseId!);
      if (!catalog.deleteLecture(ctx.server.db, course.id, params.lectureId!))
        throw notFound('lecture');
      return ok(null, 204);
    },
  }),
  // ---- enrolments (students area) ----
  adminRoute({
    method: 'GET',
    path: '/courses/:courseId/students',
    operationId: 'listCourseStudents',
    summary: 'Students enrolled in a course, newest enrolment first',
    tag: 'students',
    scope: 'students:read',
    query: pageQuery,
    response: pageOf(enrollmentOut),
    run: ({ ctx, schoolId, params, query }) => {
      const course = requireCourse(ctx.server.db, schoolId, params.courseId!);
      const w = pageWindow(query);
      const { rows, total } = courses.listEnrollmentsOfCourse(
        ctx.server.db,
        schoolId,
        course.id,
        w.limit,
        w.offset,
      );
      return pageResult(rows.map(toEnrollment), total, w);
    },
  }),
  adminRoute({
    method: 'POST',
    path: '/courses/:courseId/students',
    operationId: 'enrollStudent',
    summary: 'Enroll a member in a course',
    tag: 'students',
    scope: 'students:write',
    body: enrollCreate,
    response: enrollmentOut,
    conflicts: 'the member is already enrolled in this course',
    run: ({ ctx, schoolId, now, params, body }) => {
      const db = ctx.server.db;
      const course = requireCourse(db, schoolId, params.courseId!);
      requireSchoolMember(db, schoolId, body.userId, 'body');
      if (courses.findEnrollment(db, schoolId, body.userId, course.id))
        throw conflict('the member is already enrolled in this course');
      const expireAt = body.expiresAt ? Date.parse(body.expiresAt) : null;
      if (expireAt !== null && expireAt <= now)
        throw new AdminError(400, 'invalid_request', 'expiresAt must be in the future', [
          { path: 'expiresAt', message: 'in the past' },
        ]);
      const row: courses.EnrollmentRow = {
        id: newId('enr'),
        school_id: schoolId,
        user_id: body.userId,
        course_id: course.id,
        enrolled_at: now,
        expire_at: expireAt,
        has_lifetime_access: body.lifetime ? 1 : 0,
        completed_at: null,
        last_lecture_id: null,
        last_position_seconds: null,
        last_watched_at: null,
      };
      courses.insertEnrollment(db, row);
      return ok(toEnrollment(row), 201);
    },
  }),
  adminRoute({
    method: 'DELETE',
    path: '/courses/:courseId/students/:userId',
    operationId: 'unenrollStudent',
    summary: 'Remove a member from a course',
    tag: 'students',
    scope: 'students:write',
    run: ({ ctx, schoolId, params }) => {
      if (!courses.deleteEnrollment(ctx.server.db, schoolId, params.userId!, params.courseId!))
        throw notFound('enrollment');
      return ok(null, 204);
    },
  }),
  adminRoute({
    method: 'GET',
    path: '/students',
    operationId: 'listStudents',
    summary: 'Members holding at least one enrolment, by user id',
    tag: 'students',
    scope: 'students:read',
    query: pageQuery,
    response: pageOf(z.object({ userId: z.string(), courses: z.number().int() })),
    run: ({ ctx, schoolId, query }) => {
      const w = pageWindow(query);
      const { rows, total } = courses.listStudentIds(ctx.server.db, schoolId, w.limit, w.offset);
      return pageResult(
        rows.map((s) => ({ userId: s.user_id, courses: s.courses })),
        total,
        w,
      );
    },
  }),
  adminRoute({
    method: 'GET',
    path: '/students/:userId/enrollments',
    operationId: 'listStudentEnrollments',
    summary: 'Enrolments of one member, newest first',
    tag: 'students',
    scope: 'students:read',
    query: pageQuery,
    response: pageOf(enrollmentOut),
    run: ({ ctx, schoolId, params, query }) => {
      const w = pageWindow(query);
      const { rows, total } = courses.listEnrollmentsOfUser(
        ctx.server.db,
        schoolId,
        params.userId!,
        w.limit,
        w.offset,
      );
      return pageResult(rows.map(toEnrollment), total, w);
    },
  }),
];
