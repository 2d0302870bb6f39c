import type { Database } from 'better-sqlite3';
import { CoreError } from '../errors';
import { LATEST_VERSION, MIGRATIONS, type Migration } from './migrations';
import { registerSearchFunctions } from './search/normalize';

/**
 * Runs every migration newer than PRAGMA user_version in ONE transaction, so a failure leaves the
 * database as it was (Signal ts/sql/migrations). A database written by a newer app is refused:
 * never downgrade silently.
 */
export function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): number {
  // Every connection that writes is migrated first: the functions its statements (and the
  // migrations) call.
  registerSearchFunctions(db);
  const current = db.pragma('user_version', { simple: true }) as number;
  const latest = migrations.length === 0 ? 0 : migrations[migrations.length - 1]!.version;
  if (current > latest) throw databaseTooNew(current, latest);
  const pending = migrations.filter((m) => m.version > current);
  if (pending.length === 0) return current;
  db.transaction(() => {
    for (const m of pending) db.exec(m.sql);
    // PRAGMA values cannot be bound; `latest` is an integer from our own list.
    db.pragma(`user_version = ${Math.trunc(latest)}`);
  })();
  return latest;
}

export function databaseTooNew(found: number, supported = LATEST_VERSION): CoreError {
  return new CoreError(
    'database-too-new',
    'The offline data was written by a newer version of Learning Desktop. Update the app to open it.',
    {
      found,
      supported,
    },
  );
}
