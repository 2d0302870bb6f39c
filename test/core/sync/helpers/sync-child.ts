/**
 * Child process for the "killed mid-sync" test: opens the offline database file and runs one sync,
 * reporting progress to the parent over IPC. The token comes through the environment, never argv
 * (process listings).
 */
import { createSyncService } from '../../../../electron/core/sync';
import { siteClient } from './member-token';
import { openTestDatabase } from '../../../helpers/db';

const [dbFile, baseUrl] = process.argv.slice(2) as [string, string];
const token = process.env.LD_TEST_TOKEN ?? '';
// Optional delay before every request but the first, so the parent can kill the process at the
// first page while the other pages are certainly still being fetched.
const slowMs = Number(process.env.LD_TEST_SLOW_MS ?? 0);
let requests = 0;
const client = siteClient(baseUrl, token);
const db = openTestDatabase(dbFile);
const sync = createSyncService({
  db,
  clientFor: () => ({
    endpoint: client.endpoint,
    fetch: async (input, init) => {
      requests += 1;
      if (slowMs > 0 && requests > 1) await new Promise((r) => setTimeout(r, slowMs));
      return client.fetch(input, init);
    },
  }),
  onProgress: (p) => process.send?.({ type: 'progress', phase: p.phase, pages: p.pagesFetched }),
});
const summary = await sync.syncNow('demo');
process.send?.({ type: 'done', outcome: summary.outcome });
db.close();
