import { expect, test } from './fixtures';
import {
  SHOTS,
  askSite,
  clock,
  demoServer,
  formatInPage,
  openCourse,
  openScreen,
  scrollToRow,
  startDemo,
  expandOrder,
} from './helpers-ui';
import { t, DAY, escapeRe } from './details-helpers';

/**
 * What a student sees on each screen, checked against what the demo site holds: its member API (as
 * the student) is asked for the truth, and the expected words come from the app's own English
 * strings and the page's Intl.
 */

interface SiteCourse {
  id: string;
  title: string;
  expireDate: string | null;
  hasLifetimeAccess: boolean;
  sections: {
    id: string;
    lectures: { lectureId: string; isLocked: boolean; unlockAt: string | null; duration: number }[];
  }[];
}

test.describe('screens: details the student reads, against the demo site', () => {
  // Signed in from the start: the details are read from the synced copy, not the sign-in.
  test.use({ signedInDemo: true });
  test('course locks and durations, library access lines, billing states, consulting booked times', async ({
    page,
    context,
    host,
  }) => {
    test.setTimeout(180_000);
    await startDemo(page, context, host);
    const server = demoServer(host);

    // ---- course: a drip course's locked lectures say when they open; every lecture shows its
    // length.
    const { enrolledCourses } = await askSite<{ enrolledCourses: { nodes: SiteCourse[] } }>(
      server,
      `{ enrolledCourses(first: 100) { nodes { id title expireDate hasLifetimeAccess
           sections { id lectures { lectureId isLocked unlockAt duration } } } } }`,
    );
    const courses = enrolledCourses.nodes;
    const drip = courses.find((c) => c.sections.some((s) => s.lectures.some((l) => l.isLocked)));
    expect(drip, 'the demo seed has a course with locked (drip) lectures').toBeDefined();
    const lectures = drip!.sections.flatMap((s) => s.lectures);
    expect(lectures.some((l) => !l.isLocked)).toBe(true);
    await openCourse(page, drip!.id);
    for (const l of lectures) {
      const row = page.locator(`[data-testid="lecture-row"][data-lecture-id="${l.lectureId}"]`);
      await scrollToRow(page, row);
      await expect(row.locator('.lecture-duration')).toHaveText(
        `${t('course.duration')} ${clock(l.duration)}`,
      );
      if (l.isLocked) {
        expect(l.unlockAt).not.toBeNull();
        const when = await formatInPage(page, 'en', 'date-time', l.unlockAt!);
        await expect(row.getByTestId('lecture-lock')).toHaveText(
          `${t('course.unlocksOn', { date: when })}`,
        );
      } else {
        await expect(row.getByTestId('lecture-lock')).toHaveCount(0);
      }
    }
    const total = lectures.reduce((sum, l) => sum + l.duration, 0);
    await page.locator('#main').evaluate((m) => m.scrollTo(0, 0));
    await expect(page.getByTestId('course-header')).toContainText(
      t('course.totalDuration', { duration: clock(total) }),
    );
    await page.locator('#main').evaluate((m) => m.scrollTo(0, m.scrollHeight));
    await page.screenshot({ path: `${SHOTS}/course-locks-en.png` });

    // ---- library: lifetime access vs an end date (until / expires in n days / expired on).
    const lifetime = courses.filter((c) => c.hasLifetimeAccess);
    const dated = courses.filter((c) => !c.hasLifetimeAccess && c.expireDate !== null);
    expect(lifetime.length, 'the demo seed has a lifetime-access course').toBeGreaterThan(0);
    expect(dated.length, 'the demo seed has a course with an end date').toBeGreaterThan(0);
    await openScreen(page, 'library');
    for (const c of courses) {
      const card = page.locator(`[data-testid="course-card"][data-course-id="${c.id}"]`);
      await scrollToRow(page, card);
      let expected: string;
      if (c.hasLifetimeAccess) expected = t('library.access.lifetime');
      else if (c.expireDate === null) expected = t('library.access.noExpiry');
      else {
        const date = await formatInPage(page, 'en', 'date', c.expireDate);
        const left = Date.parse(c.expireDate) - Date.now();
        expected =
          left <= 0
            ? t('library.access.expired', { date })
            : left <= 14 * DAY
              ? t('library.access.expiresIn', { count: Math.ceil(left / DAY), date })
              : t('library.access.until', { date });
      }
      await expect(card.getByTestId('access'), c.title).toHaveText(
        new RegExp(`^(?:\\S+ )?${escapeRe(expected)}$`),
      );
    }

    // ---- billing: an expired payment, an order of several payments, refunds.
    interface SitePayment {
      id: string;
      tradeNo: string;
      amount: number;
      currency: string;
      paymentState: string;
      refundingState: string;
      refundedAmount: number;
      codeNo: string | null;
    }
    const { payments } = await askSite<{ payments: { nodes: SitePayment[]; totalCount: number } }>(
      server,
      '{ payments(first: 50) { totalCount nodes { id tradeNo amount currency paymentState refundingState refundedAmount codeNo } } }',
    );
    expect(payments.totalCount).toBe(payments.nodes.length);
    const byTrade = new Map<string, SitePayment[]>();
    for (const p of payments.nodes) byTrade.set(p.tradeNo, [...(byTrade.get(p.tradeNo) ?? []), p]);
    const order = (tradeNo: string) =>
      page.locator(`[data-testid="order-group"][data-trade-no="${tradeNo}"]`);
    await openScreen(page, 'billing');

    const expired = payments.nodes.filter((p) => p.paymentState === 'expired');
    expect(expired.length, 'the demo seed has an expired payment').toBeGreaterThan(0);
    for (const p of expired) {
      await scrollToRow(page, order(p.tradeNo));
      // Orders are listed collapsed: open this one to see its payments.
      await expandOrder(order(p.tradeNo));
      const row = order(p.tradeNo).locator('[data-testid="payment"][data-payment-state="expired"]');
      await expect(row).toHaveCount(
        byTrade.get(p.tradeNo)!.filter((x) => x.paymentState === 'expired').length,
      );
      await expect(row.first().locator('.payment-head')).toContainText(
        t('billing.paymentState.expired'),
      );
      if (p.codeNo) {
        // The code of an expired ATM / store payment no longer works: marked, struck, nothing to
        // copy.
        const ins = row.first().getByTestId('payment-instructions');
        await expect(ins).toHaveAttribute('data-expired', 'true');
        await expect(ins).toContainText(t('billing.instructions.expired'));
        await expect(ins.getByTestId('payment-code')).toHaveText(p.codeNo);
        await expect(ins.getByTestId('payment-code')).toHaveClass(/struck/);
        await expect(ins.getByTestId('copy-code')).toHaveCount(0);
      }
      if (byTrade.get(p.tradeNo)!.every((x) => x.paymentState === 'expired')) {
        await expect(order(p.tradeNo).getByTestId('order-state')).toHaveText(
          t('billing.orderState.expired'),
        );
      }
    }
    await order(expired[0]!.tradeNo).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/billing-expired-en.png` });

    const grouped = [...byTrade.entries()].filter(([, ps]) => ps.length > 1);
    expect(grouped.length, 'the demo seed has an order paid in several payments').toBeGreaterThan(
      0,
    );
    for (const [tradeNo, ps] of grouped) {
      await scrollToRow(page, order(tradeNo));
      await expandOrder(order(tradeNo));
      await expect(order(tradeNo).getByTestId('payment')).toHaveCount(ps.length);
      await expect(order(tradeNo).locator('.order-meta')).toContainText(
        t('billing.paymentsCount', { count: ps.length }),
      );
      const sum = await formatInPage(
        page,
        'en',
        'money',
        ps.reduce((s, p) => s + p.amount, 0),
        ps[0]!.currency,
      );
      await expect(order(tradeNo).locator('.order-amounts')).toContainText(
        t('billing.total', { amount: sum }),
      );
    }

    const refunds = payments.nodes.filter((p) => p.refundingState !== 'none');
    expect(
      refunds.some((p) => p.refundedAmount > 0),
      'the demo seed has a refund paid out',
    ).toBe(true);
    for (const p of refunds) {
      await scrollToRow(page, order(p.tradeNo));
      await expandOrder(order(p.tradeNo));
      const label = t(`billing.refundState.${p.refundingState}`);
      const refund = order(p.tradeNo).getByTestId('refund').filter({ hasText: label });
      await expect(refund).toHaveCount(
        byTrade.get(p.tradeNo)!.filter((x) => x.refundingState === p.refundingState).length,
      );
      if (p.refundedAmount > 0) {
        const amount = await formatInPage(page, 'en', 'money', p.refundedAmount, p.currency);
        await expect(refund.first()).toContainText(t('billing.refundedAmount', { amount }));
        const orderRefunded = byTrade.get(p.tradeNo)!.reduce((s, x) => s + x.refundedAmount, 0);
        const total = await formatInPage(page, 'en', 'money', orderRefunded, p.currency);
        await expect(order(p.tradeNo).locator('.order-amounts')).toContainText(
          t('billing.refunded', { amount: total }),
        );
      }
    }

    // ---- products: an ended access says so (no download); a running one says until when.
    const { digitalProducts } = await askSite<{
      digitalProducts: { nodes: { id: string; title: string; expireDate: string | null }[] };
    }>(server, '{ digitalProducts(first: 100) { nodes { id title expireDate } } }');
    const endedProducts = digitalProducts.nodes.filter(
      (p) => p.expireDate !== null && Date.parse(p.expireDate) <= Date.now(),
    );
    expect(endedProducts.length, 'the demo seed has a product whose access ended').toBeGreaterThan(
      0,
    );
    await openScreen(page, 'entitlements');
    // Rendered as a windowed list (VirtualList): rows placed in one list that knows its full
    // length.
    await expect(
      page.getByTestId('product-list').locator('li.virtual-row').first(),
    ).toHaveAttribute('aria-setsize', String(digitalProducts.nodes.length));
    for (const p of digitalProducts.nodes) {
      const card = page
        .getByTestId('digital-product')
        .filter({ has: page.getByRole('heading', { name: p.title, exact: true }) });
      await scrollToRow(page, card);
      if (p.expireDate === null) {
        await expect(card).not.toContainText(t('library.access.until', { date: '' }).trim());
        continue;
      }
      const date = await formatInPage(page, 'en', 'date', p.expireDate);
      if (endedProducts.includes(p)) {
        await expect(card.getByTestId('product-expired')).toHaveText(
          t('library.access.expired', { date }),
        );
        await expect(card.getByRole('link', { name: t('entitlements.download') })).toHaveCount(0);
      } else {
        await expect(card).toContainText(t('library.access.until', { date }));
        await expect(card.getByTestId('product-expired')).toHaveCount(0);
      }
    }

    // ---- consulting: meetings are times already booked on the service by anyone, never "your
    // booking".
    interface SiteService {
      id: string;
      meetings: { id: string; startsAt: string; endsAt: string }[];
    }
    const { consultingServices } = await askSite<{ consultingServices: { nodes: SiteService[] } }>(
      server,
      '{ consultingServices(first: 20) { nodes { id meetings { id startsAt endsAt } } } }',
    );
    const services = consultingServices.nodes;
    expect(services.length, 'the demo seed offers consulting').toBeGreaterThan(0);
    // Whose meetings they are is known only to the site's database: the student's own and
    // classmates' alike.
    const owners = server.db
      .prepare('SELECT id, user_id AS userId FROM consulting_meetings')
      .all() as { id: string; userId: string }[];
    const ownerOf = new Map(owners.map((o) => [o.id, o.userId]));
    const allMeetings = services.flatMap((s) => s.meetings);
    expect(allMeetings.some((m) => ownerOf.get(m.id) === 'usr_student')).toBe(true);
    expect(allMeetings.some((m) => ownerOf.get(m.id) !== 'usr_student')).toBe(true);
    await openScreen(page, 'consulting');
    await expect(page.getByTestId('consulting-service')).toHaveCount(services.length);
    await expect(
      page.getByTestId('consulting-list').locator('li.virtual-row').first(),
    ).toHaveAttribute('aria-setsize', String(services.length));
    for (const s of services) {
      const card = page.locator(`[data-testid="consulting-service"][data-service-id="${s.id}"]`);
      await scrollToRow(page, card);
      const upcoming = s.meetings
        .filter((m) => Date.parse(m.endsAt) >= Date.now())
        .sort((a, b) => a.startsAt.localeCompare(b.startsAt));
      const summary = card.locator('details.booked summary');
      await expect(summary).toHaveText(t('consulting.bookedTitle', { count: upcoming.length }));
      await expect(summary).not.toContainText(/your|mine|my /i);
      await summary.click();
      await expect(card.locator('details.booked')).toHaveAttribute('open', '');
      await expect(card.locator('details.booked p')).toHaveText(t('consulting.bookedExplain'));
      const ranges = await Promise.all(
        upcoming.map((m) => formatInPage(page, 'en', 'range', m.startsAt, m.endsAt)),
      );
      // Exactly the times, in order: no "(you)" or "your booking" mark on any of them.
      await expect(card.locator('details.booked li')).toHaveText(ranges);
    }
    await page.screenshot({ path: `${SHOTS}/consulting-booked-en.png` });
  });
});
