/**
 * A confidential application's client secret (spec, Authentication 1: client_secret_post): typed
 * once by the user, stored in the vault, sent in token and revocation request bodies only. It never
 * comes back to the renderer, never reaches a log line, and is never stored in plain text
 * (sites.json, the offline DB).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventName } from '../../electron/common/ipc-contract';
import type { Result } from '../../electron/common/result';
import type { SiteSummary } from '../../electron/common/view-models';
import type { AppCore } from '../../electron/core/app-core';
import { dispatch } from '../../electron/core/ipc-dispatch';
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

const CLIENT_ID = 'demo-desktop-confidential';
const CLIENT_SECRET = 'demo-desktop-secret';

describe('a confidential client secret stays in the vault and the request bodies', () => {
  const bag = new SecretBag();
  const wire = createRecordingFetch(bag);
  const log = captureLogger();
  const results: Result<unknown>[] = [];
  const events: { event: EventName; payload: unknown }[] = [];
  let offsetMs = 0;
  let server: EmbeddedServer;
  let dataDir: string;
  let core: AppCore;

  const call = async <T>(channel: string, input?: unknown): Promise<T> => {
    const r = await dispatch(core.handlers, channel, input);
    results.push(r);
    if (!r.ok) throw new Error(`${channel}: ${r.error.code} ${r.error.message}`);
    return r.value as T;
  };

  beforeAll(async () => {
    server = await createEmbeddedServer({ port: 0, seed: 'demo', site: 'demo' });
    dataDir = mkdtempSync(join(tmpdir(), 'ld-sec-conf-'));
    core = await createTestCore({
      dataDir,
      version: '0.0.0-security',
      signInTimeoutMs: 20_000,
      fetch: wire.fetch,
      logger: log.logger,
      clock: { now: () => Date.now() + offsetMs },
      openExternal: async (url) => {
        const redirect = new URL(url).searchParams.get('redirect_uri')!;
        void new ScriptedBrowser()
          .authorize(url, { stopAt: redirect })
          .then((callback) => fetch(callback).then((r) => r.text()));
      },
    });
    core.onEvent((event, payload) => events.push({ event, payload: structuredClone(payload) }));
  }, 60_000);

  afterAll(async () => {
    await core?.close();
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('add (twice), sign in, sync, refresh, sign out: the secret went to the token and revocation endpoints only', async () => {
    const site = await call<SiteSummary>('sites:add', {
      baseUrl: server.url,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
    });
    await call('sites:add', {
      baseUrl: server.url,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
    });
    expect(await call<SiteSummary>('sites:sign-in', { siteId: site.id })).toMatchObject({
      status: 'ready',
    });
    await call('sync:now', { siteId: site.id });
    offsetMs = 3 * 60 * 60 * 1000;
    await call('sync:now', { siteId: site.id });
    await call('sites:list');
    const atRest = scanFiles(filesUnder(dataDir), bag);
    expect(await call('sites:sign-out', { siteId: site.id, removeData: false })).toMatchObject({
      revoked: true,
    });
    // The secret was really sent (code exchange, refresh): the canary is live.
    expect(bag.of('client_secret')).toEqual([CLIENT_SECRET]);
    const bodies = wire.tokenExchanges.map((x) => x.requestBody);
    expect(
      bodies.filter((b) => b.includes(`client_secret=${CLIENT_SECRET}`)).length,
    ).toBeGreaterThanOrEqual(2);
    expect(atRest).toEqual([]);
  });

  it('no Result, event or log line carries it; no file holds it in plain text', () => {
    expect(results.length).toBeGreaterThan(5);
    expect(leaksIn(bag, JSON.stringify(results))).toEqual([]);
    expect(leaksIn(bag, JSON.stringify(events))).toEqual([]);
    expect(leaksIn(bag, log.text())).toEqual([]);
    expect(log.text()).toContain('"confidential":true');
    expect(scanFiles(filesUnder(dataDir), bag)).toEqual([]);
  });
});
