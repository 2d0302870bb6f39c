import type { ReadWriteDB } from '../../helpers/db';
import { afterEach, describe, expect, it } from 'vitest';
import {
  commitSnapshot,
  ensureSite,
  getBillingSummary,
  getOrdersPage,
  removeSiteData,
  search,
} from '../../../electron/core/db';
import { ipcContract, PAGE_LIMIT_MAX } from '../../../electron/common/ipc-contract';
import { indexShortTerms } from '../../../electron/core/db/search';
import type { SiteSnapshot } from '../../../electron/core/db/records';
import { course, notification, hitContext } from './fixtures';
import { closeDatabases, databaseAt, NOW, tempFile, openDb, withSite, day } from './pages-scaffold';

afterEach(closeDatabases);

describe('migration 006 (view pages)', () => {
  it('fills the orders of payments stored by version 5, and reads expiries as epoch ms', () => {
    const file = tempFile();
    const v5 = databaseAt(5, file);
    v5.prepare(
      "INSERT INTO sites (id, created_at) VALUES ('s1', '2026-01-01T00:00:00.000Z')",
    ).run();
    const insert = v5.prepare(
      `INSERT INTO payments (site_id, id, position, trade_no, amount, currency, payment_type, created_at, payment_state, refunding_state,
         refunded_amount, code_no, expired_at, adjustments, line_items)
       VALUES ('s1', @id, 0, @trade, 100, 'TWD', 'atm', @created, 'not_paid', 'none', 0, '1', @expired, '[]', '[]')`,
    );
    insert.run({ id: 'p1', trade: 'T1', created: day(2), expired: '2026-06-30T00:00:00.000Z' });
    insert.run({ id: 'p2', trade: 'T1', created: day(1), expired: '2026-06-30T00:00:00.000Z' });
    insert.run({ id: 'p3', trade: 'T2', created: day(3), expired: '2026-06-01T00:00:00.000Z' });
    v5.close();

    const db = openDb(file);
    expect(db.prepare('SELECT trade_no, created_at FROM orders ORDER BY trade_no').all()).toEqual([
      { trade_no: 'T1', created_at: day(1) },
      { trade_no: 'T2', created_at: day(3) },
    ]);
    expect(db.prepare("SELECT expires_ms FROM payments WHERE id = 'p3'").get()).toEqual({
      expires_ms: Date.parse('2026-06-01T00:00:00.000Z'),
    });
    expect(getOrdersPage(db, 's1', NOW).items.map((o) => [o.tradeNo, o.summaryState])).toEqual([
      ['T2', 'expired'],
      ['T1', 'awaiting_payment'],
    ]);
    expect(getBillingSummary(db, 's1', NOW)).toMatchObject({
      orderCount: 2,
      paymentCount: 3,
      pendingCount: 2,
    });
  });
});

describe('short search terms (007): the grams index answers what the LIKE scan did', () => {
  const snap: SiteSnapshot = {
    courses: [
      course('c1', { title: 'Personal Finance 個人理財入門' }),
      course('c2', { title: 'Python basics' }),
    ],
    notifications: [
      notification('n1', { title: '休館通知', body: '週五休館 happy' }),
      notification('n2', { title: 'Exam', body: 'in room 5' }),
    ],
  };
  const queries = [
    '理財',
    '週五',
    '數',
    'py',
    'PY',
    'p',
    'y',
    '5',
    'c#',
    '館',
    'zz',
    '理財 py',
    'finance 理財',
  ];
  const hits = (db: ReadWriteDB, siteId = 's') =>
    queries.map((q) => [q, search(db, siteId, q).map((h) => [h.id, h.snippet])]);

  it('gives the same hits, in the same order, before the rows are indexed (scan) and after (grams)', () => {
    const db = withSite(snap);
    const scanned = hits(db);
    expect(indexShortTerms(db)).toBeGreaterThan(0);
    expect(indexShortTerms(db)).toBe(0);
    expect(hits(db)).toEqual(scanned);
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
    expect(search(db, 's', 'py').map((h) => h.id)).toEqual(['c2', 'n1']); // Python, happy
    // a 1-character term also at the end of a word
    expect(search(db, 's', 'y').map((h) => h.id)).toEqual(['c2', 'n1']);
    expect(search(db, 's', '5').map((h) => h.id)).toEqual(['n2']);
  });

  it('gives the same hits while the index is written in steps (rows up to the step through grams, the rest scanned)', () => {
    const db = withSite(snap);
    const scanned = hits(db);
    const steps: number[] = [];
    for (let n = indexShortTerms(db, 2); n > 0; n = indexShortTerms(db, 2)) {
      steps.push(n);
      expect(hits(db)).toEqual(scanned);
    }
    expect(steps.length).toBeGreaterThan(2);
    expect(hits(db)).toEqual(scanned);
  });

  it('stays exact across commits (rows rewritten, not yet indexed, then compacted) and never mixes sites', () => {
    const db = withSite(snap);
    ensureSite(db, 't', NOW);
    commitSnapshot(db, 't', { courses: [course('t1', { title: '理財 for site t' })] });
    indexShortTerms(db);
    // Rewrite s's courses: the old rows' grams stay behind (garbage) and must not match anything.
    commitSnapshot(db, 's', { ...snap, courses: [course('c9', { title: 'Spy novels 理財' })] });
    expect(search(db, 's', '理財').map((h) => h.id)).toEqual(['c9']);
    expect(search(db, 't', '理財').map((h) => h.id)).toEqual(['t1']);
    indexShortTerms(db);
    expect(search(db, 's', '理財').map((h) => h.id)).toEqual(['c9']);
    // The unchanged notices kept their rows (and older row ids): the scan's order is row id order.
    expect(search(db, 's', 'py').map((h) => h.id)).toEqual(['n1', 'c9']);
    const state = () =>
      db.prepare('SELECT indexed_through, next_rowid, garbage FROM search_state').get() as {
        indexed_through: number;
        next_rowid: number;
        garbage: number;
      };
    // s's old course rows (course, section, 2 lectures, twice) are a third of the rows indexed:
    // compacted by the pass above.
    expect(state().garbage).toBe(0);
    expect(state().indexed_through).toBeGreaterThan(0);
    removeSiteData(db, 't');
    // Removing a site drops the whole grams index: nothing derived from t's text stays; s is
    // scanned meanwhile.
    expect(state()).toMatchObject({ indexed_through: 0, garbage: 0 });
    expect(
      db.prepare("SELECT count(*) AS n FROM search_grams WHERE search_grams MATCH '理財'").get(),
    ).toEqual({ n: 0 });
    expect(search(db, 't', '理財')).toEqual([]);
    expect(search(db, 's', '理財').map((h) => h.id)).toEqual(['c9']);
    // Row ids are never reused, so grams left behind never point at a new row.
    const next = state().next_rowid;
    commitSnapshot(db, 's', { courses: [course('c10', { title: 'Zebra' })] });
    expect(
      (
        db.prepare('SELECT min(rowid) AS r FROM search_index WHERE kind = ?').get('course') as {
          r: number;
        }
      ).r,
    ).toBeGreaterThanOrEqual(next);
    expect(search(db, 's', '理財')).toEqual([]);
    indexShortTerms(db);
    expect(search(db, 's', 'ze').map((h) => h.id)).toEqual(['c10']);
  });
});

describe('page channels validate their input (the renderer is untrusted)', () => {
  it('defaults to the first page of 50, bounds the limit, refuses unknown keys and filters', () => {
    expect(ipcContract['notifications:page'].input.parse({ siteId: 's' })).toEqual({
      siteId: 's',
      offset: 0,
      limit: 50,
      onlyUnread: false,
    });
    expect(
      ipcContract['library:page'].input.parse({
        siteId: 's',
        offset: 100,
        limit: PAGE_LIMIT_MAX,
        filter: 'expired',
      }),
    ).toMatchObject({
      filter: 'expired',
    });
    for (const bad of [
      { limit: PAGE_LIMIT_MAX + 1 },
      { limit: 0 },
      { offset: -1 },
      { offset: 1.5 },
      { filter: 'all' },
      { cursor: 'x' },
    ]) {
      expect(
        ipcContract['billing:orders'].input.safeParse({ siteId: 's', ...bad }).success,
        JSON.stringify(bad),
      ).toBe(false);
    }
    expect(
      ipcContract['library:page'].input.safeParse({ siteId: 's', filter: 'newest' }).success,
    ).toBe(false);
    expect(ipcContract['billing:summary'].input.safeParse({ siteId: 's', limit: 5 }).success).toBe(
      false,
    );
  });
});
