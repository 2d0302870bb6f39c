/**
 * The student's notes and bookmarks (migration 020): what the screens read. A note is shown with
 * the saved copy's current titles while its lecture is in the course, and with the titles it was
 * written under once the school renamed the lecture away or removed it (marked `lectureGone`); a
 * note of a removed site the student kept is read the same way (`siteGone`). Writes are in
 * notes-write.ts (the writer's thread).
 */
import type { Database } from 'better-sqlite3';
import { siteText } from '../../common/site-values';
import type { NoteHit, NoteKind, NoteView, Page } from '../../common/view-models';
import { nextOffset, pageOf, type PageRequest } from './paging';
import { likeSnippet, parseSearch } from './search/parse';
import { prepared } from './statements';

interface NoteRow {
  id: number;
  site_id: string;
  course_id: string;
  lecture_id: string;
  kind: NoteKind;
  position_seconds: number;
  title: string;
  body: string;
  school: string;
  course_title: string;
  section_title: string;
  lecture_title: string;
  lecture_gone: number;
  site_gone: number;
  created_at: string;
  updated_at: string;
}

/** The columns of a note as the views show it, over `notes n` (the joins are NOTE_JOINS). */
const NOTE_COLUMNS = `n.id, n.site_id, n.course_id, n.lecture_id, n.kind, n.position_seconds, n.title, n.body,
  n.school, coalesce(c.title, n.course_title) AS course_title,
  coalesce(s.title, n.section_title) AS section_title, coalesce(l.title, n.lecture_title) AS lecture_title,
  l.id IS NULL AS lecture_gone, NOT EXISTS (SELECT 1 FROM sites WHERE id = n.site_id) AS site_gone,
  n.created_at, n.updated_at`;
const NOTE_JOINS = `LEFT JOIN lectures l ON l.site_id = n.site_id AND l.id = n.lecture_id AND l.course_id = n.course_id
  LEFT JOIN sections s ON s.site_id = l.site_id AND s.id = l.section_id
  LEFT JOIN courses c ON c.site_id = n.site_id AND c.id = n.course_id`;

function toView(r: NoteRow): NoteView {
  return {
    id: r.id,
    siteId: r.site_id,
    courseId: r.course_id,
    lectureId: r.lecture_id,
    kind: r.kind,
    positionSeconds: r.position_seconds,
    title: r.title,
    body: r.body,
    // The school's titles pass the one sanitiser as every view's do; the student's own text was
    // cleaned when saved.
    school: siteText(r.school),
    courseTitle: siteText(r.course_title),
    sectionTitle: siteText(r.section_title),
    lectureTitle: siteText(r.lecture_title),
    lectureGone: r.lecture_gone === 1,
    siteGone: r.site_gone === 1,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export function getNote(db: Database, id: number): NoteView | null {
  const row = prepared<{ id: number }, NoteRow>(
    db,
    `SELECT ${NOTE_COLUMNS} FROM notes n ${NOTE_JOINS} WHERE n.id = @id AND n.deleted_at IS NULL`,
  ).get({ id });
  return row ? toView(row) : null;
}

/**
 * A note as stored, for opening and export: its site's address and the course's slug as they were
 * written.
 */
export function getNoteAddress(
  db: Database,
  id: number,
): { siteUrl: string; courseSlug: string } | null {
  return (
    prepared<{ id: number }, { siteUrl: string; courseSlug: string }>(
      db,
      `SELECT n.site_url AS siteUrl, coalesce(c.slug, n.course_slug) AS courseSlug FROM notes n
       LEFT JOIN courses c ON c.site_id = n.site_id AND c.id = n.course_id
       WHERE n.id = @id AND n.deleted_at IS NULL`,
    ).get({ id }) ?? null
  );
}

/**
 * A course's notes in the course's order: by the lecture's place (the current one, or the one it
 * had when the note was written if it is gone), then by the moment in the lecture. Bounded by
 * NOTE_LIMITS.count.
 */
export function getCourseNotes(db: Database, siteId: string, courseId: string): NoteView[] {
  return prepared<{ siteId: string; courseId: string }, NoteRow>(
    db,
    `SELECT ${NOTE_COLUMNS} FROM notes n ${NOTE_JOINS}
     WHERE n.site_id = @siteId AND n.course_id = @courseId AND n.deleted_at IS NULL
     ORDER BY coalesce(l.ord, n.lecture_ord), n.position_seconds, n.id`,
  )
    .all({ siteId, courseId })
    .map(toView);
}

export interface NotesFilter {
  readonly siteId?: string | undefined;
  readonly courseId?: string | undefined;
}

/** Which partial index a filter reads (migration 020): one statement each, so SQLite picks it. */
function filterSql(filter: NotesFilter): string {
  if (filter.siteId !== undefined && filter.courseId !== undefined)
    return 'n.site_id = @siteId AND n.course_id = @courseId AND n.deleted_at IS NULL';
  if (filter.siteId !== undefined) return 'n.site_id = @siteId AND n.deleted_at IS NULL';
  return 'n.deleted_at IS NULL';
}

/** Every school's notes (or one school's, one course's), newest first, one page. */
export function getNotesPage(
  db: Database,
  filter: NotesFilter,
  request: PageRequest = {},
): Page<NoteView> {
  const { offset, limit } = pageOf(request);
  const where = filterSql(filter);
  const params = { siteId: filter.siteId ?? '', courseId: filter.courseId ?? '' };
  const total = prepared<typeof params, { n: number }>(
    db,
    `SELECT count(*) AS n FROM notes n WHERE ${where}`,
  ).get(params)!.n;
  const items = prepared<typeof params & { offset: number; limit: number }, NoteRow>(
    db,
    `SELECT ${NOTE_COLUMNS} FROM (SELECT * FROM notes n WHERE ${where}
       ORDER BY n.created_at DESC, n.id DESC LIMIT @limit OFFSET @offset) n ${NOTE_JOINS}
     ORDER BY n.created_at DESC, n.id DESC`,
  )
    .all({ ...params, offset, limit: limit ?? -1 })
    .map(toView);
  return { items, total, nextOffset: nextOffset(offset, items.length, limit, total) };
}

/** The schools and courses the student has notes in, for the notes view's filters. */
export function getNoteFilters(db: Database): {
  siteId: string;
  school: string;
  courseId: string;
  courseTitle: string;
  count: number;
}[] {
  return prepared<
    void,
    { siteId: string; school: string; courseId: string; courseTitle: string; count: number }
  >(
    db,
    `SELECT n.site_id AS siteId, max(n.school) AS school, n.course_id AS courseId,
       coalesce(max(c.title), max(n.course_title)) AS courseTitle, count(*) AS count
     FROM notes n LEFT JOIN courses c ON c.site_id = n.site_id AND c.id = n.course_id
     WHERE n.deleted_at IS NULL GROUP BY n.site_id, n.course_id ORDER BY school, courseTitle`,
  )
    .all()
    .map((r) => ({ ...r, school: siteText(r.school), courseTitle: siteText(r.courseTitle) }));
}

/** Notes kept (not deleted) in all, or of one site. */
export function countNotes(db: Database, siteId?: string): number {
  return siteId === undefined
    ? prepared<void, { n: number }>(
        db,
        'SELECT count(*) AS n FROM notes WHERE deleted_at IS NULL',
      ).get()!.n
    : prepared<{ siteId: string }, { n: number }>(
        db,
        'SELECT count(*) AS n FROM notes WHERE site_id = @siteId AND deleted_at IS NULL',
      ).get({ siteId })!.n;
}

/**
 * Notes whose title or text holds every word of `query`, matched in the search index's one form
 * (NFKC, cleaned:
 * search/normalize.ts) as the rest of Search is. Words of 3+ characters go through the trigram
 * index; shorter ones narrow it with LIKE, or alone scan the newest notes first. Nothing typed is
 * read as FTS5 syntax (parse.ts). Newest first, not by rank: a word in most notes would have every
 * match ranked (bm25) for the 25 shown, and the student's own notes are found back by when as much
 * as by how well; FTS5 walks its rowids (the notes' ids, in the order written) backwards and stops
 * at the limit.
 */
export function searchNotes(
  db: Database,
  query: string,
  options: { readonly siteId?: string | undefined; readonly limit?: number } = {},
): NoteHit[] {
  const parsed = parseSearch(query);
  if (parsed === null) return [];
  const params: Record<string, string | number> = { limit: options.limit ?? 25 };
  const likes = parsed.like.map((pattern, i) => {
    params[`like${i}`] = pattern;
    return `AND n.search_text LIKE @like${i} ESCAPE '\\'`;
  });
  let site = '';
  if (options.siteId !== undefined) {
    params.siteId = options.siteId;
    site = 'AND n.site_id = @siteId';
  }
  let sql: string;
  if (parsed.match !== null) {
    params.match = parsed.match;
    sql = `SELECT ${NOTE_COLUMNS} FROM (SELECT n.* FROM notes_search JOIN notes n ON n.id = notes_search.rowid
        WHERE notes_search MATCH @match AND n.deleted_at IS NULL ${site} ${likes.join(' ')}
        ORDER BY notes_search.rowid DESC LIMIT @limit) n ${NOTE_JOINS}`;
  } else {
    sql = `SELECT ${NOTE_COLUMNS} FROM (SELECT * FROM notes n WHERE n.deleted_at IS NULL ${site} ${likes.join(' ')}
        ORDER BY n.created_at DESC, n.id DESC LIMIT @limit) n ${NOTE_JOINS}`;
  }
  return prepared<typeof params, NoteRow>(db, sql)
    .all(params)
    .map((r) => {
      const note = toView(r);
      const text = note.body.replace(/\s+/g, ' ');
      return { note, snippet: likeSnippet(note.title, text, parsed.terms) };
    });
}

/**
 * Where a new note on this lecture starts: the course's last watched position when it is this
 * lecture, else 0. Null when the lecture is not in the saved copy.
 */
export function noteDraftStart(
  db: Database,
  siteId: string,
  courseId: string,
  lectureId: string,
): { positionSeconds: number; lectureTitle: string } | null {
  const row = prepared<
    { siteId: string; courseId: string; lectureId: string },
    { title: string; last: string | null; position: number | null }
  >(
    db,
    `SELECT l.title, c.last_lecture_id AS last, c.last_position_seconds AS position
     FROM lectures l JOIN courses c ON c.site_id = l.site_id AND c.id = l.course_id
     WHERE l.site_id = @siteId AND l.course_id = @courseId AND l.id = @lectureId`,
  ).get({ siteId, courseId, lectureId });
  if (!row) return null;
  return {
    positionSeconds: row.last === lectureId ? Math.max(0, Math.trunc(row.position ?? 0)) : 0,
    lectureTitle: siteText(row.title),
  };
}
