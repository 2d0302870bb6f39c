import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { commitSnapshot, ensureSite, type ReadWriteDB } from '../../../electron/core/db';
import { openTestDatabase } from '../../helpers/db';
import { MIGRATIONS } from '../../../electron/core/db/migrations';
import type { SiteSnapshot } from '../../../electron/core/db/records';

/**
 * Databases in temporary folders for the page and view tests; `closeDatabases` after each test
 * removes them.
 */

export const NOW = new Date('2026-06-10T00:00:00.000Z');
const dirs: string[] = [];
const opened: Database.Database[] = [];

export function closeDatabases(): void {
  for (const db of opened.splice(0)) if (db.open) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ld-pages-'));
  dirs.push(dir);
  return join(dir, 'offline.db');
}

export function openDb(file = tempFile()): ReadWriteDB {
  const db = openTestDatabase(file);
  opened.push(db);
  return db;
}

/**
 * A database in `file` as the app at schema `version` left it (its migrations up to that one,
 * nothing later), for the migration tests: the caller writes the old rows, closes it, and opens it
 * again with openDb to migrate it.
 */
export function databaseAt(version: number, file: string): Database.Database {
  const db = new Database(file);
  db.pragma('foreign_keys = ON');
  for (const m of MIGRATIONS.filter((m) => m.version <= version)) db.exec(m.sql);
  db.pragma(`user_version = ${version}`);
  return db;
}

/**
 * The connection as the views see it, with the SQL of every statement they prepare (for their query
 * plans).
 */
export function recording(db: ReadWriteDB): { db: ReadWriteDB; sql: string[] } {
  const sql: string[] = [];
  const spy = new Proxy(db, {
    get(target, key) {
      if (key === 'prepare')
        return (text: string) => {
          sql.push(text);
          return target.prepare(text);
        };
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function'
        ? (value as (...args: unknown[]) => unknown).bind(target)
        : value;
    },
  });
  return { db: spy, sql };
}

export function withSite(snapshot: SiteSnapshot, siteId = 's'): ReadWriteDB {
  const db = openDb();
  ensureSite(db, siteId, NOW);
  commitSnapshot(db, siteId, snapshot);
  return db;
}

export const at = (iso: string) => new Date(iso);
export const day = (n: number) => `2026-06-${String(n).padStart(2, '0')}T00:00:00.000Z`;
