import { existsSync, renameSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { Database as Db } from 'better-sqlite3';
import { CoreError, isCoreError } from '../errors';
import { silentLogger, type Logger } from './logger';
import { databaseTooNew, migrate } from './migrate';
import { LATEST_VERSION } from './migrations';
import { readOutboxRowsRaw, restoreOutboxRows, type RawOutboxRow } from './outbox';

export interface OpenedDatabase {
  readonly db: Db;
  /** The file was unreadable and was moved aside; the database is new and the next sync rebuilds it. */
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
  /** better-sqlite3's compiled addon (a .node file) when the default one does not fit this runtime. */
  readonly nativeBinding?: string;
}

/**
 * Opens (or creates) the offline database in the app's data directory.
 * - WAL: readers (views) never wait for the sync's writer (https://sqlite.org/wal.html).
 * - synchronous=FULL: in WAL mode NORMAL may lose the last transactions on power loss
 *   (https://sqlite.org/pragma.html#pragma_synchronous), and a queued change the student made offline exists
 *   nowhere else. Commits are few (one per sync run, one per change), so the extra fsync costs little.
 * - foreign_keys is off by default in SQLite and must be switched on per connection.
 * - A newer schema is refused with CoreError 'database-too-new' (the file is left untouched).
 * - A corrupt file ("file is not a database", or quick_check failing) is moved aside with a timestamp and rebuilt
 *   empty, keeping whatever outbox rows can still be read.
 */
export function openOfflineDatabase(file: string, options: OpenOptions = {}): OpenedDatabase {
  const logger = options.logger ?? silentLogger;
  try {
    return { db: openHealthy(file, options.nativeBinding), recovered: false, movedTo: null, salvagedOutbox: 0 };
  } catch (error) {
    if (isCoreError(error, 'database-too-new') || !isCorruption(error) || file === ':memory:') throw error;
    logger.warn('offline database unreadable; moving it aside and rebuilding', { reason: String((error as Error).message) });
  }
  const salvaged = salvageOutbox(file, options.nativeBinding);
  const stamp = (options.now?.() ?? new Date()).toISOString().replace(/[:.]/g, '-');
  const movedTo = `${file}.corrupt-${stamp}`;
  try {
    renameSync(file, movedTo);
    for (const suffix of ['-wal', '-shm']) if (existsSync(file + suffix)) renameSync(file + suffix, movedTo + suffix);
  } catch (cause) {
    throw new CoreError('storage-error', 'The offline data is damaged and could not be moved aside.', undefined, { cause });
  }
  const db = openHealthy(file, options.nativeBinding);
  const restored = restoreOutboxRows(db, salvaged);
  logger.warn('offline database rebuilt', { movedTo, salvagedOutbox: restored });
  return { db, recovered: true, movedTo, salvagedOutbox: restored };
}

function openHealthy(file: string, nativeBinding: string | undefined): Db {
  const db = openFile(file, nativeBinding === undefined ? {} : { nativeBinding });
  try {
    db.pragma('busy_timeout = 5000');
    if (file !== ':memory:') db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > LATEST_VERSION) throw databaseTooNew(version);
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new CorruptDatabaseError(`quick_check: ${String(check)}`);
    migrate(db);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * A read-only connection to a database the writer (worker) has opened: the screens' reads run on it beside the
 * writer's transactions (WAL: readers see the last commit, never half of one; https://sqlite.org/wal.html).
 */
export function openReadConnection(file: string, options: Pick<OpenOptions, 'nativeBinding'> = {}): Db {
  const db = openFile(file, { readonly: true, fileMustExist: true, ...(options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding }) });
  try {
    db.pragma('busy_timeout = 5000');
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version !== LATEST_VERSION) throw new CoreError('storage-error', 'The offline data is not ready to be read (its writer did not open it).');
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

class CorruptDatabaseError extends Error {
  override readonly name = 'CorruptDatabaseError';
}

/**
 * `new Database`, with a failure to load SQLite itself (the addon missing, or built for another runtime: Node's
 * ABI is not Electron's) named as such rather than passed on as a bare loader error.
 */
function openFile(file: string, options: Database.Options): Db {
  try {
    return new Database(file, options);
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    const message = error instanceof Error ? error.message : '';
    if (code === 'MODULE_NOT_FOUND' || code === 'ERR_DLOPEN_FAILED' || /NODE_MODULE_VERSION|did not self-register|invalid ELF|wrong ELF/.test(message)) {
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
  return code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT' || (typeof code === 'string' && code.startsWith('SQLITE_CORRUPT'));
}

/** Best effort: reads the outbox of a damaged file read-only. Anything unreadable is lost, never fatal. */
function salvageOutbox(file: string, nativeBinding: string | undefined): RawOutboxRow[] {
  let db: Db | null = null;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true, ...(nativeBinding === undefined ? {} : { nativeBinding }) });
    return readOutboxRowsRaw(db);
  } catch {
    return [];
  } finally {
    db?.close();
  }
}
