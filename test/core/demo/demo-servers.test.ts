import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SiteSummary } from '../../../electron/common/view-models';
import type { AppCore } from '../../../electron/core/app-core';
import {
  createDemoServers,
  demoServerDir,
  reconcileDemoSites,
} from '../../../electron/core/demo/demo-servers';
import { createMemorySettingsStore } from '../../../electron/core/settings/settings-store';
import { createSiteStore, siteRecordSchema } from '../../../electron/core/sites/site-store';
import { createTestCore, invoke } from '../../helpers/test-core';

/** Holds a loopback port so the demo site cannot have it back. */
async function occupy(port: number): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return server;
}

describe('demo mode: the embedded demo sites in process', () => {
  let dataDir: string;
  const cleanups: (() => Promise<void> | void)[] = [];
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'ld-demo-'));
  });
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const core = async (): Promise<AppCore> => {
    const c = await createTestCore({
      dataDir,
      openExternal: async () => {},
      demo: { enabled: true },
    });
    cleanups.push(() => c.close());
    return c;
  };

  it('starts both sites on loopback with their databases in the data folder, and keeps their ports across restarts', async () => {
    const demo = createDemoServers({ dataDir });
    cleanups.push(() => demo.stop());
    const first = await demo.start();
    expect(first.demo).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(first.demo2).not.toBe(first.demo);
    expect(existsSync(join(demoServerDir(dataDir), 'demo.db'))).toBe(true);
    expect(existsSync(join(demoServerDir(dataDir), 'demo2.db'))).toBe(true);
    const discovery = await fetch(`${first.demo}/.well-known/oauth-authorization-server`);
    expect(discovery.status).toBe(200);
    await demo.stop();
    expect(demo.running).toBe(false);
    await expect(fetch(`${first.demo}/.well-known/oauth-authorization-server`)).rejects.toThrow();

    const again = await demo.start();
    expect(again).toEqual(first);
    expect(await demo.previousOrigins()).toEqual(first);
  });

  it('takes a new port when the old one is taken, and moves the saved demo sites there', async () => {
    const c = await core();
    const added = (await c.handlers['sites:add-demo'](undefined)) as {
      ok: true;
      value: SiteSummary[];
    };
    expect(added.ok).toBe(true);
    const oldDemo = c.demo!.origins()!.demo;
    await c.close();

    const blocker = await occupy(Number(new URL(oldDemo).port));
    cleanups.push(() => new Promise<void>((resolve) => blocker.close(() => resolve())));

    // Restart with demo sites saved: the servers are started before the site list is read.
    const restarted = await core();
    expect(restarted.demo!.running).toBe(true);
    const now = restarted.demo!.origins()!;
    expect(now.demo).not.toBe(oldDemo);
    const listed = (await restarted.handlers['sites:list'](undefined)) as {
      ok: true;
      value: SiteSummary[];
    };
    const demoSite = listed.value.find((s) => s.id === added.value[0]!.id)!;
    expect(demoSite.baseUrl).toBe(now.demo);
    const saved = (await createSiteStore(dataDir).load()).find((s) => s.id === demoSite.id)!;
    expect(saved.metadata?.issuer.startsWith(now.demo)).toBe(true);
    expect(saved.metadata?.tokenEndpoint.startsWith(now.demo)).toBe(true);
    // add-demo again returns the same sites, not duplicates.
    const again = (await restarted.handlers['sites:add-demo'](undefined)) as {
      ok: true;
      value: SiteSummary[];
    };
    expect(again.value.map((s) => s.id).sort()).toEqual(added.value.map((s) => s.id).sort());

    // Removing every demo site stops the demo servers.
    for (const s of again.value) await restarted.handlers['sites:remove']({ siteId: s.id });
    expect(restarted.demo!.running).toBe(false);
  });

  it('reconcile leaves non-demo sites and unchanged origins alone, and asks a moved signed-in site to sign in again', async () => {
    const store = createSiteStore(dataDir);
    const meta = (o: string) => ({
      issuer: o,
      resource: o,
      authorizationEndpoint: `${o}/oauth/authorize`,
      tokenEndpoint: `${o}/oauth/token`,
      revocationEndpoint: `${o}/oauth/revoke`,
      userinfoEndpoint: null,
      jwksUri: `${o}/.well-known/jwks.json`,
      idTokenSigningAlgs: ['ES256'],
      authorizationResponseIssParameterSupported: true,
      scopesSupported: null,
      tokenEndpointAuthMethods: null,
    });
    // Parsed by the store's own schema, so fields it adds later get their defaults.
    const site = (id: string, origin: string, isDemo: boolean) =>
      siteRecordSchema.parse({
        id,
        label: 'x',
        baseUrl: origin,
        clientId: 'demo-desktop',
        confidential: false,
        isDemo,
        status: 'ready',
        schoolId: null,
        subdomain: null,
        profile: null,
        grantedScopes: [],
        missingScopes: [],
        metadata: meta(origin),
        addedAt: new Date(0).toISOString(),
      });
    await store.save([
      site('a', 'http://127.0.0.1:1111', true),
      site('b', 'http://127.0.0.1:2222', true),
      site('c', 'https://school.example', false),
    ]);
    const moved = await reconcileDemoSites(
      dataDir,
      { demo: 'http://127.0.0.1:1111', demo2: 'http://127.0.0.1:2222' },
      { demo: 'http://127.0.0.1:3333', demo2: 'http://127.0.0.1:2222' },
    );
    expect(moved).toBe(1);
    const [a, b, c] = await store.load();
    expect(a).toMatchObject({ baseUrl: 'http://127.0.0.1:3333', status: 'sign-in-needed' });
    expect(a!.metadata?.revocationEndpoint).toBe('http://127.0.0.1:3333/oauth/revoke');
    expect(b).toMatchObject({ baseUrl: 'http://127.0.0.1:2222', status: 'ready' });
    expect(c).toMatchObject({ baseUrl: 'https://school.example', status: 'ready' });
  });

  it('refuses add-demo when demo mode is off', async () => {
    const c = await createTestCore({
      dataDir,
      version: '0',
      openExternal: async () => {},
      settingsStore: createMemorySettingsStore(),
    });
    cleanups.push(() => c.close());
    // Handlers throw CoreErrors; the dispatcher (what both hosts call) turns them into Results.
    const result = await invoke(c.handlers, 'sites:add-demo', undefined);
    expect(result).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(c.info.demoAvailable).toBe(false);
  });
});
