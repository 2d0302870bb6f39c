import { mkdtempSync, rmSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFlusher, FLUSH_EVERY_BYTES } from '../../../electron/core/downloads/flusher';

/**
 * A partial file is made durable as it arrives (a real file, real fdatasync): every
 * FLUSH_EVERY_BYTES written, so the fsync before the rename has little left to write, while the
 * manifest hears of it at most every `durableEveryMs`.
 */
describe('the partial file flushed as it arrives', () => {
  let dir: string;
  let handle: FileHandle;
  let syncs: number;
  let counted: Pick<FileHandle, 'datasync'>;
  let inFlight: Promise<void>;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ld-flusher-'));
    handle = await open(join(dir, 'part'), 'w');
    syncs = 0;
    inFlight = Promise.resolve();
    counted = {
      datasync: () => {
        syncs++;
        inFlight = handle.datasync();
        return inFlight;
      },
    };
  });
  afterEach(async () => {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * Writes `chunks` MiB one at a time through a write stream, telling the flusher after each, as
   * transfer() does.
   */
  async function write(flusher: ReturnType<typeof createFlusher>, chunks: number) {
    const out = handle.createWriteStream({ highWaterMark: 1024 * 1024 });
    flusher.attach(counted, out);
    const mib = Buffer.alloc(1024 * 1024, 7);
    for (let i = 0; i < chunks; i++) {
      await new Promise<void>((resolve, reject) =>
        out.write(mib, (error) => (error ? reject(error) : resolve())),
      );
      flusher.wrote();
      // Each flush runs alone: a started one finishes before the next stretch, as with a slower
      // socket.
      await inFlight;
    }
    return out;
  }

  it('flushes after every stretch of bytes, without a manifest report before its interval', async () => {
    const reports: number[] = [];
    const flusher = createFlusher(
      { onDurable: (bytes) => reports.push(bytes), durableEveryMs: 60_000 },
      0,
    );
    await write(flusher, (3 * FLUSH_EVERY_BYTES) / (1024 * 1024) + 1);
    flusher.stop();
    expect(syncs).toBeGreaterThanOrEqual(3);
    expect(reports).toEqual([]);
  });

  it('reports what a flush made durable once its interval has passed, resumed from the offset', async () => {
    const reports: number[] = [];
    const flusher = createFlusher(
      { onDurable: (bytes) => reports.push(bytes), durableEveryMs: 40 },
      5000,
    );
    const out = await write(flusher, 2);
    await expect.poll(() => reports.length, { timeout: 5000 }).toBeGreaterThan(0);
    flusher.stop();
    // Never more than was written (after the 5,000 bytes an earlier try left), and the last report
    // is all of it.
    for (const bytes of reports) expect(bytes).toBeLessThanOrEqual(5000 + out.bytesWritten);
    expect(reports[reports.length - 1]).toBe(5000 + 2 * 1024 * 1024);
    const after = reports.length;
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(reports.length).toBe(after);
  });
});
