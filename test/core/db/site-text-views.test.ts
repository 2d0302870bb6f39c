import { afterEach, describe, expect, it } from 'vitest';
import { getLibrary, getToday, searchEverything } from '../../../electron/core/db';
import { siteText } from '../../../electron/common/site-values';
import { ensureSite } from '../../../electron/core/db/sites';
import { commitSnapshot } from '../../../electron/core/db/snapshot';
import { course } from './fixtures';
import { closeDatabases, NOW, openDb, tempFile, withSite } from './pages-scaffold';
import { dropSince020 } from '../../helpers/db';

afterEach(closeDatabases);

/**
 * One sanitiser for every view of a site's text (site-values.ts siteText): a school's titles
 * carrying line breaks, bidi overrides and invisible characters reach no view with them, whichever
 * screen shows them: Today's cards, every course's next step, and search hits (title, snippet and
 * context), as the library and course screens already.
 */
const HOSTILE =
  // eslint-disable-next-line no-control-regex -- finding control characters is this pattern's job
  /[\n\r\u0085\u2028\u2029\u202A-\u202E\u2066-\u2069\u200B\u200E\u200F\uFEFF\u0000-\u0008]/u;
const hostile = (word: string) => `${word}\n\u202Egpj.exe\u202C\u200B line\r\ntwo\u2028`;

function hostileCourse() {
  const c = course('c1', {
    title: hostile('Course'),
    hasLifetimeAccess: false,
    expireDate: '2026-06-15T00:00:00.000Z',
    detailProgress: {
      totalLectures: 2,
      readLectures: 1,
      completedLectures: 0,
      percent: 10,
      completedAt: null,
    },
    lastWatchedLecture: {
      lectureId: 'c1-l1',
      positionSeconds: 5,
      watchedAt: '2026-06-09T00:00:00.000Z',
    },
  });
  return {
    ...c,
    instructorName: hostile('Teacher'),
    sections: c.sections.map((s) => ({
      ...s,
      title: hostile('Section'),
      lectures: s.lectures.map((l, i) => ({
        ...l,
        title: hostile(`Lecture${i + 1}`),
        state: 'read' as const,
        isLocked: false,
        unlockAt: null,
      })),
    })),
  };
}

/** Every string in a value, with where it is. */
function strings(value: unknown, path = '$'): [string, string][] {
  if (typeof value === 'string') return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => strings(v, `${path}[${i}]`));
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => strings(v, `${path}.${k}`));
  return [];
}
const expectClean = (view: unknown, name: string) => {
  const all = strings(view);
  expect(all.length, name).toBeGreaterThan(0);
  for (const [path, text] of all)
    expect(HOSTILE.test(text), `${name} ${path}: ${JSON.stringify(text)}`).toBe(false);
};

describe('every view of a site’s text goes through the one sanitiser', () => {
  it('Today’s continue-learning card and its next step, the access notice, the library’s next step', () => {
    const db = withSite({ courses: [hostileCourse()] });
    const today = getToday(db, NOW);
    expect(today.continueLearning.map((c) => c.courseId)).toEqual(['c1']);
    expect(today.attention.some((a) => a.kind === 'access-ending')).toBe(true);
    expectClean(today.continueLearning, 'Today continue learning');
    expectClean(today.attention, 'Today attention');
    expectClean(
      getLibrary(db, 's', NOW).map((c) => c.nextStep),
      'library next step',
    );
  });

  it('search hits: title, snippet and context of courses, sections, lectures and instructors', () => {
    const db = withSite({ courses: [hostileCourse()] });
    for (const query of ['Course', 'Section', 'Lecture1', 'Teacher', 'gpj', 'line two']) {
      const hits = searchEverything(db, query, { siteIds: ['s'] }, NOW);
      expect(hits.length, query).toBeGreaterThan(0);
      expectClean(
        hits.map((h) => ({ title: h.title, snippet: h.snippet, context: h.context })),
        `search ${query}`,
      );
    }
  });

  it('a database indexed before (schema 18) is rewritten in the one form: its rows are found by NFKC and shown clean', () => {
    const file = tempFile();
    const db = openDb(file);
    ensureSite(db, 's', NOW);
    commitSnapshot(db, 's', { courses: [hostileCourse()] });
    // One row as schema 18 wrote it (the site's text as sent), then the database opened as one of
    // schema 18.
    db.prepare("UPDATE search_index SET title = ? WHERE kind = 'course'").run(
      '線上問答：資料職涯\n\u202Eevil',
    );
    dropSince020(db);
    db.pragma('user_version = 18');
    db.close();
    const migrated = openDb(file);
    const hits = searchEverything(
      migrated,
      '線上問答:資料職涯',
      { siteIds: ['s'], kinds: ['course'] },
      NOW,
    );
    expect(hits.map((h) => h.id)).toEqual(['c1']);
    expect(
      migrated.prepare("SELECT title FROM search_index WHERE kind = 'course'").pluck().get(),
    ).toBe('線上問答:資料職涯 evil');
    // What the hit shows is the course's own title (the index's search form is for matching),
    // cleaned all the same.
    expect(hits[0]!.title).toBe(siteText(hostile('Course')));
    expect(hits[0]!.title).not.toMatch(HOSTILE);
    expect(hits[0]!.snippet).not.toMatch(HOSTILE);
  });
});
