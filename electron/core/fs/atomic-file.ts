/**
 * Crash-safe file replacement: write a temp file in the same directory, fsync it, rename it over
 * the target, then fsync the directory so the rename itself is durable (rename(2) is atomic within
 * one file system). A reader therefore sees either the old content or the new one, never half a
 * file.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { link, mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';

/** Temp files this process is writing right now (a cleanup never removes one of those). */
const inFlight = new Set<string>();

const TEMP_NAME = /^\..+\.[0-9a-f]{12}\.tmp$/;

/**
 * Writes `data` to a new fsynced temp file beside `file` and hands its path to `place`; the temp
 * never stays.
 */
async function viaTempFile(
  file: string,
  data: Uint8Array | string,
  mode: number,
  place: (tmp: string) => Promise<void>,
): Promise<void> {
  const dir = dirname(file);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const tmp = join(dir, `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  inFlight.add(tmp);
  try {
    const handle = await open(tmp, 'wx', mode);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await place(tmp);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  } finally {
    inFlight.delete(tmp);
  }
  await fsyncDir(dir);
}

export async function writeFileAtomic(
  file: string,
  data: Uint8Array | string,
  mode = 0o600,
): Promise<void> {
  await viaTempFile(file, data, mode, (tmp) => rename(tmp, file));
}

/**
 * Creates `file` with `data` only if it does not exist yet, atomically: the complete, fsynced
 * content appears under the name at once (link(2) fails with EEXIST instead of replacing), so a
 * crash can never leave it empty or half written, and two processes never overwrite each other's
 * file.
 */
export async function createFileAtomic(
  file: string,
  data: Uint8Array | string,
  mode = 0o600,
): Promise<void> {
  await viaTempFile(file, data, mode, async (tmp) => {
    await link(tmp, file);
    await rm(tmp, { force: true });
  });
}

/**
 * Removes the temp files an earlier process left in `dir` when it died between writing and renaming
 * (each one a full copy of a record). Called when a store opens; temp files this process is writing
 * are kept, and the data-directory lock keeps other processes out. Returns how many were removed.
 */
export function removeStaleTempFiles(dir: string): number {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const path = join(dir, name);
    if (!TEMP_NAME.test(name) || inFlight.has(path)) continue;
    try {
      rmSync(path, { force: true });
      removed++;
    } catch {
      // Not ours to remove (permissions): it is retried at the next open.
    }
  }
  return removed;
}

async function fsyncDir(dir: string): Promise<void> {
  if (process.platform === 'win32') return; // directories cannot be opened for fsync on Windows
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } catch {
    // Some file systems refuse fsync on a directory; the rename is still atomic.
  } finally {
    await handle.close();
  }
}
