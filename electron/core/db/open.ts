import { copyFileSync, existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { Database as Db } from 'better-sqlite3';
import { CoreError, isCoreError } from '../errors';
import { silentLogger, type Logger } from './logger';
import { databaseTooNew, migrate } from './migrate';
import { LATEST_VERSION } from './migrations';
import { readOutboxRowsRaw, restoreOutboxRows, type RawOutboxRow } from './outbox';
import { privateDatabaseFile } from '../fs/private-files';
import type { ReadableDB, WritableDB } from './handles';

export interface OpenedDatabase {
  /**
   * The writer's connection: the worker's (writer-worker.ts), or a test's or tool's one database.
   */
  readonly db: WritableDB;
  /**
   * The file was unreadable and was moved aside; the database is new and the next sync rebuilds it.
   */
  readonly recovered: boolean;
  /** Where the unreadable file went, when recovered. */
  readonly movedTo: string | null;
  /** Outbox entries carried over from the unreadable file. */
  readonly salvagedOutbox: number;
}

export interface OpenOptions {
  readonly logger?: Logger;
  /** For the name of a file moved aside. */
  readonly now?: () => Date;
  /**
   * better-sqlite3's compiled addon (a .node file) when the default one does not fit this runtime.
   */
  readonly nativeBinding?: string;
  /**
   * 'at-open' (default): PRAGMA quick_check before the file is used. 'unless-closed-cleanly': only
   * when the last process to open the file did not close it (closeOfflineDatabase), e.g. a crash or
   * a kill; otherwise the caller runs checkOfflineDatabase later, off the start's critical path
   * (quick_check reads the whole file: 83 ms for the large seed, 665 ms for eight times as much).
   */
  readonly integrityCheck?: 'at-open' | 'unless-closed-cleanly';
}

/**
 * Opens (or creates) the offline database in the app's data directory.
 * - WAL: readers (views) never wait for the sync's writer (https://sqlite.org/wal.html).
 * - synchronous=FULL: in WAL mode NORMAL may lose the last transactions on power loss
 *   (https://sqlite.org/pragma.html#pragma_synchronous), and a queued change the student made
 *   offline exists nowhere else. Commits are few (one per sync run, one per change), so the extra
 *   fsync costs little.
 * - foreign_keys is off by default in SQLite and must be switched on per connection.
 * - A newer schema is refused with CoreError 'database-too-new' (the file is left untouched).
 * - A corrupt file ("file is not a database", or quick_check failing) is moved aside with a
 *   timestamp and rebuilt empty, keeping whatever outbox rows can still be read.
 */
export function openOfflineDatabase(file: string, options: OpenOptions = {}): OpenedDatabase {
  const logger = options.logger ?? silentLogger;
  const check = options.integrityCheck !== 'unless-closed-cleanly' || leftOpen(file);
  if (options.integrityCheck === 'unless-closed-cleanly') markOpen(file);
  try {
    return {
      db: openHealthy(file, options.nativeBinding, check) as WritableDB,
      recovered: false,
      movedTo: null,
      salvagedOutbox: 0,
    };
  } catch (error) {
    if (isCoreError(error, 'database-too-new') || !isCorruption(error) || file === ':memory:')
      throw error;
    logger.warn('offline database unreadable; moving it aside and rebuilding', {
      reason: String((error as Error).message),
    });
  }
  const salvaged = salvageOutbox(file, options.nativeBinding);
  const stamp = (options.now?.() ?? new Date()).toISOString().replace(/[:.]/g, '-');
  const movedTo = `${file}.corrupt-${stamp}`;
  try {
    renameSync(file, movedTo);
    for (const suffix of ['-wal', '-shm'])
      if (existsSync(file + suffix)) renameSync(file + suffix, movedTo + suffix);
  } catch (cause) {
    throw new CoreError(
      'storage-error',
      'The offline data is damaged and could not be moved aside.',
      undefined,
      { cause },
    );
  }
  const db = openHealthy(file, options.nativeBinding, true) as WritableDB;
  const restored = restoreOutboxRows(db, salvaged);
  logger.warn('offline database rebuilt', { movedTo, salvagedOutbox: restored });
  return { db, recovered: true, movedTo, salvagedOutbox: restored };
}

function openHealthy(file: string, nativeBinding: string | undefined, check: boolean): Db {
  const db = openFile(file, nativeBinding === undefined ? {} : { nativeBinding });
  try {
    db.pragma('busy_timeout = 5000');
    if (file !== ':memory:') db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > LATEST_VERSION) throw databaseTooNew(version);
    if (check) {
      const result = db.pragma('quick_check', { simple: true });
      if (result !== 'ok') throw new CorruptDatabaseError(`quick_check: ${String(result)}`);
    }
    migrate(db);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

// ------------------------------------------------------------------ the check after a clean exit

/**
 * Present while a process has the file open (integrityCheck 'unless-closed-cleanly'); removed by a
 * clean close.
 */
const openMarker = (file: string) => `${file}.unclosed`;

/**
 * Whether the file exists and its last process closed it (closeOfflineDatabase): nothing is left to
 * recover, and a reader may use it before a writer has opened it (when it is also at this version:
 * openReadConnection checks).
 */
export function closedCleanly(file: string): boolean {
  return file !== ':memory:' && existsSync(file) && !leftOpen(file);
}

function leftOpen(file: string): boolean {
  return file === ':memory:' || existsSync(openMarker(file));
}

function markOpen(file: string): void {
  if (file === ':memory:') return;
  try {
    writeFileSync(openMarker(file), `${process.pid}\n`);
  } catch {
    // Best effort: without the marker, a crash in this run is caught by the later check instead.
  }
}

/**
 * Closes the connection (SQLite checkpoints the WAL into the file) and records that it was closed
 * cleanly.
 */
export function closeOfflineDatabase(db: WritableDB): void {
  const file = db.name;
  db.close();
  if (file !== ':memory:') rmSync(openMarker(file), { force: true });
}

export interface CheckedDatabase {
  /**
   * The file was damaged: a copy was kept (`keptAt`) and the database was rebuilt empty in place.
   */
  readonly recovered: boolean;
  readonly keptAt: string | null;
  /** Outbox entries carried over from the damaged data. */
  readonly salvagedOutbox: number;
}

/**
 * PRAGMA quick_check of an open database (the check openOfflineDatabase leaves for later after a
 * clean exit: a file damaged while the app was away, by a disk or another program). A damaged
 * database is copied aside with a timestamp, emptied in place and migrated again, keeping whatever
 * outbox rows can still be read, exactly as at open; the next sync rebuilds it. In place, not
 * moved: the read connections of the other threads stay on this file and see the rebuilt database
 * at their next read (its schema changed, so their statements prepare again).
 */
export function checkOfflineDatabase(
  db: WritableDB,
  options: Pick<OpenOptions, 'logger' | 'now'> = {},
): CheckedDatabase {
  let result: unknown;
  try {
    result = db.pragma('quick_check', { simple: true });
  } catch (error) {
    if (!isCorruption(error)) throw error;
    result = (error as Error).message;
  }
  if (result === 'ok') return { recovered: false, keptAt: null, salvagedOutbox: 0 };
  const logger = options.logger ?? silentLogger;
  logger.warn('offline database damaged; keeping a copy and rebuilding it', {
    reason: String(result).slice(0, 200),
  });
  let salvaged: RawOutboxRow[] = [];
  try {
    salvaged = readOutboxRowsRaw(db);
  } catch {
    // Unreadable: lost, never fatal.
  }
  const file = db.name;
  let keptAt: string | null = null;
  if (file !== ':memory:') {
    try {
      db.pragma('wal_checkpoint(TRUNCATE)');
    } catch {
      // The WAL is copied as it is.
    }
    const stamp = (options.now?.() ?? new Date()).toISOString().replace(/[:.]/g, '-');
    keptAt = `${file}.corrupt-${stamp}`;
    try {
      copyFileSync(file, keptAt);
      if (existsSync(`${file}-wal`)) copyFileSync(`${file}-wal`, `${keptAt}-wal`);
    } catch (cause) {
      throw new CoreError(
        'storage-error',
        'The offline data is damaged and a copy of it could not be kept.',
        undefined,
        { cause },
      );
    }
  }
  emptyInPlace(db);
  migrate(db);
  const restored = restoreOutboxRows(db, salvaged);
  logger.warn('offline database rebuilt', { keptAt, salvagedOutbox: restored });
  return { recovered: true, keptAt, salvagedOutbox: restored };
}

/**
 * Empties the database without reading its damaged pages: the schema's rows are deleted
 * (writable_schema, which better-sqlite3's defensive mode refuses outside unsafe mode) and VACUUM
 * writes a fresh file holding nothing; it is what SQLITE_DBCONFIG_RESET_DATABASE does
 * (https://sqlite.org/c3ref/c_dbconfig_defensive.html). user_version goes back to 0 so the
 * migrations run from the first.
 */
function emptyInPlace(db: Db): void {
  db.unsafeMode(true);
  try {
    db.pragma('writable_schema = ON');
    db.exec('DELETE FROM sqlite_schema');
    db.pragma('writable_schema = OFF');
    db.exec('VACUUM');
    db.pragma('user_version = 0');
  } catch (cause) {
    throw new CoreError(
      'storage-error',
      'The offline data is damaged and could not be rebuilt. Restart the app.',
      undefined,
      { cause },
    );
  } finally {
    db.unsafeMode(false);
  }
}

/**
 * A read-only connection to a database the writer (worker) has opened: the screens' reads run on it
 * beside the writer's transactions (WAL: readers see the last commit, never half of one;
 * https://sqlite.org/wal.html).
 */
export function openReadConnection(
  file: string,
  options: Pick<OpenOptions, 'nativeBinding'> = {},
): ReadableDB {
  const db = openFile(file, {
    readonly: true,
    fileMustExist: true,
    ...(options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding }),
  });
  try {
    db.pragma('busy_timeout = 5000');
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version !== LATEST_VERSION)
      throw new CoreError(
        'storage-error',
        'The offline data is not ready to be read (its writer did not open it).',
      );
    return db as ReadableDB;
  } catch (error) {
    db.close();
    throw error;
  }
}

class CorruptDatabaseError extends Error {
  override readonly name = 'CorruptDatabaseError';
}

/**
 * `new Database`, with a failure to load SQLite itself (the addon missing, or built for another
 * runtime: Node's ABI is not Electron's) named as such rather than passed on as a bare loader
 * error.
 */
function openFile(file: string, options: Database.Options): Db {
  try {
    // Created (or tightened to) 0600 before SQLite opens it: its side files take the same mode
    // (fs/private-files.ts).
    if (options.readonly !== true) privateDatabaseFile(file);
    return new Database(file, options);
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    const message = error instanceof Error ? error.message : '';
    if (
      code === 'MODULE_NOT_FOUND' ||
      code === 'ERR_DLOPEN_FAILED' ||
      /NODE_MODULE_VERSION|did not self-register|invalid ELF|wrong ELF/.test(message)
    ) {
      throw new CoreError(
        'storage-error',
        'The offline data cannot be opened: this copy of the app is missing its SQLite engine, or has one built for another runtime. Reinstall the app.',
        undefined,
        { cause: error },
      );
    }
    throw error;
  }
}

function isCorruption(error: unknown): boolean {
  if (error instanceof CorruptDatabaseError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return (
    code === 'SQLITE_NOTADB' ||
    code === 'SQLITE_CORRUPT' ||
    (typeof code === 'string' && code.startsWith('SQLITE_CORRUPT'))
  );
}

/**
 * Best effort: reads the outbox of a damaged file read-only. Anything unreadable is lost, never
 * fatal.
 */
function salvageOutbox(file: string, nativeBinding: string | undefined): RawOutboxRow[] {
  let db: Db | null = null;
  try {
    db = new Database(file, {
      readonly: true,
      fileMustExist: true,
      ...(nativeBinding === undefined ? {} : { nativeBinding }),
    });
    return readOutboxRowsRaw(db);
  } catch {
    return [];
  } finally {
    db?.close();
  }
}
