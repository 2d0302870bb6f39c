import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  NOTIFICATION_TEXT_KINDS,
  notificationLanguage,
  notificationText,
  type DesktopNotification,
} from '../../../electron/common/desktop-notifications';
import type { NotificationView, PaymentView } from '../../../electron/common/view-models';
import {
  createNotifier,
  decideNewNotices,
  decidePaymentsDue,
  decideSignIn,
  EMPTY_MEMORY,
  PAYMENT_MARKS_KEPT,
} from '../../../electron/core/desktop/notifier';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const HOUR = 3_600_000;
const site = { id: 'site-1', label: 'Demo School' };

function payment(
  id: string,
  expiresInMs: number | null,
  over: Partial<PaymentView> = {},
): PaymentView {
  return {
    paymentId: id,
    tradeNo: `T-${id}`,
    amount: 1200,
    currency: 'TWD',
    paymentType: 'atm',
    paymentState: 'not_paid',
    createdAt: '2026-02-28T00:00:00Z',
    paidAt: null,
    adjustments: [],
    invoice: null,
    lineItems: [],
    installment: null,
    refund: { state: 'none', refundedAmount: 0, refundedAt: null, refundRequestedAt: null },
    instructions: {
      bankCode: '812',
      bankName: 'Bank',
      codeNo: '99887766554433',
      expiredAt: expiresInMs === null ? null : new Date(NOW + expiresInMs).toISOString(),
      isExpired: expiresInMs !== null && expiresInMs <= 0,
    },
    ...over,
  } as PaymentView;
}
function notice(id: string, createdAt: string, readAt: string | null = null): NotificationView {
  return {
    id,
    kind: 'announcement',
    title: `Notice ${id}`,
    body: 'body',
    url: null,
    createdAt,
    readAt,
    pendingSync: false,
  } as NotificationView;
}

describe('payment codes expiring within 24 hours', () => {
  it('announces a code inside the window once, with the hours left and no code or amount', () => {
    const first = decidePaymentsDue(EMPTY_MEMORY, site, [payment('p1', 5 * HOUR + 10)], NOW, true);
    expect(first.notifications).toEqual([
      expect.objectContaining({
        kind: 'payment-due',
        siteId: 'site-1',
        count: 5,
        screen: 'billing',
      }),
    ]);
    const again = decidePaymentsDue(
      first.memory,
      site,
      [payment('p1', 4 * HOUR)],
      NOW + HOUR,
      true,
    );
    expect(again.notifications).toEqual([]);
    const text = notificationText(first.notifications[0]!, 'en');
    expect(`${text.title} ${text.body}`).not.toMatch(/99887766554433|1200|812/);
  });

  it('leaves out codes further than 24 h away, already expired, without a deadline, or no longer unpaid', () => {
    const r = decidePaymentsDue(
      EMPTY_MEMORY,
      site,
      [
        payment('far', 25 * HOUR),
        payment('gone', -1),
        payment('none', null),
        payment('paid', 2 * HOUR, { paymentState: 'paid' }),
        payment('plain', 2 * HOUR, { instructions: null }),
      ],
      NOW,
      true,
    );
    expect(r.notifications).toEqual([]);
    // The far one is announced when it enters the window.
    expect(
      decidePaymentsDue(r.memory, site, [payment('far', 25 * HOUR)], NOW + 2 * HOUR, true)
        .notifications,
    ).toHaveLength(1);
  });

  it('switched off: nothing shown, but remembered, so switching on later does not announce an old code', () => {
    const off = decidePaymentsDue(EMPTY_MEMORY, site, [payment('p1', 3 * HOUR)], NOW, false);
    expect(off.notifications).toEqual([]);
    expect(
      decidePaymentsDue(off.memory, site, [payment('p1', 2 * HOUR)], NOW + HOUR, true)
        .notifications,
    ).toEqual([]);
  });
});

describe('new notices after a sync', () => {
  const old = [notice('n2', '2026-02-20T00:00:00Z'), notice('n1', '2026-02-10T00:00:00Z')];

  it('the first sync only records: notices the member already had are never announced', () => {
    const first = decideNewNotices(EMPTY_MEMORY, site, old, true);
    expect(first.notifications).toEqual([]);
    expect(first.memory.notices['site-1']).toBe('2026-02-20T00:00:00Z');
  });

  it('several new unread notices make one grouped notification; read ones and old ones do not count', () => {
    const { memory } = decideNewNotices(EMPTY_MEMORY, site, old, true);
    const later = [
      notice('n5', '2026-03-01T11:00:00Z'),
      notice('n4', '2026-03-01T10:00:00Z', '2026-03-01T10:30:00Z'),
      notice('n3', '2026-03-01T09:00:00Z'),
      ...old,
    ];
    const r = decideNewNotices(memory, site, later, true);
    expect(r.notifications).toEqual([
      expect.objectContaining({
        kind: 'new-notices',
        count: 2,
        noticeTitle: null,
        screen: 'notifications',
      }),
    ]);
    expect(decideNewNotices(r.memory, site, later, true).notifications).toEqual([]);
  });

  it('one new notice is shown with its title', () => {
    const { memory } = decideNewNotices(EMPTY_MEMORY, site, old, true);
    const r = decideNewNotices(memory, site, [notice('n3', '2026-03-01T09:00:00Z'), ...old], true);
    expect(r.notifications[0]).toMatchObject({ count: 1, noticeTitle: 'Notice n3' });
    expect(notificationText(r.notifications[0]!, 'en').body).toBe('Notice n3');
  });

  it('a site with no notice at its first sync: the first one that arrives is new', () => {
    const { memory } = decideNewNotices(EMPTY_MEMORY, site, [], true);
    expect(
      decideNewNotices(memory, site, [notice('n1', '2026-03-01T09:00:00Z')], true).notifications,
    ).toHaveLength(1);
  });
});

describe('sign-in that needs renewing', () => {
  it('announced once per time it happens; again after the site was ready in between', () => {
    const needed = [{ ...site, status: 'sign-in-needed' as const }];
    const a = decideSignIn(EMPTY_MEMORY, needed, NOW, true);
    expect(a.notifications).toEqual([
      expect.objectContaining({ kind: 'sign-in', screen: 'settings' }),
    ]);
    expect(decideSignIn(a.memory, needed, NOW + 1, true).notifications).toEqual([]);
    const ready = decideSignIn(a.memory, [{ ...site, status: 'ready' as const }], NOW + 2, true);
    expect(decideSignIn(ready.memory, needed, NOW + 3, true).notifications).toHaveLength(1);
  });
});

describe('notification text', () => {
  it('en and zh-TW say every kind', () => {
    expect([...NOTIFICATION_TEXT_KINDS['zh-TW']].sort()).toEqual(
      [...NOTIFICATION_TEXT_KINDS.en].sort(),
    );
    const n: DesktopNotification = {
      id: 'x',
      kind: 'new-notices',
      siteId: 's',
      siteLabel: '示範學校',
      count: 3,
      noticeTitle: null,
      screen: 'notifications',
    };
    expect(notificationText(n, 'zh-TW').title).toBe('示範學校 有 3 則新通知');
    expect(notificationText(n, 'en').title).toBe('3 new notices from 示範學校');
  });
  it('language tags map to the two the app speaks', () => {
    expect(notificationLanguage('zh-TW')).toBe('zh-TW');
    expect(notificationLanguage('zh-Hant-HK')).toBe('zh-TW');
    expect(notificationLanguage('en-US')).toBe('en');
    expect(notificationLanguage('fr')).toBe('en');
  });
});

describe('notifier: remembers across restarts (notified.json)', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('what was announced before a restart is not announced after it; a damaged file starts over without announcing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ld-notifier-'));
    dirs.push(dir);
    const file = join(dir, 'notified.json');
    let payable = [payment('p1', 3 * HOUR)];
    let notices = [notice('n1', '2026-02-10T00:00:00Z')];
    const shown: DesktopNotification[] = [];
    const make = () =>
      createNotifier({
        file,
        settings: () => ({ notifyPaymentDue: true, notifyNewNotices: true, notifySignIn: true }),
        now: () => NOW,
        payable: () => payable,
        notices: () => notices,
        notify: (n) => shown.push(n),
      });

    const first = await make();
    await first.afterSync(site);
    expect(shown.map((n) => n.kind)).toEqual(['payment-due']);
    notices = [notice('n2', '2026-03-01T10:00:00Z'), ...notices];
    await first.afterSync(site);
    expect(shown.map((n) => n.kind)).toEqual(['payment-due', 'new-notices']);
    // Kept as owner-only JSON, holding ids and times only.
    const saved = readFileSync(file, 'utf8');
    expect(saved).not.toContain('99887766554433');

    const restarted = await make();
    await restarted.afterSync(site);
    expect(shown).toHaveLength(2);

    writeFileSync(file, '{not json');
    payable = [payment('p1', 2 * HOUR), payment('p2', 2 * HOUR)];
    const damaged = await make();
    await damaged.afterSync(site);
    // Payment codes are per code, so both are announced again, grouped in one; notices restart from
    // a first sync (none).
    expect(shown.slice(2)).toEqual([expect.objectContaining({ kind: 'payment-due', codes: 2 })]);
  });
});

describe('a site handing out payment codes without end (one notification a sync, a bounded memory)', () => {
  const HOUR_MS = 3_600_000;
  const site = { id: 'site-1', label: 'School' };
  const code = (id: string, now: number, hours: number): PaymentView =>
    ({
      paymentId: id,
      paymentState: 'not_paid',
      instructions: {
        codeNo: '1',
        bankCode: null,
        bankName: null,
        expiredAt: new Date(now + hours * HOUR_MS).toISOString(),
        isExpired: false,
      },
    }) as unknown as PaymentView;

  it('a hundred new codes in one sync are one notification naming how many and the soonest', () => {
    const now = Date.parse('2026-06-01T00:00:00Z');
    const payable = Array.from({ length: 100 }, (_, i) => code(`p${i}`, now, 3 + (i % 20)));
    const { notifications, memory } = decidePaymentsDue(EMPTY_MEMORY, site, payable, now, true);
    expect(notifications).toEqual([
      expect.objectContaining({ kind: 'payment-due', codes: 100, count: 3 }),
    ]);
    expect(notificationText(notifications[0]!, 'en').title).toBe('100 payment codes expire soon');
    expect(notificationText(notifications[0]!, 'zh-TW').title).toBe('100 個繳費代碼即將到期');
    expect(Object.keys(memory.payments)).toHaveLength(100);
  });

  it('the memory forgets codes two days after they were announced, and never holds more than its cap', () => {
    let now = Date.parse('2026-06-01T00:00:00Z');
    let memory = EMPTY_MEMORY;
    for (let sync = 0; sync < 20; sync++) {
      const payable = Array.from({ length: 100 }, (_, i) => code(`s${sync}-${i}`, now, 5));
      const decided = decidePaymentsDue(memory, site, payable, now, true);
      expect(decided.notifications).toHaveLength(1);
      memory = decided.memory;
      expect(Object.keys(memory.payments).length).toBeLessThanOrEqual(PAYMENT_MARKS_KEPT);
      now += HOUR_MS;
    }
    now += 3 * 24 * HOUR_MS;
    expect(
      Object.keys(decidePaymentsDue(memory, site, [], now, true).memory.payments),
    ).toHaveLength(0);
  });
});
