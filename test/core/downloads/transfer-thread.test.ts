import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { managerFor, product, SITE } from '../helpers/file-server';
import { TransferThread } from '../../../electron/core/downloads/transfer-thread';
import { silentLogger } from '../../../electron/core/log';

const SIZE = 32 * 1024 * 1024;
/** Sent 256 KiB every 10 ms (at most ~25 MiB/s): the download lasts more than a second. */
const THROTTLE = 256 * 1024;

/**
 * The transfers run on their own thread: the main thread, which carries every IPC call, never reads
 * their sockets, hashes their chunks or writes their files. Shown by stopping the main thread cold
 * (a synchronous wait) in the middle of a download: the partial file keeps growing meanwhile. The
 * file server runs in its own process, so stopping this thread does not stop it.
 */
describe('download transfers off the main thread', () => {
  let child: ChildProcess;
  let origin: string;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ld-transfer-thread-'));
    child = fork(
      fileURLToPath(new URL('../../bench/file-server-child.ts', import.meta.url)),
      [String(SIZE), String(THROTTLE)],
      {
        execArgv: ['--import', 'tsx'],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      },
    );
    origin = await new Promise<string>((resolve, reject) => {
      child.once('message', (m) => resolve((m as { origin: string }).origin));
      child.once('exit', () => reject(new Error('the file server child exited')));
    });
  }, 60_000);
  afterAll(() => {
    child?.disconnect();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the partial file grows while the main thread is blocked, and the file is saved whole', async () => {
    const { manager, events } = await managerFor(dir, origin, () => [
      product('a', `${origin}/a.pdf`),
    ]);
    try {
      await manager.save(SITE, 'a');
      const partial = join(dir, 'downloads', '.partial');
      const partSize = () => {
        const [name] = readdirSync(partial);
        return name ? statSync(join(partial, name)).size : 0;
      };
      // Under way: the first bytes are on disk.
      await expect
        .poll(() => events.some((e) => (e.job?.progress.bytes ?? 0) > 0) && partSize() > 0, {
          timeout: 30_000,
        })
        .toBe(true);
      const before = partSize();
      // This thread does nothing else for up to 10 s (no timer, no I/O callback, no message runs).
      const until = performance.now() + 10_000;
      let during = before;
      while (performance.now() < until && during - before < 4 * 1024 * 1024 && during < SIZE)
        during = partSize();
      expect(during - before).toBeGreaterThanOrEqual(Math.min(4 * 1024 * 1024, SIZE - before));
      await manager.idle();
      expect(manager.list(SITE)[0]?.saved?.size).toBe(SIZE);
    } finally {
      await manager.close();
    }
  }, 90_000);

  it('starts ahead of a first download when warmed, and that thread does the work', async () => {
    const thread = new TransferThread({ logger: silentLogger, progressEveryMs: 100 });
    try {
      expect(thread.threadId()).toBeNull();
      await thread.warm();
      const id = thread.threadId();
      expect(id).not.toBeNull();
      await thread.warm();
      expect(thread.threadId()).toBe(id);
      const file = join(dir, 'hashed');
      writeFileSync(file, 'abc');
      // SHA-256("abc"), FIPS 180-2 appendix B.1.
      expect(await thread.sha256(file)).toBe(
        'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
      );
      expect(thread.threadId()).toBe(id);
    } finally {
      await thread.close();
    }
    expect(thread.threadId()).toBeNull();
  }, 60_000);
});
