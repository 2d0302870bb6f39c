import { expect, test } from './fixtures';
import { startDemo } from './helpers-ui';

/**
 * The first screen's data is asked for before the page has rendered anything (renderer/src/state/opening.ts): Today
 * (the first screen once signed in) and, on a page reloaded on the library, the library of the site chosen last do not
 * wait for the site list, nor for the window's strings.
 */
test.describe('browser host: the opening screen', () => {
  test('Today, the first screen, is asked for before the strings have loaded and before the site list answers', async ({ page, host }) => {
    const origin = new URL(host.launchUrl).origin;
    const events: string[] = [];
    await page.route(/\/assets\/en-[^/]*\.js$/, async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      events.push('strings answered');
      await route.continue();
    });
    await page.route(`${origin}/__host/invoke/**`, async (route) => {
      const channel = decodeURIComponent(new URL(route.request().url()).pathname.split('/').pop()!);
      events.push(`asked ${channel}`);
      if (channel === 'sites:list') {
        await new Promise((r) => setTimeout(r, 1500));
        events.push('site list answered');
      }
      await route.continue();
    });
    const today = page.waitForRequest((r) => r.url().includes('/__host/invoke/') && decodeURIComponent(r.url()).includes('today:get'));
    await page.goto(host.launchUrl);
    await today;
    expect(events).toContain('asked today:get');
    expect(events).not.toContain('asked library:page');
    expect(events).not.toContain('strings answered');
    expect(events).not.toContain('site list answered');
  });

  test('the library of the site chosen last is asked for before the strings have loaded and before the site list answers', async ({ page, host }) => {
    const origin = new URL(host.launchUrl).origin;
    // The page's localStorage, and its history entry as a reload on the library leaves it (the Node typecheck has no
    // DOM types: a string init script).
    await page.addInitScript(`localStorage.setItem('learning-desktop.active-site', 'site-chosen-last');
      history.replaceState({ route: { screen: 'library' }, siteId: 'site-chosen-last' }, '');`);
    const events: string[] = [];
    // The strings (a chunk of their own) and the site list are held back for a while: nothing can render meanwhile.
    await page.route(/\/assets\/en-[^/]*\.js$/, async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      events.push('strings answered');
      await route.continue();
    });
    await page.route(`${origin}/__host/invoke/**`, async (route) => {
      const channel = decodeURIComponent(new URL(route.request().url()).pathname.split('/').pop()!);
      events.push(`asked ${channel}`);
      if (channel === 'sites:list') {
        await new Promise((r) => setTimeout(r, 1500));
        events.push('site list answered');
      }
      await route.continue();
    });
    let asked!: string;
    const library = page
      .waitForRequest((r) => r.url().includes('/__host/invoke/') && decodeURIComponent(r.url()).includes('library:page'))
      .then((r) => {
        asked = r.postData() ?? '';
      });
    await page.goto(host.launchUrl);
    await library;
    expect((JSON.parse(asked) as { input: unknown }).input).toMatchObject({
      siteId: 'site-chosen-last',
      filter: 'all',
      sort: 'service',
      offset: 0,
      limit: 50,
    });
    expect(events.indexOf('asked library:page')).toBeGreaterThanOrEqual(0);
    expect(events).not.toContain('strings answered');
    expect(events).not.toContain('site list answered');
  });

  test('reopened with the data in the cache at the first render, the library shows its course cards', async ({ page, context, host }) => {
    test.setTimeout(90_000);
    await startDemo(page, context, host);
    // A reload: the site list and the library's first page are asked for before React renders; with the strings
    // held back a second, both are in the cache at the first render, so the list mounts in the same commit as the
    // screen that scrolls it.
    await page.route(/\/assets\/en-[^/]*\.js$/, async (route) => {
      await new Promise((r) => setTimeout(r, 1000));
      await route.continue();
    });
    await page.reload();
    await expect(page.getByTestId('course-card').first()).toBeVisible({ timeout: 15_000 });
    // Opened afresh (a history entry without a screen, as at a cold start): Today, its data asked for before the
    // first render too.
    await page.evaluate('history.replaceState(null, "")');
    await page.reload();
    await expect(page.getByTestId('nav-today')).toHaveAttribute('aria-current', 'page', { timeout: 15_000 });
    await expect(page.getByTestId('today-continue').first()).toBeVisible({ timeout: 15_000 });
  });

  test('typing fast in the search field keeps every key while each key opens its results', async ({ page, context, host }) => {
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
