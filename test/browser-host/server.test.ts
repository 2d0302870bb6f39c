import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_HOST_PATHS } from '../../electron/common/ipc-contract';
import { startBrowserHost, type BrowserHost } from '../../electron/browser-host/server';
import {
  FIRST_ANSWER_CHANNELS,
  FIRST_ANSWERS_ID,
  firstAnswersElement,
} from '../../electron/browser-host/first-answers';
import { parseArgs } from '../../electron/browser-host/cli';
import { type AppEventListener } from '../../electron/core/app-core';
import { createTestCore } from '../helpers/test-core';
import { openSession, openStream, send, type HostSession, type Reply } from './http';

describe('browser host (loopback HTTP over a real core)', () => {
  let dir: string;
  let host: BrowserHost;
  let cookie: string;
  let session: HostSession;
  let coreListener: AppEventListener | null = null;
  let sitesUnreachable = false;
  let hostOpenExternal: ((url: string) => Promise<void>) | null = null;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ld-bhost-'));
    const rendererDir = join(dir, 'renderer');
    mkdirSync(rendererDir);
    writeFileSync(
      join(rendererDir, 'index.html'),
      '<!doctype html><html><head><title>t</title></head><body>app</body></html>',
    );
    host = await startBrowserHost({
      rendererDir,
      createCore: async ({ openExternal }) => {
        hostOpenExternal = openExternal;
        const core = await createTestCore({
          dataDir: join(dir, 'data'),
          openExternal,
        });
        // Keep the host's own listener so a test can push an event through it exactly as the core
        // does.
        return {
          ...core,
          isOnline: () => !sitesUnreachable && core.isOnline(),
          onEvent(listener) {
            coreListener = listener;
            return core.onEvent(listener);
          },
        };
      },
    });
    session = await openSession(host.launchUrl());
    cookie = session.cookie;
  });

  afterAll(async () => {
    await host?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const invoke = (channel: string, body: unknown, headers: Record<string, string> = {}) =>
    send(`${host.origin}${BROWSER_HOST_PATHS.invoke}${channel}`, {
      method: 'POST',
      headers: session.headers(host.origin, { 'content-type': 'application/json', ...headers }),
      body: JSON.stringify(body),
    });
  const events = (headers: Record<string, string> = {}) =>
    openStream(`${host.origin}${BROWSER_HOST_PATHS.events}`, session.headers(host.origin, headers));

  it('binds loopback only and issues an HttpOnly, SameSite=Strict session cookie from the launch page', async () => {
    expect(host.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(String(session.page.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Strict/);
    expect(session.page.headers['content-type']).toContain('text/html');
  });

  it('refuses every page and call without the session', async () => {
    expect((await send(`${host.origin}/`)).status).toBe(403);
    const r = await send(`${host.origin}${BROWSER_HOST_PATHS.invoke}app:get-info`, {
      method: 'POST',
      headers: { origin: host.origin, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(r.status).toBe(403);
  });

  it('refuses a wrong launch token and a forged cookie', async () => {
    const wrong = new URL(host.launchUrl());
    wrong.searchParams.set('launch', 'not-the-token');
    const r = await send(wrong.href);
    expect(r.status).toBe(403);
    expect(r.headers['set-cookie']).toBeUndefined();
    const name = cookie.split('=')[0]!;
    expect((await send(`${host.origin}/`, { headers: { cookie: `${name}=forged` } })).status).toBe(
      403,
    );
  });

  it('answers 421 to a request naming another host (DNS rebinding)', async () => {
    const port = new URL(host.origin).port;
    const r = await send(`${host.origin}/`, { headers: { cookie, host: `evil.example:${port}` } });
    expect(r.status).toBe(421);
  });

  it('refuses a cross-origin invoke (CSRF) with 403 and a non-JSON body with 415', async () => {
    expect((await invoke('app:get-info', {}, { origin: 'http://evil.example' })).status).toBe(403);
    const noOrigin = await send(`${host.origin}${BROWSER_HOST_PATHS.invoke}app:get-info`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(noOrigin.status).toBe(403);
    expect((await invoke('app:get-info', {}, { 'content-type': 'text/plain' })).status).toBe(415);
  });

  it('answers malformed percent-encoding with 400 and bodies over 1 MB with 413, as plain as other refusals', async () => {
    const refusal = await invoke('app:get-info', {}, { 'content-type': 'text/plain' });
    const plainType = refusal.headers['content-type'];
    for (const r of [
      await send(`${host.origin}/assets/%E0%A4%A`, { headers: { cookie } }),
      await send(`${host.origin}/%`, { headers: { cookie } }),
      await invoke('app:get-info%zz', {}),
    ]) {
      expect(r.status).toBe(400);
      expect(r.headers['content-type']).toBe(plainType);
      expect(r.body).toBe('Malformed address.');
    }
    const big = { input: 'x'.repeat(1024 * 1024 + 10) };
    const declared = await invoke('app:get-info', big);
    expect(declared.status).toBe(413);
    expect(declared.headers['content-type']).toBe(plainType);
    expect(declared.body).toBe('Request too large.');
    // The same without a Content-Length (chunked): refused once the limit is crossed.
    const chunked = await new Promise<Reply>((resolve, reject) => {
      const req = httpRequest(
        `${host.origin}${BROWSER_HOST_PATHS.invoke}app:get-info`,
        {
          method: 'POST',
          headers: session.headers(host.origin, {
            'content-type': 'application/json',
            'transfer-encoding': 'chunked',
          }),
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks).toString('utf8'),
            }),
          );
        },
      );
      req.on('error', reject);
      const piece = 'y'.repeat(64 * 1024);
      for (let i = 0; i < 20; i++) req.write(piece);
      req.end();
    });
    expect(chunked.status).toBe(413);
    expect(chunked.body).toBe('Request too large.');
    // Still serving.
    expect(JSON.parse((await invoke('app:get-info', {})).body)).toMatchObject({ ok: true });
  });

  it('serves the app with the bridge and a CSP that forbids inline script', async () => {
    const r = session.page;
    expect(r.status).toBe(200);
    // Deferred (never holding the parser): with no module script in this page, last in the head.
    expect(r.body).toContain(`<script defer src="${BROWSER_HOST_PATHS.bridge}"></script></head>`);
    expect(String(r.headers['content-security-policy'])).toContain("script-src 'self'");
    expect(String(r.headers['content-security-policy'])).not.toContain("unsafe-inline'; script");
  });

  it('ends the launch page with the answers to the first calls, the same as the calls give; the bare page has none', async () => {
    expect((await send(`${host.origin}/`, { headers: { cookie } })).body).not.toContain(
      FIRST_ANSWERS_ID,
    );
    const r = (await openSession(host.launchUrl())).page;
    const block = new RegExp(
      `<script type="application/json" id="${FIRST_ANSWERS_ID}">([^<]*)</script></body>`,
    ).exec(r.body);
    expect(block).not.toBeNull();
    const answers = JSON.parse(block![1]!) as Record<string, unknown>;
    expect(Object.keys(answers).sort()).toEqual([...FIRST_ANSWER_CHANNELS].sort());
    for (const channel of FIRST_ANSWER_CHANNELS) {
      const direct = JSON.parse((await invoke(channel, {})).body) as {
        ok: boolean;
        value: unknown;
      };
      expect(direct.ok).toBe(true);
      // today:get carries the moment it was read.
      if (channel === 'today:get')
        expect(answers[channel]).toMatchObject({
          ok: true,
          value: { sites: (direct.value as { sites: unknown }).sites },
        });
      else expect(answers[channel]).toEqual(direct);
    }
  });

  it('writes the first answers so no text in them can end their element or run', () => {
    const hostile = {
      'sites:list': { ok: true, value: [{ label: '</script><script>alert(1)</script><!-- x' }] },
    };
    const element = firstAnswersElement(hostile);
    expect(element.match(/<\/script>/g)).toHaveLength(1);
    expect(element).not.toContain('<!--');
    const inner = /^<script type="application\/json" id="[^"]+">(.*)<\/script>$/.exec(element)![1]!;
    expect(inner).not.toContain('<');
    expect(JSON.parse(inner)).toEqual(hostile);
  });

  it('runs a channel of the contract and validates its input', async () => {
    const info = JSON.parse((await invoke('app:get-info', {})).body) as {
      ok: boolean;
      value: { host: string };
    };
    expect(info).toMatchObject({ ok: true, value: { host: 'browser' } });
    const bad = JSON.parse((await invoke('library:list', { input: { siteId: 42 } })).body) as {
      ok: boolean;
      error: { code: string };
    };
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    const extra = JSON.parse(
      (await invoke('sites:add', { input: { baseUrl: 'x', clientId: 'y', evil: true } })).body,
    ) as {
      ok: boolean;
      error: { code: string };
    };
    expect(extra).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    const unknown = JSON.parse((await invoke('fs:read', {})).body) as {
      ok: boolean;
      error: { code: string };
    };
    expect(unknown).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
  });

  it('streams core events to the page as server-sent events (data:changed)', async () => {
    const stream = await events();
    expect(stream.status).toBe(200);
    await stream.until('event: network:changed');
    expect(coreListener).not.toBeNull();
    coreListener!('data:changed', { siteId: 'site-1' });
    expect(await stream.until('event: data:changed')).toContain(
      'event: data:changed\ndata: {"siteId":"site-1"}',
    );
    stream.close();
  });

  it('tells a page that (re)connects where the network stands now, online or not', async () => {
    const firstNetworkEvent = async () => {
      const stream = await events();
      const text = await stream.until(/event: network:changed\ndata: .*\n/);
      stream.close();
      return /event: network:changed\ndata: (.*)\n/.exec(text)![1];
    };
    expect(await firstNetworkEvent()).toBe('{"online":true}');
    // A page reloaded while the sites are down must show the offline banner, not a stale "online".
    sitesUnreachable = true;
    try {
      expect(await firstNetworkEvent()).toBe('{"online":false}');
    } finally {
      sitesUnreachable = false;
    }
  });

  it('opens the sign-in tab in the page the student used, not in every open page of the app', async () => {
    const connect = async (page: string) => {
      const stream = await events({ 'x-ld-page': page });
      await stream.until('event: network:changed');
      return { readUntil: stream.until, close: stream.close };
    };
    const a = await connect('page-aaaaaaaa');
    const b = await connect('page-bbbbbbbb');
    try {
      // The student acts in page A (the older one), then the core asks for the browser.
      expect((await invoke('app:get-info', {}, { 'x-ld-page': 'page-aaaaaaaa' })).status).toBe(200);
      await hostOpenExternal!('http://127.0.0.1:9/oauth/authorize?x=1');
      // A marker broadcast to every page, after which each stream holds everything sent before it.
      coreListener!('data:changed', { siteId: 'marker' });
      const textA = await a.readUntil('"siteId":"marker"');
      const textB = await b.readUntil('"siteId":"marker"');
      expect(textA).toContain(
        'event: host:open-url\ndata: {"url":"http://127.0.0.1:9/oauth/authorize?x=1"}',
      );
      expect(textB).not.toContain('host:open-url');
    } finally {
      a.close();
      b.close();
    }
  });

  it('the event stream has the same Origin check as a call: a foreign or missing Origin gets no stream', async () => {
    const url = `${host.origin}${BROWSER_HOST_PATHS.events}`;
    const port = Number(new URL(host.origin).port);
    for (const origin of ['http://evil.example', `http://127.0.0.1:${port + 1}`, 'null']) {
      const stream = await openStream(url, session.headers(origin));
      expect(stream.status).toBe(403);
      expect(stream.text()).not.toContain('event:');
    }
    const { origin: _none, ...withoutOrigin } = session.headers(host.origin);
    expect((await openStream(url, withoutOrigin)).status).toBe(403);
    // A cross-origin GET (an EventSource or an image of another page) gets no stream either.
    const get = await send(url, { headers: session.headers('http://evil.example') });
    expect(get.status).not.toBe(200);
    expect(get.body).not.toContain('event:');
    // The same request from this origin does stream: the check refuses the others, not everything.
    const ok = await openStream(url, session.headers(host.origin));
    expect(ok.status).toBe(200);
    ok.close();
  });

  it('the events stream needs the session too', async () => {
    expect(
      (await openStream(`${host.origin}${BROWSER_HOST_PATHS.events}`, { origin: host.origin }))
        .status,
    ).toBe(403);
  });
});

describe('browser host CLI arguments', () => {
  it('parses port, data folder and demo', () => {
    expect(
      parseArgs(['--port', '4321', '--data-dir', '/tmp/x', '--demo', '--no-open'], {}),
    ).toEqual({
      port: 4321,
      dataDir: '/tmp/x',
      demo: true,
      open: false,
    });
    expect(parseArgs(['--port=0'], { LEARNING_DESKTOP_DATA_DIR: '/tmp/y' })).toMatchObject({
      port: 0,
      dataDir: '/tmp/y',
      demo: false,
      open: true,
    });
  });
  it('refuses unknown options and bad ports with a plain message', () => {
    expect(() => parseArgs(['--port', 'abc'], {})).toThrow(/--port/);
    expect(() => parseArgs(['--bogus'], {})).toThrow(/Unknown option/);
  });
});
