/**
 * `npm run bench today`: the Today home's read (electron/core/db/today.ts, every school at once) on
 * the large seed, p95 over repeated calls; target <= 5 ms (issue "Take me to my lesson"). The large
 * seed is synced once over loopback from an embedded server in this process, as the sync tests do;
 * only the reads are measured.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getToday } from '../../electron/core/db';
import { createSyncService } from '../../electron/core/sync';
import { createEmbeddedServer } from '../../embedded-server/index';
import { getMemberToken, siteClient } from '../core/sync/helpers/member-token';
import { collectGarbage, percentile, type BenchResult } from './types';
import { openTestDatabase } from '../helpers/db';

const CALLS = 400;

export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'ld-bench-today-'));
  const server = await createEmbeddedServer({ port: 0, seed: 'large' });
  try {
    const { accessToken } = await getMemberToken(server);
    const db = openTestDatabase(join(dir, 'offline.db'));
    const sync = createSyncService({ db, clientFor: () => siteClient(server.url, accessToken) });
    const summary = await sync.syncNow('large');
    await sync.close();
    if (summary.outcome !== 'completed')
      throw new Error(`sync ${summary.outcome}: ${summary.error?.message}`);
    const courses = (db.prepare('SELECT count(*) AS n FROM courses').get() as { n: number }).n;
    const lectures = (db.prepare('SELECT count(*) AS n FROM lectures').get() as { n: number }).n;
    const now = new Date();
    const shape = getToday(db, now);
    collectGarbage();
    const times: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      // A minute apart each time: nothing is memoised by the clock.
      const at = new Date(now.getTime() + i * 60_000);
      const t0 = performance.now();
      getToday(db, at);
      times.push(performance.now() - t0);
    }
    db.close();
    return [
      {
        name: 'view p95: Today home (today:get, every school)',
        value: percentile(times, 95),
        unit: 'ms',
        note: `median ${percentile(times, 50).toFixed(2)} ms, fastest ${Math.min(...times).toFixed(2)} ms over ${CALLS} calls (the machine's load scales them); ${courses} courses, ${lectures} lectures; ${shape.continueLearning.length} to continue, ${shape.attention.length} needing attention; target <= 5 ms`,
      },
    ];
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
