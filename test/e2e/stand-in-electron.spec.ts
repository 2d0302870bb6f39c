import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { ensureBuiltApp } from '../helpers/built-app';
import { installStandIn, SERVE_DRIVER } from '../helpers/electron-stand-in';
import { signInOnSite } from './fixtures';

/**
 * The built app's three parts together, without the Electron binary: the renderer, served by the
 * main bundle's own app:// handler, runs in Chromium with the built preload's bridge, whose
 * ipcRenderer reaches the main bundle's ipcMain handlers (sender check included) in a Node process
 * where only the `electron` module is a stand-in (test/helpers/electron-stand-in.ts). The stand-in
 * follows Electron's documented semantics for what the host uses:
 * - the page's origin is the app's (app://learning-desktop/ becomes
 *   http://app.learning-desktop.test/ for Chromium, which has no such scheme; every answer is the
 *   handler's Response: status, headers with the CSP, body);
 * - the preload runs before the page, in a wrapper whose `require` knows only the sandboxed
 *   modules;
 * - contextBridge.exposeInMainWorld copies: values are structured-cloned across, functions are
 *   proxied, the exposed object is frozen, and a key cannot be exposed twice;
 * - ipcRenderer.invoke goes to ipcMain.handle with the event's sender (the window) and senderFrame
 *   (the top frame); webContents.send reaches ipcRenderer.on listeners with (event, payload).
 * Then the demo journey: sign in through "the system browser" (the test's page), sync, the screens, sign out.
 */
const ORIGIN = 'http://app.learning-desktop.test';
const APP = 'app://learning-desktop';

let child: ChildProcess | null = null;
let work = '';
let port = 0;
const opened: string[] = [];

test.beforeAll(async () => {
  test.setTimeout(300_000);
  const buildError = ensureBuiltApp();
  expect(buildError).toBeNull();
  work = mkdtempSync(join(tmpdir(), 'ld-stand-in-electron-'));
  const args = installStandIn(work);
  writeFileSync(
    join(work, 'serve.mjs'),
    SERVE_DRIVER(pathToFileURL(resolve('out/main/index.js')).href),
  );
  child = spawn(process.execPath, [...args, join(work, 'serve.mjs')], {
    env: { ...process.env, FAKE_USER_DATA: join(work, 'userData') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  port = await new Promise<number>((ok, fail) => {
    let buffered = '';
    child!.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const line = buffered.split('\n').find((l) => l.startsWith('{"kind":"serving"'));
      if (line) ok((JSON.parse(line) as { data: number }).data);
    });
    child!.once('exit', (code) => fail(new Error(`the main bundle exited (${code})`)));
  });
});

test.afterAll(async () => {
  child?.kill();
  if (work) rmSync(work, { recursive: true, force: true });
});

const mainProcess = (path: string, init?: RequestInit) =>
  fetch(`http://127.0.0.1:${port}${path}`, init);

/**
 * Chromium plays the sandboxed renderer: the app's pages from the app:// handler, the preload
 * before the page.
 */
async function rendererContext(context: BrowserContext): Promise<Page> {
  await context.route(`${ORIGIN}/**`, async (route) => {
    const url = APP + route.request().url().slice(ORIGIN.length);
    const answer = (await (await mainProcess(`/scheme?url=${encodeURIComponent(url)}`)).json()) as {
      status: number;
      headers: [string, string][];
      body: string;
    };
    await route.fulfill({
      status: answer.status,
      headers: Object.fromEntries(answer.headers),
      body: Buffer.from(answer.body, 'base64'),
    });
  });
  await context.exposeBinding('__ldInvoke', async (_source, channel: string, input: unknown) => {
    const r = (await (
      await mainProcess('/ipc', { method: 'POST', body: JSON.stringify({ channel, input }) })
    ).json()) as {
      result: unknown;
      handled: boolean;
    };
    // ipcRenderer.invoke on a channel nobody handles rejects (Electron: "No handler registered").
    if (!r.handled)
      throw new Error(
        `Error invoking remote method '${channel}': Error: No handler registered for '${channel}'`,
      );
    return r.result;
  });
  const preload = readFileSync('out/preload/index.cjs', 'utf8');
  await context.addInitScript(`(() => {
    const clone = (v) => (v === undefined ? undefined : structuredClone(v));
    // contextBridge: a copy of the object, functions proxied, arguments and results cloned, the copy frozen.
    const bridge = (v) => {
      if (typeof v === 'function') return (...args) => {
        const out = v(...args.map((a) => (typeof a === 'function' ? a : clone(a))));
        if (out instanceof Promise) return out.then(clone);
        return typeof out === 'function' ? bridge(out) : clone(out);
      };
      if (v !== null && typeof v === 'object') return Object.freeze(Object.fromEntries(Object.entries(v).map(([k, x]) => [k, bridge(x)])));
      return clone(v);
    };
    const listeners = new Map();
    const electron = {
      contextBridge: {
        exposeInMainWorld(key, api) {
          if (key in window) throw new Error('Cannot bind an API on top of an existing property on the window object');
          Object.defineProperty(window, key, { value: bridge(api), enumerable: true });
        },
      },
      ipcRenderer: {
        invoke: (channel, input) => window.__ldInvoke(channel, clone(input)),
        on(event, listener) { if (!listeners.has(event)) listeners.set(event, new Set()); listeners.get(event).add(listener); },
        removeListener(event, listener) { listeners.get(event)?.delete(listener); },
      },
    };
    Object.defineProperty(window, '__ldDeliver', { value: (event, payload) => { for (const l of listeners.get(event) ?? []) l({ sender: null }, clone(payload)); } });
    const sandboxed = new Set(['electron', 'electron/renderer', 'events', 'timers', 'url']);
    const require = (name) => {
      const bare = name.replace(/^node:/, '');
      if (!sandboxed.has(bare)) throw new Error('module not found: ' + name);
      return bare.startsWith('electron') ? electron : {};
    };
    (function (require, process, Buffer, global, setImmediate, clearImmediate, exports, module) {
${preload}
    })(require, { platform: 'linux', type: 'renderer', sandboxed: true }, undefined, window, undefined, undefined, {}, { exports: {} });
  })();`);
  return context.newPage();
}

/**
 * What the main process sends the window, delivered to the preload's listeners; URLs it opens,
 * recorded.
 */
function relay(page: Page): () => void {
  let running = true;
  void (async () => {
    while (running) {
      // The main process may be gone (the test ended and closed it) while a poll is on its way:
      // that poll ends the loop quietly, never as an unhandled rejection that a later test would be
      // blamed for.
      const answer = await mainProcess('/next').catch(() => null);
      if (!answer) break;
      const messages = (await answer.json().catch(() => [])) as (
        { type: 'event'; event: string; payload: unknown } | { type: 'external'; url: string }
      )[];
      for (const m of messages) {
        if (m.type === 'external') opened.push(m.url);
        else
          await page
            .evaluate(
              ([e, p]) =>
                (globalThis as unknown as { __ldDeliver(e: string, p: unknown): void }).__ldDeliver(
                  e,
                  p,
                ),
              [m.event, m.payload] as const,
            )
            .catch(() => undefined);
      }
    }
  })();
  return () => {
    running = false;
  };
}

test('the built renderer, preload and main bundle run the demo journey together (Electron stood in)', async ({
  browser,
  page: systemBrowser,
}) => {
  test.setTimeout(180_000);
  const context = await browser.newContext();
  const window = await rendererContext(context);
  const stop = relay(window);
  const errors: string[] = [];
  window.on('pageerror', (e) => errors.push(e.name));
  try {
    await window.goto(`${ORIGIN}/index.html`);
    // The page got the bridge the preload exposed, frozen, with nothing of ipcRenderer itself.
    expect(
      await window.evaluate(() =>
        Object.isFrozen((globalThis as unknown as { learningDesktop: object }).learningDesktop),
      ),
    ).toBe(true);
    expect(
      await window.evaluate(() =>
        Object.keys((globalThis as unknown as { learningDesktop: object }).learningDesktop).sort(),
      ),
    ).toEqual(['invoke', 'on']);
    // The CSP the app:// handler sent applies: an inline script does not run.
    const inlineRan = await window.evaluate(() => {
      const page = globalThis as unknown as {
        document: {
          createElement(tag: string): { textContent: string };
          head: { append(node: unknown): void };
        };
        __inline?: number;
      };
      const script = page.document.createElement('script');
      script.textContent = 'globalThis.__inline = 1';
      page.document.head.append(script);
      return page.__inline === 1;
    });
    expect(inlineRan).toBe(false);

    // The demo sites (--demo), listed by the main bundle.
    const signIn = window.getByRole('button', { name: /sign in/i }).first();
    await expect(signIn).toBeVisible({ timeout: 60_000 });
    await signIn.click();
    // The system browser also got the one link of the stand-in's window-open check that may leave
    // the app (an https address without user info); the sign-in is the authorization request.
    const authorize = () =>
      opened.find((u) => /^http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?/.test(u));
    await expect.poll(authorize, { timeout: 30_000 }).toBeDefined();
    expect(opened.filter((u) => u !== authorize())).toEqual(
      opened.filter((u) => u === 'https://school.example/join'),
    );
    await systemBrowser.goto(authorize()!);
    await signInOnSite(systemBrowser, 'approve');

    // Synced data on the screens, through the bridge.
    await window.getByTestId('nav-library').click();
    await expect(window.getByTestId('course-card').first()).toBeVisible({ timeout: 60_000 });
    await window.getByTestId('nav-billing').click();
    await expect(window.getByTestId('order-group').first()).toBeVisible({ timeout: 30_000 });
    await window.getByTestId('nav-notifications').click();
    const summary = window.getByTestId('unread-summary');
    await expect(summary).toBeVisible();
    const before = (await summary.textContent()) ?? '';
    await window.getByTestId('mark-read').first().click();
    await expect(summary).not.toHaveText(before);
    expect(errors).toEqual([]);
  } finally {
    stop();
    await context.close();
  }
});
