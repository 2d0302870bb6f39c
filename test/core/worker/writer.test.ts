import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, onTestFinished } from 'vitest';
import { CoreError } from '../../../electron/core/errors';
import {
  getBillingSummary,
  getNotificationsPage,
  getNotificationsSummary,
  openReadConnection,
  pendingEntries,
} from '../../../electron/core/db';
import { startWriterWorker, type OpenedWriter } from '../../../electron/core/worker';
import { openWorkerDb } from '../sync/helpers/setup';
import { course, notification, payment, snapshot } from '../db/fixtures';

/**
 * The database writer in its worker thread (electron/core/worker/writer.ts, worker-contract.ts): real threads, a real
 * SQLite file, the main side reading through its own read-only connection.
 */
function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ld-writer-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'offline.db');
}

function open(
  file = tempFile(),
  options: { maxRestarts?: number; integrityCheck?: 'unless-closed-cleanly' } = {},
): Promise<{ writer: OpenedWriter; db: Database.Database; file: string }> {
  return openWorkerDb(file, options);
}

const NOW = '2026-06-01T00:00:00.000Z';

/** A snapshot big enough that its commit takes a while (tens of thousands of rows). */
function bigSnapshot(tag: string) {
  return {
    ...snapshot(tag),
    payments: Array.from({ length: 20_000 }, (_, i) =>
      payment(`${tag}-p${i}`, { tradeNo: `${tag}-t${i}` }),
    ),
    notifications: Array.from({ length: 3000 }, (_, i) => notification(`${tag}-n${i}`)),
  };
}

describe('database writer worker: one contract, errors as the core codes', () => {
  it('writes in the worker; the read-only connection of this thread sees each call once it answered', async () => {
    const { writer, db } = await open();
    await writer.call('site:ensure', { siteId: 's', now: NOW });
    const result = await writer.call('snapshot:commit', { siteId: 's', snapshot: snapshot('a') });
    expect(result.unchanged).toBe(false);
    expect(result.rewritten).toContain('courses');
    expect(result.counts.courses).toBe(snapshot('a').courses!.length);
    const entry = await writer.call('outbox:enqueue', {
      siteId: 's',
      change: { kind: 'mark-all-notifications-read' },
      now: NOW,
    });
    expect(entry).toMatchObject({
      siteId: 's',
      status: 'pending',
      description: 'Mark all notifications read',
    });
    expect(pendingEntries(db, 's').map((e) => e.id)).toEqual([entry.id]);
    expect(getNotificationsSummary(db, 's').unreadCount).toBe(0);
    // The read connection cannot write (the worker's is the one write connection).
    expect(() => db.prepare("DELETE FROM outbox WHERE site_id = 's'").run()).toThrow(/readonly/i);
  });

  it('a failure crosses the boundary as a CoreError with the code and plain words, never a foreign Error', async () => {
    const { writer } = await open();
    await writer.call('site:ensure', { siteId: 's', now: NOW });
    const lost = await writer
      .call('stage:commit', { stageId: 'nope', siteId: 's' })
      .catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(CoreError);
    expect(lost).toMatchObject({ code: 'sync-failed' });
    // A constraint SQLite refuses: storage-error, with SQLite's code as the only detail (no row data).
    const broken = await writer
      .call('snapshot:commit', {
        siteId: 's',
        snapshot: { payments: [payment('x', { id: null as unknown as string })] },
      })
      .catch((e: unknown) => e);
    expect(broken).toBeInstanceOf(CoreError);
    expect(broken).toMatchObject({
      code: 'storage-error',
      detail: { reason: expect.stringMatching(/^SQLITE_CONSTRAINT/) },
    });
    // A removed site's snapshot is refused with not-found (snapshot.ts), carried by code.
    await writer.call('site:remove', { siteId: 's' });
    await expect(
      writer.call('snapshot:commit', { siteId: 's', snapshot: snapshot('b') }),
    ).rejects.toMatchObject({ code: 'not-found' });
  });

  it('a database from a newer version is refused when the worker opens it (database-too-new, file untouched)', async () => {
    const file = tempFile();
    const raw = new Database(file);
    raw.pragma('user_version = 999');
    raw.close();
    await expect(startWriterWorker({ file })).rejects.toMatchObject({
      name: 'CoreError',
      code: 'database-too-new',
    });
    const again = new Database(file, { readonly: true });
    expect(again.pragma('user_version', { simple: true })).toBe(999);
    again.close();
  });

  it('staged pages are committed in one transaction; a re-commit of the same data writes nothing', async () => {
    const { writer, db } = await open();
    await writer.call('site:ensure', { siteId: 's', now: NOW });
    await writer.call('stage:begin', { stageId: 'one', siteId: 's' });
    await writer.call('stage:page', { stageId: 'one', part: 'courses', nodes: [course('c1')] });
    await writer.call('stage:page', { stageId: 'one', part: 'courses', nodes: [course('c2')] });
    await writer.call('stage:page', { stageId: 'one', part: 'payments', nodes: [payment('p1')] });
    // Nothing is visible before the commit.
    expect(db.prepare("SELECT count(*) FROM courses WHERE site_id = 's'").pluck().get()).toBe(0);
    const first = await writer.call('stage:commit', { stageId: 'one', siteId: 's' });
    expect(first).toMatchObject({ unchanged: false, counts: { courses: 2, payments: 1 } });
    expect(db.prepare("SELECT count(*) FROM courses WHERE site_id = 's'").pluck().get()).toBe(2);

    const dataVersion = db.prepare('PRAGMA data_version').pluck();
    const before = dataVersion.get();
    await writer.call('stage:begin', { stageId: 'two', siteId: 's' });
    await writer.call('stage:page', {
      stageId: 'two',
      part: 'courses',
      nodes: [course('c1'), course('c2')],
    });
    await writer.call('stage:page', { stageId: 'two', part: 'payments', nodes: [payment('p1')] });
    const second = await writer.call('stage:commit', { stageId: 'two', siteId: 's' });
    expect(second).toEqual({
      rewritten: [],
      unchanged: true,
      counts: { courses: 2, sections: 2, lectures: 4, payments: 1 },
    });
    // No other connection committed anything: the reader's data_version did not move.
    expect(dataVersion.get()).toBe(before);
  });
});

describe('database writer worker: answers staged as text, parsed in the worker', () => {
  it('stages a page from the JSON text and returns the cursor; an answer with errors stages nothing; a dropped part keeps its rows', async () => {
    const { writer, db } = await open();
    await writer.call('site:ensure', { siteId: 's', now: NOW });
    await writer.call('snapshot:commit', {
      siteId: 's',
      snapshot: { payments: [payment('kept')] },
    });
    await writer.call('stage:begin', { stageId: 't', siteId: 's' });
    const page = (nodes: unknown[], hasNextPage: boolean) =>
      JSON.stringify({
        data: {
          viewer: {
            enrolledCourses: {
              totalCount: 3,
              pageInfo: { hasNextPage, endCursor: hasNextPage ? 'c2' : null },
              nodes,
            },
          },
        },
      });
    const first = await writer.call('stage:text', {
      stageId: 't',
      part: 'courses',
      shape: 'page',
      path: ['viewer', 'enrolledCourses'],
      body: new TextEncoder().encode(page([course('c1'), course('c2')], true)).buffer,
    });
    expect(first).toEqual({
      errors: [],
      found: true,
      count: 2,
      totalCount: 3,
      ids: ['c1', 'c2'],
      hasNextPage: true,
      endCursor: 'c2',
    });
    await writer.call('stage:text', {
      stageId: 't',
      part: 'courses',
      shape: 'page',
      path: ['viewer', 'enrolledCourses'],
      body: page([course('c3')], false),
    });
    const refused = await writer.call('stage:text', {
      stageId: 't',
      part: 'payments',
      shape: 'page',
      path: ['viewer', 'payments'],
      body: JSON.stringify({
        data: { viewer: null },
        errors: [{ message: 'requires account:read' }],
      }),
    });
    expect(refused).toMatchObject({
      errors: [{ message: 'requires account:read' }],
      found: false,
      count: 0,
    });
    await writer.call('stage:drop', { stageId: 't', part: 'payments' });
    await expect(
      writer.call('stage:text', {
        stageId: 't',
        part: 'profile',
        shape: 'whole',
        path: ['viewer'],
        body: '<html>',
      }),
    ).rejects.toMatchObject({
      code: 'site-data-invalid',
    });
    const result = await writer.call('stage:commit', { stageId: 't', siteId: 's' });
    expect(result.counts).toEqual({ courses: 3, sections: 3, lectures: 6 });
    expect(
      db.prepare("SELECT id FROM courses WHERE site_id = 's' ORDER BY id").pluck().all(),
    ).toEqual(['c1', 'c2', 'c3']);
    expect(db.prepare("SELECT id FROM payments WHERE site_id = 's'").pluck().all()).toEqual([
      'kept',
    ]);
  });
});

describe('database writer worker: a crash loses nothing that was committed', () => {
  it('a crash mid-commit leaves the previous snapshot whole, keeps the queued change, and the writer starts again', async () => {
    const { writer, db } = await open();
    await writer.call('site:ensure', { siteId: 's', now: NOW });
    await writer.call('snapshot:commit', {
      siteId: 's',
      snapshot: { ...snapshot('old'), payments: [payment('old-p')] },
    });
    const queued = await writer.call('outbox:enqueue', {
      siteId: 's',
      change: { kind: 'mark-all-notifications-read' },
      now: NOW,
    });

    const commit = writer.call('snapshot:commit', { siteId: 's', snapshot: bigSnapshot('new') });
    // 20,000 payments take the worker well over 60 ms to commit: the crash lands inside the transaction.
    const payments = db.prepare("SELECT count(*) FROM payments WHERE site_id = 's'").pluck();
    await new Promise((r) => setTimeout(r, 60));
    await writer.crash();
    const failure = await commit.catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(CoreError);
    expect(failure).toMatchObject({
      code: 'storage-error',
      message: expect.stringMatching(/stopped unexpectedly/),
    });

    // The previous snapshot, whole: not one row of the new one.
    expect(payments.get()).toBe(1);
    expect(db.prepare("SELECT id FROM payments WHERE site_id = 's'").pluck().all()).toEqual([
      'old-p',
    ]);
    expect(pendingEntries(db, 's').map((e) => e.id)).toEqual([queued.id]);
    expect(db.pragma('quick_check', { simple: true })).toBe('ok');

    // Started again: the next calls work, and the queue order continues after the survivor.
    const next = await writer.call('outbox:enqueue', {
      siteId: 's',
      change: { kind: 'mark-notification-read', notificationId: 'x' },
      now: NOW,
    });
    expect(writer.restarts).toBe(1);
    expect(pendingEntries(db, 's').map((e) => e.id)).toEqual([queued.id, next.id]);
    const committed = await writer.call('snapshot:commit', {
      siteId: 's',
      snapshot: bigSnapshot('new'),
    });
    expect(committed.unchanged).toBe(false);
    expect(payments.get()).toBe(20_000);
  });

  it('pages staged before a crash are gone: their commit fails plainly instead of committing half a snapshot', async () => {
    const { writer, db } = await open();
    await writer.call('site:ensure', { siteId: 's', now: NOW });
    await writer.call('snapshot:commit', { siteId: 's', snapshot: snapshot('old') });
    await writer.call('stage:begin', { stageId: 'run', siteId: 's' });
    await writer.call('stage:page', { stageId: 'run', part: 'courses', nodes: [course('half')] });
    await writer.crash();
    await expect(
      writer.call('stage:page', { stageId: 'run', part: 'courses', nodes: [course('rest')] }),
    ).rejects.toMatchObject({
      code: 'sync-failed',
    });
    await expect(
      writer.call('stage:commit', { stageId: 'run', siteId: 's' }),
    ).rejects.toMatchObject({ code: 'sync-failed' });
    expect(
      db.prepare("SELECT id FROM courses WHERE site_id = 's' ORDER BY id").pluck().all(),
    ).toEqual(
      snapshot('old')
        .courses!.map((c) => c.id)
        .sort(),
    );
  });

  it('a writer that keeps dying gives up with a clear error instead of restarting forever', async () => {
    const { writer } = await open(undefined, { maxRestarts: 1 });
    await writer.crash();
    await writer.call('site:ensure', { siteId: 's', now: NOW });
    await writer.crash();
    await new Promise((r) => setTimeout(r, 50));
    await expect(writer.call('site:ensure', { siteId: 's', now: NOW })).rejects.toMatchObject({
      code: 'storage-error',
      message: expect.stringMatching(/keeps stopping; restart the app/),
    });
  });
});

describe('view cache of the read connection: told which views a worker write changed (view-cache.ts)', () => {
  it('a queued mark-read drops only the inbox views; a commit drops what it rewrote; nothing else is recomputed', async () => {
    const { writer, db } = await open();
    const now = new Date(NOW);
    await writer.call('site:ensure', { siteId: 's', now: NOW });
    await writer.call('snapshot:commit', {
      siteId: 's',
      snapshot: { ...snapshot('a'), notifications: [notification('n1'), notification('n2')] },
    });
    const billing = getBillingSummary(db, 's', now);
    const inbox = getNotificationsSummary(db, 's');
    expect(inbox.unreadCount).toBe(2);

    await writer.call('outbox:enqueue', {
      siteId: 's',
      change: { kind: 'mark-notification-read', notificationId: 'n1' },
      now: NOW,
    });
    expect(getBillingSummary(db, 's', now)).toBe(billing); // the same memoised object: not recomputed
    expect(getNotificationsSummary(db, 's').unreadCount).toBe(1); // recomputed, and right

    await writer.call('snapshot:commit', {
      siteId: 's',
      snapshot: { payments: [payment('p-new')] },
    });
    const after = getBillingSummary(db, 's', now);
    expect(after).not.toBe(billing);
    expect(after.paymentCount).toBe(1);
  });

  it('a commit by a connection nobody announced still drops every memoised view (data_version)', async () => {
    const { db, file, writer } = await open();
    await writer.call('site:ensure', { siteId: 's', now: NOW });
    await writer.call('snapshot:commit', {
      siteId: 's',
      snapshot: { notifications: [notification('n1')] },
    });
    const inbox = getNotificationsSummary(db, 's');
    const other = new Database(file);
    other
      .prepare("UPDATE notifications SET read_at = '2026-01-01T00:00:00.000Z' WHERE id = 'n1'")
      .run();
    other.close();
    const again = getNotificationsSummary(db, 's');
    expect(again).not.toBe(inbox);
    expect(again.unreadCount).toBe(0);
  });

  // The demo's first sync under load: the read connection memoised nothing until a screen asked while the commit
  // was on its way, and the run's record (a write that changes no view) answered before the next read. The summary
  // said "No unread notifications" beside a list of three unread, for good.
  it('a view first memoised while a commit is on its way is recomputed once it lands, even when a no-view write answers first', async () => {
    const { writer, db, file } = await open();
    // Another connection holds the write lock: the run's first write waits for it (busy_timeout), and the calls sent
    // after it wait in the worker's queue, so this thread reads before the commit lands.
    const blocker = new Database(file);
    blocker.exec('BEGIN IMMEDIATE');
    let commit: Promise<{ rewritten: readonly string[] }>;
    try {
      const ensured = writer.call('site:ensure', { siteId: 's', now: NOW });
      const begun = writer.call('stage:begin', { stageId: 'st', siteId: 's' });
      const paged = writer.call('stage:page', {
        stageId: 'st',
        part: 'notifications',
        nodes: [notification('n1'), notification('n2'), notification('n3')],
      });
      commit = writer.call('stage:commit', { stageId: 'st', siteId: 's' });
      void Promise.all([ensured, begun, paged]).catch(() => undefined);
      expect(getNotificationsSummary(db, 's').unreadCount).toBe(0); // before the commit: memoised
    } finally {
      blocker.exec('ROLLBACK');
      blocker.close();
    }
    expect((await commit).rewritten).toContain('notifications');
    await writer.call('sync:record-run', {
      summary: {
        siteId: 's',
        startedAt: NOW,
        finishedAt: NOW,
        outcome: 'completed',
        counts: {},
        missingScopes: [],
        error: null,
      },
    });
    const unreadListed = getNotificationsPage(db, 's', { offset: 0, limit: 100 }).items.filter(
      (n) => n.readAt === null,
    ).length;
    expect(unreadListed).toBe(3);
    expect(getNotificationsSummary(db, 's').unreadCount).toBe(3);
  });

  it('a commit nobody announced, then a no-view write answered before any read, still drops the memoised views', async () => {
    const { db, file, writer } = await open();
    await writer.call('site:ensure', { siteId: 's', now: NOW });
    await writer.call('snapshot:commit', {
      siteId: 's',
      snapshot: { notifications: [notification('n1')] },
    });
    expect(getNotificationsSummary(db, 's').unreadCount).toBe(1);
    const other = new Database(file);
    other
      .prepare("UPDATE notifications SET read_at = '2026-01-01T00:00:00.000Z' WHERE id = 'n1'")
      .run();
    other.close();
    await writer.call('search:index-step', { maxRows: 10 });
    expect(getNotificationsSummary(db, 's').unreadCount).toBe(0);
  });
});

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

/** Overwrites the cells of one leaf page of the lectures table, as a disk or another program could while the app is away. */
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

/** A file with 300 courses (their lectures fill many pages) and two queued changes, closed by its writer. */
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
    // The read connection opened before the rebuild reads the rebuilt file: no snapshot, the outbox kept.
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
