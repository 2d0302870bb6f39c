import { expect, test } from './fixtures';
import { startDemo } from './helpers-ui';

/**
 * The first screen's data is there before the page has rendered anything: the browser host ends the
 * page with the answers to the calls every window makes first
 * (electron/browser-host/first-answers.ts), so the site list and Today (the first screen once
 * signed in) need no request; on a page reloaded on the library, the library of the site chosen
 * last is asked for at once (renderer/src/state/opening.ts), not after the site list. The window's
 * English strings are in its first script.
 */
test.describe('browser host: the opening screen', () => {
  test('the site list and Today come with the page: their first calls are answered without a request', async ({
    page,
    host,
  }) => {
    const origin = new URL(host.launchUrl()).origin;
    const asked: string[] = [];
    page.on('request', (r) => {
      if (r.url().startsWith(`${origin}/__host/invoke/`))
        asked.push(decodeURIComponent(new URL(r.url()).pathname.split('/').pop()!));
    });
    // The launch page: `/?launch=<token>`.
    const document = page.waitForResponse((r) => r.url().startsWith(`${origin}/?launch=`));
    await page.goto(host.launchUrl());
    expect(await (await document).text()).toMatch(
      /<script type="application\/json" id="ld-first-answers">\{"sites:list":\{"ok":true/,
    );
    // A new host has no site: the welcome screen, drawn from the page's own answers.
    await expect(page.getByTestId('try-demo')).toBeVisible({ timeout: 15_000 });
    for (const channel of ['sites:list', 'today:get', 'settings:get', 'app:get-info'])
      expect(asked).not.toContain(channel);
    // Each answer stands in once: a later call is a request.
    await page.evaluate('window.learningDesktop.invoke("app:get-info")');
    expect(asked).toContain('app:get-info');
  });

  test('the library of the site chosen last is asked for at once, the site list coming with the page', async ({
    page,
    host,
  }) => {
    const origin = new URL(host.launchUrl()).origin;
    // The page's localStorage, and its history entry as a reload on the library leaves it (the Node
    // typecheck has no DOM types: a string init script).
    await page.addInitScript(`localStorage.setItem('learning-desktop.active-site', 'site-chosen-last');
      history.replaceState({ route: { screen: 'library' }, siteId: 'site-chosen-last' }, '');`);
    const events: string[] = [];
    await page.route(`${origin}/__host/invoke/**`, async (route) => {
      events.push(
        `asked ${decodeURIComponent(new URL(route.request().url()).pathname.split('/').pop()!)}`,
      );
      await route.continue();
    });
    let asked!: string;
    const library = page
      .waitForRequest(
        (r) =>
          r.url().includes('/__host/invoke/') &&
          decodeURIComponent(r.url()).includes('library:page'),
      )
      .then((r) => {
        asked = r.postData() ?? '';
      });
    await page.goto(host.launchUrl());
    await library;
    expect((JSON.parse(asked) as { input: unknown }).input).toMatchObject({
      siteId: 'site-chosen-last',
      filter: 'all',
      sort: 'service',
      offset: 0,
      limit: 50,
    });
    expect(events).toContain('asked library:page');
    expect(events).not.toContain('asked sites:list');
  });

  test('reopened with the data in the cache at the first render, the library shows its course cards', async ({
    page,
    context,
    host,
  }) => {
    test.setTimeout(90_000);
    await startDemo(page, context, host);
    // A reload: the site list comes with the page and the library's first page is asked for before
    // React renders, so the list can mount in the same commit as the screen that scrolls it.
    await page.reload();
    await expect(page.getByTestId('course-card').first()).toBeVisible({ timeout: 15_000 });
    // Opened afresh (a history entry without a screen, as at a cold start): Today, its data asked
    // for before the first render too.
    await page.evaluate('history.replaceState(null, "")');
    await page.reload();
    await expect(page.getByTestId('nav-today')).toHaveAttribute('aria-current', 'page', {
      timeout: 15_000,
    });
    await expect(page.getByTestId('today-continue').first()).toBeVisible({ timeout: 15_000 });
  });

  test('typing fast in the search field keeps every key while each key opens its results', async ({
    page,
    context,
    host,
  }) => {
    test.setTimeout(90_000);
    await startDemo(page, context, host);
    // A slow machine: the page renders several keys behind the typing.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 8 });
    const input = page.getByTestId('search-input');
    await input.pressSequentially('Finance', { delay: 20 });
    await expect(input).toHaveValue('Finance');
    await expect(page.locator('[data-results-for="Finance"]')).toBeAttached({ timeout: 20_000 });
    await expect(input).toHaveValue('Finance');
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  });
});
