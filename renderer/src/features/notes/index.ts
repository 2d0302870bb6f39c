/** The notes feature's one public entry: what the shell and the other features may use of it. */
export { AddNoteButton, CourseNotes } from './CourseNotes';
export { formatMoment } from './moment';
export { NoteEditor } from './NoteEditor';
export { openNoteOnSite } from './NoteItem';
export { NotesOnRemove } from './NotesOnRemove';
export { NotesScreen } from './NotesScreen';
export { SearchNotes, useNoteHits } from './SearchNotes';
