/**
 * The writer's calls for the student's notes (db/notes-write.ts). Notes are no part of a memoised
 * view, so a write drops none (`NOTE_CALL_VIEWS`); the screens read them through the main thread's
 * connection after the answer.
 */
import type { Database } from 'better-sqlite3';
import {
  addNote,
  deleteNote,
  forgetSiteNotes,
  restoreNote,
  updateNote,
  type NewNote,
  type NoteInput,
} from '../db/index';

export interface NoteWriterCalls {
  /** A new note on a lecture of the saved copy; returns its id. */
  'notes:add': (input: NewNote) => number;
  'notes:update': (input: {
    readonly id: number;
    readonly note: NoteInput;
    readonly now: string;
  }) => void;
  /** Deleted, kept to be put back for a while; false when there was no such note. */
  'notes:delete': (input: { readonly id: number; readonly now: string }) => boolean;
  'notes:restore': (input: { readonly id: number }) => boolean;
  /** A removed site's notes, when the student chose not to keep them; returns how many went. */
  'notes:forget-site': (input: { readonly siteId: string }) => number;
}

export function noteWriterHandlers(db: Database): {
  readonly [K in keyof NoteWriterCalls]: (
    input: Parameters<NoteWriterCalls[K]>[0],
  ) => ReturnType<NoteWriterCalls[K]>;
} {
  return {
    'notes:add': (note) => addNote(db, note),
    'notes:update': ({ id, note, now }) => updateNote(db, id, note, now),
    'notes:delete': ({ id, now }) => deleteNote(db, id, now),
    'notes:restore': ({ id }) => restoreNote(db, id),
    'notes:forget-site': ({ siteId }) => forgetSiteNotes(db, siteId),
  };
}

export const NOTE_CALL_VIEWS: { readonly [K in keyof NoteWriterCalls]: readonly [] } = {
  'notes:add': [],
  'notes:update': [],
  'notes:delete': [],
  'notes:restore': [],
  'notes:forget-site': [],
};
