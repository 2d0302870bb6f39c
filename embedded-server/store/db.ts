import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Database as Db } from 'better-sqlite3';

/** A migration file: `NNN-description.sql`; NNN is the schema version it brings the database to. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/**
 * Raised when the database was written by a newer server than this one (never downgrade silently).
 */
export class DatabaseTooNewError extends Error {
  constructor(
    readonly found: number,
    readonly supported: number,
  ) {
    super(`database schema version ${found} is newer than this server supports (${supported})`);
    this.name = 'DatabaseTooNewError';
  }
}

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

export function loadMigrations(dir: string = MIGRATIONS_DIR): Migration[] {
  const migrations = readdirSync(dir)
    .filter((f) => /^\d{3}-.+\.sql$/.test(f))
    .sort()
    .map((f) => ({
      version: Number(f.slice(0, 3)),
      name: f,
      sql: readFileSync(join(dir, f), 'utf8'),
    }));
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migration numbering gap at ${m.name}`);
  });
  return migrations;
}

/**
 * Runs every migration newer than PRAGMA user_version, all in ONE transaction, so a failure leaves
 * the database exactly as it was (Signal ts/sql/migrations style). Returns the version reached.
 */
export function migrate(db: Db, migrations: readonly Migration[] = loadMigrations()): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  const latest = migrations.length === 0 ? 0 : migrations[migrations.length - 1]!.version;
  if (current > latest) throw new DatabaseTooNewError(current, latest);
  const pending = migrations.filter((m) => m.version > current);
  if (pending.length === 0) return current;
  db.transaction(() => {
    for (const m of pending) db.exec(m.sql);
    // user_version cannot be bound as a parameter; the value is an integer we computed.
    db.pragma(`user_version = ${latest}`);
  })();
  return latest;
}

/**
 * Opens (or creates) the service database. WAL lets readers run beside the writer; foreign keys are
 * off by default in SQLite and must be switched on per connection
 * (https://sqlite.org/foreignkeys.html).
 */
export function openDatabase(
  path = ':memory:',
  migrations?: readonly Migration[],
  nativeBinding?: string,
): Db {
  const db = new Database(path, nativeBinding === undefined ? {} : { nativeBinding });
  try {
    if (path !== ':memory:') db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrate(db, migrations);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}
