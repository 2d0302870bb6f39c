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

const columns: ReadonlySet<string> = new Set(COLUMN_FIELDS);

/** The `display` column's JSON: the record's fields that no column holds. */
export function displayJson(course: CourseRecord): string {
  return JSON.stringify(
    Object.fromEntries(Object.entries(course).filter(([field]) => !columns.has(field))),
  );
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
