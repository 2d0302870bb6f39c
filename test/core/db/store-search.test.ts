import { afterEach, describe, expect, it } from 'vitest';
import { search, parseSearch } from '../../../electron/core/db';
import { course, notification, hitContext } from './fixtures';
import { closeStores, commit, open, tempFile } from './store-scaffold';

// Search over the stored rows (FTS5): user input is text, substrings and short Chinese terms match.
afterEach(closeStores);

describe('search (FTS5)', () => {
  it('treats FTS syntax in user input as text', () => {
    const { db } = open(tempFile());
    commit(db, 's', {
      notifications: [
        notification('n1', { title: 'Exam "NEAR" the end', body: 'AND OR NOT * ( ) : ^' }),
      ],
    });
    for (const q of [
      '"',
      'NEAR(',
      'AND',
      '*',
      'title:exam',
      ')',
      '^',
      '"unbalanced',
      'a OR',
      '-x',
    ]) {
      expect(() => search(db, 's', q)).not.toThrow();
    }
    expect(search(db, 's', 'near').map((h) => h.id)).toEqual(['n1']);
    expect(search(db, 's', 'exam')[0]!.snippet).toContain('[[Exam]]');
    expect(parseSearch('   ')).toBeNull();
    expect(parseSearch('ab"c de 50%')).toEqual({
      match: '"ab""c" "50%"',
      like: ['%de%'],
      grams: '"de"',
      terms: ['ab"c', 'de', '50%'],
    });
    expect(parseSearch('a_')).toMatchObject({ like: ['%a\\_%'], grams: null });
    expect(parseSearch('理財 數 C#')).toMatchObject({ match: null, grams: '"理財" "數"*' });
  });

  it('matches substrings (trigram) and finds lectures with their course', () => {
    const { db } = open(tempFile());
    commit(db, 's', { courses: [course('c1')] });
    const hits = search(db, 's', 'kni');
    expect(hits).toEqual([
      {
        kind: 'lecture',
        id: 'c1-l2',
        siteId: 's',
        courseId: 'c1',
        title: 'Knife skills',
        snippet: '[[Kni]]fe skills',
        context: hitContext({
          course: 'Course c1',
          section: 'Section of c1',
          lectureState: 'locked',
        }),
      },
    ]);
  });

  it('finds Chinese titles by any part, including two-character terms (LIKE fallback)', () => {
    const { db } = open(tempFile());
    commit(db, 's', {
      courses: [course('c1', { title: 'Personal Finance 個人理財入門' })],
      notifications: [notification('n1', { title: '休館通知', body: '週五休館' })],
    });
    expect(search(db, 's', '理財入门'.slice(0, 3)).map((h) => h.id)).toEqual(['c1']);
    expect(search(db, 's', '理財')).toEqual([
      {
        kind: 'course',
        id: 'c1',
        siteId: 's',
        courseId: 'c1',
        title: 'Personal Finance 個人理財入門',
        snippet: 'Personal Finance 個人[[理財]]入門',
        context: hitContext({ percent: 50, person: 'Ann' }),
      },
    ]);
    expect(search(db, 's', '週五').map((h) => [h.id, h.snippet])).toEqual([['n1', '[[週五]]休館']]);
    expect(search(db, 's', 'finance 理財').map((h) => h.id)).toEqual(['c1']);
    expect(search(db, 's', '%')).toEqual([]);
  });
});
