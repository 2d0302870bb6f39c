import type { Page } from '@playwright/test';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, expectAccessible, SHOTS, test } from './fixtures';
import { demoServer, openScreen, startDemo, translator } from './helpers-ui';
import { makeHostile, nodesOf } from './hostile-site';

/**
 * A broken or hostile school site against the screens: its member API answers rewritten on the wire
 * (hostile-site.ts), synced by the real core into the real database, shown by the real renderer in
 * Chromium. Nothing it sends may blank the window; what cannot be read is shown as "unknown"; where
 * a screen still fails, its error boundary offers the way out.
 */

const en = translator('en');

async function noBoundary(page: Page): Promise<void> {
  await expect(page.getByTestId('screen-boundary')).toHaveCount(0);
  await expect(page.getByTestId('window-boundary')).toHaveCount(0);
}

test.describe('a hostile site cannot blank the screens', () => {
  test.use({ signedInDemo: true });
  test('an expiry date of "soon": the library shows "unknown", after a reload too', async ({
    page,
    context,
    host,
  }) => {
    test.setTimeout(120_000);
    await startDemo(page, context, host);
    const title = (await page
      .getByTestId('course-card')
      .first()
      .locator('h2')
      .textContent())!.trim();
    makeHostile(demoServer(host), (viewer) => {
      const first = nodesOf(viewer, 'enrolledCourses')[0];
      if (first) Object.assign(first, { expireDate: 'soon', hasLifetimeAccess: false });
    });
    const [run] = await host.core.syncAll();
    expect(run!.outcome).toBe('completed');

    const card = page.getByTestId('course-card').filter({ hasText: title });
    await expect(card.locator('[data-date-unknown="true"]')).toHaveText(
      en('library.access.unknownEnd'),
    );
    await noBoundary(page);
    // The library is the first screen after a restart, with the same site selected.
    await page.reload();
    await expect(card.locator('[data-date-unknown="true"]')).toHaveText(
      en('library.access.unknownEnd'),
    );
    await noBoundary(page);
    await expectAccessible(page, 'library with an unknown date');
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/hostile-unknown-date-en.png` });
  });

  test('unknown enums, unreadable dates and an object for a title: shown as "unknown", no screen fails', async ({
    page,
    context,
    host,
  }) => {
    test.setTimeout(120_000);
    await startDemo(page, context, host);
    makeHostile(demoServer(host), (viewer) => {
      for (const n of nodesOf(viewer, 'notifications').slice(0, 1))
        Object.assign(n, {
          kind: 'survey',
          createdAt: 'yesterday',
          title: '\u202ENotice from a\u200B new kind\u2066',
        });
      for (const p of nodesOf(viewer, 'payments')) {
        Object.assign(p, {
          paymentState: 'on_hold',
          paymentType: 'jko_pay',
          createdAt: 'garbage',
          paidAt: 'later',
          refundingState: 'pondering',
        });
        const items = p['lineitems'] as Record<string, unknown>[];
        for (const li of items)
          Object.assign(li, { title: { zh: '課程', en: 'Course' }, itemType: 'Bundle' });
      }
      for (const e of nodesOf(viewer, 'eventRegistrations'))
        Object.assign(e, { startsAt: 'tbd', endsAt: 'tbd', registeredAt: '2026-13-45' });
      for (const d of nodesOf(viewer, 'digitalProducts'))
        Object.assign(d, { deliveredAt: 'n/a', expireDate: 'never-ish' });
    });
    const [run] = await host.core.syncAll();
    expect(run!.error).toBeNull();
    expect(run!.outcome).toBe('completed');
    await page.reload();
    await expect(page.getByTestId('course-card').first()).toBeVisible();

    await openScreen(page, 'notifications');
    const row = page.getByTestId('notification-row').filter({ hasText: 'Notice from a new kind' });
    // Bidi controls and zero-width characters are gone from the title (and from the OS
    // notification, same view model).
    await expect(row.locator('h2')).toHaveText(/^(Unread: )?Notice from a new kind$/);
    await expect(row.locator('.tag')).toHaveText(en('common.unknown'));
    await expect(row.locator('time')).toHaveText(en('common.unknown'));
    await noBoundary(page);

    await openScreen(page, 'billing');
    await expect(page.getByTestId('order-group').first()).toBeVisible();
    await expect(page.locator('#main')).toContainText(en('common.unknown'));
    await noBoundary(page);
    await expectAccessible(page, 'billing with unknown values');

    await openScreen(page, 'entitlements');
    await expect(page.locator('#main')).toContainText(en('common.unknown'));
    await noBoundary(page);
  });

  test('a screen that still fails shows its error boundary with the ways out, after a reload too', async ({
    page,
    context,
    host,
  }) => {
    test.setTimeout(120_000);
    await startDemo(page, context, host);
    // Something no screen foresaw: every relative time ("3 minutes ago") throws while rendering.
    await page.addInitScript(() => {
      Intl.RelativeTimeFormat.prototype.format = () => {
        throw new RangeError('unforeseen');
      };
    });
    await page.reload();
    await expect(page.getByTestId('course-card').first()).toBeVisible();
    await openScreen(page, 'notifications');
    const boundary = page.getByTestId('screen-boundary');
    await expect(boundary).toBeVisible();
    await expect(page.locator('#screen-title')).toHaveText(en('boundary.title'));
    await expectAccessible(page, 'screen error boundary');
    await page.screenshot({ path: `${SHOTS}/hostile-screen-boundary-en.png` });

    // Another screen.
    await boundary.getByTestId('boundary-library').click();
    await expect(page.getByTestId('course-card').first()).toBeVisible();
    // Settings, from the boundary.
    await openScreen(page, 'notifications');
    await page.getByTestId('boundary-settings').click();
    await expect(page.getByTestId('sites-settings')).toBeVisible();
    // Remove the site, from the boundary: the app goes on without it.
    await openScreen(page, 'notifications');
    const siteIds = async () => {
      const r = await host.core.handlers['sites:list'](undefined);
      return r.ok ? r.value.map((s) => s.id) : [];
    };
    const before = await siteIds();
    const listed = await host.core.handlers['sites:list'](undefined);
    const active = listed.ok ? listed.value.find((s) => s.status === 'ready')! : null;
    await page.getByTestId('boundary-remove').click();
    await page.getByTestId('boundary-confirm-remove').click();
    await expect(page.getByTestId('screen-boundary')).toHaveCount(0);
    await expect.poll(siteIds).not.toContain(active!.id);
    await page.getByTestId('nav-settings').click();
    await expect(page.getByTestId('site-row')).toHaveCount(before.length - 1);
  });

  test("a cover pointed at a local port: the window never loads it, so the host's cookie never goes there", async ({
    page,
    context,
    host,
  }) => {
    test.setTimeout(120_000);
    // Another program on this computer, listening on a port the site chose.
    const seen: IncomingHttpHeaders[] = [];
    const spy = createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(200, { 'content-type': 'image/png' }).end();
    });
    await new Promise<void>((resolve) => spy.listen(0, '127.0.0.1', resolve));
    try {
      const spyUrl = `http://127.0.0.1:${(spy.address() as AddressInfo).port}/cover.png`;
      await startDemo(page, context, host);
      // The demo's own covers still show: fetched by the core, handed over as data: URLs.
      await expect(
        page.getByTestId('course-card').first().locator('img[src^="data:image/"]'),
      ).toBeVisible();
      const cookies = await context.cookies(host.origin);
      expect(cookies.some((c) => c.name.startsWith('ld_host_'))).toBe(true);

      makeHostile(demoServer(host), (viewer) => {
        for (const c of nodesOf(viewer, 'enrolledCourses')) c['coverImageUrl'] = spyUrl;
      });
      const [run] = await host.core.syncAll();
      expect(run!.outcome).toBe('completed');
      await page.reload();
      await expect(page.getByTestId('course-card').first()).toBeVisible();
      // The same address straight from the page is refused by its policy too.
      // It ends in the image's error event (refused), never its load, and not in nothing.
      expect(
        await page.evaluate(
          `new Promise((resolve) => { const img = document.createElement('img'); img.onload = () => resolve('loaded'); img.onerror = () => resolve('refused'); img.src = ${JSON.stringify(spyUrl)}; document.body.append(img); })`,
        ),
      ).toBe('refused');
      await expect(
        page.getByTestId('course-card').first().locator('.course-cover-monogram'),
      ).toBeVisible();
      expect(seen.filter((h) => h.cookie !== undefined)).toEqual([]);
      expect(seen).toEqual([]);
    } finally {
      await new Promise((resolve) => spy.close(resolve));
    }
  });
});
