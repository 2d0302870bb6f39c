import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SaveOutcome } from '../../../electron/common/files-and-invites';
import type { SiteSummary } from '../../../electron/common/view-models';
import {
  commitSnapshot,
  ensureSite,
  openReadConnection,
  type ReadableDB,
} from '../../../electron/core/db';
import { startWriterWorker } from '../../../electron/core/worker';
import {
  createExportHandlers,
  safeFileName,
  type ExportFile,
} from '../../../electron/core/export/service';
import { reminderUid } from '../../../electron/core/export/calendar';
import { course, payment } from '../db/fixtures';
import { readCsv } from './read-csv';
import { openTestDatabase } from '../../helpers/db';

const NOW = new Date('2026-06-10T00:00:00.000Z');
const SITE = {
  id: 's',
  label: 'Good Food School',
  baseUrl: 'https://school.example.com',
} as SiteSummary;
const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((f) => f()));

/**
 * The handlers over a real offline database holding `snapshot`; delivered files are kept for the
 * test to read.
 */
function setup(
  snapshot: Parameters<typeof commitSnapshot>[2],
  answer: SaveOutcome = { kind: 'saved', fileName: 'x' },
) {
  const dir = mkdtempSync(join(tmpdir(), 'ld-export-'));
  const db = openTestDatabase(join(dir, 'offline.db'));
  cleanups.push(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  ensureSite(db, 's');
  commitSnapshot(db, 's', snapshot);
  return setupOn(db, answer);
}

/**
 * The handlers on the in-process path (no writer), over `db`; delivered files are kept for the test
 * to read.
 */
function setupOn(db: ReadableDB, answer: SaveOutcome = { kind: 'saved', fileName: 'x' }) {
  const delivered: ExportFile[] = [];
  const handlers = createExportHandlers({
    db,
    now: () => NOW,
    timeZone: () => 'Asia/Taipei',
    site: (id) => {
      if (id !== 's') throw new Error('unknown site');
      return SITE;
    },
    deliver: async (file) => {
      delivered.push(file);
      return answer;
    },
  });
  return { handlers, delivered };
}

describe('files from the offline database, handed to the host to deliver', () => {
  it('the purchase CSV holds every payment of the site, newest order first', async () => {
    const { handlers, delivered } = setup({
      payments: [
        payment('p1', {
          tradeNo: 'T1',
          createdAt: '2026-06-01T00:00:00.000Z',
          lineitems: [
            {
              id: 'a',
              itemType: 'CurriculumPlan',
              title: '料理入門',
              quantity: 1,
              originalAmount: 1000,
              discountAmount: 0,
              finalAmount: 1000,
            },
          ],
        }),
        payment('p2', {
          tradeNo: 'T2',
          createdAt: '2026-06-05T00:00:00.000Z',
          amount: 49.5,
          currency: 'USD',
        }),
      ],
    });
    const result = await handlers['export:orders-csv']({ siteId: 's', language: 'zh-TW' });
    expect(result).toEqual({ ok: true, value: { kind: 'saved', fileName: 'x' } });
    expect(delivered).toHaveLength(1);
    const file = delivered[0]!;
    expect([file.kind, file.fileName, file.mimeType]).toEqual([
      'csv',
      'purchases-school.example.com-2026-06-10.csv',
      'text/csv; charset=utf-8',
    ]);
    expect(file.body.startsWith('\uFEFF訂單編號,')).toBe(true);
    const rows = readCsv(file.body);
    expect(rows.slice(1).map((r) => [r[0], r[3], r[9], r[10]])).toEqual([
      ['T2', 'Plan p2', 'USD', '49.50'],
      ['T1', '料理入門', 'TWD', '1000'],
    ]);
  });

  it('a receipt for one order: the PDF source without script, and a print view that loads only the host’s print script', async () => {
    const { handlers, delivered } = setup({
      payments: [payment('p1', { tradeNo: 'T/1 <x>' }), payment('p2', { tradeNo: 'T2' })],
    });
    await handlers['export:receipt']({ siteId: 's', tradeNo: 'T/1 <x>', language: 'en' });
    const file = delivered[0]!;
    expect([file.kind, file.fileName]).toEqual(['receipt', 'receipt-T-1-x.pdf']);
    expect(file.body).toContain('data-trade-no="T/1 &lt;x&gt;"');
    expect(file.body).not.toContain('<script');
    expect(file.printView).toContain('<script src="/__host/print.js" defer></script>');
    expect(file.body).not.toContain('Plan p2');
    const missing = await handlers['export:receipt']({
      siteId: 's',
      tradeNo: 'nope',
      language: 'en',
    }).catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: 'not-found' });
  });

  it('calendar reminders: a payable code’s deadline and a course’s access end; refused when there is nothing to remind of', async () => {
    const { handlers, delivered } = setup({
      payments: [
        payment('p1', {
          tradeNo: 'T1',
          paymentType: 'atm',
          paymentState: 'not_paid',
          paidAt: null,
          codeNo: '12345',
          bankCode: '812',
          bankName: 'Bank',
          expiredAt: '2026-06-12T15:59:59.000Z',
        }),
        payment('p2', {
          tradeNo: 'T2',
          paymentType: 'cvs',
          paymentState: 'not_paid',
          paidAt: null,
          codeNo: 'LL1',
          expiredAt: '2026-06-01T00:00:00.000Z',
        }),
        payment('p3', { tradeNo: 'T3' }),
      ],
      courses: [
        course('c1', { hasLifetimeAccess: false, expireDate: '2026-12-31T15:59:59.000Z' }),
        course('c2'),
        course('c3', { hasLifetimeAccess: false, expireDate: '2026-01-01T00:00:00.000Z' }),
      ],
    });
    await handlers['calendar:payment-deadline']({ siteId: 's', paymentId: 'p1', language: 'en' });
    await handlers['calendar:course-access-end']({
      siteId: 's',
      courseId: 'c1',
      language: 'zh-TW',
    });
    expect(delivered.map((f) => [f.kind, f.fileName, f.mimeType])).toEqual([
      ['ics', 'payment-deadline-T1.ics', 'text/calendar; charset=utf-8'],
      ['ics', 'course-access-slug-c1.ics', 'text/calendar; charset=utf-8'],
    ]);
    expect(delivered[0]!.body).toContain(`UID:${reminderUid(SITE, 'payment-deadline', 'p1')}\r\n`);
    expect(delivered[0]!.body).toContain('DTSTART:20260612T155959Z\r\n');
    expect(delivered[0]!.body).toContain('DTSTAMP:20260610T000000Z\r\n');
    expect(delivered[1]!.body).toContain('DTSTART:20261231T155959Z\r\n');
    // An expired code, a paid payment, lifetime access, an ended access: nothing to remind of, and
    // nothing delivered.
    for (const call of [
      () => handlers['calendar:payment-deadline']({ siteId: 's', paymentId: 'p2', language: 'en' }),
      () => handlers['calendar:payment-deadline']({ siteId: 's', paymentId: 'p3', language: 'en' }),
      () => handlers['calendar:course-access-end']({ siteId: 's', courseId: 'c2', language: 'en' }),
      () => handlers['calendar:course-access-end']({ siteId: 's', courseId: 'c3', language: 'en' }),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: 'invalid-input' });
    }
    expect(delivered).toHaveLength(2);
  });

  it('an empty history is not exported; what the host answers (cancelled) is passed on', async () => {
    const { handlers, delivered } = setup({ payments: [] }, { kind: 'cancelled' });
    await expect(
      handlers['export:orders-csv']({ siteId: 's', language: 'en' }),
    ).rejects.toMatchObject({ code: 'not-found' });
    const other = setup({ payments: [payment('p1')] }, { kind: 'cancelled' });
    expect(await other.handlers['export:orders-csv']({ siteId: 's', language: 'en' })).toEqual({
      ok: true,
      value: { kind: 'cancelled' },
    });
    expect(delivered).toHaveLength(0);
  });

  it('the app builds the purchase CSV on the writer worker: the same file, without reading the main connection', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ld-export-worker-'));
    const file = join(dir, 'offline.db');
    const seeded = openTestDatabase(file);
    ensureSite(seeded, 's');
    ensureSite(seeded, 'empty');
    commitSnapshot(seeded, 's', {
      payments: [
        payment('p1', { tradeNo: 'T1', createdAt: '2026-06-01T00:00:00.000Z' }),
        payment('p2', {
          tradeNo: 'T2',
          createdAt: '2026-06-05T00:00:00.000Z',
          amount: 49.5,
          currency: 'USD',
        }),
      ],
    });
    seeded.close();
    const writer = await startWriterWorker({ file });
    // Closed before use: any read of the main connection for the CSV would throw.
    const closed = openReadConnection(file);
    closed.close();
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    try {
      const delivered: ExportFile[] = [];
      const handlers = createExportHandlers({
        db: closed,
        now: () => NOW,
        timeZone: () => 'Asia/Taipei',
        site: () => SITE,
        purchaseHistoryCsv: ({ now, ...input }) =>
          writer.call('export:orders-csv', { ...input, now: now.toISOString() }),
        deliver: async (f) => {
          delivered.push(f);
          return { kind: 'saved', fileName: f.fileName };
        },
      });
      await handlers['export:orders-csv']({ siteId: 's', language: 'en' });
      await expect(
        handlers['export:orders-csv']({ siteId: 'empty', language: 'en' }),
      ).rejects.toMatchObject({ code: 'not-found' });

      const reader = openReadConnection(file);
      const expected = setupOn(reader);
      await expected.handlers['export:orders-csv']({ siteId: 's', language: 'en' });
      reader.close();
      expect(delivered).toHaveLength(1);
      expect(delivered[0]!.body).toBe(expected.delivered[0]!.body);
      expect(
        readCsv(delivered[0]!.body)
          .slice(1)
          .map((r) => r[0]),
      ).toEqual(['T2', 'T1']);
    } finally {
      await writer.close();
    }
  });

  it('file names: letters, digits, dot, dash and underscore only', () => {
    expect(safeFileName('receipt-../../etc/passwd', 'pdf')).toBe('receipt-etc-passwd.pdf');
    expect(safeFileName('收據 T1', 'pdf')).toBe('T1.pdf');
    expect(safeFileName('Café "x"', 'csv')).toBe('Cafe-x.csv');
    expect(safeFileName('...', 'ics')).toBe('file.ics');
    expect(safeFileName('a'.repeat(200), 'csv')).toBe(`${'a'.repeat(80)}.csv`);
  });
});
