import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { ServerResponse } from 'node:http';
import { describe, expect, it, onTestFinished } from 'vitest';
import { getLibrary, getNotificationsPage } from '../../electron/core/db';
import { createSyncService } from '../../electron/core/sync';
import type { SiteClient } from '../../electron/core/sync/transport';
import { openWorkerDb, startSite } from '../core/sync/helpers/setup';
import { deepArrayText, startHostileSite, type HostileSite } from './helpers/hostile-site';

/**
 * A broken or hostile school site against the real sync: real HTTP on 127.0.0.1 (the embedded
 * server behind a proxy that takes over some answers), the real writer worker on a real SQLite
 * file, the real transport. Each refusal is `site-data-invalid` or a deadline, the site's last good
 * copy stays, and nothing is retried in a loop.
 */
const NOW = new Date('2026-06-01T00:00:00.000Z');
const noSleep = async () => {};

async function worker() {
  const opened = await openWorkerDb();
  return opened;
}

function syncOf(
  db: Awaited<ReturnType<typeof worker>>,
  clients: Record<string, SiteClient>,
  extra: { requestDeadlineMs?: number } = {},
) {
  const sync = createSyncService({
    db: db.db,
    writer: db.writer,
    clientFor: (id) => clients[id]!,
    sleep: noSleep,
    ...extra,
  });
  onTestFinished(() => sync.close());
  return sync;
}

/** Sends `text` as a 200 JSON answer. */
const sendJson = (res: ServerResponse, text: string) =>
  res.writeHead(200, { 'content-type': 'application/json' }).end(text);

/**
 * An answer of `bytes` bytes that never ends being JSON until its last byte: a page of one huge
 * string.
 */
function hugeAnswer(bytes: number): Readable {
  const head = Buffer.from(
    '{"data":{"viewer":{"enrolledCourses":{"totalCount":1,"pageInfo":{"hasNextPage":false,"endCursor":null},"nodes":[{"title":"',
  );
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  let sent = 0;
  return new Readable({
    read() {
      if (sent === 0) this.push(head);
      if (sent >= bytes) {
        this.push('"}]}}}}');
        this.push(null);
        return;
      }
      sent += chunk.length;
      this.push(chunk);
    },
  });
}

describe.each([
  ['the writer worker sends the pages (node:http)', 'client'],
  ['this thread fetches the pages (fetch)', 'fetchClient'],
] as const)('a hostile site, %s', (_name, which) => {
  const clientOf = (site: HostileSite) => site[which];

  it("a value 50,000 arrays deep is refused as the site's data; an honest site syncing at the same time is untouched; the writer never stops", async () => {
    const hostile = await startHostileSite();
    const honest = await startSite({ site: 'demo' });
    const db = await worker();
    const sync = syncOf(db, { hostile: clientOf(hostile), honest: honest.client });
    // A last good copy first.
    expect((await sync.syncNow('hostile')).outcome).toBe('completed');
    const library = getLibrary(db.db, 'hostile', NOW);

    hostile.rewrite('SyncCourses', (answer) => {
      const page = (
        answer.data as { viewer: { enrolledCourses: { nodes: { description: unknown }[] } } }
      ).viewer.enrolledCourses;
      page.nodes[0]!.description = '__DEEP__';
      return JSON.stringify(answer).replace('"__DEEP__"', deepArrayText(50_000));
    });
    const [bad, good] = await Promise.all([sync.syncNow('hostile'), sync.syncNow('honest')]);
    expect(bad).toMatchObject({ outcome: 'failed', error: { code: 'site-data-invalid' } });
    expect(good).toMatchObject({ outcome: 'completed', error: null });
    expect(db.writer.restarts).toBe(0);
    // Refused as a whole: the hostile site's copy is the last good one.
    expect(getLibrary(db.db, 'hostile', NOW)).toEqual(library);
    expect((await sync.syncNow('honest')).outcome).toBe('completed');
    // The site mended: it syncs again.
    hostile.takeOver(null);
    expect((await sync.syncNow('hostile')).outcome).toBe('completed');
  });

  it('endless paging with fresh cursors stops at the page bound with site-data-invalid', async () => {
    const hostile = await startHostileSite();
    const db = await worker();
    const sync = syncOf(db, { hostile: clientOf(hostile) });
    let n = 0;
    hostile.takeOver((req, res) => {
      if (req.operation !== 'SyncNotifications') return false;
      n += 1;
      sendJson(
        res,
        JSON.stringify({
          data: {
            viewer: {
              notifications: {
                totalCount: 1e9,
                pageInfo: { hasNextPage: true, endCursor: `c${n}` },
                nodes: [],
              },
            },
          },
        }),
      );
      return true;
    });
    const summary = await sync.syncNow('hostile');
    expect(summary).toMatchObject({ outcome: 'failed', error: { code: 'site-data-invalid' } });
    // The bound (site-data.ts MAX_PAGES_PER_PART), give or take the pages asked for ahead.
    expect(n).toBeGreaterThanOrEqual(1000);
    expect(n).toBeLessThanOrEqual(1010);
  });

  it('a very long notice history (10,000 pages of 100): the newest that fit are kept, said once, and the rest of the sync completes', async () => {
    const hostile = await startHostileSite();
    const db = await worker();
    const sync = syncOf(db, { hostile: clientOf(hostile) });
    const PAGES = 10_000;
    const PER_PAGE = 100;
    let asked = 0;
    hostile.takeOver((req, res) => {
      if (req.operation !== 'SyncNotifications') return false;
      asked += 1;
      const page =
        req.variables.after === null || req.variables.after === undefined
          ? 0
          : Number(String(req.variables.after).slice(1));
      // Newest first: notice n was created n minutes before the first one.
      const nodes = Array.from({ length: PER_PAGE }, (_, i) => {
        const n = page * PER_PAGE + i;
        return {
          id: `ntf_${n}`,
          kind: 'announcement',
          title: `Notice ${n}`,
          body: '',
          url: null,
          createdAt: new Date(Date.UTC(2026, 4, 1) - n * 60_000).toISOString(),
          readAt: '2026-05-01T00:00:00.000Z',
        };
      });
      const hasNextPage = page + 1 < PAGES;
      sendJson(
        res,
        JSON.stringify({
          data: {
            viewer: {
              notifications: {
                totalCount: PAGES * PER_PAGE,
                pageInfo: { hasNextPage, endCursor: hasNextPage ? `p${page + 1}` : null },
                nodes,
              },
            },
          },
        }),
      );
      return true;
    });
    const summary = await sync.syncNow('hostile');
    expect(summary).toMatchObject({
      outcome: 'completed',
      error: null,
      keptNewest: [{ part: 'notifications', kept: 100_000 }],
    });
    // Stopped at the page bound (site-data.ts MAX_PAGES_PER_PART), give or take the pages asked for
    // ahead.
    expect(asked).toBeGreaterThanOrEqual(1000);
    expect(asked).toBeLessThanOrEqual(1010);
    // The newest are the ones kept, and everything else of the school synced as usual.
    const kept = getNotificationsPage(db.db, 'hostile', { offset: 0, limit: 1 });
    expect(kept.total).toBe(100_000);
    expect(kept.items[0]?.id).toBe('ntf_0');
    expect(getLibrary(db.db, 'hostile', NOW).length).toBeGreaterThan(0);
    // Said once, where the screens read the site's state: a note, not an error.
    expect(sync.status('hostile')).toMatchObject({
      lastError: null,
      keptNewest: [{ part: 'notifications', kept: 100_000 }],
    });
    // A school whose history shrinks back under the bound: no note any more.
    hostile.takeOver(null);
    expect((await sync.syncNow('hostile')).keptNewest).toBeUndefined();
    expect(sync.status('hostile').keptNewest).toEqual([]);
  }, 120_000);

  it('two cursors taking turns (or one coming back) are a cycle, refused at once', async () => {
    const hostile = await startHostileSite();
    const db = await worker();
    const sync = syncOf(db, { hostile: clientOf(hostile) });
    let n = 0;
    hostile.takeOver((req, res) => {
      if (req.operation !== 'SyncPayments') return false;
      n += 1;
      const next = req.variables.after === 'a' ? 'b' : 'a';
      sendJson(
        res,
        JSON.stringify({
          data: {
            viewer: {
              payments: {
                totalCount: 2,
                pageInfo: { hasNextPage: true, endCursor: next },
                nodes: [],
              },
            },
          },
        }),
      );
      return true;
    });
    const summary = await sync.syncNow('hostile');
    expect(summary).toMatchObject({ outcome: 'failed', error: { code: 'site-data-invalid' } });
    expect(n).toBeLessThanOrEqual(3 + 4);
  });

  it('one byte every 100 ms: the request is given up at its total deadline, once (not retried), with a clear message', async () => {
    const hostile = await startHostileSite();
    const db = await worker();
    const sync = syncOf(db, { hostile: clientOf(hostile) }, { requestDeadlineMs: 1500 });
    const drips: NodeJS.Timeout[] = [];
    onTestFinished(() => drips.forEach(clearInterval));
    hostile.takeOver((req, res) => {
      if (req.operation !== 'SyncPayments') return false;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data":{"viewer":{"payments":{"nodes":[');
      const drip = setInterval(() => (res.destroyed ? clearInterval(drip) : res.write(' ')), 100);
      drips.push(drip);
      return true;
    });
    const started = performance.now();
    const summary = await sync.syncNow('hostile');
    const took = performance.now() - started;
    expect(summary).toMatchObject({ outcome: 'failed', error: { code: 'server-error' } });
    expect(summary.error?.message).toMatch(/took longer than 2 s/);
    expect(hostile.seen.get('SyncPayments')).toBe(1);
    // The idle timeout (60 s) never fires on a drip: only the deadline can have ended it.
    expect(took).toBeLessThan(30_000);
  });

  it('a 200 MB page is refused while it streams (the site cannot finish sending it)', async () => {
    const hostile = await startHostileSite();
    const db = await worker();
    const sync = syncOf(db, { hostile: clientOf(hostile) });
    let written = 0;
    hostile.takeOver((req, res) => {
      if (req.operation !== 'SyncCourses') return false;
      res.writeHead(200, { 'content-type': 'application/json' });
      const body = hugeAnswer(200 * 1024 * 1024);
      body.on('data', (c: Buffer) => (written += c.length));
      body.pipe(res);
      res.on('close', () => body.destroy());
      return true;
    });
    const summary = await sync.syncNow('hostile');
    expect(summary).toMatchObject({ outcome: 'failed', error: { code: 'site-data-invalid' } });
    // The limit is 16 MiB; what the site pushed past it sat in socket buffers when the app hung up.
    expect(written).toBeLessThan(64 * 1024 * 1024);
  });

  it('an error answer of 200 MB is read only to its start', async () => {
    const hostile = await startHostileSite();
    const db = await worker();
    const sync = syncOf(db, { hostile: clientOf(hostile) });
    let written = 0;
    hostile.takeOver((req, res) => {
      if (req.operation !== 'SyncCourses') return false;
      res.writeHead(500, { 'content-type': 'text/plain' });
      const body = hugeAnswer(200 * 1024 * 1024);
      body.on('data', (c: Buffer) => (written += c.length));
      body.pipe(res);
      res.on('close', () => body.destroy());
      return true;
    });
    const summary = await sync.syncNow('hostile');
    expect(summary).toMatchObject({ outcome: 'failed', error: { code: 'server-error' } });
    expect(written).toBeLessThan(64 * 1024 * 1024);
  });
});

describe('a compression bomb', () => {
  it('a gzip answer that expands without end is stopped at the limit, decompressed bytes counted (fetch decodes it)', async () => {
    const hostile = await startHostileSite();
    const db = await worker();
    const sync = syncOf(db, { hostile: hostile.fetchClient });
    let expanded = 0;
    hostile.takeOver((req, res) => {
      if (req.operation !== 'SyncCourses') return false;
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      const zeros = Buffer.alloc(1024 * 1024, 0x20);
      const source = new Readable({
        read() {
          expanded += zeros.length;
          this.push(
            expanded === zeros.length ? Buffer.concat([Buffer.from('{"data":'), zeros]) : zeros,
          );
        },
      });
      const gzip = createGzip({ level: 9 });
      source.pipe(gzip).pipe(res);
      res.on('close', () => {
        source.destroy();
        gzip.destroy();
      });
      return true;
    });
    const summary = await sync.syncNow('hostile');
    expect(summary).toMatchObject({ outcome: 'failed', error: { code: 'site-data-invalid' } });
    expect(expanded).toBeLessThan(256 * 1024 * 1024);
  });

  it('the writer worker does not decode content-encodings at all: a gzip answer is not JSON to it, refused as such', async () => {
    const hostile = await startHostileSite();
    const db = await worker();
    const sync = syncOf(db, { hostile: hostile.client });
    hostile.takeOver((req, res) => {
      if (req.operation !== 'SyncCourses') return false;
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      const gzip = createGzip();
      gzip.pipe(res);
      gzip.end(Buffer.alloc(10 * 1024 * 1024, 0x20));
      return true;
    });
    const summary = await sync.syncNow('hostile');
    expect(summary).toMatchObject({ outcome: 'failed', error: { code: 'site-data-invalid' } });
  });
});
