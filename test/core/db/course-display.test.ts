import Database from 'better-sqlite3';
import { readWrite } from '../../helpers/db';
import { describe, expect, it } from 'vitest';
import { Kind, print, type SelectionSetNode } from 'graphql';
import {
  COURSE_COLUMN_FIELDS,
  COURSE_DISPLAY_FIELDS,
  displayJson,
  displayView,
  readDisplay,
} from '../../../electron/core/db/course-display';
import { CoursesQuery } from '../../../electron/core/graphql/documents';
import { replaceCourses } from '../../../electron/core/db/courses';
import { migrate } from '../../../electron/core/db/migrate';
import { MIGRATIONS } from '../../../electron/core/db/migrations';
import type { CourseRecord } from '../../../electron/core/db/records';
import { ensureSite } from '../../../electron/core/db/sites';
import { course } from './fixtures';

/** A course as a query asking for one more field (`language`, display-only) would hand it over. */
const withLanguage = (id: string): CourseRecord =>
  ({ ...course(id), language: 'zh-TW' }) as CourseRecord;

/** The names a selection set asks for at `path` (a field's alias when it has one). */
function selectedFields(set: SelectionSetNode | undefined, path: readonly string[]): string[] {
  const fields = (set?.selections ?? []).flatMap((s) => (s.kind === Kind.FIELD ? [s] : []));
  const [head, ...rest] = path;
  if (head === undefined) return fields.map((f) => f.alias?.value ?? f.name.value);
  return selectedFields(fields.find((f) => f.name.value === head)?.selectionSet, rest);
}

describe("a course's display-only fields: one JSON column, no migration per field", () => {
  it('lists exactly the fields the course query asks beyond the columns', () => {
    const asked = CoursesQuery.definitions
      .flatMap((d) => (d.kind === Kind.OPERATION_DEFINITION ? [d.selectionSet] : []))
      .flatMap((set) => selectedFields(set, ['viewer', 'enrolledCourses', 'nodes']));
    expect(asked.length).toBeGreaterThan(COURSE_COLUMN_FIELDS.size - 1);
    expect([...COURSE_DISPLAY_FIELDS].sort()).toEqual(
      asked.filter((f) => !COURSE_COLUMN_FIELDS.has(f)).sort(),
    );
  });

  it('keeps every field no column holds, and none that one does', () => {
    expect(displayJson(course('c1'))).toBe('{}');
    expect(JSON.parse(displayJson(withLanguage('c1')))).toEqual({ language: 'zh-TW' });
  });

  it('the sync stores them with the course, and the views read them back', () => {
    const db = readWrite(new Database(':memory:'));
    migrate(db, MIGRATIONS);
    ensureSite(db, 's', new Date('2026-01-01T00:00:00.000Z'));
    replaceCourses(db, 's', [withLanguage('c1'), course('c2')]);
    const rows = db
      .prepare("SELECT id, display FROM courses WHERE site_id = 's' ORDER BY id")
      .all() as { id: string; display: string }[];
    expect(rows.map((r) => [r.id, readDisplay(r.display)])).toEqual([
      ['c1', { language: 'zh-TW' }],
      ['c2', {}],
    ]);
    db.close();
  });

  it('a field sent as null is not stored: it reads back as null all the same', () => {
    const nulled = { ...course('c1'), language: null } as unknown as CourseRecord;
    expect(displayJson(nulled)).toBe('{}');
  });

  it('the views fill exactly the fields the course query asks beyond the columns', () => {
    const asked = print(CoursesQuery);
    for (const field of COURSE_DISPLAY_FIELDS) expect(asked).toMatch(new RegExp(`\\b${field}\\b`));
    const stored = JSON.stringify({
      notAsked: 'x',
      ...Object.fromEntries(COURSE_DISPLAY_FIELDS.map((f) => [f, '\u202Eab'])),
    });
    expect(displayView(stored)).toEqual(
      Object.fromEntries(COURSE_DISPLAY_FIELDS.map((f) => [f, 'ab'])),
    );
    expect(displayView('{}')).toEqual(
      Object.fromEntries(COURSE_DISPLAY_FIELDS.map((f) => [f, null])),
    );
  });

  it('anything but a JSON object reads as no fields', () => {
    for (const bad of ['', 'nonsense', 'null', '[1,2]', '"text"', '42'])
      expect(readDisplay(bad), bad).toEqual({});
  });

  it('courses stored before the column read as none (migration 015)', () => {
    const db = readWrite(new Database(':memory:'));
    migrate(
      db,
      MIGRATIONS.filter((m) => m.version < 15),
    );
    ensureSite(db, 's', new Date('2026-01-01T00:00:00.000Z'));
    db.prepare(
      `INSERT INTO courses (site_id, id, position, slug, title, enrolled_at, has_lifetime_access, total_lectures, read_lectures,
         completed_lectures, percent) VALUES ('s', 'old', 0, 'old', 'Old', '2026-01-01', 1, 0, 0, 0, 0)`,
    ).run();
    migrate(db, MIGRATIONS);
    expect(db.prepare("SELECT display FROM courses WHERE id = 'old'").pluck().get()).toBe('{}');
    db.close();
  });
});
