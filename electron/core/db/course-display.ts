import { siteTextOrNull } from '../../common/site-values';
import type { CourseRecord } from './records';

/**
 * The course fields that have columns of their own (migration 001): what the views sort, filter,
 * join and count by. Every other field of the course query is display-only and kept in the
 * `display` JSON column (migration 015).
 */
const COLUMN_FIELDS = [
  'id',
  'slug',
  'title',
  'description',
  'coverImageUrl',
  'instructorName',
  'enrolledAt',
  'expireDate',
  'hasLifetimeAccess',
  'detailProgress',
  'lastWatchedLecture',
  'sections',
] as const satisfies readonly (keyof CourseRecord)[];

/** A course's display-only fields, as the sync received them. */
export type CourseDisplay = Omit<CourseRecord, (typeof COLUMN_FIELDS)[number]>;

/** The fields with columns, by name (a test reads the display-only ones off the query with it). */
export const COURSE_COLUMN_FIELDS: ReadonlySet<string> = new Set(COLUMN_FIELDS);

/**
 * The display-only fields by name: the views fill each one (null when a stored course lacks it).
 * Listed here, not read from the parsed course query: the first screen reads courses before the
 * first sync, and parsing the query would load graphql-js at the start (browser-host-bundle test).
 * The compiler keeps the list whole (DisplayFieldsListed) and a test that it matches the query.
 */
export const COURSE_DISPLAY_FIELDS = [] as const satisfies readonly (keyof CourseDisplay &
  string)[];

/** A display-only field of the query missing from COURSE_DISPLAY_FIELDS fails to compile here. */
export type DisplayFieldsListed = Assert<
  [Exclude<keyof CourseDisplay, (typeof COURSE_DISPLAY_FIELDS)[number]>] extends [never]
    ? true
    : false
>;

/**
 * The views show a display-only field as text (displayView): a field of another type (a number, a
 * list, an object) fails to compile here, and gets its own line in the views or a column.
 */
export type DisplayFieldsAreText = Assert<
  [CourseDisplay[keyof CourseDisplay]] extends [string | null] ? true : false
>;
type Assert<T extends true> = T;

/**
 * The `display` column's JSON: the record's fields that no column holds. A field the site sent as
 * null is left out: it reads back as null all the same (displayView).
 */
export function displayJson(course: CourseRecord): string {
  return JSON.stringify(
    Object.fromEntries(
      Object.entries(course).filter(
        ([field, value]) => !COURSE_COLUMN_FIELDS.has(field) && value !== null,
      ),
    ),
  );
}

/** A course's display-only fields as the views show them. */
export type CourseDisplayView = { readonly [K in keyof CourseDisplay]: string | null };

/**
 * Every display-only field of a stored course, cleaned as any text a site sent (site-values.ts);
 * null when the site sent none or the course was stored before the field was asked for.
 */
export function displayView(json: string): CourseDisplayView {
  const stored: Partial<Record<string, unknown>> = readDisplay(json);
  return Object.fromEntries(
    COURSE_DISPLAY_FIELDS.map((field) => [field, siteTextOrNull(stored[field])]),
  ) as CourseDisplayView;
}

/**
 * The display-only fields of a stored course. Partial: a row written before a field was asked for
 * lacks it, and anything that is not a JSON object reads as none. The values are the site's: check
 * them as any site data.
 */
export function readDisplay(json: string): Partial<CourseDisplay> {
  try {
    const value = JSON.parse(json) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Partial<CourseDisplay>)
      : {};
  } catch {
    return {};
  }
}
