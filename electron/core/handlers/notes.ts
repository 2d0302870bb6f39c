import type { CoreHandlers } from '../../common/ipc-contract';
import type { NoteView } from '../../common/view-models';
import {
  countNotes,
  getCourseNotes,
  getNote,
  getNoteAddress,
  getNoteFilters,
  getNotesPage,
  noteDraftStart,
  searchNotes,
} from '../db/index';
import { CoreError } from '../errors';
import { courseNotesMarkdown } from '../export/notes-markdown';
import { safeFileName, type FileDelivery } from '../export/service';
import { sitePageUrl } from '../net/site-pages';
import { requireSite, type AppServices } from './services';

type NoteChannel =
  | 'notes:course'
  | 'notes:page'
  | 'notes:filters'
  | 'notes:search'
  | 'notes:draft'
  | 'notes:add'
  | 'notes:update'
  | 'notes:delete'
  | 'notes:restore'
  | 'notes:open'
  | 'notes:export-course'
  | 'notes:count-site'
  | 'notes:forget-site';

export interface NoteHandlerHost {
  readonly openExternal: (url: string) => Promise<void>;
  /** Null: this host cannot save files (the export says so). */
  readonly deliver: FileDelivery | null;
}

const gone = () => new CoreError('not-found', 'This note was deleted.');

type NoteDeps = Pick<AppServices, 'db' | 'writer' | 'sites' | 'clock'>;

/** A note as the screens show it: with its school's current name while the site is in the app. */
function noteReader(s: NoteDeps) {
  const named = (note: NoteView): NoteView => {
    const site = s.sites.getSite(note.siteId);
    return site ? { ...note, school: site.label } : note;
  };
  const read = (id: number): NoteView => {
    const note = getNote(s.db, id);
    if (!note) throw gone();
    return named(note);
  };
  const now = () => new Date(s.clock.now()).toISOString();
  return { named, read, now };
}
type NoteReader = ReturnType<typeof noteReader>;

function noteReadHandlers(
  s: NoteDeps,
  { named }: NoteReader,
): Pick<
  CoreHandlers,
  'notes:course' | 'notes:page' | 'notes:filters' | 'notes:search' | 'notes:draft'
> {
  return {
    'notes:course': async ({ siteId, courseId }) =>
      getCourseNotes(s.db, siteId, courseId).map(named),
    'notes:page': async ({ siteId, courseId, offset, limit }) => {
      const page = getNotesPage(s.db, { siteId, courseId }, { offset, limit });
      return { ...page, items: page.items.map(named) };
    },
    'notes:filters': async () =>
      getNoteFilters(s.db).map((f) => ({
        ...f,
        school: s.sites.getSite(f.siteId)?.label ?? f.school,
      })),
    'notes:search': async ({ query, siteId, limit }) =>
      searchNotes(s.db, query, { siteId, limit }).map((h) => ({ ...h, note: named(h.note) })),
    'notes:draft': async ({ siteId, courseId, lectureId }) => {
      const start = noteDraftStart(s.db, siteId, courseId, lectureId);
      if (!start)
        throw new CoreError('not-found', 'This lecture is not in your offline copy of the course.');
      return { ...start, count: countNotes(s.db) };
    },
  };
}

function noteWriteHandlers(
  s: NoteDeps,
  { read, now }: NoteReader,
): Pick<CoreHandlers, 'notes:add' | 'notes:update' | 'notes:delete' | 'notes:restore'> {
  return {
    'notes:add': async ({ siteId, courseId, lectureId, ...note }) => {
      const site = requireSite(s, siteId);
      const id = await s.writer.call('notes:add', {
        siteId,
        courseId,
        lectureId,
        ...note,
        school: site.label,
        siteUrl: site.baseUrl,
        now: now(),
      });
      return read(id);
    },
    'notes:update': async ({ id, ...note }) => {
      await s.writer.call('notes:update', { id, note, now: now() });
      return read(id);
    },
    'notes:delete': async ({ id }) => ({
      deleted: await s.writer.call('notes:delete', { id, now: now() }),
    }),
    'notes:restore': async ({ id }) =>
      (await s.writer.call('notes:restore', { id })) ? read(id) : null,
  };
}

function noteFileHandlers(
  s: NoteDeps,
  { named, read }: NoteReader,
  host: NoteHandlerHost,
): Pick<CoreHandlers, 'notes:open' | 'notes:export-course'> {
  return {
    'notes:open': async ({ id }) => {
      const note = read(id);
      const address = getNoteAddress(s.db, id);
      if (!address) throw gone();
      // The site's address as the app has it now; the one kept with the note once the site was
      // removed.
      const base = s.sites.getSite(note.siteId)?.baseUrl ?? address.siteUrl;
      const url = sitePageUrl(base, {
        kind: 'lecture',
        slug: address.courseSlug,
        lectureId: note.lectureId,
        positionSeconds: note.positionSeconds,
      });
      await host.openExternal(url);
      return { url };
    },
    'notes:export-course': async ({ siteId, courseId, language }) => {
      const notes = getCourseNotes(s.db, siteId, courseId).map(named);
      const address = notes[0] ? getNoteAddress(s.db, notes[0].id) : null;
      if (!address) throw new CoreError('not-found', 'This course has no notes to export yet.');
      if (!host.deliver)
        throw new CoreError('forbidden', 'This version of the app cannot save files.');
      const generatedAt = new Date(s.clock.now());
      return host.deliver({
        kind: 'md',
        fileName: safeFileName(
          `notes-${address.courseSlug}-${generatedAt.toISOString().slice(0, 10)}`,
          'md',
        ),
        mimeType: 'text/markdown; charset=utf-8',
        body: courseNotesMarkdown(notes, {
          language,
          siteUrl: s.sites.getSite(siteId)?.baseUrl ?? address.siteUrl,
          courseSlug: address.courseSlug,
          generatedAt,
        }),
      });
    },
  };
}

/**
 * The student's notes and bookmarks (db/notes.ts reads, the writer's thread writes). A note is
 * shown with its school's current name while the site is in the app; a kept note of a removed site
 * keeps the name it had.
 */
export function createNoteHandlers(
  s: NoteDeps,
  host: NoteHandlerHost,
): Pick<CoreHandlers, NoteChannel> {
  const reader = noteReader(s);
  return {
    ...noteReadHandlers(s, reader),
    ...noteWriteHandlers(s, reader),
    ...noteFileHandlers(s, reader, host),
    'notes:count-site': async ({ siteId }) => ({ count: countNotes(s.db, siteId) }),
    'notes:forget-site': async ({ siteId }) => ({
      removed: await s.writer.call('notes:forget-site', { siteId }),
    }),
  };
}
