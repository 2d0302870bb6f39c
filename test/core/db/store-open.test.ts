import { readdirSync, writeFileSync, openSync, writeSync, closeSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import {
  enqueueChange,
  getLibrary,
  LATEST_VERSION,
  listSiteIds,
  pendingEntries,
  search,
} from '../../../electron/core/db';
import { MIGRATIONS } from '../../../electron/core/db/migrations';
import { isCoreError } from '../../../electron/core/errors';
import { course } from './fixtures';
import { closeStores, commit, NOW, open, opened, tempFile } from './store-scaffold';

// Opening the offline database: its pragmas, its migrations, and the recovery of a damaged file.
afterEach(closeStores);

describe('openOfflineDatabase: pragmas', () => {
  it('uses WAL, foreign keys, synchronous FULL (the outbox must survive a power loss) and a busy timeout', () => {
    const { db, recovered } = open(tempFile());
    expect(recovered).toBe(false);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
  });
});

describe('migrations keyed on PRAGMA user_version (ARCHITECTURE example 9)', () => {
  it('brings an empty file to the latest version with every table', () => {
    const { db } = open(tempFile());
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    const tables = (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]
    ).map((r) => r.name);
    for (const t of [
      'sites',
      'profile',
      'schools',
      'courses',
      'sections',
      'lectures',
      'digital_products',
      'event_registrations',
      'consulting_services',
      'payments',
      'notifications',
      'notification_subscriptions',
      'outbox',
      'sync_runs',
      'search_index',
    ]) {
      expect(tables).toContain(t);
    }
  });

  it('migrates a version-1 database with data: 002 indexes the rows already stored', () => {
    const file = tempFile();
    // Build a database exactly as version 1 of the app left it, with a synced site in it.
    const v1 = new Database(file);
    v1.pragma('foreign_keys = ON');
    v1.exec(MIGRATIONS[0]!.sql);
    v1.pragma('user_version = 1');
    v1.prepare(
      "INSERT INTO sites (id, created_at) VALUES ('s1', '2026-01-01T00:00:00.000Z')",
    ).run();
    v1.prepare(
      `INSERT INTO courses (site_id, id, position, slug, title, enrolled_at, has_lifetime_access, total_lectures, read_lectures, completed_lectures, percent)
       VALUES ('s1', 'c1', 0, 'knife', 'Knife sharpening', '2026-01-01T00:00:00.000Z', 1, 0, 0, 0, 0)`,
    ).run();
    v1.prepare(
      "INSERT INTO notifications (site_id, id, kind, title, body, created_at) VALUES ('s1', 'n1', 'announcement', 'Holiday', 'Closed on Friday', '2026-01-01T00:00:00.000Z')",
    ).run();
    v1.close();

    const { db } = open(file);
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    expect(getLibrary(db, 's1', NOW).map((c) => c.title)).toEqual(['Knife sharpening']);
    expect(search(db, 's1', 'knife').map((h) => [h.kind, h.id])).toEqual([['course', 'c1']]);
    expect(search(db, 's1', 'sharpen').map((h) => h.id)).toEqual(['c1']);
    expect(search(db, 's1', 'friday').map((h) => h.id)).toEqual(['n1']);
  });

  it('refuses a database from a newer app (user_version 999) with database-too-new, leaving it untouched', () => {
    const file = tempFile();
    const newer = new Database(file);
    newer.exec('CREATE TABLE future (x)');
    newer.pragma('user_version = 999');
    newer.close();
    let caught: unknown;
    try {
      open(file);
    } catch (error) {
      caught = error;
    }
    expect(isCoreError(caught, 'database-too-new')).toBe(true);
    const check = new Database(file, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(999);
    check.close();
  });

  it('runs all pending migrations in one transaction: a failing one leaves the version unchanged', async () => {
    const { migrate } = await import('../../../electron/core/db/migrate');
    const db = new Database(':memory:');
    opened.push(db);
    expect(() =>
      migrate(db, [
        ...MIGRATIONS,
        {
          version: LATEST_VERSION + 1,
          name: 'broken',
          sql: 'CREATE TABLE x (a); SELECT nonsense(',
        },
      ]),
    ).toThrow();
    expect(db.pragma('user_version', { simple: true })).toBe(0);
    expect(
      db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'sites'").get(),
    ).toEqual({ n: 0 });
  });
});

describe('corrupt database recovery', () => {
  it('moves a file that is not a database aside and rebuilds it empty', () => {
    const file = tempFile();
    writeFileSync(file, Buffer.alloc(8192, 0x41));
    const result = open(file);
    expect(result.recovered).toBe(true);
    expect(result.movedTo).toMatch(/offline\.db\.corrupt-/);
    expect(existsSync(result.movedTo!)).toBe(true);
    expect(result.db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    expect(listSiteIds(result.db)).toEqual([]);
  });

  it('keeps the outbox of a damaged database (quick_check fails on another table)', () => {
    const file = tempFile();
    {
      const { db } = open(file);
      commit(db, 's1', { courses: Array.from({ length: 300 }, (_, i) => course(`c${i}`)) });
      enqueueChange(db, 's1', { kind: 'mark-notification-read', notificationId: 'n-7' }, NOW);
      enqueueChange(
        db,
        's1',
        {
          kind: 'update-notification-subscription',
          topic: 'payments',
          channel: 'email',
          enabled: false,
        },
        NOW,
      );
      db.pragma('wal_checkpoint(TRUNCATE)');
      // Find a leaf page of the lectures table and overwrite its cells (dbstat:
      // https://sqlite.org/dbstat.html).
      const page = db
        .prepare(
          "SELECT pageno FROM dbstat WHERE name = 'lectures' AND pagetype = 'leaf' LIMIT 1 OFFSET 3",
        )
        .get() as { pageno: number };
      const pageSize = db.pragma('page_size', { simple: true }) as number;
      db.close();
      const fd = openSync(file, 'r+');
      writeSync(
        fd,
        Buffer.alloc(pageSize - 16, 0xff),
        0,
        pageSize - 16,
        (page.pageno - 1) * pageSize + 8,
      );
      closeSync(fd);
    }
    const result = open(file);
    expect(result.recovered).toBe(true);
    expect(result.salvagedOutbox).toBe(2);
    expect(pendingEntries(result.db, 's1').map((e) => e.change)).toEqual([
      { kind: 'mark-notification-read', notificationId: 'n-7' },
      {
        kind: 'update-notification-subscription',
        topic: 'payments',
        channel: 'email',
        enabled: false,
      },
    ]);
    // The snapshot is gone: the next sync rebuilds it from the server.
    expect(getLibrary(result.db, 's1', NOW)).toEqual([]);
    expect(readdirSync(join(file, '..')).some((f) => f.includes('.corrupt-'))).toBe(true);
  });
});
