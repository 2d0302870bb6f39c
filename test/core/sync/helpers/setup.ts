import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import {
  createEmbeddedServer,
  type EmbeddedServer,
  type EmbeddedServerOptions,
} from '../../../../embedded-server/index';
import type Database from 'better-sqlite3';
import {
  openOfflineDatabase,
  openReadConnection,
  type OpenedDatabase,
  type ReadableDB,
  type ReadWriteDB,
} from '../../../../electron/core/db';
import { readWrite } from '../../../helpers/db';
import {
  startWriterWorker,
  type OpenedWriter,
  type WriterWorkerOptions,
} from '../../../../electron/core/worker';
import { getMemberToken, siteClient, FULL_SCOPE } from './member-token';

export interface TestSite {
  readonly server: EmbeddedServer;
  readonly accessToken: string;
  readonly client: ReturnType<typeof siteClient>;
}

/**
 * A real embedded server on 127.0.0.1 port 0 and a real member token for it; closed when the test
 * ends.
 */
export async function startSite(
  options: EmbeddedServerOptions = {},
  scope = FULL_SCOPE,
): Promise<TestSite> {
  const server = await createEmbeddedServer({ port: 0, seed: 'demo', ...options });
  onTestFinished(() => server.close());
  const { accessToken } = await getMemberToken(server, scope);
  return { server, accessToken, client: siteClient(server.url, accessToken) };
}

export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ld-sync-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A real SQLite file in a temp dir, closed when the test ends. */
export function openTempDb(
  file = join(tempDir(), 'offline.db'),
): Omit<OpenedDatabase, 'db'> & { db: ReadWriteDB; file: string } {
  const opened = openOfflineDatabase(file);
  onTestFinished(() => {
    if (opened.db.open) opened.db.close();
  });
  return { ...opened, db: readWrite(opened.db), file };
}

export const noSleep = async (): Promise<void> => {};

/**
 * The writer worker on a file (a temp one by default) and this thread's read-only connection beside
 * it, as the app opens them; closed when the test ends.
 */
export async function openWorkerDb(
  file = join(tempDir(), 'offline.db'),
  options: Omit<WriterWorkerOptions, 'file'> = {},
): Promise<{ writer: OpenedWriter; db: ReadableDB; file: string }> {
  const writer = await startWriterWorker({ file, ...options });
  const db = openReadConnection(file);
  writer.attachReader(db);
  onTestFinished(async () => {
    await writer.close();
    db.close();
  });
  return { writer, db, file };
}

/**
 * Every row of every table but the histories (the sync runs, what each sync changed, when the
 * reminders last ran) and when the site was first seen, hashed: what a sync could change. A
 * re-sync records the changes a first sync never does, so the change record is history here.
 */
export function contents(db: Database.Database): string {
  const hash = createHash('sha256');
  const tables = db
    .prepare(
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'search_%' AND name NOT IN ('sync_runs', 'sites', 'change_record', 'reminder_runs') ORDER BY name",
    )
    .pluck()
    .all() as string[];
  for (const table of tables)
    hash
      .update(table)
      .update(JSON.stringify(db.prepare(`SELECT * FROM "${table}" ORDER BY 1`).raw().all()));
  return hash.digest('base64');
}
