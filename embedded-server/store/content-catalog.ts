import type { Database } from 'better-sqlite3';
import { stmt } from './content-sql';
import {
  COURSE_COLUMNS,
  COURSE_EDITABLE,
  type CoursePatch,
  type CourseRow,
  type LectureRow,
  type NewCourse,
  type SectionRow,
} from './content-courses';

/**
 * The school's course catalogue (migration 002): the published search, the operator's lists, and
 * the writes that build a course (its sections and lectures). What a member reads of a course is
 * content-courses.ts.
 */

export function searchPublishedCourses(
  db: Database,
  schoolId: string,
  text: string,
  limit: number,
): CourseRow[] {
  return stmt<object, CourseRow>(
    db,
    `SELECT * FROM courses
      WHERE school_id = :school AND is_published = 1
        AND (:q = '' OR instr(lower(title), lower(:q)) > 0 OR instr(lower(coalesce(description, '')), lower(:q)) > 0)
      ORDER BY created_at DESC, id DESC LIMIT :limit`,
  ).all({ school: schoolId, q: text.trim(), limit });
}

export function listCourses(
  db: Database,
  schoolId: string,
  limit: number,
  offset: number,
): { rows: CourseRow[]; total: number } {
  const rows = stmt<object, CourseRow>(
    db,
    'SELECT * FROM courses WHERE school_id = :school ORDER BY created_at DESC, id DESC LIMIT :limit OFFSET :offset',
  ).all({ school: schoolId, limit, offset });
  const total = stmt<object, { n: number }>(
    db,
    'SELECT count(*) AS n FROM courses WHERE school_id = :school',
  ).get({
    school: schoolId,
  })!.n;
  return { rows, total };
}

export function getCourse(db: Database, schoolId: string, id: string): CourseRow | undefined {
  return stmt<object, CourseRow>(
    db,
    'SELECT * FROM courses WHERE school_id = :school AND id = :id',
  ).get({ school: schoolId, id });
}

/** A course of the school by its slug (unique per school, migration 002), published or not. */
export function getCourseBySlug(
  db: Database,
  schoolId: string,
  slug: string,
): CourseRow | undefined {
  return stmt<object, CourseRow>(
    db,
    'SELECT * FROM courses WHERE school_id = :school AND slug = :slug',
  ).get({ school: schoolId, slug });
}

const NULL_COURSE = Object.fromEntries(COURSE_COLUMNS.map((c) => [c, null]));

export function insertCourse(db: Database, row: NewCourse): void {
  stmt(
    db,
    `INSERT INTO courses (${COURSE_COLUMNS.join(', ')})
     VALUES (${COURSE_COLUMNS.map((c) => `:${c}`).join(', ')})`,
  ).run({ ...NULL_COURSE, ...row });
}

export function updateCourse(
  db: Database,
  schoolId: string,
  id: string,
  patch: CoursePatch,
): boolean {
  const current = getCourse(db, schoolId, id);
  if (!current) return false;
  const next = { ...current, ...patch };
  stmt(
    db,
    `UPDATE courses SET ${COURSE_EDITABLE.map((c) => `${c} = :${c}`).join(', ')}
      WHERE id = :id AND school_id = :school_id`,
  ).run(next);
  return true;
}

export function insertSection(db: Database, row: SectionRow): void {
  stmt(
    db,
    'INSERT INTO sections (id, course_id, title, position) VALUES (:id, :course_id, :title, :position)',
  ).run(row);
}

export function insertLecture(db: Database, row: Omit<LectureRow, 'state'>): void {
  stmt(
    db,
    `INSERT INTO lectures (id, course_id, section_id, title, position, duration, unlock_at)
     VALUES (:id, :course_id, :section_id, :title, :position, :duration, :unlock_at)`,
  ).run(row);
}

export function getSection(
  db: Database,
  courseId: string,
  sectionId: string,
): SectionRow | undefined {
  return stmt<object, SectionRow>(
    db,
    'SELECT * FROM sections WHERE id = :id AND course_id = :course',
  ).get({ id: sectionId, course: courseId });
}

export function nextLecturePosition(db: Database, sectionId: string): number {
  return stmt<object, { p: number }>(
    db,
    'SELECT coalesce(max(position), 0) + 1 AS p FROM lectures WHERE section_id = :s',
  ).get({ s: sectionId })!.p;
}

export function nextSectionPosition(db: Database, courseId: string): number {
  return stmt<object, { p: number }>(
    db,
    'SELECT coalesce(max(position), 0) + 1 AS p FROM sections WHERE course_id = :c',
  ).get({ c: courseId })!.p;
}

export function deleteLecture(db: Database, courseId: string, lectureId: string): boolean {
  return (
    stmt(db, 'DELETE FROM lectures WHERE id = :id AND course_id = :course').run({
      id: lectureId,
      course: courseId,
    }).changes > 0
  );
}
