import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { type ReadableDB } from '../../../electron/core/db';
import { type OpenedWriter } from '../../../electron/core/worker';
import { openWorkerDb } from '../sync/helpers/setup';
import { notification, payment, snapshot } from '../db/fixtures';

// The database writer in its worker thread (electron/core/worker/writer.ts, worker-contract.ts):
// real threads, a real SQLite file, the main side reading through its own read-only connection.
// Shared by writer-*.test.ts.
export function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ld-writer-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'offline.db');
}

export function open(
  file = tempFile(),
  options: { maxRestarts?: number; integrityCheck?: 'unless-closed-cleanly' } = {},
): Promise<{ writer: OpenedWriter; db: ReadableDB; file: string }> {
  return openWorkerDb(file, options);
}

export const NOW = '2026-06-01T00:00:00.000Z';

/** A snapshot big enough that its commit takes a while (tens of thousands of rows). */
export function bigSnapshot(tag: string) {
  return {
    ...snapshot(tag),
    payments: Array.from({ length: 20_000 }, (_, i) =>
      payment(`${tag}-p${i}`, { tradeNo: `${tag}-t${i}` }),
    ),
    notifications: Array.from({ length: 3000 }, (_, i) => notification(`${tag}-n${i}`)),
  };
}
