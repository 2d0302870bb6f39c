import type { Database } from 'better-sqlite3';
import { contentMemo } from './content-memo';
import {
  jsonIds,
  keyset,
  pageParams,
  rawStmt,
  stmt,
  toPage,
  type Page,
  type PageRequest,
} from './content-sql';

/**
 * Data access for a member's courses, their sections and lectures, enrollments and lecture progress
 * (migration 002). The catalogue and the writes that build a course are content-catalog.ts.
 */

export interface CourseRow {
  id: string;
  school_id: string;
  slug: string;
  title: string;
  description: string | null;
  cover_image_url: string | null;
  instructor_name: string | null;
  price: number;
  currency: string;
  is_published: number;
  created_at: number;
}

/**
 * Every column of `courses`, by name: insertCourse writes them all, so a new column is a line of
 * CourseRow and one here (the compiler names it when missing), and no statement to edit.
 */
const COURSE_COLUMN_SET: Readonly<Record<keyof CourseRow, true>> = {
  id: true,
  school_id: true,
  slug: true,
  title: true,
  description: true,
  cover_image_url: true,
  instructor_name: true,
  price: true,
  currency: true,
  is_published: true,
  created_at: true,
};
export const COURSE_COLUMNS = Object.keys(COURSE_COLUMN_SET) as readonly (keyof CourseRow)[];

type NullableKeys<T> = { [K in keyof T]-?: null extends T[K] ? K : never }[keyof T];
/**
 * A course to insert: a column that may be null may be left out (it is stored as NULL), so a new
 * optional column asks nothing of the seeds and the admin API until they set it.
 */
export type NewCourse = Omit<CourseRow, NullableKeys<CourseRow>> &
  Partial<Pick<CourseRow, NullableKeys<CourseRow>>>;

/**
 * The columns an operator may change (admin API PATCH /courses/:id); updateCourse sets exactly
 * these.
 */
export const COURSE_EDITABLE = [
  'title',
  'description',
  'price',
  'is_published',
  'instructor_name',
] as const satisfies readonly (keyof CourseRow)[];
export type CoursePatch = Partial<Pick<CourseRow, (typeof COURSE_EDITABLE)[number]>>;

export interface EnrolledCourseRow extends CourseRow {
  enrollment_id: string;
  enrolled_at: number;
  expire_at: number | null;
  has_lifetime_access: number;
  completed_at: number | null;
  last_lecture_id: string | null;
  last_position_seconds: number | null;
  last_watched_at: number | null;
}

export interface SectionRow {
  id: string;
  course_id: string;
  title: string;
  position: number;
}

export interface LectureRow {
  id: string;
  course_id: string;
  section_id: string;
  title: string;
  position: number;
  duration: number;
  unlock_at: number | null;
  /** The viewer's state; 'unread' when no progress row exists. */
  state: 'unread' | 'read' | 'completed';
}

export interface ProgressCountRow {
  course_id: string;
  total: number;
  read: number;
  completed: number;
}

export function listEnrolledCourses(db: Database, req: PageRequest): Page<EnrolledCourseRow> {
  const rows = stmt<object, EnrolledCourseRow>(
    db,
    `SELECT c.*, e.id AS enrollment_id, e.enrolled_at, e.expire_at, e.has_lifetime_access, e.completed_at,
            e.last_lecture_id, e.last_position_seconds, e.last_watched_at
       FROM enrollments e JOIN courses c ON c.id = e.course_id
      WHERE e.school_id = :school AND e.user_id = :user AND ${keyset('e.enrolled_at', 'e.id')}
      ORDER BY e.enrolled_at DESC, e.id DESC LIMIT :limit`,
  ).all(pageParams(req));
  const total = stmt<object, { n: number }>(
    db,
    'SELECT count(*) AS n FROM enrollments WHERE school_id = :school AND user_id = :user',
  ).get({
    school: req.schoolId,
    user: req.userId,
  })!.n;
  return toPage(rows, req, total);
}

/**
 * Access now, over an enrolment's columns (`prefix` names its table alias): lifetime, or not yet
 * expired.
 */
function deliveredAccess(prefix: string): string {
  return `(${prefix}has_lifetime_access = 1 OR ${prefix}expire_at IS NULL OR ${prefix}expire_at > :now)`;
}

/**
 * Whether the viewer's enrolment in one course is delivered, as a predicate over
 * `<alias>.course_id`: an index probe of the enrolment (UNIQUE (school_id, user_id, course_id)) per
 * row of the outer query.
 */
export function deliveredCourseExists(courseIdColumn: string): string {
  return `EXISTS (SELECT 1 FROM enrollments e WHERE e.school_id = :school AND e.user_id = :user AND e.course_id = ${courseIdColumn}
        AND ${deliveredAccess('e.')})`;
}

const DELIVERED_COURSE_IDS_SQL = `SELECT course_id FROM enrollments WHERE school_id = :school AND user_id = :user AND ${deliveredAccess('')}`;

/**
 * Course ids the viewer holds access to now: lifetime, or not yet expired ("delivered" courses).
 */
export function listDeliveredCourseIds(
  db: Database,
  schoolId: string,
  userId: string,
  now: number,
): string[] {
  return stmt<object, { course_id: string }>(db, DELIVERED_COURSE_IDS_SQL)
    .all({ school: schoolId, user: userId, now })
    .map((r) => r.course_id);
}

export function sectionsForCourses(db: Database, courseIds: readonly string[]): SectionRow[] {
  return stmt<object, SectionRow>(
    db,
    `SELECT * FROM sections WHERE course_id IN (SELECT value FROM json_each(:ids)) ORDER BY course_id, position`,
  ).all({ ids: jsonIds(courseIds) });
}

/**
 * All lectures of the given courses with the viewer's state, in one statement (no N+1 per course).
 */
export function lecturesForCourses(
  db: Database,
  userId: string,
  courseIds: readonly string[],
): LectureRow[] {
  return stmt<object, LectureRow>(
    db,
    `SELECT l.*, coalesce(p.state, 'unread') AS state
       FROM lectures l LEFT JOIN lecture_progress p ON p.lecture_id = l.id AND p.user_id = :user
      WHERE l.course_id IN (SELECT value FROM json_each(:ids))
      ORDER BY l.section_id, l.position`,
  ).all({ user: userId, ids: jsonIds(courseIds) });
}

/** One lecture of a memoised course tree: [id, title, position, duration, unlock_at]. */
export type LectureContent = readonly [
  id: string,
  title: string,
  position: number,
  duration: number,
  unlockAt: number | null,
];

/** One section of a memoised course tree, its lectures in position order. */
export interface TreeSection {
  readonly id: string;
  readonly title: string;
  readonly position: number;
  readonly lectures: readonly LectureContent[];
}

/**
 * Exported for the query-plan test (it must stay on the covering index): the lectures of a batch of
 * courses without any viewer's state, ordered by (course, section, position) so one section's
 * lectures are one run.
 */
export const LECTURE_CONTENT_SQL = `SELECT l.section_id, l.id, l.title, l.position, l.duration, l.unlock_at
       FROM lectures l
      WHERE l.course_id IN (SELECT value FROM json_each(:ids))
      ORDER BY l.course_id, l.section_id, l.position`;

/**
 * The member API's hot path, part 1: the sections and lectures of a page of courses, the same for
 * every viewer. Memoised per course against the `course_tree` generation (store/content-memo.ts:
 * any write to sections or lectures empties it), so a page reads from SQLite only the courses not
 * seen since the last change, in two statements. Without it a 25-course page spent ~1.3 ms
 * producing the same 1,500 lecture rows' strings on every request. Every requested id is in the
 * answer, with an empty list when the course has no sections.
 */
export function courseTreeContent(
  db: Database,
  courseIds: readonly string[],
): Map<string, readonly TreeSection[]> {
  const memo = contentMemo<readonly TreeSection[]>(db, 'course_tree');
  const out = new Map<string, readonly TreeSection[]>();
  const missing: string[] = [];
  for (const id of courseIds) {
    const tree = memo.get(id);
    if (tree) out.set(id, tree);
    else missing.push(id);
  }
  if (missing.length === 0) return out;
  const ids = jsonIds(missing);
  const lectures = rawStmt(db, LECTURE_CONTENT_SQL).all({ ids }) as [
    sectionId: string,
    ...LectureContent,
  ][];
  const bySection = new Map<string, LectureContent[]>();
  for (const [sectionId, ...lecture] of lectures) {
    const run = bySection.get(sectionId);
    if (run) run.push(lecture);
    else bySection.set(sectionId, [lecture]);
  }
  const byCourse = new Map<string, TreeSection[]>(missing.map((id) => [id, []]));
  for (const s of sectionsForCourses(db, missing)) {
    byCourse.get(s.course_id)?.push({
      id: s.id,
      title: s.title,
      position: s.position,
      lectures: bySection.get(s.id) ?? [],
    });
  }
  for (const [id, tree] of byCourse) out.set(id, memo.remember(id, tree));
  return out;
}

/**
 * The member API's hot path, part 2, read on every request: the viewer's state of each lecture of
 * the given courses that has a progress row (a lecture without one is unread).
 * lecture_progress.course_id is the lecture's own course (every writer sets it from the lecture,
 * and lectures never move between courses), so the rows come from the index
 * lecture_progress_by_course without touching the lectures.
 */
export function lectureStates(
  db: Database,
  userId: string,
  courseIds: readonly string[],
): Map<string, LectureRow['state']> {
  const rows = rawStmt(db, LECTURE_STATES_SQL).all({ user: userId, ids: jsonIds(courseIds) }) as [
    string,
    LectureRow['state'],
  ][];
  return new Map(rows);
}

/** Exported for the query-plan test. */
export const LECTURE_STATES_SQL = `SELECT lecture_id, state FROM lecture_progress
      WHERE user_id = :user AND course_id IN (SELECT value FROM json_each(:ids))`;

/** Lectures of the given courses without any member's state (operator views). */
export function lecturesOfCourses(
  db: Database,
  courseIds: readonly string[],
): Omit<LectureRow, 'state'>[] {
  return stmt<object, Omit<LectureRow, 'state'>>(
    db,
    'SELECT * FROM lectures WHERE course_id IN (SELECT value FROM json_each(:ids)) ORDER BY section_id, position',
  ).all({ ids: jsonIds(courseIds) });
}

export function progressForCourses(
  db: Database,
  userId: string,
  courseIds: readonly string[],
): ProgressCountRow[] {
  return stmt<object, ProgressCountRow>(
    db,
    `SELECT l.course_id AS course_id, count(*) AS total,
            sum(CASE WHEN p.state IN ('read', 'completed') THEN 1 ELSE 0 END) AS read,
            sum(CASE WHEN p.state = 'completed' THEN 1 ELSE 0 END) AS completed
       FROM lectures l LEFT JOIN lecture_progress p ON p.lecture_id = l.id AND p.user_id = :user
      WHERE l.course_id IN (SELECT value FROM json_each(:ids))
      GROUP BY l.course_id`,
  ).all({ user: userId, ids: jsonIds(courseIds) });
}

export interface EnrollmentRow {
  id: string;
  school_id: string;
  user_id: string;
  course_id: string;
  enrolled_at: number;
  expire_at: number | null;
  has_lifetime_access: number;
  completed_at: number | null;
  last_lecture_id: string | null;
  last_position_seconds: number | null;
  last_watched_at: number | null;
}

export function insertEnrollment(db: Database, row: EnrollmentRow): void {
  stmt(
    db,
    `INSERT INTO enrollments (id, school_id, user_id, course_id, enrolled_at, expire_at, has_lifetime_access, completed_at,
                              last_lecture_id, last_position_seconds, last_watched_at)
     VALUES (:id, :school_id, :user_id, :course_id, :enrolled_at, :expire_at, :has_lifetime_access, :completed_at,
             :last_lecture_id, :last_position_seconds, :last_watched_at)`,
  ).run(row);
}

export function findEnrollment(
  db: Database,
  schoolId: string,
  userId: string,
  courseId: string,
): EnrollmentRow | undefined {
  return stmt<object, EnrollmentRow>(
    db,
    'SELECT * FROM enrollments WHERE school_id = :school AND user_id = :user AND course_id = :course',
  ).get({
    school: schoolId,
    user: userId,
    course: courseId,
  });
}

export function deleteEnrollment(
  db: Database,
  schoolId: string,
  userId: string,
  courseId: string,
): boolean {
  return (
    stmt(
      db,
      'DELETE FROM enrollments WHERE school_id = :school AND user_id = :user AND course_id = :course',
    ).run({
      school: schoolId,
      user: userId,
      course: courseId,
    }).changes > 0
  );
}

/** One page of a course's enrolments, newest first (admin API students:read). */
export function listEnrollmentsOfCourse(
  db: Database,
  schoolId: string,
  courseId: string,
  limit: number,
  offset: number,
): { rows: EnrollmentRow[]; total: number } {
  const params = { school: schoolId, course: courseId, limit, offset };
  const rows = stmt<object, EnrollmentRow>(
    db,
    'SELECT * FROM enrollments WHERE school_id = :school AND course_id = :course ORDER BY enrolled_at DESC, id DESC LIMIT :limit OFFSET :offset',
  ).all(params);
  const total = stmt<object, { n: number }>(
    db,
    'SELECT count(*) AS n FROM enrollments WHERE school_id = :school AND course_id = :course',
  ).get(params)!.n;
  return { rows, total };
}

/** One page of a member's enrolments, newest first (admin API students:read). */
export function listEnrollmentsOfUser(
  db: Database,
  schoolId: string,
  userId: string,
  limit: number,
  offset: number,
): { rows: EnrollmentRow[]; total: number } {
  const params = { school: schoolId, user: userId, limit, offset };
  const rows = stmt<object, EnrollmentRow>(
    db,
    'SELECT * FROM enrollments WHERE school_id = :school AND user_id = :user ORDER BY enrolled_at DESC, id DESC LIMIT :limit OFFSET :offset',
  ).all(params);
  const total = stmt<object, { n: number }>(
    db,
    'SELECT count(*) AS n FROM enrollments WHERE school_id = :school AND user_id = :user',
  ).get(params)!.n;
  return { rows, total };
}

/**
 * One page of the members holding at least one enrolment, by user id, with their enrolment counts.
 */
export function listStudentIds(
  db: Database,
  schoolId: string,
  limit: number,
  offset: number,
): { rows: { user_id: string; courses: number }[]; total: number } {
  const rows = stmt<object, { user_id: string; courses: number }>(
    db,
    'SELECT user_id, count(*) AS courses FROM enrollments WHERE school_id = :school GROUP BY user_id ORDER BY user_id LIMIT :limit OFFSET :offset',
  ).all({ school: schoolId, limit, offset });
  return { rows, total: countStudents(db, schoolId) };
}

export function countStudents(db: Database, schoolId: string): number {
  return stmt<object, { n: number }>(
    db,
    'SELECT count(DISTINCT user_id) AS n FROM enrollments WHERE school_id = :school',
  ).get({ school: schoolId })!.n;
}

export function setLectureProgress(
  db: Database,
  userId: string,
  courseId: string,
  lectureId: string,
  state: LectureRow['state'],
  at: number,
): void {
  stmt(
    db,
    `INSERT INTO lecture_progress (user_id, lecture_id, course_id, state, updated_at) VALUES (:user, :lecture, :course, :state, :at)
     ON CONFLICT (user_id, lecture_id) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at`,
  ).run({ user: userId, lecture: lectureId, course: courseId, state, at });
}
