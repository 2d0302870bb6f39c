import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { refundTimeline } from '../../electron/common/refund-timeline';
import type { BillingView, OrderView, SiteSummary } from '../../electron/common/view-models';
import type { AppCore } from '../../electron/core/app-core';
import { getOrder } from '../../electron/core/db';
import type { ExportFile } from '../../electron/core/export/service';
import { payment } from './db/fixtures';
import { closeDatabases, NOW, withSite } from './db/pages-scaffold';
import { syncedDemo, valueOf, type SyncedDemo, invoke } from '../helpers/test-core';

/** The demo site's seed, synced by a real core: its refunds and a year's receipts. */
describe('Purchases over the demo seed: refund timeline and a year of receipts', () => {
  let demo: SyncedDemo;
  let core: AppCore;
  let site: SiteSummary;
  let delivered: ExportFile[];

  beforeAll(async () => {
    demo = await syncedDemo({ prefix: 'ld-purchases-' });
    ({ core, site, delivered } = demo);
  }, 60_000);

  afterAll(async () => demo?.close());

  const billing = async () =>
    valueOf(await invoke(core.handlers, 'billing:get', { siteId: site.id }));
  const orderWith = (b: BillingView, paymentId: string) =>
    b.orders.find((o) => o.payments.some((p) => p.paymentId === paymentId))!;

  it('a refunded order tells ordered, paid, refund requested and refunded, with the dates the site sent', async () => {
    const b = await billing();
    const refunded = orderWith(b, 'pay_demo_09');
    const p = refunded.payments.find((x) => x.paymentId === 'pay_demo_09')!;
    expect(refundTimeline(refunded)).toEqual([
      { kind: 'ordered', at: refunded.createdAt },
      { kind: 'paid', at: p.paidAt, paymentId: p.paymentId },
      { kind: 'refund-requested', at: p.refund.refundRequestedAt, paymentId: p.paymentId },
      {
        kind: 'refund-outcome',
        state: 'refunded',
        at: p.refund.refundedAt,
        amount: 1500,
        currency: 'TWD',
        paymentId: p.paymentId,
      },
    ]);
    expect(p.refund.refundedAt).not.toBeNull();
    // A refund only requested: the outcome is "requested", with no date (the site sends none until
    // it is done).
    const requested = refundTimeline(orderWith(b, 'pay_demo_13'))!;
    expect(requested.at(-1)).toMatchObject({
      kind: 'refund-outcome',
      state: 'requested',
      at: null,
      amount: 0,
    });
    expect(requested.map((s) => s.kind)).toEqual([
      'ordered',
      'paid',
      'refund-requested',
      'refund-outcome',
    ]);
    // A partial refund keeps paymentState paid and tells its amount.
    expect(refundTimeline(orderWith(b, 'pay_demo_10'))!.at(-1)).toMatchObject({
      state: 'partially_refunded',
      amount: 500,
    });
    // An order with no refund has no timeline.
    const plain = b.orders.find((o) => o.payments.every((x) => x.refund.state === 'none'))!;
    expect(refundTimeline(plain)).toBeNull();
  });

  it('one file holds every receipt of a year: the orders whose money reached the school, oldest first', async () => {
    const b = await billing();
    const year = b.orders[0]!.createdAt.slice(0, 4);
    const expected = b.orders
      .filter((o) => o.createdAt.startsWith(year) && o.paidAmount > 0)
      .map((o) => o.tradeNo)
      .reverse();
    const skipped = b.orders
      .filter((o) => o.createdAt.startsWith(year) && o.paidAmount === 0)
      .map((o) => o.tradeNo);
    expect(expected.length).toBeGreaterThan(3);
    expect(skipped.length, 'the seed has unpaid orders that get no receipt').toBeGreaterThan(0);
    delivered.length = 0;
    valueOf(
      await invoke(core.handlers, 'export:year-receipts', {
        siteId: site.id,
        year,
        language: 'en',
      }),
    );
    expect(delivered).toHaveLength(1);
    const file = delivered[0]!;
    expect(file).toMatchObject({ kind: 'receipt', mimeType: 'text/html; charset=utf-8' });
    expect(file.fileName).toMatch(new RegExp(`^receipts-${year}-127\\.0\\.0\\.1\\.pdf$`));
    const inFile = [...file.body.matchAll(/<article class="receipt" data-trade-no="([^"]+)"/g)].map(
      (m) => m[1],
    );
    expect(inFile).toEqual(expected);
    expect(file.body).toContain(`<h1>Receipts ${year}</h1>`);
    expect(file.body).not.toContain('<script');
    expect(file.printView).toContain('<script src=');
    // zh-TW words, same orders.
    valueOf(
      await invoke(core.handlers, 'export:year-receipts', {
        siteId: site.id,
        year,
        language: 'zh-TW',
      }),
    );
    expect(delivered[1]!.body).toContain(`${year} 年收據`);
  });

  it('a year with no paid order is refused clearly; a year that is not four digits never reaches the core', async () => {
    const none = await invoke(core.handlers, 'export:year-receipts', {
      siteId: site.id,
      year: '1999',
      language: 'en',
    });
    expect(none).toMatchObject({ ok: false, error: { code: 'not-found' } });
    const bad = await invoke(core.handlers, 'export:year-receipts', {
      siteId: site.id,
      year: '2026 OR 1=1',
      language: 'en',
    });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
  });
});

describe('Refund timeline: only what the data holds', () => {
  afterEach(closeDatabases);
  const order = (overrides: Parameters<typeof payment>[1]): OrderView => {
    const db = withSite({ payments: [payment('p', { tradeNo: 'T-1', ...overrides })] });
    return getOrder(db, 's', 'T-1', NOW)!;
  };

  it('a refund state the app does not know is a step shown as unknown, not an error', () => {
    const steps = refundTimeline(
      order({
        refundingState: 'escalated' as never,
        refundRequestedAt: '2026-01-04T00:00:00.000Z',
      }),
    )!;
    expect(steps.at(-1)).toMatchObject({ kind: 'refund-outcome', state: 'unknown', at: null });
  });

  it('a step whose date the site left out is not invented; a rejected refund ends the story', () => {
    const steps = refundTimeline(order({ refundingState: 'rejected', paidAt: null }))!;
    expect(steps).toEqual([
      { kind: 'ordered', at: '2026-01-03T00:00:00.000Z' },
      {
        kind: 'refund-outcome',
        state: 'rejected',
        at: null,
        amount: 0,
        currency: 'TWD',
        paymentId: 'p',
      },
    ]);
  });
});
