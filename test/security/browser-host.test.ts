/**
 * The browser host's credentials and the tokens behind it: the launch token appears in the launch
 * URL only, the session cookie in the Set-Cookie answer to it only, the page key in the launch
 * page's body only (no other body, header, event or log line); the cookie is HttpOnly and
 * SameSite=Strict; SSE and invoke refuse without cookie and key; the Host and Origin checks hold
 * with them. A whole sign-in and sync runs through the host (events over SSE, invokes over HTTP),
 * and no token reaches the page either.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_HOST_PATHS } from '../../electron/common/ipc-contract';
import type { SiteSummary } from '../../electron/common/view-models';
import { startBrowserHost, type BrowserHost } from '../../electron/browser-host/server';
import { createEmbeddedServer, type EmbeddedServer } from '../../embedded-server/index';
import { ScriptedBrowser } from '../helpers/scripted-browser';
import {
  captureLogger,
  createRecordingFetch,
  filesUnder,
  leaksIn,
  scanFiles,
  SecretBag,
} from './helpers/canary';
import { createTestCore } from '../helpers/test-core';
import { send, type Reply } from '../browser-host/http';

describe('browser host: the per-launch secret and the tokens stay where they belong', () => {
  const bag = new SecretBag();
  const wire = createRecordingFetch(bag);
  const coreLog = captureLogger();
  const hostLog: string[] = [];
  const replies: { what: string; reply: Reply }[] = [];
  let dir: string;
  let server: EmbeddedServer;
  let host: BrowserHost;
  let launchUrl: string;
  let launchToken: string;
  let cookie: string;
  let key: string;
  let hostHeader: string;
  let sse: { req: ClientRequest; text: () => string } | null = null;

  const record = async (what: string, p: Promise<Reply>): Promise<Reply> => {
    const reply = await p;
    replies.push({ what, reply });
    return reply;
  };
  const invoke = (channel: string, input?: unknown, headers: Record<string, string> = {}) =>
    record(
      `invoke ${channel}`,
      send(`${host.origin}${BROWSER_HOST_PATHS.invoke}${channel}`, {
        method: 'POST',
        headers: {
          host: hostHeader,
          origin: host.origin,
          cookie,
          'x-ld-key': key,
          'content-type': 'application/json',
          ...headers,
        },
        body: JSON.stringify(input === undefined ? {} : { input }),
      }),
    );

  /**
   * Opens the event stream like the page does; drives the scripted browser when the core opens a
   * URL.
   */
  function openEvents(): Promise<void> {
    return new Promise((resolve, reject) => {
      let text = '';
      const headers = { host: hostHeader, cookie, origin: host.origin, 'x-ld-key': key };
      const req = httpRequest(
        `${host.origin}${BROWSER_HOST_PATHS.events}`,
        { method: 'POST', headers },
        (res) => {
          expect(res.statusCode).toBe(200);
          res.on('data', (c: Buffer) => {
            text += c.toString('utf8');
            for (const m of text.matchAll(/event: host:open-url\ndata: (.*)\n\n/g)) {
              const url = (JSON.parse(m[1]!) as { url: string }).url;
              if (handled.has(url)) continue;
              handled.add(url);
              const redirect = new URL(url).searchParams.get('redirect_uri')!;
              void new ScriptedBrowser()
                .authorize(url, { stopAt: redirect })
                .then(async (callback) => {
                  bag.add('code', new URL(callback).searchParams.get('code'));
                  await (await fetch(callback)).text();
                });
            }
          });
          resolve();
        },
      );
      const handled = new Set<string>();
      req.on('error', (e) => (sse ? undefined : reject(e)));
      req.end();
      sse = { req, text: () => text };
    });
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ld-sec-host-'));
    const rendererDir = join(dir, 'renderer');
    mkdirSync(join(rendererDir, 'assets'), { recursive: true });
    writeFileSync(
      join(rendererDir, 'index.html'),
      '<!doctype html><html><head><title>t</title></head><body><div id="root"></div></body></html>',
    );
    writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
    server = await createEmbeddedServer({ port: 0, seed: 'demo', site: 'demo' });
    host = await startBrowserHost({
      rendererDir,
      logger: (line) => hostLog.push(line),
      createCore: ({ openExternal }) =>
        createTestCore({
          dataDir: join(dir, 'data'),
          version: '0.0.0-security',
          openExternal,
          signInTimeoutMs: 20_000,
          fetch: wire.fetch,
          logger: coreLog.logger,
        }),
    });
    launchUrl = host.launchUrl();
    launchToken = new URL(launchUrl).searchParams.get('launch')!;
    bag.add('host_secret', launchToken);
    hostHeader = new URL(host.origin).host;
  }, 60_000);

  afterAll(async () => {
    sse?.req.destroy();
    await host?.close();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the launch page sets an HttpOnly, SameSite=Strict cookie; the launch token is not echoed; the key is in the page only', async () => {
    expect(launchToken.length).toBeGreaterThanOrEqual(32);
    const reply = await send(launchUrl, { headers: { host: hostHeader } });
    expect(reply.status).toBe(200);
    const setCookie = ([] as string[]).concat(reply.headers['set-cookie'] ?? []);
    expect(setCookie).toHaveLength(1);
    const attrs = setCookie[0]!.split(';').map((a) => a.trim().toLowerCase());
    expect(attrs).toContain('httponly');
    expect(attrs).toContain('samesite=strict');
    cookie = setCookie[0]!.split(';')[0]!;
    key = (JSON.parse(/id="ld-host-session">([^<]*)</.exec(reply.body)![1]!) as { key: string })
      .key;
    expect(key.length).toBeGreaterThanOrEqual(32);
    bag.add('host_secret', cookie.split('=')[1]!);
    bag.add('host_secret', key);
    // The cookie is in Set-Cookie and the key in the page (where each is allowed), nothing else in
    // this answer.
    const { 'set-cookie': _allowed, ...others } = reply.headers;
    expect(leaksIn(bag, JSON.stringify(others) + reply.body.replace(key, ''))).toEqual([]);
    // Used once: the same link opens nothing the second time.
    const again = await record(
      'used launch link',
      send(launchUrl, { headers: { host: hostHeader } }),
    );
    expect(again.status).toBe(403);
  });

  it('a wrong launch token (same length, or none) gets no cookie and no echo', async () => {
    const wrong = 'A'.repeat(launchToken.length);
    for (const url of [`${host.origin}/?launch=${wrong}`, `${host.origin}/?launch=`]) {
      const reply = await record('bad session', send(url, { headers: { host: hostHeader } }));
      expect(reply.status).toBe(403);
      expect(reply.headers['set-cookie']).toBeUndefined();
      expect(reply.body).not.toContain(wrong);
    }
  });

  it('without the cookie (or with a wrong one): the page, SSE and invoke are refused', async () => {
    const wrongCookie = `${cookie.split('=')[0]}=${'B'.repeat(key.length)}`;
    for (const c of [undefined, wrongCookie, `ld_host_1=${cookie.split('=')[1]}`]) {
      const headers: Record<string, string> = {
        host: hostHeader,
        origin: host.origin,
        ...(c ? { cookie: c } : {}),
      };
      expect((await record('page', send(`${host.origin}/`, { headers }))).status).toBe(403);
      expect(
        (await record('bridge', send(`${host.origin}${BROWSER_HOST_PATHS.bridge}`, { headers })))
          .status,
      ).toBe(403);
      expect(
        (
          await record(
            'events',
            send(`${host.origin}${BROWSER_HOST_PATHS.events}`, {
              method: 'POST',
              headers: { ...headers, 'x-ld-key': key },
            }),
          )
        ).status,
      ).toBe(403);
      const inv = await record(
        'invoke',
        send(`${host.origin}${BROWSER_HOST_PATHS.invoke}sites:list`, {
          method: 'POST',
          headers: { ...headers, 'x-ld-key': key, 'content-type': 'application/json' },
          body: '{}',
        }),
      );
      expect(inv.status).toBe(403);
      expect(inv.body).not.toContain('"ok"');
    }
  });

  it('with the cookie: a foreign Host is refused (DNS rebinding), a foreign or missing Origin cannot invoke, text/plain cannot invoke', async () => {
    const port = new URL(host.origin).port;
    for (const h of [`evil.example:${port}`, `127.0.0.1:${Number(port) + 1}`, 'evil.example']) {
      expect(
        (await record('foreign host', send(`${host.origin}/`, { headers: { host: h, cookie } })))
          .status,
      ).toBe(421);
      expect(
        (
          await record(
            'foreign host sse',
            send(`${host.origin}${BROWSER_HOST_PATHS.events}`, { headers: { host: h, cookie } }),
          )
        ).status,
      ).toBe(421);
    }
    for (const origin of ['http://evil.example', `http://127.0.0.1:${Number(port) + 1}`, 'null']) {
      const r = await invoke('sites:list', undefined, { origin });
      expect(r.status).toBe(403);
    }
    const noOrigin = await record(
      'no origin',
      send(`${host.origin}${BROWSER_HOST_PATHS.invoke}sites:list`, {
        method: 'POST',
        headers: { host: hostHeader, cookie, 'x-ld-key': key, 'content-type': 'application/json' },
        body: '{}',
      }),
    );
    expect(noOrigin.status).toBe(403);
    expect((await invoke('sites:list', undefined, { 'content-type': 'text/plain' })).status).toBe(
      415,
    );
    // And the right Host, Origin and cookie do work (the checks are not simply refusing
    // everything).
    const okReply = await invoke('sites:list');
    expect(okReply.status).toBe(200);
    expect(JSON.parse(okReply.body)).toMatchObject({ ok: true });
  });

  it('a sign-in and a sync through the host: events over SSE and every invoke answer carry no token and no host secret', async () => {
    await openEvents();
    const add = JSON.parse(
      (await invoke('sites:add', { baseUrl: server.url, clientId: 'demo-desktop' })).body,
    ) as {
      ok: boolean;
      value: SiteSummary;
    };
    expect(add.ok).toBe(true);
    const signIn = JSON.parse((await invoke('sites:sign-in', { siteId: add.value.id })).body) as {
      ok: boolean;
      value: SiteSummary;
    };
    expect(signIn).toMatchObject({ ok: true, value: { status: 'ready' } });
    const sync = JSON.parse((await invoke('sync:now', { siteId: add.value.id })).body) as {
      ok: boolean;
    };
    expect(sync.ok).toBe(true);
    for (const c of [
      'library:list',
      'profile:get',
      'billing:get',
      'notifications:list',
      'sync:status',
    ]) {
      expect(JSON.parse((await invoke(c, { siteId: add.value.id })).body)).toMatchObject({
        ok: true,
      });
    }
    await invoke('security:get-token-protection');
    // The sign-in doctor's report goes to the page too (and is copied for support): no token, no
    // host secret.
    const doctor = JSON.parse((await invoke('doctor:run', { siteId: add.value.id })).body) as {
      ok: boolean;
      value: { checks: unknown[] };
    };
    expect(doctor.ok && doctor.value.checks).toHaveLength(7);
    expect(
      JSON.parse((await invoke('sites:sign-out', { siteId: add.value.id, removeData: true })).body),
    ).toMatchObject({ ok: true });
    // Static files and the bridge with a valid session.
    for (const p of ['/', '/assets/app.js', BROWSER_HOST_PATHS.bridge, '/no/such/page']) {
      expect(
        (await record(p, send(`${host.origin}${p}`, { headers: { host: hostHeader, cookie } })))
          .status,
      ).toBe(200);
    }
    await new Promise((r) => setTimeout(r, 100));
    const events = sse!.text();
    expect(events).toContain('event: sign-in:progress');
    expect(events).toContain('event: host:open-url');
    expect(events).toContain('event: sync:progress');
    // The canaries were live.
    expect(bag.of('access_token').length).toBeGreaterThan(0);
    expect(bag.of('refresh_token').length).toBeGreaterThan(0);
    expect(bag.of('code').length).toBeGreaterThan(0);
    expect(leaksIn(bag, events)).toEqual([]);
  });

  it('no answer of the host after the launch page (bodies, and every header) carries a host credential or a token', () => {
    expect(replies.length).toBeGreaterThan(30);
    for (const { what, reply } of replies) {
      const { 'set-cookie': setCookie, ...headers } = reply.headers;
      expect(setCookie, what).toBeUndefined();
      expect(leaksIn(bag, JSON.stringify(headers) + reply.body), what).toEqual([]);
    }
  });

  it('no file the host and its core wrote holds the secret or a token in plain text', () => {
    const files = filesUnder(join(dir, 'data'));
    expect(files.some((f) => f.includes('vault'))).toBe(true);
    expect(scanFiles(files, bag)).toEqual([]);
  });

  it("no log line (the host's or the core's) carries the secret or a token", () => {
    expect(coreLog.lines.length).toBeGreaterThan(5);
    expect(leaksIn(bag, hostLog.join('\n') + coreLog.text())).toEqual([]);
  });
});

describe('browser host: a handler that throws with a token in scope', () => {
  it("answers the masked internal error and logs only the error's name (the real host's onUnexpected)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ld-sec-host2-'));
    mkdirSync(join(dir, 'renderer'));
    writeFileSync(
      join(dir, 'renderer', 'index.html'),
      '<!doctype html><html><head></head><body></body></html>',
    );
    const token = `at_${'Q'.repeat(20)}${Date.now()}`;
    const bag = new SecretBag();
    bag.add('access_token', token);
    const hostLines: string[] = [];
    const host = await startBrowserHost({
      rendererDir: join(dir, 'renderer'),
      logger: (line) => hostLines.push(line),
      createCore: async ({ openExternal }) => {
        const core = await createTestCore({
          dataDir: join(dir, 'data'),
          version: '0.0.0-security',
          openExternal,
        });
        const boom = (error: unknown) => async () => {
          throw error;
        };
        return Object.assign(Object.create(core) as typeof core, {
          handlers: {
            ...core.handlers,
            'app:get-info': boom(
              new Error(`refresh failed with ${token}`, { cause: new Error(`echo ${token}`) }),
            ),
            'sites:list': boom(new TypeError(`Bearer ${token}`)),
            'settings:get': boom({ accessToken: token }),
          },
        });
      },
    });
    try {
      const hostHeader = new URL(host.origin).host;
      const launch = await send(host.launchUrl(), { headers: { host: hostHeader } });
      const cookie = ([] as string[]).concat(launch.headers['set-cookie'] ?? [])[0]!.split(';')[0]!;
      const key = (
        JSON.parse(/id="ld-host-session">([^<]*)</.exec(launch.body)![1]!) as { key: string }
      ).key;
      // The launch page's first answers asked the same handlers: only the calls below are looked
      // at.
      hostLines.length = 0;
      const bodies: string[] = [];
      for (const channel of ['app:get-info', 'sites:list', 'settings:get']) {
        const r = await send(`${host.origin}${BROWSER_HOST_PATHS.invoke}${channel}`, {
          method: 'POST',
          headers: {
            host: hostHeader,
            origin: host.origin,
            cookie,
            'x-ld-key': key,
            'content-type': 'application/json',
          },
          body: '{}',
        });
        expect(JSON.parse(r.body)).toMatchObject({ ok: false, error: { code: 'internal' } });
        bodies.push(r.body);
      }
      expect(hostLines).toEqual([
        'browser-host: app:get-info failed unexpectedly: Error',
        'browser-host: sites:list failed unexpectedly: TypeError',
        'browser-host: settings:get failed unexpectedly: error',
      ]);
      expect(leaksIn(bag, bodies.join('\n') + hostLines.join('\n'))).toEqual([]);
    } finally {
      await host.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
