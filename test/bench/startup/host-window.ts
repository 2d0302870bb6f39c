/**
 * The startup bench's window side: the browser host spawned as `npm run demo` runs it, timed to the
 * first course card painted in Chromium and to search results after the last key; and the floors it
 * is read against.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from '@playwright/test';
import { percentile } from '../types';

const median = (values: readonly number[]) => percentile(values, 50);

/**
 * Records, in the page, when the first course card is on screen (the frame after it is in the DOM),
 * on the screen the app opens on, Today (its "Continue learning" cards), or the library's card when
 * it opens there:
 * - `__firstCard`: the first card of any kind, the last session's first frame included (its cards
 *   carry data-frame-testid: electron/core/desktop/first-screen.ts), as the student sees it;
 * - `__liveCard`: the live app's own card, the frame gone (renderer/src/state/first-screen.ts).
 */
const FIRST_CARD_PAINT = `
  (() => {
    const live = '#root [data-testid="today-continue"], #root [data-testid="course-card"]';
    const any = live + ', [data-frame-testid="today-continue"]';
    const stamp = (key) => requestAnimationFrame(() => setTimeout(() => (window[key] = performance.timeOrigin + performance.now())));
    let first = false;
    const seen = () => {
      if (!first && document.querySelector(any)) {
        first = true;
        stamp('__firstCard');
      }
      if (document.querySelector(live) && !document.getElementById('ld-first-screen')) {
        stamp('__liveCard');
        return true;
      }
      return false;
    };
    new MutationObserver((_, observer) => { if (seen()) observer.disconnect(); }).observe(document, { childList: true, subtree: true });
  })();
`;

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

export interface Host {
  readonly child: ChildProcess;
  readonly url: string;
  close(): Promise<void>;
}

async function spawnHost(entry: string, dataDir: string): Promise<Host> {
  const child = spawn(process.execPath, [entry, '--no-open', '--data-dir', dataDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /running at (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => reject(new Error(`browser host exited with ${code}: ${out}`)));
  });
  return {
    child,
    url,
    close: () => {
      if (child.exitCode !== null) return Promise.resolve();
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/**
 * Spawn to first course card painted (`ms`, the last session's frame included) and to the live
 * app's own card (`liveMs`); the host's RSS then (its core open, the window's first calls
 * answered). The host is left running.
 */
export async function coldStart(
  browser: Browser,
  entry: string,
  dataDir: string,
): Promise<{ ms: number; liveMs: number; rss: number; host: Host; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.addInitScript(FIRST_CARD_PAINT);
  const spawnedAt = Date.now();
  const host = await spawnHost(entry, dataDir);
  await page.goto(host.url);
  // In-page code as text: the Node typecheck has no DOM.
  // A function, not a string: the app's CSP refuses eval, which a string predicate needs.
  try {
    await page.waitForFunction(
      () => (globalThis as unknown as { __liveCard?: number }).__liveCard !== undefined,
      undefined,
      { timeout: 60_000 },
    );
  } catch (error) {
    // What the window showed instead, for whoever reads the failure.
    await page.screenshot({ path: '.bench/startup-no-course-card.png' }).catch(() => undefined);
    await host.close();
    throw error;
  }
  const rss = rssOf(host.child.pid!);
  const paintedAt = (await page.evaluate('window.__firstCard')) as number;
  const liveAt = (await page.evaluate('window.__liveCard')) as number;
  return { ms: paintedAt - spawnedAt, liveMs: liveAt - spawnedAt, rss, host, page };
}

/**
 * Types `word` key by key and returns the time from the last key's event to the frame after its
 * results show.
 */
export async function lastKeyToResults(page: Page, word: string): Promise<number> {
  const input = page.getByTestId('search-input');
  await input.fill('');
  // Installed before the first key: records the last key's event time, and the frame after the
  // results for the whole word are on screen (the search screen's data-results-for names the text
  // its results answer).
  await page.evaluate(`(() => {
    window.__lastKey = undefined;
    window.__painted = undefined;
    if (!window.__keys) document.addEventListener('keydown', (e) => (window.__lastKey = performance.timeOrigin + e.timeStamp), { capture: true });
    window.__keys = true;
    const selector = '[data-results-for=' + ${JSON.stringify(JSON.stringify(word))} + ']';
    const observer = new MutationObserver(() => {
      if (!document.querySelector(selector)) return;
      observer.disconnect();
      requestAnimationFrame(() => setTimeout(() => (window.__painted = performance.timeOrigin + performance.now())));
    });
    observer.observe(document, { childList: true, subtree: true, attributes: true });
  })()`);
  await input.pressSequentially(word, { delay: 100 });
  try {
    await page.waitForFunction(
      () => (globalThis as unknown as { __painted?: number }).__painted !== undefined,
      undefined,
      { timeout: 30_000 },
    );
  } catch (error) {
    await page.screenshot({ path: '.bench/startup-no-search-results.png' }).catch(() => undefined);
    throw error;
  }
  const painted = (await page.evaluate('window.__painted')) as number;
  const lastKey = (await page.evaluate('window.__lastKey')) as number;
  return painted - lastKey;
}

/**
 * Chromium loading an empty page to its first frame (same browser, a fresh context, served from
 * loopback).
 */
export async function chromiumFloor(browser: Browser, runs: number): Promise<number> {
  const server = createServer((_, res) =>
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<!doctype html><title>x</title><p>x</p>'),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const times: number[] = [];
  try {
    for (let i = 0; i < runs + 1; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const t0 = Date.now();
      await page.goto(url);
      const painted = (await page.evaluate(
        'new Promise((r) => requestAnimationFrame(() => setTimeout(() => r(performance.timeOrigin + performance.now()))))',
      )) as number;
      if (i > 0) times.push(painted - t0);
      await context.close();
    }
  } finally {
    server.close();
  }
  return median(times);
}

export function spawnToExit(args: readonly string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve(performance.now() - t0)
        : reject(new Error(`${args.join(' ')} exited with ${code}`)),
    );
  });
}

export async function medianOf(runs: number, fn: () => Promise<number>): Promise<number> {
  await fn(); // warm-up: the files in the page cache, as at a second start
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await fn());
  return median(times);
}
