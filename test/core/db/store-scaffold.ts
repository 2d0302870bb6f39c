import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import {
  commitSnapshot,
  ensureSite,
  openOfflineDatabase,
  type WritableDB,
} from '../../../electron/core/db';
import { readWrite } from '../../helpers/db';

// Offline databases in temporary folders for the store tests (store-*.test.ts, view-cache.test.ts).
const dirs: string[] = [];
export const opened: Database.Database[] = [];
export function tempFile(name = 'offline.db'): string {
  const dir = mkdtempSync(join(tmpdir(), 'ld-db-'));
  dirs.push(dir);
  return join(dir, name);
}
export function open(file: string) {
  const result = openOfflineDatabase(file);
  opened.push(result.db);
  return { ...result, db: readWrite(result.db) };
}
/** Closes what the test opened and removes its folders (each file's afterEach). */
export function closeStores(): void {
  for (const db of opened.splice(0)) if (db.open) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export const NOW = new Date('2026-06-01T00:00:00.000Z');

/** The sync ensures the site when a run starts; store tests do the same before committing. */
export function commit(
  db: WritableDB,
  siteId: string,
  snap: Parameters<typeof commitSnapshot>[2],
): void {
  ensureSite(db, siteId, NOW);
  commitSnapshot(db, siteId, snap);
}
