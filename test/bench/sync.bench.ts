/**
 * Sync benchmark on the `large` seed. Reports, never asserts (the rounds it runs are in
 * sync-rounds.ts):
 * - the sync as the app runs it: writes in the writer worker (worker/writer.ts), views read through
 *   the main thread's read-only connection; and, for comparison in the same run, the writes on the
 *   main thread (the in-process writer, as before the writer worker);
 * - for each: first sync and no-change re-sync time, the main thread's event-loop delay (p99, max)
 *   while they run, and the p95 of a screen read made every 50 ms meanwhile;
 * - the same first sync and re-sync through a proxy adding a fixed round-trip time (0 / 20 / 50
 *   ms), each;
 * - the limit, in the same run: fetching the same pages without storing + bulk-inserting the same
 *   rows in one transaction (no search index, no outbox overlay), and the ratio of the first sync
 *   to it;
 * - p95 of every view call the screens make (summary, first page, a deep page), and of the whole
 *   views the screens no longer call (kept for tests and the old channels), each after a mark-read,
 *   repeated, and rebuilt;
 * - the short-term search index pass that runs after a commit;
 * - the purchase history export (CSV of every payment): the main thread's longest event-loop delay
 *   while the writer worker builds it (the app) and while the main thread builds it (a host without
 *   a writer).
 * The server and the proxy run in child processes so their work does not count as the app's event-loop delay.
 * Every figure group carries the 1-minute load average (the machine is shared).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startWriterWorker } from '../../electron/core/worker';
import { replaceConsultingServices } from '../../electron/core/db/consulting';
import { replaceCourses } from '../../electron/core/db/courses';
import {
  replaceDigitalProducts,
  replaceEventRegistrations,
} from '../../electron/core/db/entitlements';
import { replaceNotifications, replaceSubscriptions } from '../../electron/core/db/notifications';
import { replacePayments } from '../../electron/core/db/payments';
import { replaceProfile } from '../../electron/core/db/profile';
import { ensureSite } from '../../electron/core/db/sites';
import { createSyncService } from '../../electron/core/sync';
import { createExportHandlers, type ExportFile } from '../../electron/core/export/service';
import type { SaveOutcome } from '../../electron/common/files-and-invites';
import type { SiteSummary } from '../../electron/common/view-models';
import { print } from 'graphql';
import { postGraphQL } from '../../electron/core/net/graphql-post';
import type { Transport } from '../../electron/core/sync/transport';
import { countSnapshot, fetchSnapshot } from '../../electron/core/sync/fetch-snapshot';
import { createTransport, defaultSleep } from '../../electron/core/sync/transport';
import { siteClient } from '../core/sync/helpers/member-token';
import { viewResults } from './sync-views';
import type { BenchResult } from './types';
import {
  PROXY,
  startChild,
  startServer,
  stopChild,
  STAGED_TABLES,
  load,
  LOOP_RESOLUTION_MS,
  loopDelay,
  syncRound,
  timeIt,
  timeAsync,
} from './sync-rounds';
import { openTestDatabase } from '../helpers/db';

export async function run(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'ld-bench-'));
  const { child, url, token } = await startServer();
  try {
    const client = siteClient(url, token);
    const now = new Date();

    // Warm up the connection and the server's caches with one fetch-only pass (not reported).
    await fetchSnapshot(createTransport(client, { sleep: defaultSleep }), {});

    // ---- first sync and no-change re-sync on loopback: the worker (as the app runs it), then the
    // writes on this thread (as before the writer worker), with a screen reading every 50 ms
    results.push({
      name: 'load average (1 min) at the start',
      value: loadavg()[0]!,
      unit: '',
      note: 'timings scale with it',
    });
    let firstSyncRss = process.memoryUsage().rss;
    const rssSampler = setInterval(
      () => (firstSyncRss = Math.max(firstSyncRss, process.memoryUsage().rss)),
      10,
    );
    const worker = await syncRound(dir, 'worker', client, 'worker');
    clearInterval(rssSampler);
    const main = await syncRound(dir, 'main', client, 'main');
    const rows = worker.rows;
    const first = worker.first;
    for (const [label, round] of [
      ['worker', worker],
      ['writes on the main thread (before)', main],
    ] as const) {
      results.push({
        name: `first sync, loopback, ${label}`,
        value: round.first.ms,
        unit: 'ms',
        note: `${rows} rows; ${load()}`,
      });
      results.push({
        name: `  event-loop delay p99 during it, ${label}`,
        value: round.first.p99,
        unit: 'ms',
        note: `max ${round.first.max.toFixed(1)} ms; screen read p95 ${round.first.readP95.toFixed(2)} ms over ${round.first.reads} reads; delay beyond the 5 ms timer; target p99 <= 5, max <= 20, read p95 <= 5`,
      });
      results.push({
        name: `no-change re-sync, loopback, ${label}`,
        value: round.resync.ms,
        unit: 'ms',
        note: `${(round.resync.ms / round.first.ms).toFixed(2)}x the first sync (target <= 0.5); ${load()}`,
      });
      results.push({
        name: `  event-loop delay p99 during it, ${label}`,
        value: round.resync.p99,
        unit: 'ms',
        note: `max ${round.resync.max.toFixed(1)} ms; screen read p95 ${round.resync.readP95.toFixed(2)} ms over ${round.resync.reads} reads`,
      });
    }
    results.push({
      name: 'full first sync throughput (worker)',
      value: rows / (first.ms / 1000),
      unit: 'rows/s',
    });

    // ---- the same through a proxy adding a fixed round-trip time
    for (const rtt of [0, 20, 50]) {
      const proxy = await startChild<{ url: string }>(PROXY, [url, String(rtt)]);
      try {
        const slow = siteClient(proxy.message.url, token);
        // the proxy's connections, warm
        await fetchSnapshot(createTransport(slow, { sleep: defaultSleep }), {});
        const round = await syncRound(dir, `rtt-${rtt}`, slow, 'worker');
        results.push({
          name: `first sync, ${rtt} ms RTT (proxy), worker`,
          value: round.first.ms,
          unit: 'ms',
          note: `${rtt === 50 ? 'target <= 2500 ms; ' : ''}event-loop p99 ${round.first.p99.toFixed(1)} ms, max ${round.first.max.toFixed(1)} ms; ${load()}`,
        });
        results.push({
          name: `no-change re-sync, ${rtt} ms RTT (proxy), worker`,
          value: round.resync.ms,
          unit: 'ms',
          note: `${(round.resync.ms / round.first.ms).toFixed(2)}x the first sync; event-loop p99 ${round.resync.p99.toFixed(1)} ms, max ${round.resync.max.toFixed(1)} ms`,
        });
      } finally {
        stopChild(proxy.child);
      }
    }

    // The views below are measured on a read-write connection of this thread (they write a
    // mark-read between calls).
    const db = openTestDatabase(join(dir, 'worker.db'));
    const sync = createSyncService({ db, clientFor: () => client });

    // ---- the limit: the same pages fetched without storing, the same rows bulk-inserted in one
    // transaction Every connection at once, as the sync fetched before the writer worker (no
    // bound), and nothing stored.
    const fetchOnly = await timeAsync(() =>
      fetchSnapshot(createTransport(client, { sleep: defaultSleep }), { concurrency: 8 }),
    );
    // The same pages with the HTTP client the writer worker sends them with (node:http), parsed on
    // this thread.
    const viaHttp: Transport = {
      async execute(document, variables) {
        const answer = await postGraphQL({
          url: client.endpoint,
          token,
          query: print(document),
          ...(variables ? { variables } : {}),
          signal: new AbortController().signal,
        });
        const body = JSON.parse(Buffer.from(answer.body).toString('utf8')) as {
          data?: unknown;
          errors?: [];
        };
        return { data: (body.data ?? null) as never, errors: body.errors ?? [] };
      },
    };
    const fetchHttp = await timeAsync(() => fetchSnapshot(viaHttp, { concurrency: 8 }));
    const fetchMs = Math.min(fetchOnly.ms, fetchHttp.ms);
    const snap = fetchOnly.value.snapshot;
    const bulk = openTestDatabase(join(dir, 'bulk.db'));
    const insert = timeIt(() =>
      bulk.transaction(() => {
        ensureSite(bulk, 'large');
        replaceProfile(bulk, 'large', snap.profile!);
        replaceCourses(bulk, 'large', snap.courses!);
        replaceDigitalProducts(bulk, 'large', snap.digitalProducts!);
        replaceEventRegistrations(bulk, 'large', snap.eventRegistrations!);
        replaceConsultingServices(bulk, 'large', snap.consultingServices!);
        replacePayments(bulk, 'large', snap.payments!);
        replaceNotifications(bulk, 'large', snap.notifications!);
        replaceSubscriptions(bulk, 'large', snap.subscriptions!);
      })(),
    );
    bulk.close();
    // The limit takes the faster of the two ways to fetch: the sync's own HTTP client must not make
    // it look better.
    const limit = fetchMs + insert.ms;
    results.push({
      name: 'limit: fetch the same pages, no storing',
      value: fetchOnly.ms,
      unit: 'ms',
      note: `${fetchOnly.value.pagesFetched} pages, fetch (undici) and graphql-request`,
    });
    results.push({
      name: "limit: the same with the worker's HTTP client",
      value: fetchHttp.ms,
      unit: 'ms',
      note: `${fetchHttp.value.pagesFetched} pages, node:http and JSON.parse; the limit takes the faster`,
    });
    results.push({
      name: 'limit: bulk-insert the same rows, one transaction',
      value: insert.ms,
      unit: 'ms',
      note: `${Object.values(countSnapshot(snap)).reduce((a, b) => a + b, 0)} rows`,
    });
    results.push({ name: 'limit: fetch + insert', value: limit, unit: 'ms' });
    results.push({
      name: 'full first sync (worker) / limit',
      value: first.ms / limit,
      unit: 'x',
      note: `target <= 1.0; writes on the main thread: ${(main.first.ms / limit).toFixed(2)}x`,
    });
    // The two sync goals bound the first sync from both sides: >= 2x the no-change re-sync (re-sync
    // <= 0.5x) and <= the limit. Both can hold only when twice the re-sync (which is the fetch,
    // nothing written) fits the limit.
    results.push({
      name: 'both sync goals at once: 2 x no-change re-sync / limit',
      value: (2 * worker.resync.ms) / limit,
      unit: 'x',
      note: `both goals can hold only if <= 1.0 (re-sync ${worker.resync.ms.toFixed(0)} ms, limit ${limit.toFixed(0)} ms)`,
    });
    // What inserting each page as it arrives (into staging tables) would leave to the commit:
    // copying the staged rows into the real tables (INSERT ... SELECT, no JS per row), measured
    // from the limit's file.
    const target = openTestDatabase(join(dir, 'copied.db'));
    target.prepare('ATTACH ? AS staged').run(join(dir, 'bulk.db'));
    const copy = timeIt(() =>
      target.transaction(() => {
        ensureSite(target, 'large');
        for (const table of STAGED_TABLES) {
          // Generated columns (pragma hidden 2 and 3) are computed, never inserted.
          const columns = (
            target
              .prepare(`SELECT name FROM pragma_table_xinfo('${table}') WHERE hidden = 0`)
              .all() as { name: string }[]
          )
            .map((c) => c.name)
            .join(', ');
          target
            .prepare(
              `INSERT INTO main.${table} (${columns}) SELECT ${columns} FROM staged.${table}`,
            )
            .run();
        }
      })(),
    );
    target.close();
    results.push({
      name: 'staging bound: copy the staged rows in the commit',
      value: copy.ms,
      unit: 'ms',
      note: `${(copy.ms / insert.ms).toFixed(2)}x the bulk insert: with pages inserted as they arrive, the first sync would be its fetch + this + the search index`,
    });

    results.push({
      name: 'peak RSS (app process) during the first sync',
      value: firstSyncRss / 2 ** 20,
      unit: 'MiB',
      note: 'sampled every 10 ms; the worker thread is in this process',
    });
    results.push({
      name: 'peak RSS (app process) of the whole bench',
      value: process.resourceUsage().maxRSS / 1024,
      unit: 'MiB',
      note: 'incl. the limit passes',
    });

    results.push(...viewResults(db, sync, now));

    // ---- the purchase history export (export:orders-csv, every payment of the large seed): the
    // app builds the CSV on the writer worker's thread; a host without a writer builds it on the
    // main thread. The main thread's event-loop delay during each (the timer runs 20 ms before, so
    // a block at the start is recorded).
    const exportWriter = await startWriterWorker({ file: join(dir, 'worker.db') });
    try {
      const site = () =>
        ({ id: 'large', label: 'Large', baseUrl: 'http://127.0.0.1' }) as SiteSummary;
      let chars = 0;
      const deliver = async (f: ExportFile): Promise<SaveOutcome> => {
        chars = f.body.length;
        return { kind: 'saved', fileName: f.fileName };
      };
      const paths = [
        [
          'writer worker (the app)',
          createExportHandlers({
            db,
            now: () => now,
            site,
            deliver,
            purchaseHistoryCsv: ({ now: at, ...input }) =>
              exportWriter.call('export:orders-csv', { ...input, now: at.toISOString() }),
          }),
        ],
        ['main thread (no writer)', createExportHandlers({ db, now: () => now, site, deliver })],
      ] as const;
      for (const [label, handlers] of [...paths, ...paths]) {
        const loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
        loop.enable();
        await new Promise((r) => setTimeout(r, 20));
        const { ms: elapsed } = await timeAsync(() =>
          handlers['export:orders-csv']({ siteId: 'large', language: 'en' }),
        );
        await new Promise((r) => setTimeout(r, 20));
        loop.disable();
        results.push({
          name: `export purchases CSV, ${label}`,
          value: loopDelay(loop.max),
          unit: 'ms',
          note: `main event-loop delay max (beyond the 5 ms timer); the export took ${elapsed.toFixed(0)} ms, ${chars} characters`,
        });
      }
    } finally {
      await exportWriter.close();
    }

    results.push({
      name: 'load average (1 min) at the end',
      value: loadavg()[0]!,
      unit: '',
      note: 'shared machine: other engineers run tests too',
    });
    await sync.close();
    db.close();
  } finally {
    stopChild(child);
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const r of await run())
    console.log(
      `${r.name.padEnd(52)} ${r.value.toFixed(2).padStart(10)} ${r.unit}${r.note ? `  (${r.note})` : ''}`,
    );
}
