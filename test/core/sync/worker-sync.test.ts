import type { ReadableDB } from '../../../electron/core/db';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  getBilling,
  getEntitlements,
  getLibrary,
  getNotifications,
  getProfile,
} from '../../../electron/core/db';
import { createSyncService } from '../../../electron/core/sync';
import { digestsOf } from '../../../electron/core/db/snapshot';
import { fetchSnapshot } from '../../../electron/core/sync/fetch-snapshot';
import { createTransport, defaultSleep } from '../../../electron/core/sync/transport';
import { contents, openTempDb, openWorkerDb, startSite } from './helpers/setup';

/**
 * The sync with its writes in the writer worker (electron/core/worker/writer.ts), as the app runs
 * it: pages staged in the worker as they arrive, one commit there, the views read through this
 * thread's read-only connection. And the no-change re-sync: the fetched snapshot is what is stored,
 * so nothing is written and no change event is sent.
 */
const NOW = new Date('2026-06-01T00:00:00.000Z');

/**
 * A demo site, the writer worker on a temp file, the read-only connection and a sync service over
 * them (closed after the test).
 */
async function workerSync(options: Parameters<typeof startSite>[0] = {}) {
  const site = await startSite(options);
  const { file, writer, db } = await openWorkerDb();
  const changed: string[] = [];
  const sync = createSyncService({
    db,
    writer,
    clientFor: () => site.client,
    onDataChanged: (s) => changed.push(s),
  });
  onTestFinished(() => sync.close());
  return { site, file, writer, db, changed, sync };
}

describe('sync through the writer worker', () => {
  it('stores the same data as the in-process writer; the views read it through the read-only connection', async () => {
    const { site, db, changed, sync } = await workerSync();
    const reference = openTempDb();
    const inProcess = createSyncService({ db: reference.db, clientFor: () => site.client });

    const summary = await sync.syncNow('demo');
    expect(summary).toMatchObject({ outcome: 'completed', error: null });
    expect(changed).toEqual(['demo']);
    expect((await inProcess.syncNow('demo')).counts).toEqual(summary.counts);
    await inProcess.close();
    expect(summary.counts.courses).toBeGreaterThan(0);
    for (const view of [
      (d: ReadableDB) => getLibrary(d, 'demo', NOW),
      (d: ReadableDB) => getBilling(d, 'demo', NOW),
      (d: ReadableDB) => getNotifications(d, 'demo'),
      (d: ReadableDB) => getEntitlements(d, 'demo', NOW),
      (d: ReadableDB) => getProfile(d, 'demo'),
    ]) {
      expect(view(db)).toEqual(view(reference.db));
    }
    expect(contents(db)).toBe(contents(reference.db));
    expect(sync.status('demo').lastSyncedAt).toBe(summary.finishedAt);
  });

  it('a no-change re-sync writes nothing but its run record, and sends no change event (worker)', async () => {
    const { site, writer, db, changed, sync } = await workerSync();
    await sync.syncNow('demo');
    await sync.close(); // lets the search-index warm-up after the first commit finish
    const again = createSyncService({
      db,
      writer,
      clientFor: () => site.client,
      onDataChanged: (s) => changed.push(s),
    });
    const before = contents(db);
    const runs = db.prepare('SELECT count(*) FROM sync_runs').pluck();
    const runsBefore = runs.get();

    const summary = await again.syncNow('demo');
    expect(summary.outcome).toBe('completed');
    expect(summary.counts.courses).toBeGreaterThan(0);
    expect(changed).toEqual(['demo']); // the first sync's only
    expect(contents(db)).toBe(before);
    expect(runs.get()).toBe((runsBefore as number) + 1);
    await again.close();
  });

  it('the digests hashed page by page as the pages arrive are those of the whole parts (snapshot.ts digestOf)', async () => {
    // Enough rows that courses, payments and notifications each take several pages.
    const { site, db, sync } = await workerSync({
      seed: 'large',
      seedOptions: {
        large: { courses: 60, lecturesPerCourse: 10, payments: 180, notifications: 250 },
      },
    });
    const summary = await sync.syncNow('demo');
    expect(summary.outcome).toBe('completed');
    const whole = await fetchSnapshot(createTransport(site.client, { sleep: defaultSleep }), {});
    const stored = new Map(
      db.prepare("SELECT part, digest FROM sync_parts WHERE site_id = 'demo'").raw().all() as [
        string,
        string,
      ][],
    );
    const expected = digestsOf(whole.snapshot);
    expect(expected.size).toBe(8);
    expect(whole.pagesFetched).toBeGreaterThanOrEqual(8 + 2 + 3 + 2);
    expect(stored).toEqual(expected);
  });

  it('a no-change re-sync changes exactly one row: its run record (in-process writer, SQLite total_changes)', async () => {
    const site = await startSite();
    const { db } = openTempDb();
    const changed: string[] = [];
    const sync = createSyncService({
      db,
      clientFor: () => site.client,
      onDataChanged: (s) => changed.push(s),
    });
    await sync.syncNow('demo');
    await sync.close();
    const again = createSyncService({
      db,
      clientFor: () => site.client,
      onDataChanged: (s) => changed.push(s),
    });
    const totalChanges = db.prepare('SELECT total_changes()').pluck();
    const before = totalChanges.get() as number;
    await again.syncNow('demo');
    await again.close();
    expect(totalChanges.get()).toBe(before + 1);
    expect(changed).toEqual(['demo']);
  });
});
