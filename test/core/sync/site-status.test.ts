import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SiteSummary, SyncRunSummary, SyncStatus } from '../../../electron/common/view-models';
import type { AppCore } from '../../../electron/core/app-core';
import { request } from '../../../electron/core/net/http';
import { failedBeforeConnecting, osHasNetwork } from '../../../electron/core/net/reachability';
import { siteStatusView } from '../../../electron/core/sync/site-status';
import { createEmbeddedServer, type EmbeddedServer } from '../../../embedded-server/index';
import { revokeGrant } from '../../../embedded-server/store/tokens';
import {
  createTestCore,
  signedInSite,
  systemBrowser,
  valueOf,
  invoke,
} from '../../helpers/test-core';

/**
 * The one status of a site (sync/site-status.ts) as the core reports it over `sync:status`, against
 * a real embedded server: stopped, it is "not answering" (the computer still has its network); with
 * the OS reporting no network, the same failure is "offline"; its sessions ended at the site, it is
 * "needs sign-in"; a 503 is the school not answering.
 */
describe('site status view (real site, real core)', () => {
  let dir: string;
  let server: EmbeddedServer | null = null;
  let core: AppCore | null = null;
  let networkUp = true;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ld-site-status-'));
    networkUp = true;
  });
  afterEach(async () => {
    await core?.close();
    await server?.close();
    core = null;
    server = null;
    rmSync(dir, { recursive: true, force: true });
  });

  async function start(): Promise<{
    site: SiteSummary;
    status: () => Promise<SyncStatus>;
    sync: () => Promise<SyncRunSummary>;
  }> {
    server = await createEmbeddedServer({
      port: 0,
      seed: 'demo',
      site: 'demo',
      database: join(dir, 'site.db'),
    });
    core = await createTestCore({
      dataDir: join(dir, 'app'),
      openExternal: systemBrowser(),
      networkUp: () => networkUp,
    });
    const site = await signedInSite(core, server.url);
    const status = async () =>
      valueOf(await invoke(core!.handlers, 'sync:status', { siteId: site.id }));
    const sync = async () => valueOf(await invoke(core!.handlers, 'sync:now', { siteId: site.id }));
    return { site, status, sync };
  }

  it('synced: ok and green with the time of the sync', async () => {
    const { status, sync } = await start();
    const run = await sync();
    expect(run.outcome).toBe('completed');
    const s = await status();
    expect(s.reach).toBe('answering');
    expect(s.view).toEqual({ state: 'ok', tone: 'ok', reason: null, lastSyncedAt: run.finishedAt });
  });

  it('the school stopped while the computer has its network: "not answering", amber, the last good sync kept', async () => {
    const { status, sync } = await start();
    const good = await sync();
    await server!.close();
    server = null;
    const failed = await sync();
    expect(failed.outcome).toBe('failed');
    const s = await status();
    expect(s.reach).toBe('not-answering');
    expect(s.view.state).toBe('not-answering');
    expect(s.view.tone).toBe('warning');
    expect(s.view.reason?.code).toBe('site-unreachable');
    expect(s.view.lastSyncedAt).toBe(good.finishedAt);
  });

  it('the same failure with no network on this computer: "offline"', async () => {
    const { status, sync } = await start();
    await sync();
    await server!.close();
    server = null;
    networkUp = false;
    await sync();
    expect((await status()).view.state).toBe('offline');
    // The network back but the school still away: it is the school that does not answer.
    networkUp = true;
    expect((await status()).view.state).toBe('not-answering');
  });

  it('the member API answering 503: the school is not answering (not "offline")', async () => {
    const { status, sync } = await start();
    await sync();
    server!.faults.memberApiUnavailable = true;
    expect((await sync()).error?.code).toBe('server-unavailable');
    const s = await status();
    expect(s.view.state).toBe('not-answering');
    expect(s.view.reason?.code).toBe('server-unavailable');
    server!.faults.memberApiUnavailable = false;
    expect((await sync()).outcome).toBe('completed');
    // The school answering again starts a sync of every site by itself ("network back"): ok once it
    // ends.
    await expect.poll(async () => (await status()).view.state, { timeout: 15_000 }).toBe('ok');
  });

  it('its sessions ended at the site (refresh token revoked): "needs sign-in", red', async () => {
    const { status, sync } = await start();
    const good = await sync();
    const live = server!.db
      .prepare(
        "SELECT DISTINCT grant_id AS g FROM token_pairs WHERE client_id = 'demo-desktop' AND revoked_at IS NULL",
      )
      .all() as { g: string }[];
    expect(live.length).toBeGreaterThan(0);
    for (const { g } of live)
      revokeGrant(server!.db, g, server!.clock.now(), 'revoked-by-test-operator');
    const refused = await sync();
    expect(refused.outcome).toBe('failed');
    const s = await status();
    expect(s.view).toMatchObject({
      state: 'needs-sign-in',
      tone: 'danger',
      lastSyncedAt: good.finishedAt,
    });
    expect(s.view.reason?.code).toBe('sign-in-needed');
  });
});

describe('reachability rule (net/reachability.ts)', () => {
  it('a name that cannot be resolved fails before connecting; a refused connection does not', async () => {
    // RFC 2606 §2: .invalid never resolves.
    const dns = await request('http://school.invalid/', {}, { fetch }).catch((e: unknown) => e);
    expect(failedBeforeConnecting(dns)).toBe(true);
    const closed = await createEmbeddedServer({ port: 0, seed: 'demo', site: 'demo' });
    const url = closed.url;
    await closed.close();
    const refused = await request(url, {}, { fetch }).catch((e: unknown) => e);
    expect((refused as { detail?: { reason?: string } }).detail?.reason).toBe('ECONNREFUSED');
    expect(failedBeforeConnecting(refused)).toBe(false);
  });

  it('the OS network: loopback alone is no network', () => {
    const lo = {
      address: '127.0.0.1',
      netmask: '255.0.0.0',
      family: 'IPv4',
      mac: '00:00:00:00:00:00',
      internal: true,
      cidr: null,
    } as const;
    expect(osHasNetwork({ lo: [lo] })).toBe(false);
    expect(
      osHasNetwork({ lo: [lo], eth0: [{ ...lo, address: '10.0.0.2', internal: false }] }),
    ).toBe(true);
  });
});

describe('siteStatusView: one status, in the order the student must know it', () => {
  const base: Omit<SyncStatus, 'view'> = {
    siteId: 's',
    running: false,
    lastSyncedAt: '2026-11-25T12:03:00.000Z',
    lastAttemptAt: '2026-11-25T12:10:00.000Z',
    lastError: null,
    missingScopes: [],
    pendingChanges: 0,
    failedChanges: [],
    online: true,
    reach: 'answering',
  };
  const ready = { status: 'ready' } as const;

  it('a failure the site answered with is red with its reason', () => {
    const error = { code: 'server-error', message: 'The site answered with an error (HTTP 500).' };
    expect(siteStatusView(ready, { ...base, lastError: error })).toEqual({
      state: 'failed',
      tone: 'danger',
      reason: error,
      lastSyncedAt: base.lastSyncedAt,
    });
  });
  it('a cancelled run is no failure', () => {
    expect(
      siteStatusView(ready, { ...base, lastError: { code: 'sync-cancelled', message: '' } }).state,
    ).toBe('ok');
  });
  it('a sign-in needed outranks a run under way and the network', () => {
    expect(
      siteStatusView({ status: 'sign-in-needed' }, { ...base, running: true, reach: 'offline' })
        .state,
    ).toBe('needs-sign-in');
  });
  it('signed out with its copy kept: red "needs sign-in", never a green "Synced" under the banner that says so', () => {
    expect(siteStatusView({ status: 'signed-out' }, base)).toMatchObject({
      state: 'needs-sign-in',
      tone: 'danger',
      lastSyncedAt: base.lastSyncedAt,
    });
  });
  it('a run under way shows as syncing, even after a failure', () => {
    expect(siteStatusView(ready, { ...base, running: true, reach: 'not-answering' })).toMatchObject(
      { state: 'syncing', tone: 'busy' },
    );
  });
  it('never synced and never tried: ok with no time', () => {
    expect(siteStatusView(ready, { ...base, lastSyncedAt: null, reach: 'unknown' })).toEqual({
      state: 'ok',
      tone: 'ok',
      reason: null,
      lastSyncedAt: null,
    });
  });
});
