/**
 * (e) Hostile sites against the real sync (the writer worker on a real SQLite file, both HTTP
 * paths: the worker's node:http and this thread's fetch), each served by a small hostile server on
 * 127.0.0.1:
 *   - a 200 MB page (and a gzip bomb on the fetch path, which decodes content-encodings);
 *   - endless paging with fresh cursors (every page 50 notices): the notice history is kept to its
 *     newest pages (part-queries.ts keepsNewest), so the sync completes with at most the page bound
 *     of them;
 *   - a slow drip: one byte every 500 ms, never ending (the request's deadline scaled with --scale).
 * Measured: the process's peak RSS over its level before the run (the worker thread is in this process), how long
 * the sync took to stop, and whether it stopped with the clear message (site-data-invalid, or the deadline's).
 * Failures: a sync that did not stop as expected (failed with another code, or the endless history
 * not completed), kept more notices than the page bound, or grew the RSS past the stated bound.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { openReadConnection } from '../../electron/core/db';
import { MAX_PAGES_PER_PART } from '../../electron/core/net/site-data';
import { createSyncService } from '../../electron/core/sync';
import type { SiteClient } from '../../electron/core/sync/transport';
import { startWriterWorker } from '../../electron/core/worker';
import type { SoakResult } from './common';

/**
 * The stated bound: a hostile site grows the app's memory by less than this (answers are cut at 16
 * MiB).
 */
export const RSS_BOUND_MB = 256;

type Behaviour = 'huge' | 'gzip-bomb' | 'endless' | 'drip';

const empty = (field: string) =>
  JSON.stringify({
    data: {
      viewer: {
        [field]: { totalCount: 0, pageInfo: { hasNextPage: false, endCursor: null }, nodes: [] },
      },
    },
  });
const EMPTY_ANSWERS: Record<string, string> = {
  SyncProfile: JSON.stringify({
    data: {
      viewer: { id: 'u1', name: 'Student', email: 's@example.com', avatar: null, schools: [] },
    },
  }),
  SyncCourses: empty('enrolledCourses'),
  SyncDigitalProducts: empty('digitalProducts'),
  SyncConsultingServices: empty('consultingServices'),
  SyncEventRegistrations: empty('eventRegistrations'),
  SyncPayments: empty('payments'),
  SyncNotifications: empty('notifications'),
  SyncNotificationSubscriptions: JSON.stringify({
    data: { viewer: { notificationSubscriptions: [] } },
  }),
};

/**
 * A hostile member endpoint: every operation answers empty, except the one the behaviour takes
 * over.
 */
async function hostileServer(
  behaviour: Behaviour,
): Promise<{ url: string; close(): Promise<void> }> {
  const timers = new Set<NodeJS.Timeout>();
  let page = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const query =
        (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { query?: string }).query ?? '';
      const operation = /\bquery\s+([A-Za-z0-9_]+)/.exec(query)?.[1] ?? '';
      if (behaviour === 'huge' && operation === 'SyncCourses') {
        res.writeHead(200, { 'content-type': 'application/json' });
        const head =
          '{"data":{"viewer":{"enrolledCourses":{"totalCount":1,"pageInfo":{"hasNextPage":false,"endCursor":null},"nodes":[{"title":"';
        const filler = Buffer.alloc(64 * 1024, 0x61);
        let sent = 0;
        const body = new Readable({
          read() {
            if (sent === 0) this.push(head);
            if (sent >= 200 * 1024 * 1024) return void (this.push('"}]}}}}'), this.push(null));
            sent += filler.length;
            this.push(filler);
          },
        });
        body.pipe(res);
        res.on('close', () => body.destroy());
        return;
      }
      if (behaviour === 'gzip-bomb' && operation === 'SyncCourses') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        const spaces = Buffer.alloc(1024 * 1024, 0x20);
        let first = true;
        const source = new Readable({
          read() {
            this.push(first ? Buffer.concat([Buffer.from('{"data":'), spaces]) : spaces);
            first = false;
          },
        });
        const gzip = createGzip({ level: 9 });
        source.pipe(gzip).pipe(res);
        res.on('close', () => (source.destroy(), gzip.destroy()));
        return;
      }
      if (behaviour === 'endless' && operation === 'SyncNotifications') {
        page += 1;
        const nodes = Array.from({ length: 50 }, (_, i) => ({
          id: `n${page}-${i}`,
          kind: 'announcement',
          title: `Notice ${page}-${i}`,
          body: 'x'.repeat(150),
          url: null,
          createdAt: '2026-01-01T00:00:00.000Z',
          readAt: null,
        }));
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            data: {
              viewer: {
                notifications: {
                  totalCount: 1e9,
                  pageInfo: { hasNextPage: true, endCursor: `cursor-${page}` },
                  nodes,
                },
              },
            },
          }),
        );
        return;
      }
      if (behaviour === 'drip' && operation === 'SyncPayments') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"data":{"viewer":{"payments":{"nodes":[');
        const timer = setInterval(
          () => (res.destroyed ? (clearInterval(timer), timers.delete(timer)) : res.write(' ')),
          500,
        );
        timers.add(timer);
        return;
      }
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(EMPTY_ANSWERS[operation] ?? '{"data":null}');
    });
  });
  const sockets = new Set<Socket>();
  server.on('connection', (s) => (sockets.add(s), s.on('close', () => sockets.delete(s))));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      for (const t of timers) clearInterval(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function clientFor(url: string, path: 'worker' | 'fetch'): SiteClient {
  const bearer: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', 'Bearer soak');
    return fetch(input, { ...init, headers });
  };
  // As app-core builds it: with `sendWith`, the writer worker sends the pages itself (the token
  // manager's rules reduced to one fixed token here: the hostile server does not check it).
  const sendWith: SiteClient['sendWith'] = (target, send) => send('soak', String(target));
  return {
    endpoint: `${url}/member/graphql`,
    fetch: bearer,
    ...(path === 'worker' ? { sendWith } : {}),
  };
}

interface Trial {
  readonly code: string | null;
  readonly message: string;
  readonly seconds: number;
  readonly peakMb: number;
  readonly absoluteMb: number;
  /** Notices in the copy after the sync. */
  readonly kept: number;
}

/** The most notices an endless history may leave: the page bound's pages of 50. */
const KEPT_BOUND = MAX_PAGES_PER_PART * 50;

async function trial(
  behaviour: Behaviour,
  path: 'worker' | 'fetch',
  deadlineMs: number,
): Promise<Trial> {
  const site = await hostileServer(behaviour);
  const dir = mkdtempSync(join(tmpdir(), 'ld-soak-hostile-'));
  const file = join(dir, 'offline.db');
  const writer = await startWriterWorker({ file });
  const db = openReadConnection(file);
  writer.attachReader(db);
  const sync = createSyncService({
    db,
    writer,
    clientFor: () => clientFor(site.url, path),
    requestDeadlineMs: deadlineMs,
    sleep: async () => {},
  });
  global.gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const started = performance.now();
  try {
    const summary = await sync.syncNow('hostile');
    return {
      code:
        summary.outcome === 'failed' ? (summary.error?.code ?? null) : `outcome ${summary.outcome}`,
      message: summary.error?.message ?? '',
      seconds: (performance.now() - started) / 1000,
      peakMb: (peak - base) / 1024 / 1024,
      absoluteMb: peak / 1024 / 1024,
      kept: (db.prepare('SELECT count(*) AS n FROM notifications').get() as { n: number }).n,
    };
  } finally {
    clearInterval(sampler);
    await sync.close();
    await writer.close();
    db.close();
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const EXPECTED: Record<Behaviour, { code: string; message: RegExp }> = {
  huge: { code: 'site-data-invalid', message: /cannot read/ },
  'gzip-bomb': { code: 'site-data-invalid', message: /cannot read/ },
  endless: { code: 'outcome completed', message: /^$/ },
  drip: { code: 'server-error', message: /took longer than/ },
};

/**
 * Runs every behaviour on both paths (the bomb on fetch only: the worker asks for no encoding),
 * `rounds` times.
 */
export async function hostileSites(rounds: number, deadlineMs: number): Promise<SoakResult[]> {
  const plan: [Behaviour, 'worker' | 'fetch'][] = [
    ['huge', 'worker'],
    ['huge', 'fetch'],
    ['gzip-bomb', 'fetch'],
    ['endless', 'worker'],
    ['endless', 'fetch'],
    ['drip', 'worker'],
    ['drip', 'fetch'],
  ];
  const results: SoakResult[] = [];
  for (const [behaviour, path] of plan) {
    const trials: Trial[] = [];
    for (let i = 0; i < rounds; i++) trials.push(await trial(behaviour, path, deadlineMs));
    const expected = EXPECTED[behaviour];
    const row = {
      site: behaviour,
      path,
      runs: trials.length,
      'not stopped or wrong code': trials.filter((t) => t.code !== expected.code).length,
      'unclear message': trials.filter((t) => !expected.message.test(t.message)).length,
      [`RSS growth over ${RSS_BOUND_MB} MB`]: trials.filter((t) => t.peakMb > RSS_BOUND_MB).length,
      [`notices kept over ${KEPT_BOUND}`]: trials.filter((t) => t.kept > KEPT_BOUND).length,
      'notices kept (max)': Math.max(...trials.map((t) => t.kept)),
      'peak RSS growth MB (max)': Math.round(Math.max(...trials.map((t) => t.peakMb))),
      'peak RSS MB (max)': Math.round(Math.max(...trials.map((t) => t.absoluteMb))),
      'stopped after s (max)': Math.max(...trials.map((t) => t.seconds)).toFixed(1),
      code: trials[0]?.code ?? '',
      message: trials[0]?.message ?? '',
    };
    results.push({
      name: `(e) hostile site: ${behaviour}, ${path}`,
      row,
      failures: [
        'not stopped or wrong code',
        'unclear message',
        `RSS growth over ${RSS_BOUND_MB} MB`,
        `notices kept over ${KEPT_BOUND}`,
      ],
    });
  }
  return results;
}
