import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { openDatabase } from '../../../embedded-server/store/db';
import { prepared } from '../../../embedded-server/store/statements';

const opened: Database[] = [];
const open = (): Database => {
  const db = openDatabase();
  opened.push(db);
  return db;
};
afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
});

describe('Prepared statements are compiled once per database handle and SQL text', () => {
  it('hands back the same statement for the same SQL, another for other SQL or another database', () => {
    const a = open();
    const b = open();
    const sql = 'SELECT id FROM schools WHERE id = ?';
    expect(prepared(a, sql)).toBe(prepared(a, sql));
    expect(prepared(a, sql)).not.toBe(prepared(a, 'SELECT name FROM schools WHERE id = ?'));
    expect(prepared(b, sql)).not.toBe(prepared(a, sql));
  });

  it('a reused statement sees every write, also after a schema change, and fails like prepare once the handle is closed', () => {
    const db = open();
    const count = 'SELECT count(*) AS n FROM schools';
    expect(prepared(db, count).get()).toEqual({ n: 0 });
    prepared(db, 'INSERT INTO schools (id, name, subdomain, created_at) VALUES (?, ?, ?, ?)').run(
      'sch_x',
      'X',
      'x',
      1,
    );
    expect(prepared(db, count).get()).toEqual({ n: 1 });
    db.exec('CREATE TABLE extra (id TEXT)'); // SQLite re-prepares a statement whose schema changed
    expect(prepared(db, count).get()).toEqual({ n: 1 });
    db.close();
    expect(() => prepared(db, count).get()).toThrow(TypeError);
    expect(() => db.prepare(count)).toThrow(TypeError);
  });
});
