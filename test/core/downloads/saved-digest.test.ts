import {
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DownloadManager } from '../../../electron/core/downloads/manager';
import {
  managerFor,
  pdfLike,
  product,
  SITE,
  startFileServer,
  type FileServer,
} from '../helpers/file-server';

/**
 * A saved file is opened only if it is still the file that arrived: its SHA-256, taken as it was
 * downloaded, is compared again at every open. A file altered in place (same size, same
 * modification time) is found, no longer shown as saved, and can be saved again.
 */
let dir: string;
let server: FileServer;
let manager: DownloadManager | null = null;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ld-saved-digest-'));
  server = await startFileServer();
});
afterEach(async () => {
  await manager?.close();
  manager = null;
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

function savedFile(): string {
  const root = join(dir, 'downloads');
  const found: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }))
      (e.isDirectory() ? walk : (p: string) => found.push(p))(join(d, e.name));
  };
  for (const e of readdirSync(root, { withFileTypes: true }))
    if (e.isDirectory() && e.name.startsWith('s-')) walk(join(root, e.name));
  expect(found).toHaveLength(1);
  return found[0]!;
}

describe('opening a saved file checks its SHA-256', () => {
  it('opens an intact file; a file altered in place (same size and time) is refused and offered again', async () => {
    const body = pdfLike(200_000);
    server.files.set('/f/workbook.pdf', { body });
    const made = await managerFor(dir, server.origin, () => [
      product('p1', `${server.origin}/f/workbook.pdf`),
    ]);
    manager = made.manager;
    await manager.save(SITE, 'p1');
    await manager.idle();
    await expect(manager.locate(SITE, 'p1')).resolves.toMatchObject({ viewAs: 'pdf' });

    // One byte changed in the middle: the size and the modification time stay as they were.
    const file = savedFile();
    const { atime, mtime } = statSync(file);
    const altered = Buffer.from(readFileSync(file));
    altered[100_000] = altered[100_000]! ^ 0xff;
    writeFileSync(file, altered);
    utimesSync(file, atime, mtime);
    expect(statSync(file).size).toBe(body.length);

    await expect(manager.locate(SITE, 'p1')).rejects.toMatchObject({
      code: 'not-found',
      detail: { reason: 'missing' },
    });
    expect(manager.list(SITE)).toEqual([]);
    expect(made.events.at(-1)).toMatchObject({ productId: 'p1', saved: null, job: null });

    // Saved again, it is the site's file once more.
    await manager.save(SITE, 'p1');
    await manager.idle();
    expect(manager.list(SITE)[0]?.saved?.size).toBe(body.length);
    await expect(manager.locate(SITE, 'p1')).resolves.toMatchObject({ viewAs: 'pdf' });
    expect(readFileSync(savedFile()).equals(body)).toBe(true);
  });
});
