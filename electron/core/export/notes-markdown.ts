/**
 * A course's notes as one Markdown file (CommonMark, https://spec.commonmark.org/0.31.2/), fit for
 * Obsidian or a printout: the course as the title, a heading per section and per lecture in the
 * course's order, each note with a link to its moment on the school's site. Every title (the
 * school's and the student's) is text, never markup: its Markdown punctuation is backslash-escaped
 * (§2.4), so "<script>" or "[x](javascript:...)" stays visible text. A note's own text is the
 * student's Markdown and stays Markdown, quoted under its line, with raw HTML (§6.6, §4.6) turned
 * into text outside code blocks.
 */
import type { NoteView } from '../../common/view-models';
import { sitePageUrl } from '../net/site-pages';
import type { ExportLanguage } from './strings';

const WORDS = {
  en: {
    notes: (n: number) => (n === 1 ? '1 note' : `${n} notes`),
    exported: 'exported',
    gone: 'no longer in the course',
    bookmark: 'Bookmark',
    kept: 'Kept on this computer by Learning Desktop; the school does not have these notes.',
  },
  'zh-TW': {
    notes: (n: number) => `${n} 則筆記`,
    exported: '匯出於',
    gone: '已不在課程中',
    bookmark: '書籤',
    kept: '由 Learning Desktop 保存在這台電腦上；學校那邊沒有這些筆記。',
  },
} as const;

/**
 * One line of text as Markdown text: every ASCII punctuation that could start markup is escaped
 * (§2.4).
 */
export function markdownText(value: string): string {
  return value
    .replace(/[\r\n]+/g, ' ')
    .replace(/[\\`*_{}[\]()#+\-.!|<>~&"=:]/g, (c) => `\\${c}`)
    .trim();
}

/**
 * The student's Markdown, quoted (every line starts "> ", so nothing in it ends the note or becomes
 * the file's own heading). Outside fenced code blocks `<` becomes `&lt;`: no raw HTML or autolink
 * of the student's runs in a viewer.
 */
export function quotedMarkdown(body: string): string {
  let fence: string | null = null;
  return body
    .split(/\r\n?|\n/)
    .map((line) => {
      const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
      if (marker !== undefined) {
        if (fence === null) fence = marker[0]!;
        else if (marker[0] === fence) fence = null;
        return `> ${line}`;
      }
      return `> ${fence === null ? line.replace(/&/g, '&amp;').replace(/</g, '&lt;') : line}`;
    })
    .join('\n');
}

export function clock(seconds: number): string {
  const s = Math.max(0, Math.trunc(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}

export interface NotesMarkdownOptions {
  readonly language: ExportLanguage;
  readonly siteUrl: string;
  readonly courseSlug: string;
  readonly generatedAt: Date;
}

/**
 * The link of a note's moment, or null when the address cannot be built (an odd id): the time is
 * still written.
 */
function momentLink(note: NoteView, options: NotesMarkdownOptions): string {
  const time = clock(note.positionSeconds);
  try {
    const url = sitePageUrl(options.siteUrl, {
      kind: 'lecture',
      slug: options.courseSlug,
      lectureId: note.lectureId,
      positionSeconds: note.positionSeconds,
    });
    // An angle-bracket destination (§6.3): the URL's own characters never end it (URL.toString
    // escapes < > space).
    return `[${time}](<${url}>)`;
  } catch {
    return time;
  }
}

/** `notes`: one course's, in the course's order (db/notes.ts getCourseNotes). */
export function courseNotesMarkdown(
  notes: readonly NoteView[],
  options: NotesMarkdownOptions,
): string {
  const w = WORDS[options.language];
  const first = notes[0];
  const out: string[] = [];
  out.push(`# ${markdownText(first?.courseTitle ?? '')}`, '');
  out.push(
    `${markdownText(first?.school ?? '')} · ${w.notes(notes.length)} · ${w.exported} ${options.generatedAt.toISOString().slice(0, 10)}`,
    '',
    `_${markdownText(w.kept)}_`,
    '',
  );
  let section: string | null = null;
  let lecture: string | null = null;
  for (const note of notes) {
    if (note.sectionTitle !== section) {
      section = note.sectionTitle;
      lecture = null;
      out.push(`## ${markdownText(section)}`, '');
    }
    if (note.lectureId !== lecture) {
      lecture = note.lectureId;
      const gone = note.lectureGone ? ` (${markdownText(w.gone)})` : '';
      out.push(`### ${markdownText(note.lectureTitle)}${gone}`, '');
    }
    const title =
      note.kind === 'bookmark'
        ? `${markdownText(w.bookmark)}: **${markdownText(note.title)}**`
        : note.title
          ? `**${markdownText(note.title)}**`
          : '';
    out.push(`- ${momentLink(note, options)}${title ? ` ${title}` : ''}`);
    if (note.kind === 'note' && note.body.trim() !== '') {
      out.push('');
      out.push(
        quotedMarkdown(note.body)
          .split('\n')
          .map((line) => `  ${line}`)
          .join('\n'),
      );
    }
    out.push('');
  }
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}
