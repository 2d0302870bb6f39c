import type { Database } from 'better-sqlite3';
import type {
  CourseDetail,
  LectureState,
  LibraryCourse,
  LibraryFilter,
  LibraryPage,
  LibrarySort,
  SectionView,
} from '../../common/view-models';
import { assertNever } from '../../common/result';
import { knownOr, siteNumber, siteText, siteTextOrNull } from '../../common/site-values';
import { CoreError } from '../errors';
import { displayJson, displayView } from './course-display';
import type { CourseRecord } from './records';
import { nextOffset, pageOf, type PageRequest } from './paging';
import { bool, prepared } from './statements';
import { cachedView, nextBoundary } from './view-cache';
import { isFirstCoursesCommit, recordCompletions } from './completions';
import { NEW_LECTURES_SQL } from './course-news';
import {
  LECTURES_SQL,
  shownLectureState,
  lecturesForNextStep,
  nextStepLecturesOf,
  nextStepOf,
  NO_LECTURES,
  orderedLectures,
  unlockBoundaries,
  type NextStepLectures,
} from './next-step';
import type { ReadableDB } from './handles';

/** "Expires soon" window of the library: access ending within 14 days. */
export const EXPIRES_SOON_MS = 14 * 24 * 60 * 60 * 1000;

// ------------------------------------------------------------------ writes

/**
 * Replaces the site's courses with its sections and lectures (ON DELETE CASCADE removes the old
 * children). What each course gained is the change record's business (change-record.ts), which
 * the "new since last sync" badges read (course-news.ts).
 */
export function replaceCourses(
  db: Database,
  siteId: string,
  records: readonly CourseRecord[],
): void {
  const firstCommit = isFirstCoursesCommit(db, siteId);
  prepared<{ siteId: string }>(db, 'DELETE FROM courses WHERE site_id = @siteId').run({ siteId });
  const insertCourse = prepared<Record<string, unknown>>(
    db,
    `INSERT INTO courses (site_id, id, position, slug, title, description, cover_image_url, instructor_name, enrolled_at,
       expire_date, has_lifetime_access, total_lectures, read_lectures, completed_lectures, percent, completed_at,
       last_lecture_id, last_position_seconds, last_watched_at, display)
     VALUES (@siteId, @id, @position, @slug, @title, @description, @coverImageUrl, @instructorName, @enrolledAt,
       @expireDate, @hasLifetimeAccess, @totalLectures, @readLectures, @completedLectures, @percent, @completedAt,
       @lastLectureId, @lastPositionSeconds, @lastWatchedAt, @display)`,
  );
  const insertSection = prepared<Record<string, unknown>>(
    db,
    'INSERT INTO sections (site_id, id, course_id, title, position) VALUES (@siteId, @id, @courseId, @title, @position)',
  );
  const insertLecture = prepared<Record<string, unknown>>(
    db,
    `INSERT INTO lectures (site_id, id, course_id, section_id, title, position, state, is_locked, unlock_at, duration, ord)
     VALUES (@siteId, @id, @courseId, @sectionId, @title, @position, @state, @isLocked, @unlockAt, @duration, @ord)`,
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
      display: displayJson(c),
    });
    for (const s of c.sections)
      insertSection.run({ siteId, id: s.id, courseId: c.id, title: s.title, position: s.position });
    // The course's order (migration 018): sections by position, then lectures by position; the
    // site's order breaks ties.
    let ord = 0;
    for (const s of byPosition(c.sections)) {
      for (const l of byPosition(s.lectures)) {
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
          ord: ++ord,
        });
      }
    }
  });
  recordCompletions(db, siteId, firstCommit);
}

/** A stable sort by position: equal positions keep the site's order. */
const byPosition = <T extends { readonly position: number }>(items: readonly T[]): T[] =>
  [...items].sort((a, b) => a.position - b.position);

// ------------------------------------------------------------------ views

interface CourseRow {
  site_id: string;
  id: string;
  slug: string;
  title: string;
  description: string | null;
  cover_image_url: string | null;
  instructor_name: string | null;
  enrolled_at: string;
  expire_date: string | null;
  /**
   * expire_date as epoch ms (SQLite's reading of the text, 006-view-pages); null when absent or
   * unreadable.
   */
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
  /** The display-only fields (course-display.ts displayView). */
  display: string;
  lw_title: string | null;
  lw_duration: number | null;
  lw_section_title: string | null;
  left_lectures: number;
  left_seconds: number;
  tail_done: number;
  new_lectures: number;
}

const COURSE_COLUMNS = `
  c.site_id, c.id, c.slug, c.title, c.description, c.cover_image_url, c.instructor_name, c.enrolled_at, c.expire_date, c.expires_ms,
  c.has_lifetime_access, c.total_lectures, c.read_lectures, c.completed_lectures, c.percent, c.completed_at,
  c.last_lecture_id, c.last_position_seconds, c.last_watched_at, c.display,
  l.title AS lw_title, l.duration AS lw_duration, s.title AS lw_section_title,
  ${LECTURES_SQL.left} AS left_lectures,
  ${LECTURES_SQL.secondsLeft} AS left_seconds,
  ${LECTURES_SQL.tailDone} AS tail_done,
  ${NEW_LECTURES_SQL} AS new_lectures`;
/** The last watched lecture and its section, for "continue watching". */
const LAST_WATCHED_JOINS = `
  LEFT JOIN lectures l ON l.site_id = c.site_id AND l.id = c.last_lecture_id
  LEFT JOIN sections s ON s.site_id = l.site_id AND s.id = l.section_id`;
const COURSE_SELECT = `SELECT ${COURSE_COLUMNS} FROM courses c ${LAST_WATCHED_JOINS}`;

function toLibraryCourse(r: CourseRow, now: Date, lectures: NextStepLectures): LibraryCourse {
  const lifetime = r.has_lifetime_access === 1;
  // The same column the library filters read (EXPIRED below): a flag and a filter never disagree.
  const expiresAt = r.expires_ms;
  const t = now.getTime();
  const isExpired = !lifetime && expiresAt !== null && expiresAt <= t;
  return {
    courseId: r.id,
    slug: siteText(r.slug, 200),
    title: siteText(r.title),
    description: siteTextOrNull(r.description, 20_000),
    coverImageUrl: r.cover_image_url,
    instructorName: siteTextOrNull(r.instructor_name),
    enrolledAt: r.enrolled_at,
    expireDate: r.expire_date,
    hasLifetimeAccess: lifetime,
    isExpired,
    expiresSoon: !lifetime && expiresAt !== null && !isExpired && expiresAt - t <= EXPIRES_SOON_MS,
    totalLectures: siteNumber(r.total_lectures),
    // The school's count, and the last watched lecture finished here before the school marks it
    // (facts.ts).
    completedLectures: Math.min(
      siteNumber(r.total_lectures),
      siteNumber(r.completed_lectures) + r.tail_done,
    ),
    readLectures: siteNumber(r.read_lectures),
    percent: Math.max(0, Math.min(100, siteNumber(r.percent))),
    completedAt: r.completed_at,
    // Only when the lecture is still in the course: a lecture removed on the server is not offered.
    continueWatching:
      r.last_lecture_id !== null && r.lw_title !== null
        ? {
            lectureId: r.last_lecture_id,
            lectureTitle: siteText(r.lw_title),
            sectionTitle: siteText(r.lw_section_title),
            positionSeconds: siteNumber(r.last_position_seconds),
            durationSeconds: siteNumber(r.lw_duration),
          }
        : null,
    siteId: r.site_id,
    lecturesLeft: r.left_lectures,
    secondsLeft: r.left_seconds,
    newLectures: r.new_lectures,
    nextStep: nextStepOf(
      {
        isExpired,
        expireDate: r.expire_date,
        completedAt: r.completed_at,
        lastPositionSeconds: r.last_position_seconds,
      },
      lectures,
      t,
    ),
  };
}

/**
 * isExpired in SQL, at @now (epoch ms): the library filters run at read time against the caller's
 * clock.
 */
const EXPIRED = 'c.has_lifetime_access = 0 AND c.expires_ms <= @now';

/** Started: something read, completed or watched, or progress reported. */
const STARTED =
  '(c.read_lectures > 0 OR c.completed_lectures > 0 OR c.percent > 0 OR c.last_lecture_id IS NOT NULL)';
const FINISHED = '(c.percent >= 100 OR c.completed_at IS NOT NULL)';
const OPEN = `NOT coalesce(${EXPIRED}, 0)`;

function filterSql(filter: LibraryFilter): string {
  switch (filter) {
    case 'all':
      return '';
    case 'in-progress':
      return ` AND ${OPEN} AND ${STARTED} AND NOT ${FINISHED}`;
    case 'not-started':
      return ` AND ${OPEN} AND NOT ${STARTED} AND NOT ${FINISHED}`;
    case 'completed':
      return ` AND ${FINISHED}`;
    case 'expiring-soon':
      return ` AND c.has_lifetime_access = 0 AND c.expires_ms > @now AND c.expires_ms - @now <= ${EXPIRES_SOON_MS}`;
    case 'expired':
      return ` AND coalesce(${EXPIRED}, 0)`;
    default:
      return assertNever(filter, 'library filter');
  }
}

/**
 * The order of a library page; the school's own order breaks ties, and across sites the order sites
 * were added.
 */
function orderSql(sort: LibrarySort): string {
  const tail = 'site.created_at, c.site_id, c.position';
  switch (sort) {
    case 'service':
      return tail;
    case 'recent':
      // An unreadable date sorts as the oldest rather than failing the page.
      return `coalesce(unixepoch(c.last_watched_at, 'subsec'), unixepoch(c.enrolled_at, 'subsec'), 0) DESC, ${tail}`;
    case 'ending':
      // Access still open, soonest end first; then ended, most recently first; then lifetime or no
      // end date.
      return `CASE WHEN c.has_lifetime_access = 1 OR c.expires_ms IS NULL THEN 2 WHEN c.expires_ms <= @now THEN 1 ELSE 0 END,
        CASE WHEN c.expires_ms > @now THEN c.expires_ms ELSE -c.expires_ms END, ${tail}`;
    case 'progress':
      return `c.percent DESC, ${tail}`;
    case 'title':
      return `c.title COLLATE NOCASE, ${tail}`;
    default:
      return assertNever(sort, 'library sort');
  }
}

export interface LibraryRequest extends PageRequest {
  readonly filter?: LibraryFilter;
  readonly sort?: LibrarySort;
}

/**
 * A page of the library of one site (`siteId`) or of every site kept here (null), filtered and
 * ordered at read time (expiry judged against `now`). The page's ids are picked first, so the joins
 * for "continue watching" and the time left run for the page's rows only, however deep the page.
 */
function libraryPage(
  db: Database,
  siteId: string | null,
  now: Date,
  request: LibraryRequest,
): LibraryPage {
  const { offset, limit } = pageOf(request);
  const scope = siteId === null ? '1' : 'c.site_id = @siteId';
  const where = `${scope}${filterSql(request.filter ?? 'all')}`;
  const order = orderSql(request.sort ?? 'service');
  const params = { siteId: siteId ?? '', now: now.getTime(), offset, limit: limit ?? -1 };
  const rows = prepared<typeof params, CourseRow>(
    db,
    // A plain ORDER BY ... LIMIT: the school's order walks courses_by_position and stops at the
    // page's end, another order keeps only the page's rows in its sorter. (A row_number() window
    // over the school's courses cost 3 ms at 4,000 courses, linear in them.) The order is total (it
    // ends with the site and the position), so the page's rows sorted again come out the same.
    `WITH page AS MATERIALIZED (
       SELECT c.site_id, c.id FROM courses c JOIN sites site ON site.id = c.site_id WHERE ${where}
        ORDER BY ${order} LIMIT @limit OFFSET @offset)
     SELECT ${COURSE_COLUMNS} FROM page JOIN courses c ON c.site_id = page.site_id AND c.id = page.id
       JOIN sites site ON site.id = c.site_id ${LAST_WATCHED_JOINS}
     ORDER BY ${order}`,
  ).all(params);
  const count = (sql: string) =>
    prepared<{ siteId: string; now: number }, { n: number }>(
      db,
      `SELECT count(*) AS n FROM courses c WHERE ${sql}`,
    ).get({
      siteId: params.siteId,
      now: params.now,
    })!.n;
  const total = count(where);
  const courseCount =
    request.filter === undefined || request.filter === 'all' ? total : count(scope);
  const lectures = nextStepLecturesOf(db, rows);
  const items = rows.map((r) =>
    toLibraryCourse(r, now, lectures.get(`${r.site_id}\u0000${r.id}`) ?? NO_LECTURES),
  );
  return { items, total, nextOffset: nextOffset(offset, items.length, limit, total), courseCount };
}

/** A page of one site's library (the service's order unless asked otherwise). */
export function getLibraryPage(
  db: ReadableDB,
  siteId: string,
  now: Date,
  request: LibraryRequest = {},
): LibraryPage {
  return libraryPage(db, siteId, now, request);
}

/** A page of the "All schools" library: every site kept on this computer. */
export function getAllSitesLibraryPage(
  db: ReadableDB,
  now: Date,
  request: LibraryRequest = {},
): LibraryPage {
  return libraryPage(db, null, now, request);
}

/**
 * The whole library at once (tests, the `library:list` channel); the screen pages through
 * getLibraryPage.
 */
export function getLibrary(db: ReadableDB, siteId: string, now: Date): LibraryCourse[] {
  return cachedView(db, 'library', siteId, '', now, () => {
    const items = getLibraryPage(db, siteId, now).items as LibraryCourse[];
    const expiries = prepared<{ siteId: string }, { at: number }>(
      db,
      'SELECT expires_ms AS at FROM courses WHERE site_id = @siteId AND has_lifetime_access = 0 AND expires_ms IS NOT NULL',
    ).all({ siteId });
    // A locked lecture's unlock date changes its course's next step too.
    const unlocks = prepared<{ siteId: string }, { at: string }>(
      db,
      'SELECT unlock_at AS at FROM lectures WHERE site_id = @siteId AND is_locked = 1 AND unlock_at IS NOT NULL',
    )
      .all({ siteId })
      .map((r) => Date.parse(r.at))
      .filter((at) => Number.isFinite(at));
    return {
      value: items,
      validUntil: nextBoundary(now.getTime(), [
        ...expiries.flatMap((r) => [r.at, r.at - EXPIRES_SOON_MS]),
        ...unlocks,
      ]),
    };
  });
}

/** When isExpired / expiresSoon of a course flip. */
function boundaries(r: CourseRow): number[] {
  if (r.has_lifetime_access === 1 || r.expires_ms === null) return [];
  return [r.expires_ms, r.expires_ms - EXPIRES_SOON_MS];
}

const LECTURE_STATES: readonly LectureState[] = ['unread', 'read', 'completed'];

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

/**
 * One course with its sections and lectures; CoreError 'not-found' when the site has no such
 * course.
 */
export function getCourseDetail(
  db: ReadableDB,
  siteId: string,
  courseId: string,
  now: Date,
): CourseDetail {
  return cachedView(db, 'library', siteId, `course\u0000${courseId}`, now, () =>
    computeCourseDetail(db, siteId, courseId, now),
  );
}

function computeCourseDetail(
  db: Database,
  siteId: string,
  courseId: string,
  now: Date,
): { value: CourseDetail; validUntil: number } {
  const row = prepared<{ siteId: string; courseId: string }, CourseRow>(
    db,
    `${COURSE_SELECT} WHERE c.site_id = @siteId AND c.id = @courseId`,
  ).get({
    siteId,
    courseId,
  });
  if (!row)
    throw new CoreError('not-found', 'This course is not in your offline library.', { courseId });
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
    .map((s): SectionView => ({
      sectionId: s.id,
      title: siteText(s.title),
      position: s.position,
      lectures: (bySection.get(s.id) ?? []).map((l) => ({
        lectureId: l.id,
        title: siteText(l.title),
        position: l.position,
        state: knownOr(
          shownLectureState(
            l.state,
            l.duration,
            l.id === row.last_lecture_id ? row.last_position_seconds : null,
          ),
          LECTURE_STATES,
        ),
        isLocked: l.is_locked === 1,
        unlockAt: l.unlock_at,
        durationSeconds: siteNumber(l.duration),
        isLastWatched: l.id === row.last_lecture_id,
      })),
    }));
  const ordered = orderedLectures(db, siteId, [courseId]).get(courseId) ?? [];
  const value: CourseDetail = {
    // The display-only fields first: a view field of the same name is the core's.
    ...displayView(row.display),
    ...toLibraryCourse(row, now, lecturesForNextStep(ordered, row.last_lecture_id)),
    sections,
    lastWatched:
      row.last_lecture_id === null
        ? null
        : {
            lectureId: row.last_lecture_id,
            positionSeconds: row.last_position_seconds ?? 0,
            watchedAt: row.last_watched_at,
          },
  };
  return {
    value,
    validUntil: nextBoundary(now.getTime(), [...boundaries(row), ...unlockBoundaries(ordered)]),
  };
}
