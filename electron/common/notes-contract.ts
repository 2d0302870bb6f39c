/**
 * The channels of the student's notes and bookmarks, part of the one contract (ipc-contract.ts
 * spreads them in). Kept here so the notes are one file of the contract; the shape of each entry is
 * ipc-contract's ChannelSpec.
 */
import { z } from 'zod';
import type { SaveOutcome } from './files-and-invites';
import { PAGE_LIMIT_MAX } from './ipc-names';
import type { NoteDraftStart, NoteHit, NoteView, Page } from './view-models';
import { NOTE_KINDS, NOTE_LIMITS } from './views/notes';

function channel<O>() {
  return <I extends z.ZodType>(input: I): { readonly input: I; readonly __output?: O } => ({
    input,
  });
}

const siteId = z.string().min(1).max(100);
const courseId = z.string().min(1).max(200);
const noteId = z.number().int().min(1);
/**
 * What the student wrote. The schema only stops the absurd (UTF-16 units); the core says the limit
 * in words.
 */
const noteText = {
  kind: z.enum(NOTE_KINDS),
  positionSeconds: z.number().int().min(0).max(NOTE_LIMITS.positionSeconds),
  title: z.string().max(NOTE_LIMITS.titleChars * 4),
  body: z.string().max(NOTE_LIMITS.bodyChars * 4),
};

/** A school and course the student has notes in (the notes view's filters). */
export interface NoteFilterOption {
  readonly siteId: string;
  readonly school: string;
  readonly courseId: string;
  readonly courseTitle: string;
  readonly count: number;
}

export const noteChannels = {
  /**
   * A course's notes in the course's order (sections, lectures, then the moment in the lecture).
   */
  'notes:course': channel<NoteView[]>()(z.object({ siteId, courseId }).strict()),
  /** Every school's notes, newest first, or one school's or course's. */
  'notes:page': channel<Page<NoteView>>()(
    z
      .object({
        siteId: siteId.optional(),
        courseId: courseId.optional(),
        offset: z.number().int().min(0).max(10_000_000).default(0),
        limit: z.number().int().min(1).max(PAGE_LIMIT_MAX).default(50),
      })
      .strict(),
  ),
  'notes:filters': channel<NoteFilterOption[]>()(z.undefined()),
  /** Notes holding every word typed (Search and the command palette). */
  'notes:search': channel<NoteHit[]>()(
    z
      .object({
        query: z.string().max(500),
        siteId: siteId.optional(),
        limit: z.number().int().min(1).max(100).default(25),
      })
      .strict(),
  ),
  /**
   * Where a new note on this lecture starts (its last watched position) and how many notes are
   * kept.
   */
  'notes:draft': channel<NoteDraftStart>()(
    z.object({ siteId, courseId, lectureId: courseId }).strict(),
  ),
  'notes:add': channel<NoteView>()(
    z.object({ siteId, courseId, lectureId: courseId, ...noteText }).strict(),
  ),
  'notes:update': channel<NoteView>()(z.object({ id: noteId, ...noteText }).strict()),
  'notes:delete': channel<{ deleted: boolean }>()(z.object({ id: noteId }).strict()),
  /** Undo of a deletion: the note back, or null when it is gone for good. */
  'notes:restore': channel<NoteView | null>()(z.object({ id: noteId }).strict()),
  /** The lecture on the school's site at the note's moment (`?t=`), in the system browser. */
  'notes:open': channel<{ url: string }>()(z.object({ id: noteId }).strict()),
  /**
   * A course's notes as one Markdown file: headings per section and lecture, links with their
   * times.
   */
  'notes:export-course': channel<SaveOutcome>()(
    z.object({ siteId, courseId, language: z.enum(['en', 'zh-TW']) }).strict(),
  ),
  /** How many notes a site has (asked before it is removed: keep them or not). */
  'notes:count-site': channel<{ count: number }>()(z.object({ siteId }).strict()),
  /** The student removed the site and chose not to keep its notes. */
  'notes:forget-site': channel<{ removed: number }>()(z.object({ siteId }).strict()),
} as const;
