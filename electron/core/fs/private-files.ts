import { chmodSync, closeSync, openSync, statSync } from 'node:fs';
import { chmod, stat } from 'node:fs/promises';

/**
 * The data folder holds a student's payment codes, profile and tokens: on POSIX its files are 0600
 * in a 0700 folder, so another account on the computer reads none of it, whatever the umask or a
 * folder the student passed in. SQLite creates a database 0644 (less the umask) and gives its -wal,
 * -shm and -journal files the database file's mode (https://sqlite.org/src/doc/trunk/src/os_unix.c,
 * findCreateFileMode), so the database file is made 0600 before SQLite opens it.
 *
 * Windows has no POSIX modes (chmod only sets the read-only flag): the data folder's privacy there
 * is the ACL of the user's profile folder it lives in (%APPDATA%, which other users cannot read),
 * so these do nothing on Windows.
 */
const POSIX = process.platform !== 'win32';
const SQLITE_SIDE_FILES = ['-wal', '-shm', '-journal'] as const;

/**
 * Creates `file` empty with mode 0600, or tightens it (and its SQLite side files) to 0600 when it
 * exists.
 */
export function privateDatabaseFile(file: string): void {
  if (!POSIX || file === ':memory:' || file === '') return;
  // 'a': never truncates; the mode applies only when the file is created.
  closeSync(openSync(file, 'a', 0o600));
  for (const path of [file, ...SQLITE_SIDE_FILES.map((suffix) => file + suffix)]) {
    try {
      if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

/**
 * Tightens the data folder to 0700 when it lets others in (an existing folder, say 0755, passed
 * with --data-dir). False when that is not possible (a folder this account does not own): the
 * caller says so.
 */
export async function privateFolder(dir: string): Promise<boolean> {
  if (!POSIX) return true;
  const { mode } = await stat(dir);
  if ((mode & 0o077) === 0) return true;
  try {
    await chmod(dir, mode & 0o700);
    return true;
  } catch {
    return false;
  }
}
