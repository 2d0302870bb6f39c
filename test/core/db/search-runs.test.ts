import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  commitSnapshot,
  ensureSite,
  migrate,
  removeSiteData,
  search,
} from '../../../electron/core/db';
import { MIGRATIONS } from '../../../electron/core/db/migrations';
import { dropSince020 } from '../../helpers/db';
import { indexShortTerms, parseSearch, RANKED_PER_RUN } from '../../../electron/core/db/search';
import { course, notification, payment } from './fixtures';
import { openTestDatabase, type ReadWriteDB } from '../../helpers/db';

/**
 * Search reads only the searched site's runs of rowids (migration 009 search_ranges) and ranks a
 * bounded number of matches per run. Real SQLite files; the reference is the query search() ran
 * before: every match of every site ranked by FTS5, then filtered by site.
 */
const dirs: string[] = [];
const dbs: ReadWriteDB[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) if (db.open) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function openDb(): ReadWriteDB {
  const dir = mkdtempSync(join(tmpdir(), 'ld-search-'));
  dirs.push(dir);
  const db = openTestDatabase(join(dir, 'offline.db'));
  dbs.push(db);
  return db;
}
const NOW = new Date('2026-06-01T00:00:00.000Z');
const WORDS = ['Cooking', 'Baking', 'Python', 'Finance', '理財', '烘焙', 'Design', 'Yoga'];

/** A site whose course titles mix the words above, deterministically per site and index. */
function fill(db: ReadWriteDB, siteId: string, courses: number): void {
  ensureSite(db, siteId, NOW);
  commitSnapshot(db, siteId, {
    courses: Array.from({ length: courses }, (_, i) =>
      course(`${siteId}-c${i}`, {
        title: `${WORDS[i % WORDS.length]} ${i % 3 === 0 ? WORDS[(i * 7) % WORDS.length] : ''} course ${i} ${'x'.repeat(i % 11)}`,
      }),
    ),
    notifications: Array.from({ length: 20 }, (_, i) =>
      notification(`${siteId}-n${i}`, { title: `${WORDS[(i * 3) % WORDS.length]} notice ${i}` }),
    ),
  });
}

/**
 * search() before search_ranges: FTS5 ranks every match of every site, the site filter applies
 * after.
 */
function reference(db: ReadWriteDB, siteId: string, query: string): string[] {
  const parsed = parseSearch(query)!;
  return db
    .prepare(
      `SELECT item_id FROM search_index s WHERE s.site_id = @siteId AND s.search_index MATCH @match ORDER BY rank LIMIT 50`,
    )
    .pluck()
    .all({ siteId, match: parsed.match }) as string[];
}

describe('search reads the site’s own rows only, and ranks a bounded number of matches', () => {
  it('gives the same hits in the same order as ranking every match, with other sites’ rows before and after', () => {
    const db = openDb();
    fill(db, 'a', 120);
    fill(db, 'b', 80);
    fill(db, 'c', 60);
    // b again: its runs now come after c's.
    fill(db, 'b', 90);
    for (const site of ['a', 'b', 'c']) {
      for (const query of [
        'cooking',
        'course',
        'Python course',
        'finance',
        'notice',
        'Yoga notice',
        'nothing-like-this',
      ]) {
        expect(
          search(db, site, query).map((h) => h.id),
          `${site}: ${query}`,
        ).toEqual(reference(db, site, query));
      }
    }
    // b's rewritten courses hold a run after all of c's rows; its unchanged notices kept theirs,
    // before c's.
    const run = db
      .prepare('SELECT first_rowid FROM search_ranges WHERE site_id = ? AND kind = ?')
      .pluck();
    expect(run.get('b', 'course')).toBeGreaterThan(run.get('c', 'notification') as number);
    expect(run.get('b', 'notification')).toBeLessThan(run.get('c', 'course') as number);
  });

  it('a common word ranks the first RANKED_PER_RUN matches of each run, not every one of them', () => {
    const db = openDb();
    ensureSite(db, 's', NOW);
    // The best match for "cooking" (the shortest title) comes last, after RANKED_PER_RUN longer
    // ones.
    const n = RANKED_PER_RUN + 20;
    commitSnapshot(db, 's', {
      courses: [
        ...Array.from({ length: n }, (_, i) =>
          course(`c${i}`, {
            title: `Cooking course number ${i} with a long title ${'y'.repeat(20)}`,
          }),
        ),
        course('best', { title: 'Cooking' }),
      ],
    });
    expect(reference(db, 's', 'cooking')[0]).toBe('best');
    const hits = search(db, 's', 'cooking');
    expect(hits).toHaveLength(50);
    expect(hits.map((h) => h.id)).not.toContain('best');
    // The hits shown still carry their snippets, from the match.
    expect(hits[0]!.snippet).toMatch(/\[\[Cooking\]\]/i);
  });

  it('short terms (through the grams and the scan of rows not indexed yet) read the site’s runs in rowid order', () => {
    const db = openDb();
    fill(db, 'a', 40);
    fill(db, 'b', 40);
    indexShortTerms(db, 100);
    fill(db, 'c', 40);
    for (const site of ['a', 'b', 'c']) {
      const ids = search(db, site, 'co').map((h) => h.id);
      expect(ids.length).toBeGreaterThan(0);
      expect(ids.every((id) => id.startsWith(`${site}-`))).toBe(true);
      const all = db
        .prepare(
          `SELECT item_id FROM search_index WHERE site_id = ? AND (title LIKE '%co%' OR body LIKE '%co%') ORDER BY rowid LIMIT 50`,
        )
        .pluck()
        .all(site);
      expect(ids).toEqual(all);
    }
  });

  it('removing a site removes its runs; migration 009 finds the runs of a database indexed before it', () => {
    const db = openDb();
    fill(db, 'a', 10);
    fill(db, 'b', 10);
    removeSiteData(db, 'a');
    expect(db.prepare("SELECT count(*) FROM search_ranges WHERE site_id = 'a'").pluck().get()).toBe(
      0,
    );
    // As version 8 left it: no search_ranges (nor what later versions add: lecture_completions, the
    // kinds 014 indexes); the migrations fill them from the rows.
    db.exec(
      "DROP TABLE search_ranges; DROP INDEX lectures_locked; DROP TABLE lecture_completions; DELETE FROM search_index WHERE kind = 'instructor'; ALTER TABLE courses DROP COLUMN display",
    );
    dropSince020(db);
    db.pragma('user_version = 8');
    migrate(db, MIGRATIONS);
    expect(
      db
        .prepare("SELECT count(*) FROM search_ranges WHERE site_id = 'b' AND kind <> 'instructor'")
        .pluck()
        .get(),
    ).toBe(4);
    expect(search(db, 'b', 'course').map((h) => h.id)).toEqual(reference(db, 'b', 'course'));
  });

  it('migration 014 indexes the orders, payments, products, events and consulting of a database synced before it', () => {
    const db = openDb();
    fill(db, 'a', 5);
    for (const siteId of ['a', 'b']) {
      ensureSite(db, siteId, NOW);
      commitSnapshot(db, siteId, {
        courses: [course(`${siteId}-c1`, { instructorName: `Teacher ${siteId}` })],
        payments: [
          payment(`${siteId}-p1`, { codeNo: `CODE${siteId}77` }),
          payment(`${siteId}-p2`, { tradeNo: `T-${siteId}-p1` }),
        ],
        digitalProducts: [
          {
            id: `${siteId}-d1`,
            title: `Planner ${siteId}`,
            description: 'A printable planner',
            format: 'pdf',
            deliveredAt: NOW.toISOString(),
            expireDate: null,
            downloadUrl: null,
          },
        ],
        eventRegistrations: [
          {
            id: `${siteId}-e1`,
            eventId: 'e1',
            title: `Open house ${siteId}`,
            startsAt: NOW.toISOString(),
            endsAt: NOW.toISOString(),
            location: 'Taipei',
            isOnline: false,
            joinUrl: null,
            ticketName: 'General',
            registeredAt: NOW.toISOString(),
          },
        ],
        consultingServices: [
          {
            id: `${siteId}-s1`,
            title: `Code review ${siteId}`,
            description: null,
            durationMinutes: 30,
            consultantName: 'Kevin',
            courseId: `${siteId}-c1`,
            slots: [],
            meetings: [],
          },
        ],
      });
    }
    const NEW = "('instructor', 'order', 'payment', 'product', 'event', 'consulting')";
    const found = (siteId: string) =>
      ['Teacher', 'T-', 'CODE', 'Planner', 'Taipei', 'Code review'].map((q) =>
        search(db, siteId, q).map((h) => `${h.kind}:${h.id}`),
      );
    const before = { a: found('a'), b: found('b') };
    expect(before.a.flat()).toEqual(
      expect.arrayContaining([
        'instructor:Teacher a',
        'order:T-a-p1',
        'payment:a-p1',
        'product:a-d1',
        'event:a-e1',
        'consulting:a-s1',
      ]),
    );
    expect(before.a[0]).toContain('course:a-c1');
    // As version 13 left it: none of these kinds in the index, and courses without their
    // instructor's name.
    db.exec(
      `DELETE FROM search_index WHERE kind IN ${NEW}; DELETE FROM search_ranges WHERE kind IN ${NEW}`,
    );
    db.exec(
      "UPDATE search_index SET body = '' WHERE kind = 'course'; ALTER TABLE courses DROP COLUMN display",
    );
    db.exec(
      'DROP INDEX lectures_in_order; DROP INDEX lectures_to_do; ALTER TABLE lectures DROP COLUMN ord',
    );
    dropSince020(db);
    db.pragma('user_version = 13');
    expect(search(db, 'a', 'Planner')).toEqual([]);
    const next = db.prepare('SELECT next_rowid FROM search_state').pluck().get() as number;
    migrate(db, MIGRATIONS);
    expect({ a: found('a'), b: found('b') }).toEqual(before);
    // Rowids never used before, each site's rows of a kind in one run, and the next rebuild goes on
    // after them.
    const runs = db
      .prepare(
        `SELECT site_id, kind, first_rowid, last_rowid FROM search_ranges WHERE kind IN ${NEW} ORDER BY first_rowid`,
      )
      .all() as {
      first_rowid: number;
      last_rowid: number;
    }[];
    expect(runs).toHaveLength(12);
    expect(runs[0]!.first_rowid).toBe(next);
    const top = db.prepare('SELECT max(rowid) FROM search_index').pluck().get() as number;
    expect(db.prepare('SELECT next_rowid FROM search_state').pluck().get()).toBe(top + 1);
    fill(db, 'a', 6);
    expect(search(db, 'a', 'Planner').map((h) => h.id)).toEqual(['a-d1']);
  });
});
