/**
 * Writing the student's notes (migration 020), on the writer's connection. A note is written on a
 * lecture of the saved copy, and keeps what it needs to be shown and opened without it (the
 * school's name and address, the course's, section's and lecture's titles and place): a sync, a
 * sign-out, a renamed or removed lecture and, when the student says so, a removed site leave it as
 * it is. The student's text is cleaned as a site's is (no bidi controls or invisible characters:
 * site-values.ts) and bounded (NOTE_LIMITS, said in words when met).
 */
import type { Database } from 'better-sqlite3';
import { siteParagraphs, siteText } from '../../common/site-values';
import { NOTE_LIMITS, type NoteKind } from '../../common/view-models';
import { CoreError } from '../errors';
import { prepared } from './statements';

/** Deleted notes kept to be put back (the newest deletions); older ones go at the next deletion. */
export const UNDO_KEPT = 50;

export interface NoteInput {
  readonly kind: NoteKind;
  readonly positionSeconds: number;
  readonly title: string;
  readonly body: string;
}

export interface NewNote extends NoteInput {
  readonly siteId: string;
  readonly courseId: string;
  readonly lectureId: string;
  /** The school's name and address as the app knows them now (kept for a site removed later). */
  readonly school: string;
  readonly siteUrl: string;
  readonly now: string;
}

function limitError(what: keyof typeof NOTE_LIMITS, message: string): CoreError {
  return new CoreError('invalid-input', message, { limit: what, max: NOTE_LIMITS[what] });
}

/** The note's own text, cleaned and checked against the limits; a bookmark keeps a title only. */
function cleanInput(input: NoteInput): NoteInput & { searchText: string } {
  const rawTitle = typeof input.title === 'string' ? input.title : '';
  const rawBody = input.kind === 'bookmark' || typeof input.body !== 'string' ? '' : input.body;
  if ([...rawTitle].length > NOTE_LIMITS.titleChars)
    throw limitError('titleChars', `A title can be at most ${NOTE_LIMITS.titleChars} characters.`);
  if ([...rawBody].length > NOTE_LIMITS.bodyChars)
    throw limitError('bodyChars', `A note can be at most ${NOTE_LIMITS.bodyChars} characters.`);
  const title = siteText(rawTitle, NOTE_LIMITS.titleChars).trim();
  const body = siteParagraphs(rawBody, NOTE_LIMITS.bodyChars).replace(/\s+$/u, '');
  if (input.kind === 'bookmark' && title === '')
    throw new CoreError('invalid-input', 'A bookmark needs a title.', { field: 'title' });
  if (input.kind === 'note' && title === '' && body.trim() === '')
    throw new CoreError('invalid-input', 'Write something in the note first.', { field: 'body' });
  const position = Math.trunc(input.positionSeconds);
  if (!Number.isFinite(position) || position < 0 || position > NOTE_LIMITS.positionSeconds)
    throw limitError(
      'positionSeconds',
      'The time in the lecture must be between 0:00 and 99:59:59.',
    );
  return {
    kind: input.kind,
    positionSeconds: position,
    title,
    body,
    searchText: `${title} ${body}`,
  };
}

function checkCount(db: Database): void {
  const { n } = prepared<void, { n: number }>(
    db,
    'SELECT count(*) AS n FROM notes WHERE deleted_at IS NULL',
  ).get()!;
  if (n >= NOTE_LIMITS.count)
    throw limitError(
      'count',
      `You have ${NOTE_LIMITS.count} notes, the most this app keeps. Delete some to write new ones.`,
    );
}

interface LectureHere {
  course_title: string;
  course_slug: string;
  section_title: string;
  lecture_title: string;
  ord: number;
}

/** A new note on a lecture of the saved copy. Returns its id. */
export function addNote(db: Database, note: NewNote): number {
  const clean = cleanInput(note);
  return db.transaction(() => {
    checkCount(db);
    const here = prepared<{ siteId: string; courseId: string; lectureId: string }, LectureHere>(
      db,
      `SELECT c.title AS course_title, c.slug AS course_slug, s.title AS section_title, l.title AS lecture_title, l.ord
       FROM lectures l JOIN courses c ON c.site_id = l.site_id AND c.id = l.course_id
       JOIN sections s ON s.site_id = l.site_id AND s.id = l.section_id
       WHERE l.site_id = @siteId AND l.course_id = @courseId AND l.id = @lectureId`,
    ).get(note);
    if (!here)
      throw new CoreError('not-found', 'This lecture is not in your offline copy of the course.');
    return Number(
      prepared<Record<string, string | number>>(
        db,
        `INSERT INTO notes (site_id, course_id, lecture_id, kind, position_seconds, title, body, school, site_url,
           course_title, course_slug, section_title, lecture_title, lecture_ord, created_at, updated_at, search_text)
         VALUES (@siteId, @courseId, @lectureId, @kind, @position, @title, @body, @school, @siteUrl,
           @courseTitle, @courseSlug, @sectionTitle, @lectureTitle, @ord, @now, @now, search_form(@searchText))`,
      ).run({
        siteId: note.siteId,
        courseId: note.courseId,
        lectureId: note.lectureId,
        kind: clean.kind,
        position: clean.positionSeconds,
        title: clean.title,
        body: clean.body,
        school: siteText(note.school, 300),
        siteUrl: note.siteUrl,
        courseTitle: here.course_title,
        courseSlug: here.course_slug,
        sectionTitle: here.section_title,
        lectureTitle: here.lecture_title,
        ord: here.ord,
        now: note.now,
        searchText: clean.searchText,
      }).lastInsertRowid,
    );
  })();
}

/** Changes a note's kind, time, title or text. */
export function updateNote(db: Database, id: number, input: NoteInput, now: string): void {
  const clean = cleanInput(input);
  const { changes } = prepared<Record<string, string | number>>(
    db,
    `UPDATE notes SET kind = @kind, position_seconds = @position, title = @title, body = @body, updated_at = @now,
       search_text = search_form(@searchText)
     WHERE id = @id AND deleted_at IS NULL`,
  ).run({
    id,
    kind: clean.kind,
    position: clean.positionSeconds,
    title: clean.title,
    body: clean.body,
    now,
    searchText: clean.searchText,
  });
  if (changes === 0) throw new CoreError('not-found', 'This note was deleted.');
}

/**
 * Deletes a note, kept a while to be put back (restoreNote); the oldest deletions past UNDO_KEPT go
 * now.
 */
export function deleteNote(db: Database, id: number, now: string): boolean {
  return db.transaction(() => {
    const { changes } = prepared<{ id: number; now: string }>(
      db,
      'UPDATE notes SET deleted_at = @now WHERE id = @id AND deleted_at IS NULL',
    ).run({ id, now });
    prepared<{ keep: number }>(
      db,
      `DELETE FROM notes WHERE deleted_at IS NOT NULL AND id NOT IN (
         SELECT id FROM notes WHERE deleted_at IS NOT NULL ORDER BY deleted_at DESC, id DESC LIMIT @keep)`,
    ).run({ keep: UNDO_KEPT });
    return changes > 0;
  })();
}

/** Puts a deleted note back (Undo). False when it is gone for good. */
export function restoreNote(db: Database, id: number): boolean {
  return db.transaction(() => {
    checkCount(db);
    return (
      prepared<{ id: number }>(
        db,
        'UPDATE notes SET deleted_at = NULL WHERE id = @id AND deleted_at IS NOT NULL',
      ).run({ id }).changes > 0
    );
  })();
}

/**
 * The student removed the site and chose not to keep its notes: every one of them goes, deleted
 * ones too.
 */
export function forgetSiteNotes(db: Database, siteId: string): number {
  return prepared<{ siteId: string }>(db, 'DELETE FROM notes WHERE site_id = @siteId').run({
    siteId,
  }).changes;
}
