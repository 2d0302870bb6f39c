/**
 * `npm run bench reminders`: one reminders run (electron/core/db/reminders.ts: candidates of the
 * three kinds, marks written, one transaction) on the large seed, as the writer's thread runs it
 * after each sync and every 5 minutes. The first run (the baseline, marking everything already due)
 * is timed once; then p95 over runs a minute apart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decideReminders, type ReminderKind } from '../../electron/core/db';
import { createSyncService } from '../../electron/core/sync';
import { createEmbeddedServer } from '../../embedded-server/index';
import { getMemberToken, siteClient } from '../core/sync/helpers/member-token';
import { collectGarbage, percentile, type BenchResult } from './types';
import { openTestDatabase } from '../helpers/db';

const RUNS = 300;
const ALL_ON: Record<ReminderKind, boolean> = {
  'access-ending': true,
  'lecture-unlocked': true,
  'event-starting': true,
};

export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'ld-bench-reminders-'));
  const server = await createEmbeddedServer({ port: 0, seed: 'large' });
  try {
    const { accessToken } = await getMemberToken(server);
    const db = openTestDatabase(join(dir, 'offline.db'));
    const sync = createSyncService({ db, clientFor: () => siteClient(server.url, accessToken) });
    const summary = await sync.syncNow('large');
    await sync.close();
    if (summary.outcome !== 'completed')
      throw new Error(`sync ${summary.outcome}: ${summary.error?.message}`);
    const lectures = (db.prepare('SELECT count(*) AS n FROM lectures').get() as { n: number }).n;
    const now = Date.now();
    collectGarbage();
    const b0 = performance.now();
    decideReminders(db, { now, syncedSiteId: 'large', enabled: ALL_ON });
    const baselineMs = performance.now() - b0;
    const marks = (db.prepare('SELECT count(*) AS n FROM reminder_marks').get() as { n: number }).n;
    const times: number[] = [];
    let announced = 0;
    for (let i = 1; i <= RUNS; i++) {
      const t0 = performance.now();
      announced += decideReminders(db, {
        now: now + i * 60_000,
        syncedSiteId: null,
        enabled: ALL_ON,
      }).length;
      times.push(performance.now() - t0);
    }
    db.close();
    return [
      {
        name: 'reminders: the first run of a site (baseline)',
        value: baselineMs,
        unit: 'ms',
        note: `${marks} marks written in silence; ${lectures} lectures in the copy`,
      },
      {
        name: 'reminders p95: a run on the timer (writer thread)',
        value: percentile(times, 95),
        unit: 'ms',
        note: `median ${percentile(times, 50).toFixed(2)} ms over ${RUNS} runs a minute apart; ${announced} notifications in them`,
      },
    ];
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
