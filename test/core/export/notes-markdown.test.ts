import { describe, expect, it } from 'vitest';
import type { NoteView } from '../../../electron/common/view-models';
import {
  clock,
  courseNotesMarkdown,
  markdownText,
  quotedMarkdown,
} from '../../../electron/core/export/notes-markdown';

const base: NoteView = {
  id: 1,
  siteId: 's',
  courseId: 'c',
  lectureId: 'l1',
  kind: 'note',
  positionSeconds: 754,
  title: '',
  body: '',
  school: 'School',
  courseTitle: 'Course',
  sectionTitle: 'Section 1',
  lectureTitle: 'Lecture 1',
  lectureGone: false,
  siteGone: false,
  createdAt: '2026-06-01T00:00:00.000Z',
  updatedAt: '2026-06-01T00:00:00.000Z',
};
const options = {
  language: 'en' as const,
  siteUrl: 'https://school.example',
  courseSlug: 'data-101',
  generatedAt: new Date('2026-06-10T00:00:00.000Z'),
};

describe('a course\u2019s notes as Markdown', () => {
  it('heads each section and lecture once, in the order given, with links at their times', () => {
    const md = courseNotesMarkdown(
      [
        { ...base, id: 1, title: 'First', body: 'line one\nline two' },
        { ...base, id: 2, positionSeconds: 3725, kind: 'bookmark', title: 'Mark' },
        { ...base, id: 3, lectureId: 'l2', lectureTitle: 'Lecture 2', lectureGone: true },
        {
          ...base,
          id: 4,
          sectionTitle: 'Section 2',
          lectureId: 'l3',
          lectureTitle: 'Lecture 3',
          body: 'x',
        },
      ],
      options,
    );
    expect(md.match(/^## .*/gm)).toEqual(['## Section 1', '## Section 2']);
    expect(md.match(/^### .*/gm)).toEqual([
      '### Lecture 1',
      '### Lecture 2 (no longer in the course)',
      '### Lecture 3',
    ]);
    expect(md).toContain(
      '- [12:34](<https://school.example/courses/data-101/lectures/l1?t=754>) **First**',
    );
    expect(md).toContain(
      '[1:02:05](<https://school.example/courses/data-101/lectures/l1?t=3725>) Bookmark: **Mark**',
    );
    expect(md).toContain('  > line one\n  > line two');
  });

  it('keeps every title as text and no raw HTML of a note outside its code blocks', () => {
    expect(markdownText('# <img src=x onerror=alert(1)> [a](javascript:b) *c*')).toBe(
      '\\# \\<img src\\=x onerror\\=alert\\(1\\)\\> \\[a\\]\\(javascript\\:b\\) \\*c\\*',
    );
    expect(markdownText('two\nlines')).toBe('two lines');
    expect(quotedMarkdown('<b>x</b> & y\n```\n<kept>\n```\n# still quoted')).toBe(
      '> &lt;b>x&lt;/b> &amp; y\n> ```\n> <kept>\n> ```\n> # still quoted',
    );
    const md = courseNotesMarkdown(
      [
        {
          ...base,
          courseTitle: '<script>x</script>',
          lectureTitle: '## injected',
          body: '<iframe>',
        },
      ],
      options,
    );
    // Only escaped: a backslash before every `<` of a title (CommonMark §2.4), an entity in a
    // note's text.
    expect(md).not.toMatch(/(^|[^\\])<(script|iframe)|^## injected/m);
    expect(md).toContain('\\<script\\>');
  });

  it('writes times as m:ss, or h:mm:ss past an hour', () => {
    expect([clock(0), clock(59), clock(754), clock(3600), clock(-5)]).toEqual([
      '0:00',
      '0:59',
      '12:34',
      '1:00:00',
      '0:00',
    ]);
  });

  it('writes its words in Traditional Chinese too', () => {
    const md = courseNotesMarkdown([{ ...base, lectureGone: true }], {
      ...options,
      language: 'zh-TW',
    });
    expect(md).toContain('1 則筆記');
    expect(md).toContain('已不在課程中');
  });
});
