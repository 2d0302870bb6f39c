import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { commitSnapshot, ensureSite, openOfflineDatabase } from '../../../electron/core/db';
import type { SiteSnapshot } from '../../../electron/core/db/records';

/** Databases in temporary folders for the page and view tests; `closeDatabases` after each test removes them. */

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

export function openDb(file = tempFile()): Database.Database {
  const { db } = openOfflineDatabase(file);
  opened.push(db);
  return db;
}

export function withSite(snapshot: SiteSnapshot, siteId = 's'): Database.Database {
  const db = openDb();
  ensureSite(db, siteId, NOW);
  commitSnapshot(db, siteId, snapshot);
  return db;
}

export const at = (iso: string) => new Date(iso);
export const day = (n: number) => `2026-06-${String(n).padStart(2, '0')}T00:00:00.000Z`;
