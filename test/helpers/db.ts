import type { Database } from 'better-sqlite3';
import {
  openOfflineDatabase,
  type OpenedDatabase,
  type OpenOptions,
  type ReadWriteDB,
  type WritableDB,
} from '../../electron/core/db/index';
import * as courseNews from '../../electron/core/db/migrations/016-course-news';

export type { ReadWriteDB };

/**
 * A test's one connection as both handles (db/handles.ts): the test writes its fixtures and reads
 * the views on the same database. The app never does: its views read on the read-only connection
 * beside the writer's, and the tests of that pair (test/core/worker) open both.
 */
export function readWrite(db: WritableDB | Database): ReadWriteDB {
  return db as ReadWriteDB;
}

/**
 * openOfflineDatabase's connection as a test's one database, writing and reading (`:memory:` by
 * default).
 */
export function openTestDatabase(file = ':memory:', options?: OpenOptions): ReadWriteDB {
  return readWrite(openOfflineDatabase(file, options).db);
}

/**
 * openOfflineDatabase as a test uses it: what the open reports, and its connection writing and
 * reading.
 */
export function openTestStore(
  file: string,
  options?: OpenOptions,
): Omit<OpenedDatabase, 'db'> & { readonly db: ReadWriteDB } {
  const opened = openOfflineDatabase(file, options);
  return { ...opened, db: readWrite(opened.db) };
}

/**
 * A database set back to a schema before migration 020 for an upgrade test: drops what 020 to 023
 * create (the student's notes and their index, the change record, reminder snoozes and runs, the
 * index of lectures still locked), so the migrations run again create them as on an old copy, and
 * puts back the badges' own table (016) that 024 folded into the change record.
 */
export function dropSince020(db: Database): void {
  db.exec(`
    DROP TABLE IF EXISTS notes_search;
    DROP TABLE IF EXISTS notes;
    DROP TABLE IF EXISTS change_record;
    DROP TABLE IF EXISTS reminder_snoozes;
    DROP TABLE IF EXISTS reminder_runs;
    DROP INDEX IF EXISTS lectures_unlocking;
    ${courseNews.sql}
  `);
}
