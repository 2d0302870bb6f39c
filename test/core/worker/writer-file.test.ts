import { closeSync, existsSync, openSync, statSync, writeFileSync, writeSync } from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  getNotificationsSummary,
  openReadConnection,
  pendingEntries,
} from '../../../electron/core/db';
import { startWriterWorker } from '../../../electron/core/worker';
import { course, snapshot } from '../db/fixtures';
import { bigSnapshot, NOW, open, tempFile } from './writer-scaffold';

// The database file the writer leaves: its WAL after a sync, and the integrity check after a clean
// exit.

describe('database writer worker: the WAL after a sync', () => {
  it('the index pass that ends a commit folds the WAL into the file and truncates it', async () => {
    const { writer, file } = await open();
    await writer.call('site:ensure', { siteId: 's', now: NOW });
    await writer.call('snapshot:commit', { siteId: 's', snapshot: bigSnapshot('w') });
    const walAfterCommit = statSync(`${file}-wal`).size;
    // The commit wrote its rows into the WAL: it is about as large as the database.
    expect(walAfterCommit).toBeGreaterThan(statSync(file).size / 2);
    // A step that indexes as many rows as asked is not the last one: the WAL stays.
    expect(await writer.call('search:index-step', { maxRows: 1 })).toBe(1);
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(0);
    while ((await writer.call('search:index-step', { maxRows: 4000 })) === 4000);
    expect(statSync(`${file}-wal`).size).toBeLessThanOrEqual(statSync(file).size * 0.1);
  });
});

/**
 * Overwrites the cells of one leaf page of the lectures table, as a disk or another program could
 * while the app is away.
 */
function damageLectures(file: string): void {
  const raw = new Database(file);
  const page = raw
    .prepare(
      "SELECT pageno FROM dbstat WHERE name = 'lectures' AND pagetype = 'leaf' LIMIT 1 OFFSET 3",
    )
    .get() as { pageno: number };
  const pageSize = raw.pragma('page_size', { simple: true }) as number;
  raw.close();
  const fd = openSync(file, 'r+');
  writeSync(
    fd,
    Buffer.alloc(pageSize - 16, 0xff),
    0,
    pageSize - 16,
    (page.pageno - 1) * pageSize + 8,
  );
  closeSync(fd);
}

/**
 * A file with 300 courses (their lectures fill many pages) and two queued changes, closed by its
 * writer.
 */
async function closedWithData(
  file: string,
  integrityCheck?: 'unless-closed-cleanly',
): Promise<void> {
  const writer = await startWriterWorker({ file, ...(integrityCheck ? { integrityCheck } : {}) });
  await writer.call('site:ensure', { siteId: 's', now: NOW });
  await writer.call('snapshot:commit', {
    siteId: 's',
    snapshot: { courses: Array.from({ length: 300 }, (_, i) => course(`c${i}`)) },
  });
  await writer.call('outbox:enqueue', {
    siteId: 's',
    change: { kind: 'mark-notification-read', notificationId: 'n-7' },
    now: NOW,
  });
  await writer.call('outbox:enqueue', {
    siteId: 's',
    change: { kind: 'mark-all-notifications-read' },
    now: NOW,
  });
  await writer.close();
}

describe('database writer worker: the integrity check leaves the start after a clean exit', () => {
  it('a file damaged while the app was away opens without the check; db:check finds it, keeps a copy and rebuilds in place', async () => {
    const file = tempFile();
    await closedWithData(file, 'unless-closed-cleanly');
    expect(existsSync(`${file}.unclosed`)).toBe(false);
    damageLectures(file);

    const writer = await startWriterWorker({ file, integrityCheck: 'unless-closed-cleanly' });
    onTestFinished(() => writer.close());
    // Not read at open: the start does not pay for reading the whole file.
    expect(writer.recovered).toBe(false);
    const db = openReadConnection(file);
    onTestFinished(() => void db.close());
    writer.attachReader(db);
    expect(pendingEntries(db, 's')).toHaveLength(2);
    expect(getNotificationsSummary(db, 's').unreadCount).toBe(0);

    const checked = await writer.call('db:check', {});
    expect(checked).toMatchObject({
      recovered: true,
      salvagedOutbox: 2,
      keptAt: expect.stringMatching(/offline\.db\.corrupt-/),
    });
    expect(existsSync(checked.keptAt!)).toBe(true);
    // The read connection opened before the rebuild reads the rebuilt file: no snapshot, the outbox
    // kept.
    expect(db.prepare("SELECT count(*) FROM courses WHERE site_id = 's'").pluck().get()).toBe(0);
    expect(pendingEntries(db, 's').map((e) => e.change)).toEqual([
      { kind: 'mark-notification-read', notificationId: 'n-7' },
      { kind: 'mark-all-notifications-read' },
    ]);
    expect(db.pragma('quick_check', { simple: true })).toBe('ok');
    // And the writer writes on: the next sync fills it again.
    await writer.call('site:ensure', { siteId: 's', now: NOW });
    expect(
      (await writer.call('snapshot:commit', { siteId: 's', snapshot: snapshot('again') }))
        .unchanged,
    ).toBe(false);
    expect(await writer.call('db:check', {})).toEqual({
      recovered: false,
      keptAt: null,
      salvagedOutbox: 0,
    });
  });

  it('after an unclean exit (the file was left open) the check runs at open, before anything is read', async () => {
    const file = tempFile();
    await closedWithData(file, 'unless-closed-cleanly');
    damageLectures(file);
    // What a crash or a kill leaves: the marker of a process that had the file open.
    writeFileSync(`${file}.unclosed`, '12345\n');
    const { writer, db } = await open(file, { integrityCheck: 'unless-closed-cleanly' });
    expect(writer.recovered).toBe(true);
    expect(writer.salvagedOutbox).toBe(2);
    expect(db.prepare("SELECT count(*) FROM courses WHERE site_id = 's'").pluck().get()).toBe(0);
  });

  it('without the option (tools, tests) the check runs at every open, as before', async () => {
    const file = tempFile();
    await closedWithData(file);
    damageLectures(file);
    const { writer } = await open(file);
    expect(writer.recovered).toBe(true);
  });
});
