import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { getLibrary, getNotifications } from '../../../electron/core/db';
import { openTestStore } from '../../helpers/db';
import { createSyncService } from '../../../electron/core/sync';
import { openTempDb, startSite } from './helpers/setup';

const CHILD = fileURLToPath(new URL('./helpers/sync-child.ts', import.meta.url));

/** Runs a sync in a child process and SIGKILLs it at the first progress event of `killAt`. */
function syncInChildAndKill(
  dbFile: string,
  baseUrl: string,
  token: string,
  killAt: string,
  slowMs = 0,
): Promise<{ killed: boolean; phases: string[] }> {
  return new Promise((resolve, reject) => {
    const child = fork(CHILD, [dbFile, baseUrl], {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, LD_TEST_TOKEN: token, LD_TEST_SLOW_MS: String(slowMs) },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    const phases: string[] = [];
    let killed = false;
    child.on('message', (m: { type: string; phase?: string }) => {
      if (m.type === 'progress' && m.phase) {
        phases.push(m.phase);
        const fetching = m.phase !== 'outbox' && m.phase !== 'committing' && m.phase !== 'idle';
        if ((m.phase === killAt || (killAt === 'fetching' && fetching)) && !killed) {
          killed = child.kill('SIGKILL');
        }
      }
    });
    child.on('error', reject);
    child.on('exit', () => resolve({ killed, phases }));
  });
}

describe('a sync process killed mid-sync leaves the last complete snapshot', () => {
  it('killed while fetching: the previous snapshot is intact and the file opens cleanly', async () => {
    const site = await startSite();
    const first = openTempDb();
    await createSyncService({ db: first.db, clientFor: () => site.client }).syncNow('demo');
    const now = new Date();
    const before = {
      library: getLibrary(first.db, 'demo', now),
      notifications: getNotifications(first.db, 'demo'),
    };
    first.db.close();
    site.server.db.prepare('DELETE FROM notifications').run();

    // Every request after the first waits 10 s in the child: it is killed at its first fetched
    // page, with the other pages still outstanding, long before the commit.
    const run = await syncInChildAndKill(
      first.file,
      site.server.url,
      site.accessToken,
      'fetching',
      10_000,
    );
    expect(run.killed).toBe(true);
    expect(run.phases).not.toContain('committing');

    const reopened = openTestStore(first.file);
    try {
      expect(reopened.recovered).toBe(false);
      expect(reopened.db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect({
        library: getLibrary(reopened.db, 'demo', now),
        notifications: getNotifications(reopened.db, 'demo'),
      }).toEqual(before);
    } finally {
      reopened.db.close();
    }
  });

  it('killed at the commit: the file holds either the old or the new snapshot, never a mix', async () => {
    const site = await startSite();
    const first = openTempDb();
    await createSyncService({ db: first.db, clientFor: () => site.client }).syncNow('demo');
    const now = new Date();
    const oldNotifications = getNotifications(first.db, 'demo').items.length;
    const oldLibrary = getLibrary(first.db, 'demo', now);
    first.db.close();
    expect(oldNotifications).toBeGreaterThan(0);
    // The new snapshot differs in two tables: no notifications, and one course fewer.
    site.server.db.prepare('DELETE FROM notifications').run();
    site.server.db
      .prepare("DELETE FROM enrollments WHERE course_id = ? AND user_id = 'usr_student'")
      .run(oldLibrary[0]!.courseId);

    await syncInChildAndKill(first.file, site.server.url, site.accessToken, 'committing');
    const reopened = openTestStore(first.file);
    try {
      expect(reopened.recovered).toBe(false);
      const notifications = getNotifications(reopened.db, 'demo').items.length;
      const library = getLibrary(reopened.db, 'demo', now);
      const isOld = notifications === oldNotifications && library.length === oldLibrary.length;
      const isNew = notifications === 0 && library.length === oldLibrary.length - 1;
      expect(isOld || isNew).toBe(true);
    } finally {
      reopened.db.close();
    }
  });
});
