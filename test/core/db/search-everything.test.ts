import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  SEARCH_HIT_KINDS,
  type SearchHit,
  type SearchHitKind,
} from '../../../electron/common/view-models';
import { getCourseDetail, getOrder, searchEverything } from '../../../electron/core/db';
import { createSyncService } from '../../../electron/core/sync';
import { openTempDb, startSite } from '../sync/helpers/setup';

/**
 * Search everything, with context: the demo seed's two schools synced over HTTP into one real
 * SQLite file, as the app does it; each kind found by a word only it holds, filters by kind and
 * school, and hostile input.
 */
async function twoSchools() {
  const [demo, demo2] = await Promise.all([startSite(), startSite({ site: 'demo2' })]);
  const { db } = openTempDb();
  const sync = createSyncService({
    db,
    clientFor: (siteId) => (siteId === 'demo' ? demo.client : demo2.client),
  });
  for (const siteId of ['demo', 'demo2'])
    expect((await sync.syncNow(siteId)).outcome).toBe('completed');
  await sync.close();
  return db;
}

const SITES = ['demo', 'demo2'];
const first = (hits: readonly SearchHit[], kind: SearchHitKind) =>
  hits.find((h) => h.kind === kind);

describe('search everything, with context (every kind, every school)', () => {
  it('finds each kind by a word only it holds, with where it belongs and its state', async () => {
    const db = await twoSchools();
    const now = new Date();
    const find = (query: string, kinds?: SearchHitKind[]) =>
      searchEverything(db, query, { siteIds: SITES, kinds, limit: 100 }, now);

    const course = first(find('Calligraphy', ['course']), 'course')!;
    expect(course).toMatchObject({
      id: 'crs_calligraphy',
      siteId: 'demo',
      courseId: 'crs_calligraphy',
    });
    expect(course.context.person).toBe('Master Lee 李老師');
    expect(course.context.percent).toBe(
      getCourseDetail(db, 'demo', 'crs_calligraphy', now)!.percent,
    );

    // A lecture: its course, its section and its state, as the course screen shows them.
    const lecture = first(find('Tools you need'), 'lecture')!;
    expect(lecture).toMatchObject({
      siteId: 'demo',
      courseId: 'crs_data_analysis',
      title: 'Tools you need 需要的工具',
    });
    const detail = getCourseDetail(db, 'demo', 'crs_data_analysis', now)!;
    const shown = detail.sections
      .flatMap((s) => s.lectures.map((l) => ({ ...l, section: s.title })))
      .find((l) => l.lectureId === lecture.id)!;
    expect(lecture.context).toMatchObject({
      course: 'Intro to Data Analysis 資料分析入門',
      section: 'Getting started 開始之前',
      lectureState: shown.isLocked ? 'locked' : shown.state,
    });

    expect(first(find('Cleaning data'), 'section')).toMatchObject({
      courseId: 'crs_data_analysis',
      context: { course: 'Intro to Data Analysis 資料分析入門' },
    });

    const instructor = first(find('Mei-Ling'), 'instructor')!;
    expect(instructor).toMatchObject({ id: 'Mei-Ling Chen 陳美玲', courseId: 'crs_data_analysis' });
    expect(instructor.context.courseCount).toBeGreaterThanOrEqual(1);

    // An order by its trade number: the order's total and state as Purchases shows them; both its
    // payments too.
    const byTrade = find('T202611000003');
    // The order, once (its payments are found by their own numbers, and listed in it).
    expect(byTrade.map((h) => [h.kind, h.id])).toEqual([['order', 'T202611000003']]);
    const order = first(byTrade, 'order')!;
    const stored = getOrder(db, 'demo', 'T202611000003', now)!;
    expect(order.id).toBe('T202611000003');
    expect(order.title).toContain('Chinese Calligraphy 書法入門 (deposit 訂金)');
    expect(order.context).toMatchObject({
      tradeNo: 'T202611000003',
      amount: { value: stored.totalAmount, currency: stored.currency },
    });
    expect(order.context.orderState).toBe(stored.summaryState);
    // An order by an item it bought.
    expect(find('Study Planner', ['order']).map((h) => h.context.tradeNo)).not.toHaveLength(0);

    const payment = first(find('82219900012345'), 'payment')!;
    expect(payment.title).toBe('');
    // Its invoice number (the demo's: AB- and the trade number's last 8 digits) finds it too.
    expect(first(find('AB-11000001'), 'payment')?.context.tradeNo).toBe('T202611000001');
    expect(payment.context.tradeNo).toMatch(/^T2026/);
    expect(payment.context.amount).not.toBeNull();

    expect(first(find('Grammar Poster'), 'product')).toMatchObject({
      siteId: 'demo',
      title: 'Grammar Poster 文法海報',
    });
    // An event by its place (the registration's title is the event's; location and ticket are found
    // too).
    expect(first(find('Da-an District'), 'event')).toMatchObject({
      id: 'reg_workshop_taipei',
      title: 'Calligraphy Workshop 書法實體工作坊',
    });
    expect(first(find('Da-an District'), 'event')?.context.at).toEqual(expect.any(String));
    expect(first(find('Code Review'), 'consulting')?.context).toMatchObject({
      person: 'Kevin Lin 林凱文',
      course: 'Python for Beginners Python 程式設計基礎',
    });
    expect(first(find('Holiday schedule'), 'notification')).toMatchObject({
      siteId: 'demo',
      title: 'Holiday schedule 連假客服時間',
    });
    // Chinese, two characters (the grams index): the notice again.
    expect(first(find('連假'), 'notification')?.title).toBe('Holiday schedule 連假客服時間');
  });

  it('filters by kind and by school, and caps each kind', async () => {
    const db = await twoSchools();
    const now = new Date();
    const all = searchEverything(db, 'Baking', { siteIds: SITES }, now);
    expect(all.some((h) => h.siteId === 'demo2' && h.id === 'crs_d2_baking')).toBe(true);
    expect(
      searchEverything(db, 'Baking', { siteIds: ['demo'] }, now).every((h) => h.siteId === 'demo'),
    ).toBe(true);
    expect(
      searchEverything(db, 'Baking', { siteIds: ['demo2'], kinds: ['lecture'] }, now).map((h) => [
        h.siteId,
        h.kind,
        h.title,
      ]),
    ).toEqual([['demo2', 'lecture', 'Baking 烘烤']]);
    const kinds = new Set(
      searchEverything(db, 'Calligraphy', { siteIds: SITES, kinds: ['event', 'order'] }, now).map(
        (h) => h.kind,
      ),
    );
    expect([...kinds].sort()).toEqual(['event', 'order']);
    // A word in many rows: at most perKind of a kind, and room for the others.
    const capped = searchEverything(db, 'a', { siteIds: SITES, limit: 100, perKind: 3 }, now);
    const counts = new Map<string, number>();
    for (const h of capped) counts.set(h.kind, (counts.get(h.kind) ?? 0) + 1);
    expect(Math.max(...counts.values())).toBeLessThanOrEqual(3);
    expect(counts.size).toBeGreaterThan(3);
    expect(searchEverything(db, 'Baking', { siteIds: [] }, now)).toEqual([]);
  });

  it('takes anything typed as text: FTS5 syntax, quotes, control characters never throw nor leave the scope', async () => {
    const db = await twoSchools();
    const now = new Date();
    const syntax = fc.constantFrom(
      '"',
      '""',
      '*',
      'NEAR(',
      ')',
      'AND',
      'OR',
      'NOT',
      '-',
      '^',
      ':',
      'title:',
      '{',
      '}',
      '%',
      '_',
      '\\',
      '\u0000',
      '\u202e',
      '理財',
      'T2026',
      ' ',
    );
    const query = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.array(syntax, { maxLength: 12 }).map((parts) => parts.join('')),
      fc.string({ unit: 'binary', maxLength: 30 }),
    );
    const scope = fc.record({
      siteIds: fc.subarray(SITES),
      kinds: fc.option(fc.subarray([...SEARCH_HIT_KINDS]), { nil: undefined }),
    });
    fc.assert(
      fc.property(query, scope, (q, s) => {
        const hits = searchEverything(db, q, { ...s, limit: 30, perKind: 10 }, now);
        expect(hits.length).toBeLessThanOrEqual(30);
        for (const h of hits) {
          expect(s.siteIds).toContain(h.siteId);
          if (s.kinds && s.kinds.length > 0) expect(s.kinds).toContain(h.kind);
        }
      }),
      { numRuns: 150 },
    );
  });
});
