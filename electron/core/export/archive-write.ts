/**
 * Writes an archive folder so a half-written one never looks complete: every file goes into a
 * hidden `.<name>.partial-<random>` folder beside the destination, each file flushed to disk, and
 * only then is that folder renamed to its name (rename(2) is atomic within a file system). A
 * process killed on the way leaves the hidden partial folder, never a folder with the archive's
 * name; the next archive written there removes it.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ArchiveFile } from './archive';

const PARTIAL = /^\..+\.partial-[0-9a-f]{16}$/;

/** Thrown when the archive's signal is aborted: its partial folder is gone by then. */
export class ArchiveCancelled extends Error {
  constructor() {
    super('The archive was cancelled.');
    this.name = 'ArchiveCancelled';
  }
}

/** Partial folders left by an archive that never finished (the app was killed while writing it). */
export async function removePartialArchives(parent: string): Promise<number> {
  let removed = 0;
  for (const name of existsSync(parent) ? await readdir(parent) : [])
    if (PARTIAL.test(name)) {
      await rm(join(parent, name), { recursive: true, force: true });
      removed++;
    }
  return removed;
}

async function writeFlushed(file: string, body: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const handle = await open(file, 'wx', 0o600);
  try {
    await handle.writeFile(body, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** A name not taken in `parent`: `name`, else `name-2`, `name-3`... */
function freeName(parent: string, name: string): string {
  let candidate = name;
  for (let i = 2; existsSync(join(parent, candidate)); i++) candidate = `${name}-${i}`;
  return candidate;
}

/**
 * Writes `files` as the folder `parent/name` (or `name-2`... when taken), reporting each file
 * written. Returns the folder's path. Every path is relative and made of safe names (archive.ts);
 * anything leaving the folder is refused. An aborted `signal` stops it between two files or before
 * the rename, and the partial folder is removed: a cancel leaves no half archive.
 */
export async function writeArchiveFolder(
  parent: string,
  name: string,
  files: readonly ArchiveFile[],
  onFile?: (written: number, total: number) => void,
  signal?: AbortSignal,
): Promise<string> {
  await mkdir(parent, { recursive: true });
  await removePartialArchives(parent);
  const temp = join(parent, `.${name}.partial-${randomBytes(8).toString('hex')}`);
  await mkdir(temp, { mode: 0o700 });
  try {
    let written = 0;
    for (const f of files) {
      if (signal?.aborted) throw new ArchiveCancelled();
      if (f.path.split('/').some((part) => part === '' || part === '.' || part === '..'))
        throw new Error(`archive path ${JSON.stringify(f.path)} leaves its folder`);
      await writeFlushed(join(temp, ...f.path.split('/')), f.body);
      onFile?.(++written, files.length);
    }
    if (signal?.aborted) throw new ArchiveCancelled();
    const final = join(parent, freeName(parent, name));
    await rename(temp, final);
    return final;
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    throw error;
  }
}
