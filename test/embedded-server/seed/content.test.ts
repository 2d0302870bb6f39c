import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { openDatabase } from '../../../embedded-server/store/db';
import { seedDatabase } from '../../../embedded-server/seed/index';

const NOW = Date.UTC(2026, 10, 22, 8, 0, 0);
const open: Database[] = [];
function seeded(
  seed: 'demo' | 'large',
  site: 'demo' | 'demo2',
  options?: Record<string, unknown>,
): Database {
  const db = openDatabase();
  open.push(db);
  seedDatabase(db, { seed, site, now: NOW, ...(options ? { options } : {}) });
  return db;
}
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

const dump = (db: Database, table: string): unknown[] =>
  db.prepare(`SELECT * FROM ${table} ORDER BY 1`).all();

describe('content seed (ARCHITECTURE: deterministic seed generators)', () => {
  it('is deterministic: the same (seed, site, now) writes identical rows', () => {
    const a = seeded('demo', 'demo');
    const b = seeded('demo', 'demo');
    for (const t of [
      'courses',
      'lectures',
      'enrollments',
      'lecture_progress',
      'payments',
      'payment_line_items',
      'notifications',
      'consulting_meetings',
    ]) {
      expect(dump(a, t)).toEqual(dump(b, t));
    }
  });

  it('demo: usr_student holds 8 courses in the states the app renders (expired, expiring, lifetime, drip-locked, last watched)', () => {
    const db = seeded('demo', 'demo');
    const rows = db
      .prepare(
        "SELECT course_id, expire_at, has_lifetime_access FROM enrollments WHERE user_id = 'usr_student' AND school_id = 'sch_demo'",
      )
      .all() as { course_id: string; expire_at: number | null; has_lifetime_access: number }[];
    expect(rows).toHaveLength(8);
    const byId = new Map(rows.map((r) => [r.course_id, r]));
    expect(byId.get('crs_photography')!.expire_at!).toBeLessThan(NOW);
    expect(byId.get('crs_ux_writing')!.expire_at! - NOW).toBe(3 * 86_400_000);
    expect(byId.get('crs_python')!.has_lifetime_access).toBe(1);
    const locked = db
      .prepare(
        "SELECT count(*) AS n FROM lectures WHERE course_id = 'crs_machine_learning' AND unlock_at > ?",
      )
      .get(NOW) as {
      n: number;
    };
    expect(locked.n).toBeGreaterThan(0);
    const last = db
      .prepare(
        "SELECT last_lecture_id, last_position_seconds FROM enrollments WHERE id = 'enr_data_analysis'",
      )
      .get();
    expect(last).toEqual({ last_lecture_id: 'lec_data_analysis_2_2', last_position_seconds: 312 });
  });

  it('demo: payments cover every state, a shared tradeNo, ATM/CVS instructions, TWD and USD', () => {
    const db = seeded('demo', 'demo');
    const states = (
      db
        .prepare("SELECT DISTINCT payment_state AS s FROM payments WHERE school_id = 'sch_demo'")
        .all() as { s: string }[]
    )
      .map((r) => r.s)
      .sort();
    expect(states).toEqual([
      'expired',
      'failed',
      'manual_enrolled',
      'not_paid',
      'paid',
      'refunded',
    ]);
    const shared = db
      .prepare('SELECT trade_no, count(*) AS n FROM payments GROUP BY trade_no HAVING n > 1')
      .all();
    expect(shared).toEqual([{ trade_no: 'T202611000003', n: 2 }]);
    const atm = db
      .prepare("SELECT bank_code, code_no, expired_at FROM payments WHERE id = 'pay_demo_05'")
      .get() as {
      bank_code: string;
      code_no: string;
      expired_at: number;
    };
    expect(atm.bank_code).toBe('822');
    expect(atm.expired_at).toBeGreaterThan(NOW);
    const currencies = (
      db.prepare('SELECT DISTINCT currency AS c FROM payments').all() as { c: string }[]
    )
      .map((r) => r.c)
      .sort();
    expect(currencies).toEqual(['TWD', 'USD']);
  });

  it('demo2 is a smaller, different set than demo', () => {
    const db = seeded('demo', 'demo2');
    const ids = (
      db
        .prepare(
          "SELECT course_id FROM enrollments WHERE school_id = 'sch_demo2' ORDER BY course_id",
        )
        .all() as { course_id: string }[]
    ).map((r) => r.course_id);
    expect(ids).toEqual(['crs_d2_baking', 'crs_d2_guitar']);
    expect(
      (
        db.prepare("SELECT count(*) AS n FROM payments WHERE school_id = 'sch_demo'").get() as {
          n: number;
        }
      ).n,
    ).toBe(0);
  });

  it('large: writes the requested bulk counts on top of the demo set', () => {
    const db = seeded('large', 'demo', {
      large: { courses: 20, lecturesPerCourse: 12, payments: 100, notifications: 30 },
    });
    const c = db
      .prepare(
        "SELECT (SELECT count(*) FROM enrollments WHERE id LIKE 'enr_bulk_%') AS e, (SELECT count(*) FROM lectures WHERE id LIKE 'lec_bulk_%') AS l, (SELECT count(*) FROM payments WHERE id LIKE 'pay_bulk_%') AS p, (SELECT count(*) FROM notifications WHERE id LIKE 'ntf_bulk_%') AS n",
      )
      .get();
    expect(c).toEqual({ e: 20, l: 240, p: 100, n: 30 });
  });
});
