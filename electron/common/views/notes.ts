/** The student's own notes and bookmarks at a moment of a lecture (core/db/notes.ts). */
import type { IsoDateTime, SiteId } from './base';

export const NOTE_KINDS = ['note', 'bookmark'] as const;
export type NoteKind = (typeof NOTE_KINDS)[number];

/**
 * The limits of what is kept, said in words where they are met (the note editor counts down, a save
 * past them is refused with `limit`): a note is text to read back, not a document store.
 */
export const NOTE_LIMITS = {
  /** Characters of a note's Markdown text. */
  bodyChars: 20_000,
  /** Characters of a note's or bookmark's title. */
  titleChars: 200,
  /** Notes and bookmarks kept on this computer, of every school. */
  count: 20_000,
  /** The furthest position a note can name: 99:59:59. */
  positionSeconds: 359_999,
} as const;

export interface NoteView {
  readonly id: number;
  readonly siteId: SiteId;
  readonly courseId: string;
  readonly lectureId: string;
  readonly kind: NoteKind;
  readonly positionSeconds: number;
  /** The student's title (a bookmark has only this); may be empty for a note. */
  readonly title: string;
  /** The student's Markdown, shown as plain text (never rendered as markup). */
  readonly body: string;
  /**
   * The school's name, as the site is named now, or as it was when the note was written if it was
   * removed.
   */
  readonly school: string;
  /**
   * The course's, section's and lecture's titles: the saved copy's current ones, else as they were.
   */
  readonly courseTitle: string;
  readonly sectionTitle: string;
  readonly lectureTitle: string;
  /**
   * The lecture is no longer in the course's saved copy (the school renamed it away or removed it).
   */
  readonly lectureGone: boolean;
  /** The school was removed from the app and its notes kept. */
  readonly siteGone: boolean;
  readonly createdAt: IsoDateTime;
  readonly updatedAt: IsoDateTime;
}

/** A note found by search: the note, and its text around the match with the match in [[ ]]. */
export interface NoteHit {
  readonly note: NoteView;
  readonly snippet: string;
}

/**
 * What the lecture's note editor starts from: where the student last was in this lecture (0 if
 * elsewhere).
 */
export interface NoteDraftStart {
  readonly positionSeconds: number;
  readonly lectureTitle: string;
  /** Notes kept and the limit, so the editor can say when the limit is near. */
  readonly count: number;
}
