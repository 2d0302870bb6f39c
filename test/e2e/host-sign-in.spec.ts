import type { BrowserContext, Page } from '@playwright/test';
import type { Result } from '../../electron/common/result';
import type {
  LibraryCourse,
  NotificationsView,
  SignOutResult,
  SiteSummary,
  SyncRunSummary,
  SyncStatus,
} from '../../electron/common/view-models';
import { expect, signInOnSite, test } from './fixtures';

/**
 * The sign-in journey at the contract level, through the browser host, a real core and the real
 * embedded demo sites started in process by demo mode. The page is only the app's origin: the
 * journey speaks to `window.learningDesktop` (the same object the preload exposes under Electron)
 * and does not depend on the renderer's layout. The "system browser" is a new tab of the same
 * browser, caught with context.waitForEvent.
 */

type Api = { invoke(channel: string, input?: unknown): Promise<Result<unknown>> };

async function invoke<T>(page: Page, channel: string, input?: unknown): Promise<Result<T>> {
  return page.evaluate(
    ([c, i]) =>
      (globalThis as unknown as { learningDesktop: Api }).learningDesktop.invoke(
        c as string,
        i,
      ) as Promise<Result<unknown>>,
    [channel, input] as const,
  ) as Promise<Result<T>>;
}

async function value<T>(page: Page, channel: string, input?: unknown): Promise<T> {
  const result = await invoke<T>(page, channel, input);
  if (!result.ok) throw new Error(`${channel}: ${result.error.code}: ${result.error.message}`);
  return result.value;
}

async function openApp(page: Page, launchUrl: string): Promise<void> {
  await page.goto(launchUrl);
  await page.waitForFunction(() => 'learningDesktop' in globalThis);
}

/**
 * Starts a sign-in from the app page and returns the pending answer and the tab the core opened.
 */
async function startSignIn(page: Page, context: BrowserContext, siteId: string) {
  const tab = context.waitForEvent('page');
  const answer = invoke<SiteSummary>(page, 'sites:sign-in', { siteId });
  const signInPage = await tab;
  return { answer, signInPage };
}

test.describe('browser host: demo sign-in journey over the contract', () => {
  test('add demo, sign in, sync, offline views and outbox, replay, sign out, second site kept apart', async ({
    page,
    context,
    host,
  }) => {
    test.setTimeout(120_000);
    await openApp(page, host.launchUrl());
    expect((await value<{ demoAvailable: boolean }>(page, 'app:get-info')).demoAvailable).toBe(
      true,
    );

    const added = await value<SiteSummary[]>(page, 'sites:add-demo');
    expect(added).toHaveLength(2);
    expect(
      added.every((s) => s.isDemo && s.status === 'signed-out' && s.clientId === 'demo-desktop'),
    ).toBe(true);
    const demo = host.core.demo!;
    const servers = demo.servers()!;
    const [first, second] = [
      added.find((s) => s.baseUrl === servers.demo.url)!,
      added.find((s) => s.baseUrl === servers.demo2.url)!,
    ];
    expect(first).toBeDefined();
    expect(second).toBeDefined();

    // Sign-in: the core opens the site's authorization page in a new tab; the student signs in and
    // approves.
    const { answer, signInPage } = await startSignIn(page, context, first.id);
    await expect.poll(() => signInPage.url()).toContain(servers.demo.url);
    await signInOnSite(signInPage, 'approve');
    const signedIn = await answer;
    expect(signedIn.ok && signedIn.value.status).toBe('ready');
    // The loopback receiver answers the tab with its own page (RFC 8252 §7.3).
    await expect(signInPage.locator('body')).toContainText(/.+/);

    const run = await value<SyncRunSummary>(page, 'sync:now', { siteId: first.id });
    expect(['completed', 'partial']).toContain(run.outcome);
    const library = await value<LibraryCourse[]>(page, 'library:list', { siteId: first.id });
    expect(library.length).toBeGreaterThan(0);

    // The site goes away: every view still answers from the offline copy.
    await demo.stop();
    const bySite = { siteId: first.id };
    expect((await value<LibraryCourse[]>(page, 'library:list', bySite)).length).toBe(
      library.length,
    );
    await value(page, 'course:get', { siteId: first.id, courseId: library[0]!.courseId });
    for (const channel of [
      'billing:get',
      'entitlements:get',
      'consulting:list',
      'profile:get',
      'notifications:list',
      'sync:status',
    ]) {
      await value(page, channel, bySite);
    }
    await value(page, 'search:query', { siteId: first.id, query: library[0]!.title.split(' ')[0] });
    const notices = await value<NotificationsView>(page, 'notifications:list', bySite);
    const unread = notices.items.find((n) => n.readAt === null)!;
    expect(unread).toBeDefined();
    await value(page, 'notifications:mark-read', { siteId: first.id, notificationId: unread.id });
    await expect
      .poll(async () =>
        (await value<NotificationsView>(page, 'notifications:list', bySite)).items.find(
          (n) => n.id === unread.id,
        ),
      )
      .toMatchObject({ pendingSync: true });
    expect((await value<SyncStatus>(page, 'sync:status', bySite)).pendingChanges).toBeGreaterThan(
      0,
    );
    const offlineRun = await value<SyncRunSummary>(page, 'sync:now', bySite);
    expect(offlineRun.outcome).toBe('failed');

    // The site is back (same port): the queued change is replayed, and the site's own database has
    // it read.
    await demo.start();
    expect(demo.servers()!.demo.url).toBe(servers.demo.url);
    const back = await value<SyncRunSummary>(page, 'sync:now', bySite);
    expect(['completed', 'partial']).toContain(back.outcome);
    expect((await value<SyncStatus>(page, 'sync:status', bySite)).pendingChanges).toBe(0);
    const row = demo
      .servers()!
      .demo.db.prepare('SELECT read_at FROM notifications WHERE id = ?')
      .get(unread.id) as { read_at: number | null };
    expect(row.read_at).not.toBeNull();

    // Second demo site: its own sign-in, its own data.
    const two = await startSignIn(page, context, second.id);
    await expect.poll(() => two.signInPage.url()).toContain(demo.servers()!.demo2.url);
    await signInOnSite(two.signInPage, 'approve');
    expect((await two.answer).ok).toBe(true);
    await value<SyncRunSummary>(page, 'sync:now', { siteId: second.id });
    const library2 = await value<LibraryCourse[]>(page, 'library:list', { siteId: second.id });
    expect(library2.length).toBeGreaterThan(0);
    const ids1 = new Set(
      (await value<LibraryCourse[]>(page, 'library:list', bySite)).map((c) => c.courseId),
    );
    expect(library2.some((c) => ids1.has(c.courseId))).toBe(false);

    // Sign out of the first: the site shows the refresh token revoked; the second site is
    // untouched.
    const out = await value<SignOutResult>(page, 'sites:sign-out', {
      siteId: first.id,
      removeData: false,
    });
    expect(out).toEqual({ revoked: true, pending: false });
    const live = demo
      .servers()!
      .demo.db.prepare(
        "SELECT COUNT(*) AS n FROM token_pairs WHERE client_id = 'demo-desktop' AND revoked_at IS NULL",
      )
      .get() as { n: number };
    expect(live.n).toBe(0);
    const sites = await value<SiteSummary[]>(page, 'sites:list');
    expect(sites.find((s) => s.id === first.id)?.status).toBe('signed-out');
    expect(sites.find((s) => s.id === second.id)?.status).toBe('ready');
    // Kept offline data stays readable after sign-out (removeData: false).
    expect((await value<LibraryCourse[]>(page, 'library:list', bySite)).length).toBe(
      library.length,
    );
  });

  test('a denied consent ends the sign-in with sign-in-denied', async ({ page, context, host }) => {
    await openApp(page, host.launchUrl());
    const [site] = await value<SiteSummary[]>(page, 'sites:add-demo');
    const { answer, signInPage } = await startSignIn(page, context, site!.id);
    await signInOnSite(signInPage, 'deny');
    const result = await answer;
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('sign-in-denied');
      expect(result.error.message.length).toBeGreaterThan(10);
    }
    expect(
      (await value<SiteSummary[]>(page, 'sites:list')).find((s) => s.id === site!.id)?.status,
    ).toBe('signed-out');
  });

  test('a closed sign-in tab, then Cancel, ends the sign-in with sign-in-cancelled', async ({
    page,
    context,
    host,
  }) => {
    await openApp(page, host.launchUrl());
    const [site] = await value<SiteSummary[]>(page, 'sites:add-demo');
    const { answer, signInPage } = await startSignIn(page, context, site!.id);
    await signInPage.close();
    expect(
      (await value<SiteSummary[]>(page, 'sites:list')).find((s) => s.id === site!.id)?.status,
    ).toBe('signing-in');
    await value(page, 'sites:cancel-sign-in', { siteId: site!.id });
    const result = await answer;
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('sign-in-cancelled');
  });
});
