import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureBuiltApp } from '../helpers/built-app';
import { installStandIn, type Recorded } from '../helpers/electron-stand-in';

/**
 * A second launch of the installed app (an invite link clicked while the app runs): the built main
 * bundle under the stand-in `electron`, whose single-instance lock is already held. It must ask for
 * the lock before it reads the rest of the app, and quit without loading SQLite, the core or the
 * window.
 */
const buildError = ensureBuiltApp();
const work = mkdtempSync(join(tmpdir(), 'ld-second-instance-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function launch(second: boolean): Recorded[] {
  const dir = mkdtempSync(join(work, second ? 'second-' : 'first-'));
  const args = installStandIn(dir);
  // The driver waits for the app to quit (the second launch) or to have its window (the first),
  // then says what it saw.
  writeFileSync(
    join(dir, 'driver.mjs'),
    `await import(${JSON.stringify(pathToFileURL(resolve('out/main/index.js')).href)});
const { BrowserWindow } = await import('electron');
for (let i = 0; i < 400 && !globalThis.__quit && BrowserWindow.getAllWindows().length === 0; i++) await new Promise((r) => setTimeout(r, 25));
process.stdout.write(JSON.stringify({ kind: 'ended', data: { quit: globalThis.__quit === true, windows: BrowserWindow.getAllWindows().length, handlers: globalThis.__ipc.size } }) + '\\n');
process.exit(0);`,
  );
  const run = spawnSync(process.execPath, [...args, join(dir, 'driver.mjs')], {
    env: {
      ...process.env,
      FAKE_USER_DATA: join(dir, 'userData'),
      ...(second ? { FAKE_SECOND_INSTANCE: '1' } : {}),
    },
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (run.status !== 0) throw new Error(run.stderr.slice(0, 2000));
  return run.stdout
    .split('\n')
    .filter((l) => l.startsWith('{"kind"'))
    .map((l) => JSON.parse(l) as Recorded);
}

describe('a second launch of the built main bundle', () => {
  it('was built', () => expect(buildError).toBeNull());

  it('asks for the single-instance lock before SQLite is loaded, and quits without opening anything', () => {
    const lines = launch(true);
    const of = (kind: string) => lines.filter((l) => l.kind === kind).map((l) => l.data);
    expect(of('single-instance-lock')).toEqual([{ got: false, sqliteLoaded: false }]);
    expect(of('quit')).toEqual([true]);
    expect(of('ended')).toEqual([{ quit: true, windows: 0, handlers: 0 }]);
    expect(of('protocol-handle')).toEqual([]);
  });

  it('the first launch takes the lock the same way and goes on to open its window', () => {
    const lines = launch(false);
    const of = (kind: string) => lines.filter((l) => l.kind === kind).map((l) => l.data);
    expect(of('single-instance-lock')).toEqual([{ got: true, sqliteLoaded: false }]);
    expect(of('ended')).toEqual([expect.objectContaining({ quit: false, windows: 1 })]);
  });
});
