/**
 * The partial file's durability while a transfer writes it (transfer.ts): what a restart may resume
 * from.
 */
import type { FileHandle } from 'node:fs/promises';

/** Bytes written since the last flush that start the next one (besides the time interval). */
export const FLUSH_EVERY_BYTES = 8 * 1024 * 1024;

/**
 * Makes the partial file's bytes durable as they arrive: an fdatasync after every FLUSH_EVERY_BYTES
 * written and at least every `durableEveryMs`, one at a time, off the stream's path. A restart (or
 * a power cut) resumes from what was last reported, never from bytes the disk may not hold; reports
 * (each a manifest write) come at most every `durableEveryMs`.
 */
export function createFlusher(
  input: { readonly onDurable: (bytes: number) => void; readonly durableEveryMs?: number },
  offset: number,
) {
  const every = input.durableEveryMs ?? 2000;
  let handle: Pick<FileHandle, 'datasync'> | null = null;
  let out: { readonly bytesWritten: number } | null = null;
  let syncing = false;
  let flushedAt = 0;
  let reportedAt = 0;
  let stopped = false;
  const flush = (report: boolean) => {
    if (syncing || stopped || !handle || !out) return;
    const written = out.bytesWritten;
    syncing = true;
    flushedAt = written;
    handle.datasync().then(
      () => {
        syncing = false;
        const now = performance.now();
        if (stopped || (!report && now - reportedAt < every)) return;
        reportedAt = now;
        input.onDurable(offset + written);
      },
      () => (syncing = false),
    );
  };
  const timer = setInterval(() => flush(true), every);
  return {
    attach(h: Pick<FileHandle, 'datasync'>, stream: { readonly bytesWritten: number }) {
      handle = h;
      out = stream;
      reportedAt = performance.now();
    },
    wrote() {
      if (out && out.bytesWritten - flushedAt >= FLUSH_EVERY_BYTES) flush(false);
    },
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
