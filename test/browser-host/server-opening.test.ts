import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BROWSER_HOST_PATHS } from '../../electron/common/ipc-contract';
import { startBrowserHost, type BrowserHost } from '../../electron/browser-host/server';
import { createTestCore } from '../helpers/test-core';
import { openSession, openStream, send } from './http';

describe('browser host while the core opens', () => {
  it('serves the page before the core is open; its calls wait for the core, then are answered', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ld-bhost-early-'));
    const rendererDir = join(dir, 'renderer');
    mkdirSync(rendererDir);
    writeFileSync(
      join(rendererDir, 'index.html'),
      '<!doctype html><html><head><title>t</title></head><body>app</body></html>',
    );
    let letCoreOpen!: () => void;
    const coreMayOpen = new Promise<void>((resolve) => (letCoreOpen = resolve));
    let listening!: (launchUrl: () => string) => void;
    const launchUrl = new Promise<() => string>((resolve) => (listening = resolve));
    const started = startBrowserHost({
      rendererDir,
      onListening: (url) => listening(url),
      createCore: async ({ openExternal }) => {
        await coreMayOpen;
        return createTestCore({ dataDir: join(dir, 'data'), openExternal });
      },
    });
    let host: BrowserHost | null = null;
    try {
      const url = (await launchUrl)();
      const origin = new URL(url).origin;
      let cookie = '';
      let key = '';
      // The launch page loads while the core is still opening: all of it but the end of its body,
      // where the first answers go once the core has them.
      const chunks: string[] = [];
      const page = new Promise<number>((resolve, reject) =>
        httpRequest(url, (res) => {
          cookie = String(res.headers['set-cookie']).split(';')[0]!;
          res.on('data', (c: Buffer) => chunks.push(c.toString('utf8')));
          res.on('end', () => resolve(res.statusCode ?? 0));
        })
          .on('error', reject)
          .end(),
      );
      await expect.poll(() => chunks.join('')).toContain('app');
      expect(chunks.join('')).toContain(
        `<script defer src="${BROWSER_HOST_PATHS.bridge}"></script>`,
      );
      expect(chunks.join('')).not.toContain('</body>');
      key = (
        JSON.parse(/id="ld-host-session">([^<]*)</.exec(chunks.join(''))![1]!) as { key: string }
      ).key;
      // Its first call waits for the core instead of failing.
      let answered = false;
      const call = send(`${origin}${BROWSER_HOST_PATHS.invoke}sites:list`, {
        method: 'POST',
        headers: { cookie, origin, 'x-ld-key': key, 'content-type': 'application/json' },
        body: '{}',
      }).then((reply) => ((answered = true), reply));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(answered).toBe(false);
      letCoreOpen();
      host = await started;
      const reply = await call;
      expect(reply.status).toBe(200);
      expect(JSON.parse(reply.body)).toEqual({ ok: true, value: [] });
      expect(await page).toBe(200);
      expect(chunks.join('')).toMatch(
        new RegExp(`"sites:list":\\{"ok":true,"value":\\[\\]\\}.*</script></body></html>$`),
      );
      expect(new URL(host.launchUrl()).origin).toBe(origin);
    } finally {
      letCoreOpen();
      await (host ?? (await started.catch(() => null)))?.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('sends the last session’s first frame with the first page only, styles inline, and opens the core once it is out', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ld-bhost-frame-'));
    const rendererDir = join(dir, 'renderer');
    mkdirSync(join(rendererDir, 'assets'), { recursive: true });
    writeFileSync(
      join(rendererDir, 'index.html'),
      '<!doctype html><html lang="en"><head><script type="module" crossorigin src="./assets/index-AbC123.js"></script>' +
        '<link rel="stylesheet" crossorigin href="./assets/index-XyZ789.css"></head><body><div id="root"></div></body></html>',
    );
    writeFileSync(join(rendererDir, 'assets', 'index-XyZ789.css'), '.first-screen{position:fixed}');
    const frame =
      '<div class="layout"><li data-frame-testid="today-continue">Statistics</li></div>';
    let coreAskedAt = 0;
    let listening!: (launchUrl: () => string) => void;
    const launchUrl = new Promise<() => string>((resolve) => (listening = resolve));
    const started = startBrowserHost({
      rendererDir,
      firstScreen: {
        html: frame,
        build: 'index-AbC123.js',
        lang: 'en',
        dir: 'ltr',
        theme: null,
        siteIds: ['site-1'],
        savedAt: '2026-11-28T00:00:00.000Z',
      },
      onListening: (url) => listening(url),
      createCore: async ({ openExternal }) => {
        coreAskedAt = Date.now();
        return createTestCore({ dataDir: join(dir, 'data'), openExternal });
      },
    });
    let host: BrowserHost | null = null;
    try {
      const url = (await launchUrl)();
      const origin = new URL(url).origin;
      // Nothing of the core's holds the host's thread before the first page is out.
      expect(coreAskedAt).toBe(0);
      const first = await send(url);
      const cookie = String(first.headers['set-cookie']).split(';')[0]!;
      const sentAt = Date.now();
      expect(coreAskedAt).toBeGreaterThan(0);
      expect(coreAskedAt).toBeLessThanOrEqual(sentAt);
      expect(first.body).toContain(
        `<div id="root"></div><div id="ld-first-screen" class="first-screen" aria-hidden="true" inert>${frame}</div>`,
      );
      expect(first.body).toContain('<style>.first-screen{position:fixed}</style>');
      expect(first.body).not.toContain('rel="stylesheet"');
      // The bridge runs before the app's module script: both deferred, in document order.
      expect(first.body).toContain(
        `<script defer src="${BROWSER_HOST_PATHS.bridge}"></script><script type="module"`,
      );
      expect(String(first.headers['content-security-policy'])).toContain("script-src 'self'");
      host = await started;
      // A reload (or a second tab) may be on another screen: the plain page, its stylesheet linked.
      const again = await send(`${origin}/`, { headers: { cookie } });
      expect(again.body).not.toContain('ld-first-screen');
      expect(again.body).toContain('rel="stylesheet"');
    } finally {
      await (host ?? (await started.catch(() => null)))?.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('with a first frame and no page asking for it, the core opens anyway a moment later', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ld-bhost-frame-alone-'));
    const rendererDir = join(dir, 'renderer');
    mkdirSync(rendererDir);
    writeFileSync(
      join(rendererDir, 'index.html'),
      '<!doctype html><html><head><script type="module" src="./assets/m.js"></script></head><body><div id="root"></div></body></html>',
    );
    try {
      const host = await startBrowserHost({
        rendererDir,
        firstScreen: {
          html: '<p>x</p>',
          build: 'm.js',
          lang: 'en',
          dir: 'ltr',
          theme: null,
          siteIds: ['site-1'],
          savedAt: '2026-11-28T00:00:00.000Z',
        },
        createCore: async ({ openExternal }) =>
          createTestCore({ dataDir: join(dir, 'data'), openExternal }),
      });
      expect(host.core.info).toBeDefined();
      await host.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names itself first on every event stream and says goodbye on each when it stops', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ld-bhost-stop-'));
    mkdirSync(join(dir, 'renderer'));
    writeFileSync(
      join(dir, 'renderer', 'index.html'),
      '<!doctype html><html><head></head><body></body></html>',
    );
    const host = await startBrowserHost({
      rendererDir: join(dir, 'renderer'),
      createCore: ({ openExternal }) =>
        createTestCore({ dataDir: join(dir, 'data'), openExternal }),
    });
    try {
      const session = await openSession(host.launchUrl());
      const url = `${host.origin}${BROWSER_HOST_PATHS.events}`;
      const [a, b] = [
        await openStream(url, session.headers(host.origin)),
        await openStream(url, session.headers(host.origin)),
      ];
      const hello = /^event: host:hello\ndata: (\{"host":"[A-Za-z0-9_-]{16,}"\})\n\n/;
      // The same per-launch id on each stream, and first.
      expect((await a.until('network:changed')).match(hello)?.[1]).toBe(
        (await b.until('network:changed')).match(hello)?.[1],
      );
      await host.close();
      for (const stream of [a, b])
        expect(await stream.until('event: host:stopped')).toMatch(
          /event: host:stopped\ndata: \{\}\n\n$/,
        );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a core that cannot open fails the start and closes the port', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ld-bhost-fail-'));
    let origin = '';
    try {
      await expect(
        startBrowserHost({
          rendererDir: dir,
          onListening: (url) => (origin = new URL(url()).origin),
          createCore: () => Promise.reject(new Error('the database could not be opened')),
        }),
      ).rejects.toThrow('the database could not be opened');
      expect(origin).not.toBe('');
      await expect(send(`${origin}/`)).rejects.toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
