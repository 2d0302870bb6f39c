/**
 * One process per data directory. Two copies of the app on one data dir each refresh the same
 * tokens (the second refresh presents a rotated refresh token and the site ends the pair) and write
 * the same vault and database: they ended signed out in 4 of 80 trials. The Electron host also has
 * `app.requestSingleInstanceLock()`; this lock covers the browser host and anything else that opens
 * the core.
 *
 * The lock is a small file in the data dir naming its owner (PID, host, start time), created
 * atomically and exclusively (link(2) of a complete temp file: it never exists half written). A
 * lock whose owner is no longer alive (a crash, kill -9, power loss) is stale and taken over, so a
 * crashed owner never leaves the folder stuck. A PID alone is not enough after a restart of the
 * computer, where another process may have been given the dead owner's number: the lock also names
 * the boot it was taken in, and a lock from another boot is stale whatever its PID. Taking over is
 * itself exclusive (a `.steal` file created with O_EXCL), so two processes that both find the same
 * stale lock cannot both win.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, open, readFile, rm, stat } from 'node:fs/promises';
import { uptime } from 'node:os';
import { join } from 'node:path';
import { CoreError } from './errors';
import { createFileAtomic } from './fs/atomic-file';
import { privateFolder } from './fs/private-files';

export const LOCK_FILE_NAME = 'app.lock';

export interface LockOwner {
  readonly pid: number;
  /** Which host took it ('electron', 'browser', a test or tool name). */
  readonly host: string;
  /** ISO time the owner took the lock. */
  readonly since: string;
  /** Random per acquisition: tells a lock taken over from the one that was read. */
  readonly nonce: string;
  /** The boot the owner ran in (absent in locks written before it was recorded). */
  readonly boot?: BootIdentity;
}

/**
 * Which boot of the computer this is: Linux's own boot id (/proc/sys/kernel/random/boot_id, new at
 * every boot), elsewhere the boot time in ms (now minus uptime), which may drift a little with
 * clock corrections.
 */
export type BootIdentity = { readonly id: string } | { readonly at: number };

/**
 * A boot time read now and at the lock's start may differ by clock corrections; a restart takes
 * longer.
 */
const BOOT_TIME_TOLERANCE_MS = 5 * 60_000;

export function currentBoot(): BootIdentity {
  try {
    const id = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    if (/^[0-9a-f-]{36}$/.test(id)) return { id };
  } catch {
    // Not Linux, or no /proc: the boot time instead.
  }
  return { at: Date.now() - Math.round(uptime() * 1000) };
}

/** False only when both boots are known and differ. */
function sameBoot(a: BootIdentity | undefined, b: BootIdentity): boolean {
  if (a === undefined) return true;
  if ('id' in a && 'id' in b) return a.id === b.id;
  if ('at' in a && 'at' in b) return Math.abs(a.at - b.at) <= BOOT_TIME_TOLERANCE_MS;
  return true;
}

function parseBoot(v: unknown): BootIdentity | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const b = v as { id?: unknown; at?: unknown };
  if (typeof b.id === 'string' && b.id.length <= 64) return { id: b.id };
  if (typeof b.at === 'number' && Number.isFinite(b.at)) return { at: b.at };
  return undefined;
}

export interface DataDirLock {
  readonly file: string;
  readonly owner: LockOwner;
  /** Removes the lock file if it is still ours. Safe to call more than once. */
  release(): Promise<void>;
}

/** The data dir is in use by another live process; the message is the one line a host prints. */
export class DataDirInUseError extends CoreError {
  constructor(
    readonly dataDir: string,
    readonly holder: LockOwner,
  ) {
    super(
      'storage-error',
      `The data folder ${dataDir} is in use by another Learning Desktop process (PID ${holder.pid}, ${holder.host}, since ${holder.since}). Close that one first, or use another data folder.`,
      { pid: holder.pid },
    );
  }
}

export interface AcquireOptions {
  readonly host?: string;
  /**
   * Whether a PID is a live process (tests replace it). Default: signal 0 (EPERM = alive, owned by
   * another user).
   */
  readonly isAlive?: (pid: number) => boolean;
  /**
   * A `.steal` file older than this belongs to a process that died while taking over (default 10
   * s).
   */
  readonly stealTimeoutMs?: number;
  /** This boot of the computer (tests replace it). Default: currentBoot(). */
  readonly boot?: BootIdentity;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parseOwner(text: string): LockOwner | null {
  try {
    const v = JSON.parse(text) as Partial<LockOwner>;
    if (
      typeof v.pid !== 'number' ||
      !Number.isInteger(v.pid) ||
      v.pid <= 0 ||
      typeof v.nonce !== 'string'
    )
      return null;
    const boot = parseBoot(v.boot);
    return {
      pid: v.pid,
      host: typeof v.host === 'string' ? v.host : 'unknown',
      since: typeof v.since === 'string' ? v.since : 'unknown',
      nonce: v.nonce,
      ...(boot === undefined ? {} : { boot }),
    };
  } catch {
    return null;
  }
}

async function readOwner(file: string): Promise<LockOwner | null | 'missing'> {
  try {
    return parseOwner(await readFile(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw new CoreError(
      'storage-error',
      `The data folder's lock file could not be read.`,
      undefined,
      { cause: error },
    );
  }
}

/**
 * Takes the data directory's lock or throws DataDirInUseError naming the live process that holds
 * it. A lock left by a dead process (or an unreadable one: only this module writes it, always
 * whole) is taken over.
 */
export async function acquireDataDirLock(
  dataDir: string,
  options: AcquireOptions = {},
): Promise<DataDirLock> {
  const isAlive = options.isAlive ?? processAlive;
  const file = join(dataDir, LOCK_FILE_NAME);
  const stealFile = `${file}.steal`;
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  // A folder that already existed keeps its mode: one that lets others in is made private first
  // (fs/private-files.ts).
  if (!(await privateFolder(dataDir)))
    throw new CoreError(
      'storage-error',
      `The data folder ${dataDir} is open to other accounts and cannot be made private: use a folder of your own.`,
    );
  const boot = options.boot ?? currentBoot();
  const owner: LockOwner = {
    pid: process.pid,
    host: options.host ?? 'core',
    since: new Date().toISOString(),
    nonce: randomBytes(9).toString('base64url'),
    boot,
  };

  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      await createFileAtomic(file, `${JSON.stringify(owner)}\n`, 0o600);
      return held(file, owner);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new CoreError(
          'storage-error',
          `The data folder ${dataDir} could not be locked for this process.`,
          undefined,
          { cause: error },
        );
      }
    }
    const current = await readOwner(file);
    if (current === 'missing') continue; // released meanwhile: try again
    // A live PID counts only in the boot that wrote the lock: after a restart the number may be
    // another process's.
    if (current !== null && sameBoot(current.boot, boot) && isAlive(current.pid))
      throw new DataDirInUseError(dataDir, current);
    // Stale. Take it over under the steal file, after checking it is still the same stale lock.
    if (!(await takeStealFile(stealFile, options.stealTimeoutMs ?? 10_000))) {
      await new Promise((r) => setTimeout(r, 20 + Math.random() * 30));
      continue;
    }
    try {
      const again = await readOwner(file);
      const same =
        again !== 'missing' &&
        (again === null ? current === null : current !== null && again.nonce === current.nonce);
      if (same) await rm(file, { force: true });
    } finally {
      await rm(stealFile, { force: true });
    }
  }
  throw new CoreError(
    'storage-error',
    `The data folder ${dataDir} could not be locked for this process (it kept changing hands).`,
  );
}

async function takeStealFile(stealFile: string, timeoutMs: number): Promise<boolean> {
  try {
    const handle = await open(stealFile, 'wx', 0o600);
    await handle.close();
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  // A process that died while taking over leaves the steal file: old enough, it is removed and
  // retried later.
  try {
    const info = await stat(stealFile);
    if (Date.now() - info.mtimeMs > timeoutMs) await rm(stealFile, { force: true });
  } catch {
    // Gone meanwhile.
  }
  return false;
}

function held(file: string, owner: LockOwner): DataDirLock {
  let released: Promise<void> | null = null;
  return {
    file,
    owner,
    release() {
      released ??= (async () => {
        const current = await readOwner(file).catch(() => null);
        if (current !== null && current !== 'missing' && current.nonce === owner.nonce)
          await rm(file, { force: true });
      })();
      return released;
    },
  };
}
