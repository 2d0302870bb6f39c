import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { CoreError } from '../../../electron/core/errors';
import { getNotificationsSummary, pendingEntries } from '../../../electron/core/db';
import { startWriterWorker } from '../../../electron/core/worker';
import { course, payment, snapshot } from '../db/fixtures';
import { NOW, open, tempFile } from './writer-scaffold';

// The writer's calls: one contract, errors as the core's codes, answers staged as text and parsed
// in the worker.

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
    // A constraint SQLite refuses: storage-error, with SQLite's code as the only detail (no row
    // data).
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
