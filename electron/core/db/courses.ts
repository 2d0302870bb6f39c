import type { Database } from 'better-sqlite3';
import type { CourseDetail, LectureState, LibraryCourse, LibraryFilter, LibraryPage, SectionView } from '../../common/view-models';
import { assertNever } from '../../common/result';
import { CoreError } from '../errors';
import type { CourseRecord } from './records';
import { nextOffset, pageOf, type PageRequest } from './paging';
import { bool, prepared } from './statements';
import { cachedView, nextBoundary } from './view-cache';

/** "Expires soon" window of the library (issue 6): access ending within 14 days. */
export const EXPIRES_SOON_MS = 14 * 24 * 60 * 60 * 1000;

// ------------------------------------------------------------------ writes

/** Replaces the site's courses with its sections and lectures (ON DELETE CASCADE removes the old children). */
export function replaceCourses(db: Database, siteId: string, records: readonly CourseRecord[]): void {
  prepared<{ siteId: string }>(db, 'DELETE FROM courses WHERE site_id = @siteId').run({ siteId });
  const insertCourse = prepared<Record<string, unknown>>(
    db,
    `INSERT INTO courses (site_id, id, position, slug, title, description, cover_image_url, instructor_name, enrolled_at,
       expire_date, has_lifetime_access, total_lectures, read_lectures, completed_lectures, percent, completed_at,
       last_lecture_id, last_position_seconds, last_watched_at)
     VALUES (@siteId, @id, @position, @slug, @title, @description, @coverImageUrl, @instructorName, @enrolledAt,
       @expireDate, @hasLifetimeAccess, @totalLectures, @readLectures, @completedLectures, @percent, @completedAt,
       @lastLectureId, @lastPositionSeconds, @lastWatchedAt)`,
  );
  const insertSection = prepared<Record<string, unknown>>(
    db,
    'INSERT INTO sections (site_id, id, course_id, title, position) VALUES (@siteId, @id, @courseId, @title, @position)',
  );
  const insertLecture = prepared<Record<string, unknown>>(
    db,
    `INSERT INTO lectures (site_id, id, course_id, section_id, title, position, state, is_locked, unlock_at, duration)
     VALUES (@siteId, @id, @courseId, @sectionId, @title, @position, @state, @isLocked, @unlockAt, @duration)`,
  );
  records.forEach((c, position) => {
    const p = c.detailProgress;
    insertCourse.run({
      siteId,
      id: c.id,
      position,
      slug: c.slug,
      title: c.title,
      description: c.description,
      coverImageUrl: c.coverImageUrl,
      instructorName: c.instructorName,
      enrolledAt: c.enrolledAt,
      expireDate: c.expireDate,
      hasLifetimeAccess: bool(c.hasLifetimeAccess),
      totalLectures: p.totalLectures,
      readLectures: p.readLectures,
      completedLectures: p.completedLectures,
      percent: p.percent,
      completedAt: p.completedAt,
      lastLectureId: c.lastWatchedLecture?.lectureId ?? null,
      lastPositionSeconds: c.lastWatchedLecture?.positionSeconds ?? null,
      lastWatchedAt: c.lastWatchedLecture?.watchedAt ?? null,
    });
    for (const s of c.sections) {
      insertSection.run({ siteId, id: s.id, courseId: c.id, title: s.title, position: s.position });
      for (const l of s.lectures) {
        insertLecture.run({
          siteId,
          id: l.lectureId,
          courseId: c.id,
          sectionId: s.id,
          title: l.title,
          position: l.position,
          state: l.state,
          isLocked: bool(l.isLocked),
          unlockAt: l.unlockAt,
          duration: l.duration,
        });
      }
    }
  });
}

// ------------------------------------------------------------------ views

interface CourseRow {
  id: string;
  slug: string;
  title: string;
  description: string | null;
  cover_image_url: string | null;
  instructor_name: string | null;
  enrolled_at: string;
  expire_date: string | null;
  /** expire_date as epoch ms (SQLite's reading of the text, 006-view-pages); null when absent or unreadable. */
  expires_ms: number | null;
  has_lifetime_access: number;
  total_lectures: number;
  read_lectures: number;
  completed_lectures: number;
  percent: number;
  completed_at: string | null;
  last_lecture_id: string | null;
  last_position_seconds: number | null;
  last_watched_at: string | null;
  lw_title: string | null;
  lw_duration: number | null;
  lw_section_title: string | null;
}

const COURSE_COLUMNS = `
  c.id, c.slug, c.title, c.description, c.cover_image_url, c.instructor_name, c.enrolled_at, c.expire_date, c.expires_ms,
  c.has_lifetime_access, c.total_lectures, c.read_lectures, c.completed_lectures, c.percent, c.completed_at,
  c.last_lecture_id, c.last_position_seconds, c.last_watched_at,
  l.title AS lw_title, l.duration AS lw_duration, s.title AS lw_section_title`;
/** The last watched lecture and its section, for "continue watching". */
const LAST_WATCHED_JOINS = `
  LEFT JOIN lectures l ON l.site_id = c.site_id AND l.id = c.last_lecture_id
  LEFT JOIN sections s ON s.site_id = l.site_id AND s.id = l.section_id`;
const COURSE_SELECT = `SELECT ${COURSE_COLUMNS} FROM courses c ${LAST_WATCHED_JOINS}`;

function toLibraryCourse(r: CourseRow, now: Date): LibraryCourse {
  const lifetime = r.has_lifetime_access === 1;
  // The same column the library filters read (EXPIRED below): a flag and a filter never disagree.
  const expiresAt = r.expires_ms;
  const t = now.getTime();
  const isExpired = !lifetime && expiresAt !== null && expiresAt <= t;
  return {
    courseId: r.id,
    slug: r.slug,
    title: r.title,
    description: r.description,
    coverImageUrl: r.cover_image_url,
    instructorName: r.instructor_name,
    enrolledAt: r.enrolled_at,
    expireDate: r.expire_date,
    hasLifetimeAccess: lifetime,
    isExpired,
    expiresSoon: !lifetime && expiresAt !== null && !isExpired && expiresAt - t <= EXPIRES_SOON_MS,
    totalLectures: r.total_lectures,
    completedLectures: r.completed_lectures,
    readLectures: r.read_lectures,
    percent: r.percent,
    completedAt: r.completed_at,
    // Only when the lecture is still in the course: a lecture removed on the server is not offered.
    continueWatching:
      r.last_lecture_id !== null && r.lw_title !== null
        ? {
            lectureId: r.last_lecture_id,
            lectureTitle: r.lw_title,
            sectionTitle: r.lw_section_title ?? '',
            positionSeconds: r.last_position_seconds ?? 0,
            durationSeconds: r.lw_duration ?? 0,
          }
        : null,
  };
}

/** isExpired in SQL, at @now (epoch ms): the library filters run at read time against the caller's clock. */
const EXPIRED = 'c.has_lifetime_access = 0 AND c.expires_ms <= @now';

function filterSql(filter: LibraryFilter): string {
  switch (filter) {
    case 'all':
      return '';
    case 'in-progress':
      return ` AND NOT coalesce(${EXPIRED}, 0) AND c.percent < 100`;
    case 'completed':
      return ' AND (c.percent >= 100 OR c.completed_at IS NOT NULL)';
    case 'expired':
      return ` AND coalesce(${EXPIRED}, 0)`;
    default:
      return assertNever(filter, 'library filter');
  }
}

/**
 * A page of the library, in the order the service lists the courses, filtered at read time (expiry judged against
 * `now`). The page's ids come off courses_by_position first, so the joins for "continue watching" run for the page's
 * rows only, however deep the page.
 */
export function getLibraryPage(db: Database, siteId: string, now: Date, request: PageRequest & { readonly filter?: LibraryFilter } = {}): LibraryPage {
  const { offset, limit } = pageOf(request);
  const where = `c.site_id = @siteId${filterSql(request.filter ?? 'all')}`;
  const params = { siteId, now: now.getTime(), offset, limit: limit ?? -1 };
  const rows = prepared<typeof params, CourseRow>(
    db,
    `WITH page AS (SELECT c.id, c.position FROM courses c WHERE ${where} ORDER BY c.position LIMIT @limit OFFSET @offset)
     SELECT ${COURSE_COLUMNS} FROM page JOIN courses c ON c.site_id = @siteId AND c.id = page.id ${LAST_WATCHED_JOINS}
     ORDER BY page.position`,
  ).all(params);
  const total = prepared<{ siteId: string; now: number }, { n: number }>(db, `SELECT count(*) AS n FROM courses c WHERE ${where}`).get({
    siteId,
    now: params.now,
  })!.n;
  const courseCount =
    request.filter === undefined || request.filter === 'all'
      ? total
      : prepared<{ siteId: string }, { n: number }>(db, 'SELECT count(*) AS n FROM courses WHERE site_id = @siteId').get({ siteId })!.n;
  const items = rows.map((r) => toLibraryCourse(r, now));
  return { items, total, nextOffset: nextOffset(offset, items.length, limit, total), courseCount };
}

/** The whole library at once (tests, the `library:list` channel); the screen pages through getLibraryPage. */
export function getLibrary(db: Database, siteId: string, now: Date): LibraryCourse[] {
  return cachedView(db, 'library', siteId, '', now, () => {
    const items = getLibraryPage(db, siteId, now).items as LibraryCourse[];
    const expiries = prepared<{ siteId: string }, { at: number }>(
      db,
      'SELECT expires_ms AS at FROM courses WHERE site_id = @siteId AND has_lifetime_access = 0 AND expires_ms IS NOT NULL',
    ).all({ siteId });
    return { value: items, validUntil: nextBoundary(now.getTime(), expiries.flatMap((r) => [r.at, r.at - EXPIRES_SOON_MS])) };
  });
}

/** When isExpired / expiresSoon of a course flip. */
function boundaries(r: CourseRow): number[] {
  if (r.has_lifetime_access === 1 || r.expires_ms === null) return [];
  return [r.expires_ms, r.expires_ms - EXPIRES_SOON_MS];
}

interface SectionRow {
  id: string;
  title: string;
  position: number;
}
interface LectureRow {
  id: string;
  section_id: string;
  title: string;
  position: number;
  state: LectureState;
  is_locked: number;
  unlock_at: string | null;
  duration: number;
}

/** One course with its sections and lectures; CoreError 'not-found' when the site has no such course. */
export function getCourseDetail(db: Database, siteId: string, courseId: string, now: Date): CourseDetail {
  return cachedView(db, 'library', siteId, `course\u0000${courseId}`, now, () => computeCourseDetail(db, siteId, courseId, now));
}

function computeCourseDetail(db: Database, siteId: string, courseId: string, now: Date): { value: CourseDetail; validUntil: number } {
  const row = prepared<{ siteId: string; courseId: string }, CourseRow>(db, `${COURSE_SELECT} WHERE c.site_id = @siteId AND c.id = @courseId`).get({
    siteId,
    courseId,
  });
  if (!row) throw new CoreError('not-found', 'This course is not in your offline library.', { courseId });
  const lectures = prepared<{ siteId: string; courseId: string }, LectureRow>(
    db,
    `SELECT id, section_id, title, position, state, is_locked, unlock_at, duration FROM lectures
     WHERE site_id = @siteId AND course_id = @courseId ORDER BY section_id, position`,
  ).all({ siteId, courseId });
  const bySection = new Map<string, LectureRow[]>();
  for (const l of lectures) {
    const list = bySection.get(l.section_id);
    if (list) list.push(l);
    else bySection.set(l.section_id, [l]);
  }
  const sections = prepared<{ siteId: string; courseId: string }, SectionRow>(
    db,
    'SELECT id, title, position FROM sections WHERE site_id = @siteId AND course_id = @courseId ORDER BY position',
  )
    .all({ siteId, courseId })
    .map(
      (s): SectionView => ({
        sectionId: s.id,
        title: s.title,
        position: s.position,
        lectures: (bySection.get(s.id) ?? []).map((l) => ({
          lectureId: l.id,
          title: l.title,
          position: l.position,
          state: l.state,
          isLocked: l.is_locked === 1,
          unlockAt: l.unlock_at,
          durationSeconds: l.duration,
          isLastWatched: l.id === row.last_lecture_id,
        })),
      }),
    );
  const value: CourseDetail = {
    ...toLibraryCourse(row, now),
    sections,
    lastWatched:
      row.last_lecture_id === null
        ? null
        : { lectureId: row.last_lecture_id, positionSeconds: row.last_position_seconds ?? 0, watchedAt: row.last_watched_at },
  };
  return { value, validUntil: nextBoundary(now.getTime(), boundaries(row)) };
}
