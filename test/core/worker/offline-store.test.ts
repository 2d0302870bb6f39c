import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { getBillingSummary, hasSite } from '../../../electron/core/db';
import { silentLogger } from '../../../electron/core/log';
import type { DeferredWriter } from '../../../electron/core/worker/deferred-writer';
import { openOfflineStore } from '../../../electron/core/worker/offline-store';
import { snapshot } from '../db/fixtures';

/**
 * The offline store as the app opens it (worker/offline-store.ts): a file closed cleanly at this
 * version is read at once and its writer's thread starts at the first write; any other file (new,
 * left open by a crash) is opened by the writer first. Real threads, a real SQLite file.
 */
function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ld-offline-store-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'offline.db');
}
const NOW = '2026-06-01T00:00:00.000Z';
const open = (file: string) => openOfflineStore({ file, logger: silentLogger });
const isDeferred = (writer: unknown): writer is DeferredWriter =>
  typeof (writer as DeferredWriter).start === 'function';

/** A file with one synced site, closed cleanly (the writer closed its connection). */
async function closedCleanlyWithOneSite(): Promise<string> {
  const file = tempFile();
  const first = await open(file);
  expect(isDeferred(first.writer)).toBe(false); // a new file: the writer creates it
  await first.writer.call('site:ensure', { siteId: 'site-1', now: NOW });
  await first.writer.call('snapshot:commit', { siteId: 'site-1', snapshot: snapshot('a') });
  await first.writer.close();
  first.db.close();
  expect(existsSync(`${file}.unclosed`)).toBe(false);
  return file;
}

describe('opening the offline store', () => {
  it('reads a file closed cleanly at once; the writer starts at the first write, and the reader sees it', async () => {
    const file = await closedCleanlyWithOneSite();
    const store = await open(file);
    try {
      expect(isDeferred(store.writer) && store.writer.started).toBe(false);
      // The screens read before any thread started (and the file is not marked open: nothing wrote
      // to it).
      expect(hasSite(store.db, 'site-1')).toBe(true);
      expect(existsSync(`${file}.unclosed`)).toBe(false);
      await store.writer.call('site:ensure', { siteId: 'site-2', now: NOW });
      expect(isDeferred(store.writer) && store.writer.started).toBe(true);
      expect(existsSync(`${file}.unclosed`)).toBe(true);
      expect(hasSite(store.db, 'site-2')).toBe(true);
      // A commit's memoised views are forgotten through the reader attached before the thread
      // started.
      const before = getBillingSummary(store.db, 'site-1', new Date(NOW));
      await store.writer.call('snapshot:commit', {
        siteId: 'site-1',
        snapshot: { ...snapshot('b'), payments: [] },
      });
      expect(getBillingSummary(store.db, 'site-1', new Date(NOW))).not.toEqual(before);
    } finally {
      await store.writer.close();
      store.db.close();
    }
    expect(existsSync(`${file}.unclosed`)).toBe(false);
  });

  it('closes without starting a thread when nothing was written, and the file stays closed cleanly', async () => {
    const file = await closedCleanlyWithOneSite();
    const store = await open(file);
    await store.writer.close();
    store.db.close();
    expect(isDeferred(store.writer) && store.writer.started).toBe(false);
    await expect(
      store.writer.call('site:ensure', { siteId: 'site-3', now: NOW }),
    ).rejects.toMatchObject({ code: 'storage-error' });
    const again = await open(file);
    expect(isDeferred(again.writer)).toBe(true);
    await again.writer.close();
    again.db.close();
  });

  it('lets the writer open a file left open by a crash first (its check and recovery run before anything is read)', async () => {
    const file = await closedCleanlyWithOneSite();
    writeFileSync(`${file}.unclosed`, '12345\n');
    const store = await open(file);
    try {
      expect(isDeferred(store.writer)).toBe(false);
      expect(hasSite(store.db, 'site-1')).toBe(true);
    } finally {
      await store.writer.close();
      store.db.close();
    }
  });
});
