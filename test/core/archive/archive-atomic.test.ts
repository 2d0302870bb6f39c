import { fork } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeArchiveFolder } from '../../../electron/core/export/archive-write';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/**
 * An archive killed while it is written (kill -9: no handler runs) leaves nothing that looks like
 * an archive: only the hidden partial folder, removed by the next archive written there.
 */
describe('an archive is written atomically', () => {
  it('a child killed mid-write leaves no complete-looking archive', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'ld-archive-kill-'));
    dirs.push(parent);
    const child = fork(join(import.meta.dirname, 'archive-child.ts'), [parent], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const first = await new Promise<string>((resolve, reject) => {
      child.once('message', (m) => resolve(String(m)));
      child.once('exit', (code) => reject(new Error(`child exited early with ${code}`)));
    });
    expect(first).toBe('half');
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;

    const left = readdirSync(parent);
    expect(left.filter((n) => !n.startsWith('.'))).toEqual([]);
    expect(left).toHaveLength(1);
    expect(left[0]).toMatch(/^\.school-archive\.partial-[0-9a-f]{16}$/);
    // The partial folder has some files but never the archive's name or its index page at the top.
    expect(readdirSync(join(parent, left[0]!))).not.toContain('index.html');

    const done = await writeArchiveFolder(parent, 'school-archive', [
      { path: 'index.html', body: '<!doctype html>' },
    ]);
    expect(readdirSync(parent)).toEqual(['school-archive']);
    expect(readdirSync(done)).toEqual(['index.html']);
  }, 60_000);

  it('refuses a path that would leave its folder, and leaves nothing behind', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'ld-archive-path-'));
    dirs.push(parent);
    await expect(
      writeArchiveFolder(parent, 'a', [{ path: '../escape.html', body: 'x' }]),
    ).rejects.toThrow(/leaves its folder/);
    expect(readdirSync(parent)).toEqual([]);
    // A second archive of the same name the same day gets its own folder.
    await writeArchiveFolder(parent, 'a', [{ path: 'index.html', body: '1' }]);
    await writeArchiveFolder(parent, 'a', [{ path: 'index.html', body: '2' }]);
    expect(readdirSync(parent).sort()).toEqual(['a', 'a-2']);
  });
});
