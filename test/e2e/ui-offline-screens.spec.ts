import { expect, test } from './fixtures';
import {
  SHOTS,
  askSite,
  demoServer,
  openCourse,
  openScreen,
  scrollToRow,
  startDemo,
} from './helpers-ui';

/**
 * Offline, every screen: after a sync the demo site is taken off the network and the page is
 * reloaded (so nothing comes from the page's memory), and each screen still shows what the site
 * held, read from the app's offline copy.
 */

interface Held {
  name: string;
  email: string;
  enrolledCourses: {
    nodes: {
      id: string;
      title: string;
      sections: { title: string; lectures: { lectureId: string; title: string }[] }[];
    }[];
  };
  payments: { totalCount: number; nodes: { tradeNo: string }[] };
  digitalProducts: { nodes: { id: string; title: string }[] };
  eventRegistrations: { nodes: { id: string; title: string }[] };
  consultingServices: { nodes: { id: string; title: string }[] };
  notifications: { totalCount: number; nodes: { id: string; title: string }[] };
}

test.describe('screens: offline, every screen keeps its data', () => {
  test('with the site down after a sync, each screen shows what the site held', async ({
    page,
    context,
    host,
  }) => {
    test.setTimeout(240_000);
    await startDemo(page, context, host);
    const held = await askSite<Held>(
      demoServer(host),
      `{ name email
         enrolledCourses(first: 100) { nodes { id title sections { title lectures { lectureId title } } } }
         payments(first: 50) { totalCount nodes { tradeNo } }
         digitalProducts(first: 100) { nodes { id title } }
         eventRegistrations(first: 100) { nodes { id title } }
         consultingServices(first: 100) { nodes { id title } }
         notifications(first: 100) { totalCount nodes { id title } } }`,
    );
    expect(held.payments.totalCount).toBe(held.payments.nodes.length);
    expect(held.notifications.totalCount).toBe(held.notifications.nodes.length);
    for (const [what, n] of Object.entries({
      courses: held.enrolledCourses.nodes.length,
      payments: held.payments.nodes.length,
      products: held.digitalProducts.nodes.length,
      events: held.eventRegistrations.nodes.length,
      consulting: held.consultingServices.nodes.length,
      notifications: held.notifications.nodes.length,
    })) {
      expect(n, `the demo seed has ${what}`).toBeGreaterThan(0);
    }

    await host.core.demo!.stop();
    await page.getByTestId('sync-now').click();
    // The site stopped while this computer keeps its network: the school is not answering (not
    // "you're offline").
    const offline = page.getByTestId('not-answering-banner');
    await expect(offline).toBeVisible({ timeout: 30_000 });
    await page.reload();
    await expect(offline).toBeVisible({ timeout: 15_000 });

    // Library: every course the site delivered.
    await openScreen(page, 'library');
    for (const c of held.enrolledCourses.nodes) {
      const card = page.locator(`[data-testid="course-card"][data-course-id="${c.id}"]`);
      await scrollToRow(page, card);
      await expect(card.getByRole('heading')).toHaveText(c.title);
    }

    // A course: its sections and every lecture.
    const course = [...held.enrolledCourses.nodes].sort(
      (a, b) => b.sections.length - a.sections.length,
    )[0]!;
    await openCourse(page, course.id);
    await expect(page.locator('#screen-title')).toHaveText(course.title);
    for (const s of course.sections) {
      await scrollToRow(
        page,
        page.getByTestId('lecture-list').getByRole('heading', { name: s.title }),
      );
      for (const l of s.lectures) {
        const row = page.locator(`[data-testid="lecture-row"][data-lecture-id="${l.lectureId}"]`);
        await scrollToRow(page, row);
        await expect(row.locator('.lecture-title')).toContainText(l.title);
      }
    }
    await expect(offline).toBeVisible();

    // Billing: every order (payments grouped by their order number).
    await openScreen(page, 'billing');
    const trades = [...new Set(held.payments.nodes.map((p) => p.tradeNo))];
    for (const tradeNo of trades)
      await scrollToRow(
        page,
        page.locator(`[data-testid="order-group"][data-trade-no="${tradeNo}"]`),
      );
    await expect(offline).toBeVisible();

    // Products & events.
    await openScreen(page, 'entitlements');
    for (const p of held.digitalProducts.nodes)
      await scrollToRow(
        page,
        page
          .getByTestId('digital-product')
          .filter({ has: page.getByRole('heading', { name: p.title, exact: true }) }),
      );
    for (const e of held.eventRegistrations.nodes)
      await scrollToRow(
        page,
        page
          .getByTestId('event-registration')
          .filter({ has: page.getByRole('heading', { name: e.title, exact: true }) }),
      );
    await page.screenshot({ path: `${SHOTS}/entitlements-offline-en.png` });

    // Consulting.
    await openScreen(page, 'consulting');
    for (const s of held.consultingServices.nodes) {
      const card = page.locator(`[data-testid="consulting-service"][data-service-id="${s.id}"]`);
      await scrollToRow(page, card);
      await expect(card.getByRole('heading', { level: 2 })).toHaveText(s.title);
    }

    // Notifications: every one of them.
    await openScreen(page, 'notifications');
    for (const n of held.notifications.nodes) {
      const row = page.locator(`[data-testid="notification-row"][data-notification-id="${n.id}"]`);
      await scrollToRow(page, row);
      await expect(row.getByRole('heading')).toContainText(n.title);
    }

    // Profile.
    await openScreen(page, 'profile');
    await expect(page.getByTestId('profile').getByRole('heading')).toHaveText(held.name);
    await expect(page.getByTestId('profile')).toContainText(held.email);

    // Search: a course and a lecture found by words of their titles.
    const lecture = course.sections[0]!.lectures[0]!;
    const word = course.title.split(' ')[0]!;
    await page.getByTestId('search-input').fill(word);
    await expect(
      page.getByTestId('search-hit').filter({ hasText: course.title }).first(),
    ).toBeVisible({ timeout: 15_000 });
    await page.getByTestId('search-input').fill(lecture.title);
    await expect(
      page
        .locator('[data-testid="search-hit"][data-kind="lecture"]')
        .filter({ hasText: lecture.title })
        .first(),
    ).toBeVisible({
      timeout: 15_000,
    });
    await expect(offline).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/search-offline-en.png` });
  });
});
