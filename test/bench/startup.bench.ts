/**
 * Start-up and search benchmark: the student's first second, as figures and ratios to the same
 * run's floor. Reports, never asserts.
 * - How cost grows with the data: the `large` seed at 1x, 2x, 4x and 8x (courses, payments,
 *   notifications; 60 lectures a course) synced into a fresh file as the app does it (writer
 *   worker, read connection): first sync time, database and WAL size once the sync's post-commit
 *   work is done, p95 of the views the first screens read, and p95 of the core's search call for
 *   common words. At 8x, four more sites (1x each) join the same file: the search figures "(8x, 5
 *   sites)" search the 8x site among them; "search everything" is the search screen's own call,
 *   every kind of every school in the file (1 site, then 5 at 8x).
 * - Cold start: the browser host as `npm run demo` runs it (the esbuild bundle, plain Node) spawned
 *   on the 1x and the 8x data folder with the site's server gone (network off), to the first course
 *   card painted in Chromium (already running, as a window would be) on the screen the app opens on
 *   (Today's "Continue learning"); the host's RSS at that moment. Against the floor of the same
 *   run:
 *   plain Node opening the database and reading the library's first page (bundled, spawned, to its exit) plus
 *   Chromium loading an empty page to its first paint; `node -e ''` beside it.
 * - Search in the window: on the 8x, 5-site folder, a word typed key by key (100 ms apart); from
 *   the last key's event to the frame after its results are on screen (SearchScreen's
 *   data-results-for).
 * Every group carries the 1-minute load average: the machine is shared.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from '@playwright/test';
import { build } from 'esbuild';
import type { SiteRecord } from '../../electron/core/sites/site-store';
import { createSiteStore } from '../../electron/core/sites/site-store';
import {
  getBillingSummary,
  getLibraryPage,
  getNotificationsPage,
  getNotificationsSummary,
  openReadConnection,
  search,
  searchEverything,
  SEARCH_LIMIT,
  SEARCH_PER_KIND,
} from '../../electron/core/db';
import { startWriterWorker } from '../../electron/core/worker';
import { createSyncService } from '../../electron/core/sync';
import { siteClient } from '../core/sync/helpers/member-token';
import { ensureBrowserHost } from '../../scripts/browser-host-build.mjs';
import {
  chromiumFloor,
  lastKeyToResults,
  medianOf,
  spawnToExit,
  type Host,
} from './startup/host-window';
import { coldStartFigures } from './startup/cold-starts';
import { collectGarbage, percentile, type BenchResult } from './types';

const SERVER = fileURLToPath(new URL('./startup/scaled-server.ts', import.meta.url));
const FLOOR_SOURCE = fileURLToPath(new URL('./startup/floor-library.ts', import.meta.url));
/**
 * The data multiples (LD_BENCH_SCALES=1,2 for a quick look); the largest gets four more sites and
 * the window's search.
 */
const SCALES = (process.env.LD_BENCH_SCALES ?? '1,2,4,8').split(',').map(Number);
const BIG = SCALES[SCALES.length - 1]!;
const chromiumPath =
  process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);
/**
 * Words a student types that match most rows (every lecture, every course, every section; CJK too).
 */
const COMMON_WORDS = ['Lecture', 'Course', 'Section', '課程', '第', 'Bulk'];
const COLD_STARTS = Number(process.env.LD_BENCH_COLD_STARTS ?? 5);
const MiB = 2 ** 20;

const load = () => `load ${loadavg()[0]!.toFixed(2)}`;
const median = (values: readonly number[]) => percentile(values, 50);

async function startServer(
  scale: number,
): Promise<{ child: ChildProcess; url: string; token: string }> {
  return new Promise((resolve, reject) => {
    const child = fork(SERVER, [String(scale)], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    child.once('message', (m: { url: string; token: string }) =>
      resolve({ child, url: m.url, token: m.token }),
    );
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`scaled server exited with ${code}`)));
  });
}

function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  if (child.connected) {
    child.send({ type: 'stop' });
    child.disconnect();
  } else child.kill('SIGTERM');
  return exited;
}

const size = (file: string) => (existsSync(file) ? statSync(file).size : 0);

function p95Of(fn: () => unknown, runs: number): { p95: number; max: number } {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  return { p95: percentile(times, 95), max: Math.max(...times) };
}

/** The search figures on a read connection: each common word, 20 times after one warm-up call. */
function searchFigures(
  db: ReturnType<typeof openReadConnection>,
  siteId: string,
): { p95: number; max: number } {
  const times: number[] = [];
  for (const word of COMMON_WORDS) {
    search(db, siteId, word);
    for (let i = 0; i < 20; i++) {
      const t0 = performance.now();
      search(db, siteId, word);
      times.push(performance.now() - t0);
    }
  }
  return { p95: percentile(times, 95), max: Math.max(...times) };
}

/**
 * The common words and an order number's prefix every bulk order shares (the large seed's
 * T2025B...).
 */
const EVERYTHING_WORDS = [...COMMON_WORDS, 'T2025B'];

/**
 * The search screen's call (search:query without a school or kind): every kind (courses, lectures,
 * instructors, orders, payments, products, events, consulting, notices) of every school in the
 * file, as many hits as it shows.
 */
function everythingFigures(db: ReturnType<typeof openReadConnection>): {
  p95: number;
  max: number;
} {
  const siteIds = db.prepare('SELECT id FROM sites').pluck().all() as string[];
  const scope = { siteIds, limit: SEARCH_LIMIT, perKind: SEARCH_PER_KIND };
  const times: number[] = [];
  for (const word of EVERYTHING_WORDS) {
    searchEverything(db, word, scope);
    for (let i = 0; i < 20; i++) {
      const t0 = performance.now();
      searchEverything(db, word, scope);
      times.push(performance.now() - t0);
    }
  }
  return { p95: percentile(times, 95), max: Math.max(...times) };
}

interface SyncedFolder {
  readonly dir: string;
  readonly sites: { readonly id: string; readonly url: string }[];
}

/**
 * A first sync of `url` into `file` as site `siteId`, as the app runs it; returns its time once its
 * post-commit work is done.
 */
async function firstSync(
  file: string,
  siteId: string,
  url: string,
  token: string,
): Promise<{ ms: number; rows: number }> {
  const writer = await startWriterWorker({ file });
  const db = openReadConnection(file);
  writer.attachReader(db);
  const sync = createSyncService({ db, writer, clientFor: () => siteClient(url, token) });
  collectGarbage();
  const t0 = performance.now();
  const summary = await sync.syncNow(siteId);
  const ms = performance.now() - t0;
  if (summary.outcome !== 'completed')
    throw new Error(`sync ${summary.outcome}: ${summary.error?.message}`);
  // The post-commit work the app runs after every commit, to its end: the short search terms
  // indexed a step at a time (the last step truncates the WAL). The service's own pass runs beside
  // it; close() would stop that one early.
  while ((await writer.call('search:index-step', { maxRows: 4000 })) === 4000);
  await sync.close();
  await writer.close();
  db.close();
  return { ms, rows: Object.values(summary.counts).reduce((a, b) => a + b, 0) };
}

/**
 * sites.json for a folder whose sites were synced and whose server is gone (the network is off).
 */
async function writeSites(
  dir: string,
  sites: readonly { id: string; url: string }[],
): Promise<void> {
  const records: SiteRecord[] = sites.map((s, i) => ({
    id: s.id,
    label: `School ${i + 1}`,
    baseUrl: s.url,
    clientId: 'bench',
    confidential: false,
    isDemo: false,
    // Signed out by the site (no token in the vault): the offline data is shown, nothing is sent.
    status: 'sign-in-needed',
    schoolId: null,
    subdomain: null,
    profile: null,
    grantedScopes: [],
    missingScopes: [],
    metadata: null,
    addedAt: new Date().toISOString(),
  }));
  await createSiteStore(dir).save(records);
}

// ---------------------------------------------------------------- the run

export async function run(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const root = mkdtempSync(join(tmpdir(), 'ld-bench-startup-'));
  const servers: ChildProcess[] = [];
  let browser: Browser | null = null;
  const hosts: Host[] = [];
  try {
    results.push({
      name: 'load average (1 min) at the start',
      value: loadavg()[0]!,
      unit: '',
      note: 'timings scale with it',
    });

    // ---- how cost grows with the data
    const folders = new Map<number, SyncedFolder>();
    let oneX: { url: string; token: string } | null = null;
    const firstSyncs: number[] = [];
    for (const scale of SCALES) {
      const server = await startServer(scale);
      servers.push(server.child);
      if (scale === 1) oneX = server;
      const dir = join(root, `${scale}x`);
      const file = join(dir, 'offline.db');
      mkdirSync(dir);
      const synced = await firstSync(file, 'site-1', server.url, server.token);
      firstSyncs.push(synced.ms);
      const sites = [{ id: 'site-1', url: server.url }];
      const db = openReadConnection(file);
      const now = new Date();
      const views = [
        p95Of(() => getLibraryPage(db, 'site-1', now, { offset: 0, limit: 50 }), 30),
        p95Of(() => getBillingSummary(db, 'site-1', now), 30),
        p95Of(() => getNotificationsPage(db, 'site-1', { offset: 0, limit: 50 }), 30),
        p95Of(() => getNotificationsSummary(db, 'site-1'), 30),
      ];
      const searched = searchFigures(db, 'site-1');
      const everything = everythingFigures(db);
      db.close();
      const [dbBytes, walBytes] = [size(file), size(`${file}-wal`)];
      results.push({
        name: `first sync (${scale}x)`,
        value: synced.ms,
        unit: 'ms',
        note: `${synced.rows} rows; ${((synced.ms / synced.rows) * 1000).toFixed(1)} µs a row; ${load()}`,
      });
      results.push({
        name: `  database size (${scale}x)`,
        value: dbBytes / MiB,
        unit: 'MiB',
        note: `WAL ${(walBytes / MiB).toFixed(2)} MiB after the sync = ${(walBytes / dbBytes).toFixed(3)}x`,
      });
      results.push({
        name: `  view p95, worst of 4 first-screen views (${scale}x)`,
        value: Math.max(...views.map((v) => v.p95)),
        unit: 'ms',
        note: 'library page, billing summary, inbox page, inbox summary',
      });
      results.push({
        name: `  search: core call p95, common words (${scale}x, 1 site)`,
        value: searched.p95,
        unit: 'ms',
        note: `max ${searched.max.toFixed(1)} ms; ${COMMON_WORDS.join(', ')}`,
      });
      results.push({
        name: `search everything: core call p95, every kind (${scale}x, 1 site)`,
        value: everything.p95,
        unit: 'ms',
        note: `max ${everything.max.toFixed(1)} ms; the search screen's call; ${EVERYTHING_WORDS.join(', ')}`,
      });
      if (scale === BIG) {
        results.push({
          name: 'disk: WAL after sync / database',
          value: walBytes / dbBytes,
          unit: 'x',
          note: `${BIG}x: WAL ${(walBytes / MiB).toFixed(2)} MiB, database ${(dbBytes / MiB).toFixed(1)} MiB; target <= 0.1`,
        });
        // Four more sites, from the 1x server, in the same file.
        for (let i = 2; i <= 5; i++) {
          await firstSync(file, `site-${i}`, oneX!.url, oneX!.token);
          sites.push({ id: `site-${i}`, url: oneX!.url });
        }
        const five = openReadConnection(file);
        const searched5 = searchFigures(five, 'site-1');
        const searched5small = searchFigures(five, 'site-2');
        const everything5 = everythingFigures(five);
        five.close();
        results.push({
          name: `search: core call p95, common words (${BIG}x, 5 sites)`,
          value: searched5.p95,
          unit: 'ms',
          note: `max ${searched5.max.toFixed(1)} ms (the longest any other call waits behind it); target <= 20; ${load()}`,
        });
        results.push({
          name: '  the same, a 1x site among them',
          value: searched5small.p95,
          unit: 'ms',
          note: `max ${searched5small.max.toFixed(1)} ms`,
        });
        results.push({
          name: `search everything: core call p95, every kind and school (${BIG}x, 5 sites)`,
          value: everything5.p95,
          unit: 'ms',
          note: `max ${everything5.max.toFixed(1)} ms; the search screen's call over all 5 schools; target <= 20; ${load()}`,
        });
      }
      folders.set(scale, { dir, sites });
      if (scale !== 1) {
        await stopServer(server.child);
      }
    }
    results.push({
      name: `first sync ${BIG}x / (${BIG} x first sync 1x)`,
      value: firstSyncs[firstSyncs.length - 1]! / (BIG * firstSyncs[0]!),
      unit: 'x',
      note: `${SCALES.map((k, i) => `${k}x ${(firstSyncs[i]! / (k * firstSyncs[0]!)).toFixed(2)}`).join(', ')}; 1.0 = linear`,
    });
    // The network is off for the starts: every site's server is gone.
    for (const s of servers) await stopServer(s);
    for (const [scale, folder] of folders)
      if (scale === 1 || scale === BIG) await writeSites(folder.dir, folder.sites);

    // ---- the floor
    const entry = (await ensureBrowserHost()) as string;
    // Inside the repository, where Node finds better-sqlite3 (node_modules), as it does for the
    // host's bundle; in out/, with the other build output (not linted, not committed).
    mkdirSync(join('out', 'bench'), { recursive: true });
    const floorScript = join(process.cwd(), 'out', 'bench', 'floor-library.mjs');
    await build({
      entryPoints: [FLOOR_SOURCE],
      outfile: floorScript,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      external: ['better-sqlite3'],
      logLevel: 'warning',
    });
    const nodeEmpty = await medianOf(COLD_STARTS, () => spawnToExit(['-e', '']));
    const nodeLibrary1 = await medianOf(COLD_STARTS, () =>
      spawnToExit([floorScript, join(folders.get(1)!.dir, 'offline.db'), 'site-1']),
    );
    const nodeLibrary8 = await medianOf(COLD_STARTS, () =>
      spawnToExit([floorScript, join(folders.get(BIG)!.dir, 'offline.db'), 'site-1']),
    );
    browser = await chromium.launch(chromiumPath ? { executablePath: chromiumPath } : {});
    const chromiumEmpty = await chromiumFloor(browser, COLD_STARTS);
    results.push({ name: 'floor: node -e ""', value: nodeEmpty, unit: 'ms', note: load() });
    results.push({
      name: `floor: plain Node opens the database, reads the library (1x / ${BIG}x)`,
      value: nodeLibrary1,
      unit: 'ms',
      note: `${BIG}x: ${nodeLibrary8.toFixed(0)} ms`,
    });
    results.push({
      name: 'floor: Chromium loads an empty page to its first frame',
      value: chromiumEmpty,
      unit: 'ms',
    });

    // ---- cold starts, 1x and 8x alternating; the last 8x host stays up for the search in the
    // window
    const cold = await coldStartFigures({
      browser,
      entry,
      dirs: new Map([1, BIG].map((scale) => [scale, folders.get(scale)!.dir])),
      floors: new Map([
        [1, nodeLibrary1 + chromiumEmpty],
        [BIG, nodeLibrary8 + chromiumEmpty],
      ]),
      runs: COLD_STARTS,
      big: BIG,
    });
    results.push(...cold.results);
    hosts.push(cold.searchHost.host);
    const searchHost = cold.searchHost;

    // ---- search in the window: 8x, 5 sites
    const { page } = searchHost;
    const delays: number[] = [];
    for (let round = 0; round < 3; round++)
      for (const word of ['Lecture', 'Course', 'Section'])
        delays.push(await lastKeyToResults(page, word));
    results.push({
      name: `search: last key to results (${BIG}x, 5 sites)`,
      value: median(delays),
      unit: 'ms',
      note: `median of ${delays.length}, max ${Math.max(...delays).toFixed(0)} ms; keys 100 ms apart; target <= 100; ${load()}`,
    });
    return results;
  } finally {
    for (const h of hosts) await h.close();
    await browser?.close();
    for (const s of servers) await stopServer(s);
    rmSync(root, { recursive: true, force: true });
  }
}
