import { describe, expect, it } from 'vitest';
import type { EmbeddedServer } from '../../../embedded-server/index';
import { storedPageCursors } from '../../../electron/core/db/snapshot';
import type { DbWriter } from '../../../electron/core/worker/writer';
import type { StageFetchInput } from '../../../electron/core/worker/worker-contract';
import { createSyncService } from '../../../electron/core/sync';
import { contents, openWorkerDb, startSite, type TestSite } from './helpers/setup';
import { openTestDatabase } from '../../helpers/db';

/**
 * A re-sync asks for each long connection's pages at the cursors the last committed sync walked
 * (migration 008, fetch-snapshot.ts `cursors`), a few ahead at a time, instead of one round trip
 * after another. The pages it stages must be exactly those of paging from the start, whatever
 * changed on the site in between: every test compares the re-synced database with a first sync from
 * nothing against the same site (real server, real writer worker, real SQLite).
 */

/**
 * A site with several pages in each long connection (payments 50 a page, courses 25, notifications
 * 50).
 */
async function multiPageSite(): Promise<TestSite> {
  return startSite({
    seed: 'large',
    seedOptions: {
      large: { courses: 40, lecturesPerCourse: 2, payments: 260, notifications: 130 },
    },
  });
}

interface PageRequest {
  readonly part: string;
  readonly after: string | null;
  readonly hold: boolean;
}

/**
 * The writer, recording each page request the sync hands it and how many of a part were on the
 * network at once.
 */
function recording(writer: DbWriter) {
  const requests: PageRequest[] = [];
  const inFlight = new Map<string, number>();
  const mostInFlight = new Map<string, number>();
  const wrapped: DbWriter = {
    call: (call, input) => {
      if (call !== 'stage:fetch') return writer.call(call, input);
      const request = input as StageFetchInput;
      requests.push({
        part: request.part,
        after: (request.variables?.['after'] as string | null | undefined) ?? null,
        hold: request.hold === true,
      });
      inFlight.set(request.part, (inFlight.get(request.part) ?? 0) + 1);
      mostInFlight.set(
        request.part,
        Math.max(mostInFlight.get(request.part) ?? 0, inFlight.get(request.part)!),
      );
      return writer
        .call(call, input)
        .finally(() => inFlight.set(request.part, inFlight.get(request.part)! - 1));
    },
    close: () => writer.close(),
  };
  return { writer: wrapped, requests, mostInFlight };
}

async function syncInto(
  site: TestSite,
  opened: Awaited<ReturnType<typeof openWorkerDb>>,
  writer: DbWriter = opened.writer,
) {
  const sync = createSyncService({ db: opened.db, writer, clientFor: () => site.client });
  const summary = await sync.syncNow('demo');
  await sync.close();
  expect(summary.outcome, summary.error?.message).toBe('completed');
  return summary;
}

/** What a first sync from nothing stores from the site as it is now. */
async function fromNothing(site: TestSite): Promise<string> {
  const fresh = await openWorkerDb();
  await syncInto(site, fresh);
  return contents(fresh.db);
}

const memberPayments = (server: EmbeddedServer) =>
  server.db
    .prepare(
      "SELECT id FROM payments WHERE user_id = 'usr_student' ORDER BY created_at DESC, id DESC",
    )
    .pluck()
    .all() as string[];

function removePayment(server: EmbeddedServer, id: string): void {
  server.db.transaction(() => {
    server.db.prepare('DELETE FROM payment_line_items WHERE payment_id = ?').run(id);
    server.db.prepare('DELETE FROM payment_adjustments WHERE payment_id = ?').run(id);
    server.db.prepare('DELETE FROM payments WHERE id = ?').run(id);
  })();
}

/** A copy of one of the member's payments under a new id, created `at` (epoch ms). */
function addPayment(server: EmbeddedServer, id: string, at: number): void {
  const columns = server.db
    .prepare("SELECT name FROM pragma_table_info('payments')")
    .pluck()
    .all() as string[];
  const source = columns
    .map((c) =>
      c === 'id' ? '@id' : c === 'trade_no' ? '@tradeNo' : c === 'created_at' ? '@at' : c,
    )
    .join(', ');
  server.db
    .prepare(
      `INSERT INTO payments (${columns.join(', ')}) SELECT ${source} FROM payments WHERE user_id = 'usr_student' ORDER BY created_at DESC LIMIT 1`,
    )
    .run({ id, tradeNo: `T-${id}`, at });
}

describe('a re-sync asks for the pages at the last sync’s cursors', () => {
  it('nothing changed: the pages are asked for side by side, none in vain, and the stored data is untouched', async () => {
    const site = await multiPageSite();
    const opened = await openWorkerDb();
    const first = recording(opened.writer);
    await syncInto(site, opened, first.writer);
    const paymentPages = first.requests.filter((r) => r.part === 'payments');
    expect(paymentPages.length).toBeGreaterThanOrEqual(6);
    // Without stored cursors a part pages one after another.
    expect(first.mostInFlight.get('payments')).toBe(1);
    expect(first.requests.every((r) => !r.hold)).toBe(true);
    const stored = storedPageCursors(opened.db, 'demo');
    expect(stored.payments).toEqual(paymentPages.map((r) => r.after));
    expect(stored.courses?.length).toBeGreaterThanOrEqual(2);
    const before = contents(opened.db);

    const again = recording(opened.writer);
    const summary = await syncInto(site, opened, again.writer);
    const resyncPages = again.requests.filter((r) => r.part === 'payments');
    // The same pages, at the same cursors: nothing asked for in vain.
    expect(resyncPages.map((r) => r.after)).toEqual(paymentPages.map((r) => r.after));
    expect(resyncPages.map((r) => r.hold)).toEqual(paymentPages.map((_, i) => i > 0));
    expect(again.mostInFlight.get('payments')).toBeGreaterThan(1);
    expect(again.requests.filter((r) => r.part === 'courses').length).toBe(stored.courses!.length);
    expect(contents(opened.db)).toBe(before);
    expect(summary.counts['payments']).toBe(memberPayments(site.server).length);
  });

  it('payments added at the head and between two pages, removed in the middle and at the tail: the re-sync stores what a first sync stores', async () => {
    const site = await multiPageSite();
    const opened = await openWorkerDb();
    await syncInto(site, opened);
    const changes: [string, () => void][] = [
      [
        'a payment added at the head',
        () => addPayment(site.server, 'pay_new_head', Date.now() + 60_000),
      ],
      [
        'a payment removed in the middle',
        () => removePayment(site.server, memberPayments(site.server)[120]!),
      ],
      [
        'the oldest payment removed',
        () => removePayment(site.server, memberPayments(site.server).at(-1)!),
      ],
      [
        'a payment added between two pages',
        () => {
          const ids = memberPayments(site.server);
          const at = site.server.db
            .prepare('SELECT created_at FROM payments WHERE id = ?')
            .pluck()
            .get(ids[99]) as number;
          addPayment(site.server, 'pay_new_middle', at + 1);
        },
      ],
    ];
    for (const [label, change] of changes) {
      change();
      const again = recording(opened.writer);
      const summary = await syncInto(site, opened, again.writer);
      expect(summary.counts['payments'], label).toBe(memberPayments(site.server).length);
      expect(contents(opened.db), label).toBe(await fromNothing(site));
      // What the next sync will ask for is the walk just made.
      expect(storedPageCursors(opened.db, 'demo').payments?.length, label).toBe(
        Math.ceil(memberPayments(site.server).length / 50),
      );
    }
  });

  it('stored cursors that are not the site’s, or not readable: the re-sync pages from where they fail, stores the same, and mends them', async () => {
    const site = await multiPageSite();
    const opened = await openWorkerDb();
    await syncInto(site, opened);
    const walked = storedPageCursors(opened.db, 'demo');
    const raw = openTestDatabase(opened.file);
    raw
      .prepare("UPDATE sync_parts SET cursors = ? WHERE site_id = 'demo' AND part = 'payments'")
      .run(JSON.stringify([null, 'not-a-cursor', 'nor-this']));
    raw
      .prepare(
        "UPDATE sync_parts SET cursors = 'not json' WHERE site_id = 'demo' AND part = 'courses'",
      )
      .run();
    raw.close();
    expect(storedPageCursors(opened.db, 'demo').courses).toBeUndefined();

    const again = recording(opened.writer);
    await syncInto(site, opened, again.writer);
    expect(again.requests.some((r) => r.part === 'payments' && r.after === 'not-a-cursor')).toBe(
      true,
    );
    expect(contents(opened.db)).toBe(await fromNothing(site));
    expect(storedPageCursors(opened.db, 'demo')).toEqual(walked);

    // The same when the commit rewrites another part: the kept part's cursors are mended too.
    const again2 = openTestDatabase(opened.file);
    again2
      .prepare(
        "UPDATE sync_parts SET cursors = '[null]' WHERE site_id = 'demo' AND part = 'courses'",
      )
      .run();
    again2.close();
    removePayment(site.server, memberPayments(site.server)[5]!);
    await syncInto(site, opened);
    expect(contents(opened.db)).toBe(await fromNothing(site));
    expect(storedPageCursors(opened.db, 'demo').courses).toEqual(walked.courses);
  });

  it('cancelled while the pages asked ahead are on the network: the stored data is untouched', async () => {
    const site = await multiPageSite();
    const opened = await openWorkerDb();
    await syncInto(site, opened);
    removePayment(site.server, memberPayments(site.server)[10]!);
    const before = contents(opened.db);
    let cancelled = false;
    const sync = createSyncService({
      db: opened.db,
      writer: opened.writer,
      clientFor: () => site.client,
      onProgress: (p) => {
        if (!cancelled && p.running && p.pagesFetched >= 3) {
          cancelled = true;
          sync.cancel('demo');
        }
      },
    });
    const summary = await sync.syncNow('demo');
    await sync.close();
    expect(summary.outcome).toBe('cancelled');
    expect(contents(opened.db)).toBe(before);
  });
});
