/**
 * The offline database, opened read-only (db/open.ts openReadConnection: readonly, fileMustExist,
 * the schema version checked). A reader of a WAL database needs no lock and never blocks the app's
 * writer (https://sqlite.org/wal.html "Concurrency"), so it works while the app runs and holds the
 * data folder's lock, and while it is closed. Opened at the first call that reads, and again when
 * the file was replaced (the app rebuilds a damaged file under the same name).
 */
import type { ReadableDB } from '../db/index';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { openReadConnection } from '../db/index';
import { ToolRefusal } from './context';

export const OFFLINE_DB_NAME = 'offline.db';

export interface OfflineCopyDeps {
  readonly dataDir: string;
  readonly nativeBinding?: string;
}

export class OfflineCopy {
  readonly #file: string;
  readonly #nativeBinding: string | undefined;
  #db: ReadableDB | null = null;
  #ino = -1;

  constructor(deps: OfflineCopyDeps) {
    this.#file = join(deps.dataDir, OFFLINE_DB_NAME);
    this.#nativeBinding = deps.nativeBinding;
  }

  /** The connection, or a refusal that says what the student can do. */
  db(): ReadableDB {
    let ino: number;
    try {
      ino = statSync(this.#file).ino;
    } catch {
      this.close();
      throw new ToolRefusal(
        'Learning Desktop has no offline copy here yet. Open the app, sign in to a school and sync once.',
        'error',
      );
    }
    if (this.#db && ino === this.#ino) return this.#db;
    this.close();
    try {
      this.#db = openReadConnection(
        this.#file,
        this.#nativeBinding === undefined ? {} : { nativeBinding: this.#nativeBinding },
      );
      this.#ino = ino;
    } catch {
      throw new ToolRefusal(
        'The offline copy cannot be read by this version. Open Learning Desktop once, then try again.',
        'error',
      );
    }
    return this.#db;
  }

  close(): void {
    this.#db?.close();
    this.#db = null;
    this.#ino = -1;
  }
}
