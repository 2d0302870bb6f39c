import { describe, expect, it } from 'vitest';
import { CoreError } from '../../../electron/core/errors';
import { pendingEntries } from '../../../electron/core/db';
import { course, payment, snapshot } from '../db/fixtures';
import { bigSnapshot, NOW, open } from './writer-scaffold';

// A crash of the writer's thread loses nothing that was committed, and a writer that keeps dying
// gives up.

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
    // 20,000 payments take the worker well over 60 ms to commit: the crash lands inside the
    // transaction.
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
