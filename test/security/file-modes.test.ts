/**
 * Files at rest: the data folder is 0700 and the databases in it 0600 (with their SQLite side
 * files), whatever the umask, and even when the student points the app at an existing folder
 * another account could list (0755) or a database an older version left 0644. POSIX only: Windows
 * has no such modes (electron/core/fs/private-files.ts).
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestCore, valueOf } from '../helpers/test-core';

const mode = (path: string) => statSync(path).mode & 0o777;

describe.skipIf(process.platform === 'win32')('files at rest: 0600 in a 0700 folder', () => {
  let dir = '';
  const umask = process.umask();
  afterEach(() => {
    process.umask(umask);
    rmSync(dir, { recursive: true, force: true });
  });

  it('an existing 0755 data folder is made 0700; offline.db, its side files and the demo databases are 0600', async () => {
    dir = mkdtempSync(join(tmpdir(), 'ld-sec-modes-'));
    const dataDir = join(dir, 'data');
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    // A permissive umask, as some shells and services run with: nothing may depend on it.
    process.umask(0o002);
    const core = await createTestCore({ dataDir, demo: { enabled: true } });
    try {
      valueOf(await core.handlers['sites:add-demo'](undefined));
      expect(mode(dataDir)).toBe(0o700);
      const databases = readdirSync(dataDir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile() && /\.db(-wal|-shm|-journal)?$/.test(e.name))
        .map((e) => join(e.parentPath, e.name));
      expect(databases.some((f) => f.endsWith('offline.db'))).toBe(true);
      expect(databases.some((f) => f.endsWith('offline.db-wal'))).toBe(true);
      expect(databases.filter((f) => !f.includes('offline.db')).length).toBeGreaterThan(0);
      expect(databases.map((f) => [f.slice(dataDir.length), mode(f).toString(8)])).toEqual(
        databases.map((f) => [f.slice(dataDir.length), '600']),
      );
    } finally {
      await core.close();
    }
  });

  it('a database an older version left 0644 (and its WAL) is tightened to 0600 when the app opens it', async () => {
    dir = mkdtempSync(join(tmpdir(), 'ld-sec-modes-old-'));
    const dataDir = join(dir, 'data');
    mkdirSync(dataDir, { mode: 0o700 });
    const file = join(dataDir, 'offline.db');
    const old = new Database(file);
    old.pragma('journal_mode = WAL');
    old.exec('create table t (x)');
    chmodSync(file, 0o644);
    chmodSync(`${file}-wal`, 0o644);
    old.close();
    chmodSync(file, 0o644);
    const core = await createTestCore({ dataDir });
    try {
      expect(mode(file)).toBe(0o600);
      expect(mode(`${file}-wal`)).toBe(0o600);
    } finally {
      await core.close();
    }
  });
});
