import { fork, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  acquireDataDirLock,
  DataDirInUseError,
  LOCK_FILE_NAME,
} from '../../electron/core/data-dir-lock';
import { createTestCore } from '../helpers/test-core';

const CHILD = fileURLToPath(new URL('./helpers/lock-child.ts', import.meta.url));
const CLI = fileURLToPath(new URL('../../electron/browser-host/cli.ts', import.meta.url));

type ChildMessage =
  | { type: 'locked'; pid: number }
  | { type: 'refused'; pid: number; holder: number; message: string };

const children: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(() => {
  // Each child by its own PID (fork runs the script in the Node process itself, no wrapper).
  for (const c of children.splice(0))
    if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ld-lock-'));
  dirs.push(dir);
  return join(dir, 'data');
}

function start(
  dataDir: string,
  how: 'lock' | 'core' = 'lock',
): { child: ChildProcess; first: Promise<ChildMessage> } {
  const child = fork(CHILD, [dataDir, how], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const first = new Promise<ChildMessage>((resolve, reject) => {
    child.once('message', (m) => resolve(m as ChildMessage));
    child.once('exit', (code) =>
      reject(new Error(`lock child exited (${code}) before reporting: ${stderr.slice(0, 500)}`)),
    );
  });
  return { child, first };
}

function killed(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/** The PID of a process that has just exited (nothing runs under it any more). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  const pid = child.pid!;
  await new Promise((r) => child.once('exit', r));
  return pid;
}

describe('one process per data directory', () => {
  it('a second process is refused with one line naming the PID that holds the folder', async () => {
    const dataDir = tempDataDir();
    const owner = await start(dataDir).first;
    expect(owner.type).toBe('locked');
    const error = await acquireDataDirLock(dataDir).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DataDirInUseError);
    const refused = error as DataDirInUseError;
    expect(refused.holder.pid).toBe(owner.pid);
    expect(refused.message).toContain(`PID ${owner.pid}`);
    expect(refused.message).toContain(dataDir);
    expect(refused.message).not.toContain('\n');
    // Another process sees the same.
    const second = await start(dataDir).first;
    expect(second).toMatchObject({ type: 'refused', holder: owner.pid });
  });

  it('a lock left by an owner killed with SIGKILL is taken over (stale PID), and released on close', async () => {
    const dataDir = tempDataDir();
    const { child, first } = start(dataDir);
    const owner = await first;
    expect(owner.type).toBe('locked');
    await killed(child);
    const lockFile = join(dataDir, LOCK_FILE_NAME);
    expect(JSON.parse(readFileSync(lockFile, 'utf8')).pid).toBe(owner.pid);
    const lock = await acquireDataDirLock(dataDir, { host: 'test' });
    expect(JSON.parse(readFileSync(lockFile, 'utf8'))).toMatchObject({
      pid: process.pid,
      host: 'test',
    });
    await lock.release();
    expect(existsSync(lockFile)).toBe(false);
  });

  it('after a restart of the computer, a lock whose PID now belongs to another live process is stale', async () => {
    const dataDir = tempDataDir();
    mkdirSync(dataDir, { recursive: true });
    const lockFile = join(dataDir, LOCK_FILE_NAME);
    // Written in an earlier boot by a process whose number this boot gave to a live one (here: this
    // test's parent).
    const earlier = {
      pid: process.ppid,
      host: 'electron',
      since: '2026-01-01T00:00:00.000Z',
      nonce: 'earlier-boot',
      boot: { id: '00000000-0000-4000-8000-000000000000' },
    };
    writeFileSync(lockFile, JSON.stringify(earlier));
    const lock = await acquireDataDirLock(dataDir, {
      host: 'test',
      boot: { id: '11111111-1111-4111-8111-111111111111' },
    });
    expect(JSON.parse(readFileSync(lockFile, 'utf8'))).toMatchObject({
      pid: process.pid,
      boot: { id: '11111111-1111-4111-8111-111111111111' },
    });
    await lock.release();
    // The same boot (or a lock that names none, as older versions wrote): the live PID still holds
    // the folder.
    for (const boot of [earlier.boot, undefined]) {
      writeFileSync(lockFile, JSON.stringify({ ...earlier, boot }));
      await expect(acquireDataDirLock(dataDir, { boot: earlier.boot })).rejects.toBeInstanceOf(
        DataDirInUseError,
      );
    }
    // Boot times (macOS, Windows) agree within minutes of clock drift and differ by a restart.
    writeFileSync(lockFile, JSON.stringify({ ...earlier, boot: { at: 1_000_000 } }));
    await expect(
      acquireDataDirLock(dataDir, { boot: { at: 1_000_000 + 60_000 } }),
    ).rejects.toBeInstanceOf(DataDirInUseError);
    const later = await acquireDataDirLock(dataDir, { boot: { at: 1_000_000 + 3_600_000 } });
    await later.release();
  });

  it('two processes racing for a stale lock: exactly one wins, the other names the winner (3 rounds; more in npm run soak)', async () => {
    for (let round = 0; round < 3; round++) {
      const dataDir = tempDataDir();
      mkdirSync(dataDir, { recursive: true });
      writeFileSync(
        join(dataDir, LOCK_FILE_NAME),
        JSON.stringify({
          pid: await deadPid(),
          host: 'crashed',
          since: 'earlier',
          nonce: `stale${round}`,
        }),
      );
      const [a, b] = await Promise.all([start(dataDir).first, start(dataDir).first]);
      const winners = [a, b].filter((m) => m.type === 'locked');
      expect(winners).toHaveLength(1);
      const loser = [a, b].find((m) => m.type === 'refused');
      expect(loser).toMatchObject({ holder: winners[0]!.pid });
      for (const c of children.splice(0)) await killed(c);
    }
  }, 120_000);

  it('the core takes the lock: a second core on the folder is refused until the first closes', async () => {
    const dataDir = tempDataDir();
    const open = () =>
      createTestCore({
        dataDir,
        version: '0.0.0-lock',
        openExternal: async () => undefined,
      });
    const core = await open();
    await expect(open()).rejects.toBeInstanceOf(DataDirInUseError);
    // In another process too.
    expect(await start(dataDir, 'core').first).toMatchObject({
      type: 'refused',
      holder: process.pid,
    });
    await core.close();
    const again = await open();
    await again.close();
  });

  it('the browser host CLI on a folder in use exits with one line naming the holder', async () => {
    const dataDir = tempDataDir();
    const owner = await start(dataDir, 'core').first;
    expect(owner.type).toBe('locked');
    const cli = spawn(
      process.execPath,
      ['--import', 'tsx', CLI, '--no-open', '--port', '0', '--data-dir', dataDir],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    children.push(cli);
    let stdout = '';
    let stderr = '';
    cli.stdout!.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    cli.stderr!.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => cli.once('exit', (c) => resolve(c)));
    expect(code).toBe(3);
    expect(stdout).toBe('');
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`PID ${owner.pid}`);
    expect(lines[0]).toContain(dataDir);
  }, 60_000);
});
