import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { openDatabase } from '../../../embedded-server/store/db';
import { FIRST_PAGE, keyset } from '../../../embedded-server/store/content-sql';
import {
  LECTURE_CONTENT_SQL,
  LECTURE_STATES_SQL,
} from '../../../embedded-server/store/content-courses';
import { CONSULTING_PAGE_SQL } from '../../../embedded-server/store/content-entitlements';

// The app's first sync walks every page of every connection; these plans keep page n as cheap as
// page 1 and the course tree of a page index-only. A plan change here is a performance regression,
// not a style matter.
let db: Database;
beforeAll(() => {
  db = openDatabase();
});
afterAll(() => db.close());

const plan = (sql: string, params: Record<string, unknown>) =>
  (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { detail: string }[])
    .map((r) => r.detail)
    .join('\n');

describe('Query plans of the member API hot paths (decision: keyset pages are index ranges)', () => {
  it.each([
    ['payments', 'payments_by_user', 'created_at'],
    ['notifications', 'notifications_by_user', 'created_at'],
    ['enrollments', 'enrollments_by_user', 'enrolled_at'],
    ['product_deliveries', 'product_deliveries_by_user', 'delivered_at'],
    ['event_registrations', 'event_registrations_by_user', 'registered_at'],
  ])(
    '%s pages seek the cursor position in %s (no rescan from the newest row, no sort)',
    (table, index, time) => {
      const sql = `SELECT * FROM ${table} WHERE school_id = :school AND user_id = :user AND ${keyset(time, 'id')} ORDER BY ${time} DESC, id DESC LIMIT :limit`;
      const p = plan(sql, {
        school: 's',
        user: 'u',
        afterT: FIRST_PAGE.t,
        afterId: FIRST_PAGE.id,
        limit: 51,
      });
      expect(p).toContain(
        `USING INDEX ${index} (school_id=? AND user_id=? AND (${time},id)<(?,?))`,
      );
      expect(p).not.toContain('TEMP B-TREE');
    },
  );

  it('the first page is a keyset page too: FIRST_PAGE sorts after every stored time', () => {
    expect(FIRST_PAGE.t).toBeGreaterThan(Date.UTC(9999, 0, 1));
  });

  it('the lecture tree of a page of courses reads the covering index lectures_tree, already in order', () => {
    const p = plan(LECTURE_CONTENT_SQL, { ids: '[]' });
    expect(p).toContain('USING COVERING INDEX lectures_tree');
    expect(p).not.toContain('TEMP B-TREE FOR ORDER BY');
  });

  it("the viewer's lecture states of a page of courses are an index range per course, without the lectures", () => {
    const p = plan(LECTURE_STATES_SQL, { user: 'u', ids: '[]' });
    expect(p).toContain('USING INDEX lecture_progress_by_course (user_id=? AND course_id=?)');
    expect(p).not.toContain('lectures');
  });

  it("consulting services walk the school's services in keyset order and probe the member's enrolment of each", () => {
    const p = plan(CONSULTING_PAGE_SQL, {
      school: 's',
      user: 'u',
      now: 0,
      afterT: FIRST_PAGE.t,
      afterId: FIRST_PAGE.id,
      limit: 101,
    });
    expect(p).toContain(
      'SEARCH cs USING INDEX consulting_services_by_school (school_id=? AND (created_at,id)<(?,?))',
    );
    expect(p).toContain(
      'SEARCH e EXISTS USING INDEX sqlite_autoindex_enrollments_2 (school_id=? AND user_id=? AND course_id=?)',
    );
    expect(p).not.toContain('TEMP B-TREE');
  });
});
