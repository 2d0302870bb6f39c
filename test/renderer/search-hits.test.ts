import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  SEARCH_HIT_KINDS,
  type SearchHit,
  type SearchHitContext,
} from '../../electron/common/view-models';
import { paymentStateKey, summaryStateKey } from '../../renderer/src/features/billing/labels';
import {
  contextParts,
  hitRoute,
  hitTitle,
  type ContextWords,
} from '../../renderer/src/features/search/hits';
import { readEntry, sameRoute } from '../../renderer/src/state/history-entries';

const NONE: SearchHitContext = {
  course: null,
  section: null,
  lectureState: null,
  percent: null,
  person: null,
  courseCount: null,
  tradeNo: null,
  amount: null,
  orderState: null,
  paymentState: null,
  at: null,
};
const hit = (
  over: Partial<SearchHit> & Pick<SearchHit, 'kind'>,
  context: Partial<SearchHitContext> = {},
): SearchHit => ({
  id: 'x',
  siteId: 's1',
  courseId: null,
  title: 'Title',
  snippet: 'Title',
  ...over,
  context: { ...NONE, ...context },
});

// The English strings, as i18next would fill them in (plural: _one / _other).
const en = JSON.parse(readFileSync('renderer/src/i18n/en.json', 'utf8')) as Record<string, unknown>;
const words: ContextWords = {
  t: (key, options = {}) => {
    const count = options['count'];
    const at = (k: string) =>
      k.split('.').reduce<unknown>((n, p) => (n as Record<string, unknown> | undefined)?.[p], en);
    const text =
      (typeof count === 'number' ? at(`${key}_${count === 1 ? 'one' : 'other'}`) : undefined) ??
      at(key);
    if (typeof text !== 'string') throw new Error(`no English string ${key}`);
    return text.replace(/\{\{(\w+)\}\}/g, (_, v: string) => String(options[v]));
  },
  money: (value, currency) => `${currency} ${value}`,
  date: (iso) => iso.slice(0, 10),
  orderStateKey: summaryStateKey,
  paymentStateKey,
};

describe('a search hit, as the screen shows and opens it', () => {
  it('says where a lecture belongs and its state: "Intro to Data Analysis · Getting started · Completed"', () => {
    const lecture = hit(
      { kind: 'lecture', id: 'l1', courseId: 'c1' },
      { course: 'Intro to Data Analysis', section: 'Getting started', lectureState: 'completed' },
    );
    expect(contextParts(lecture, words)).toEqual([
      'Intro to Data Analysis',
      'Getting started',
      'Completed',
    ]);
    expect(
      contextParts(
        hit({ kind: 'lecture' }, { course: 'C', section: 'S', lectureState: 'locked' }),
        words,
      ),
    ).toEqual(['C', 'S', 'Locked']);
    expect(
      contextParts(hit({ kind: 'lecture' }, { course: 'C', lectureState: 'unknown' }), words),
    ).toEqual(['C', 'unknown']);
  });

  it('gives an order its number, amount, state and date; an instructor the count of their courses', () => {
    const order = hit(
      { kind: 'order', id: 'T1' },
      {
        tradeNo: 'T1',
        amount: { value: 1200, currency: 'TWD' },
        orderState: 'paid',
        at: '2026-11-01T00:00:00Z',
      },
    );
    expect(contextParts(order, words)).toEqual(['T1', 'TWD 1200', 'Paid', '2026-11-01']);
    const paid = hit(
      { kind: 'payment', title: '' },
      { tradeNo: 'T1', amount: { value: 1200, currency: 'TWD' }, paymentState: 'paid' },
    );
    expect(contextParts(paid, words)).toEqual(['TWD 1200', 'Paid']);
    expect(hitTitle(paid)).toBe('T1');
    expect(contextParts(hit({ kind: 'instructor' }, { courseCount: 3 }), words)).toEqual([
      '3 courses',
    ]);
    expect(contextParts(hit({ kind: 'course' }, { person: 'Ann', percent: 39.6 }), words)).toEqual([
      'Ann',
      '40% done',
    ]);
  });

  it('opens each kind where it is: the lecture in its course, the order expanded, the instructor’s courses', () => {
    expect(hitRoute(hit({ kind: 'lecture', id: 'l1', courseId: 'c1' }))).toEqual({
      screen: 'course',
      courseId: 'c1',
      lectureId: 'l1',
    });
    expect(hitRoute(hit({ kind: 'section', id: 's1', courseId: 'c1' }))).toEqual({
      screen: 'course',
      courseId: 'c1',
      sectionId: 's1',
    });
    expect(hitRoute(hit({ kind: 'course', id: 'c1', courseId: 'c1' }))).toEqual({
      screen: 'course',
      courseId: 'c1',
    });
    expect(hitRoute(hit({ kind: 'order', id: 'T1' }))).toEqual({
      screen: 'billing',
      tradeNo: 'T1',
    });
    expect(hitRoute(hit({ kind: 'payment', id: 'p1', title: 'T1' }, { tradeNo: 'T1' }))).toEqual({
      screen: 'billing',
      tradeNo: 'T1',
    });
    expect(hitRoute(hit({ kind: 'instructor', id: 'Ann', siteId: 's2' }))).toEqual({
      screen: 'search',
      query: 'Ann',
      kind: 'course',
      siteId: 's2',
    });
    expect(hitRoute(hit({ kind: 'event', id: 'reg1' }))).toEqual({
      screen: 'entitlements',
      itemId: 'reg1',
    });
    expect(hitRoute(hit({ kind: 'consulting', id: 'svc1' }))).toEqual({
      screen: 'consulting',
      itemId: 'svc1',
    });
    expect(hitRoute(hit({ kind: 'notification', id: 'n1' }))).toEqual({
      screen: 'notifications',
      itemId: 'n1',
    });
    for (const kind of SEARCH_HIT_KINDS)
      expect(hitRoute(hit({ kind, courseId: 'c1' })).screen).toEqual(expect.any(String));
  });

  it('keeps the filters and the highlighted row in history entries, and refuses malformed ones', () => {
    const search = { screen: 'search', query: 'data', kind: 'order', siteId: 's1' } as const;
    expect(readEntry({ route: search, siteId: 's1' })).toEqual({ route: search, siteId: 's1' });
    expect(readEntry({ route: { ...search, kind: 'bogus' }, siteId: 's1' })).toBeNull();
    expect(
      readEntry({ route: { screen: 'course', courseId: 'c1', lectureId: 5 }, siteId: 's1' }),
    ).toBeNull();
    expect(sameRoute(search, { ...search, kind: 'event' })).toBe(false);
    expect(
      sameRoute(
        { screen: 'course', courseId: 'c1', lectureId: 'l1' },
        { screen: 'course', courseId: 'c1' },
      ),
    ).toBe(false);
    // A consulting service or notice opened from search is its own entry, kept across a reload; a
    // non-text id is refused.
    const notice = { screen: 'notifications', itemId: 'n1' } as const;
    expect(readEntry({ route: notice, siteId: 's1' })).toEqual({ route: notice, siteId: 's1' });
    expect(readEntry({ route: { screen: 'consulting', itemId: 7 }, siteId: 's1' })).toBeNull();
    expect(sameRoute(notice, { screen: 'notifications' })).toBe(false);
    expect(
      sameRoute({ screen: 'consulting', itemId: 'a' }, { screen: 'consulting', itemId: 'b' }),
    ).toBe(false);
  });
});
