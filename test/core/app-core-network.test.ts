import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventName, IpcEvents } from '../../electron/common/ipc-contract';
import type { AppCore } from '../../electron/core/app-core';
import { createJsonSettingsStore } from '../../electron/core/settings/settings-store';
import { createEmbeddedServer, type EmbeddedServer } from '../../embedded-server/index';
import {
  createTestCore,
  signedInSite,
  systemBrowser,
  invoke,
  caller,
  valueOf,
} from '../helpers/test-core';

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The scheduler and the network state: a sync that cannot reach the site says "offline", the core
 * probes while offline, and when the site answers again it says "online", replays the outbox and
 * syncs, with no user action. The site is a real embedded server on a file database, stopped and
 * started again on the same port.
 */
describe('app core: offline, then the network returns', () => {
  let dir: string;
  let server: EmbeddedServer | null = null;
  let core: AppCore | null = null;
  const events: { event: EventName; payload: unknown }[] = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ld-net-'));
    events.length = 0;
  });
  afterEach(async () => {
    await core?.close();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const startServer = (port = 0) =>
    createEmbeddedServer({ port, seed: 'demo', site: 'demo', database: join(dir, 'site.db') });

  /**
   * A real core on a JSON settings file, recording its events; the "browser" signs in at once.
   * Returns `call`.
   */
  async function startCore(timing: { offlineProbeMs?: number; minuteMs?: number }) {
    core = await createTestCore({
      dataDir: join(dir, 'app'),
      version: '0',
      settingsStore: createJsonSettingsStore(join(dir, 'app', 'settings.json')),
      ...timing,
      openExternal: systemBrowser(),
    });
    core.onEvent(<E extends EventName>(event: E, payload: IpcEvents[E]) =>
      events.push({ event, payload }),
    );
    return caller(() => core!.handlers);
  }

  it('a sign-out queued while the site is down is sent by the probe as soon as the site answers', async () => {
    server = await startServer();
    const port = server.port;
    const call = await startCore({ offlineProbeMs: 200 });
    const site = await signedInSite(core!, server.url);
    // past the start-up sync, which also sends queued sign-outs
    await new Promise((r) => setTimeout(r, 1500));

    await server.close();
    server = null;
    const out = valueOf(await call('sites:sign-out', { siteId: site.id, removeData: false }));
    expect(out).toEqual({ revoked: false, pending: true });
    const status = async () =>
      valueOf(await call('sites:list')).find((s) => s.id === site.id)!.status;
    expect(await status()).toBe('sign-out-pending');

    server = await startServer(port);
    // No sync, no schedule (the interval is 30 minutes): the probe sends the revocation.
    await until(async () => (await status()) === 'signed-out', 10_000);
  });

  it('goes offline on an unreachable site, probes, and on return replays the outbox and syncs by itself', async () => {
    server = await startServer();
    const port = server.port;
    const call = await startCore({ offlineProbeMs: 200 });

    const site = await signedInSite(core!, server.url);
    valueOf(await call('sync:now', { siteId: site.id }));
    const unread = valueOf(await call('notifications:list', { siteId: site.id })).items.find(
      (n) => n.readAt === null,
    )!;

    await server.close();
    server = null;
    const failed = valueOf(await call('sync:now', { siteId: site.id }));
    expect(failed.outcome).toBe('failed');
    expect(events).toContainEqual({ event: 'network:changed', payload: { online: false } });

    valueOf(await call('notifications:mark-read', { siteId: site.id, notificationId: unread.id }));
    await until(
      async () => valueOf(await call('sync:status', { siteId: site.id })).pendingChanges === 1,
    );

    events.length = 0;
    server = await startServer(port);
    await until(() =>
      events.some(
        (e) => e.event === 'network:changed' && (e.payload as { online: boolean }).online,
      ),
    );
    // Replayed and synced with no call from the page.
    await until(
      async () => valueOf(await call('sync:status', { siteId: site.id })).pendingChanges === 0,
    );
    await until(
      () =>
        (
          server!.db.prepare('SELECT read_at FROM notifications WHERE id = ?').get(unread.id) as {
            read_at: number | null;
          }
        ).read_at !== null,
    );
    await until(() => events.some((e) => e.event === 'data:changed'));
  });

  it('syncs on sign-in by itself; a change made once the site is gone turns the app offline and is replayed on return', async () => {
    server = await startServer();
    const port = server.port;
    const call = await startCore({ offlineProbeMs: 200 });
    const status = async (siteId: string) => valueOf(await call('sync:status', { siteId }));

    const site = await signedInSite(core!, server.url);
    // No sync:now: signing in starts the first sync.
    await until(async () => (await status(site.id)).lastSyncedAt !== null);
    const unread = valueOf(await call('notifications:list', { siteId: site.id })).items.find(
      (n) => n.readAt === null,
    )!;
    expect(unread).toBeDefined();

    // Past the one sync the core runs shortly after start: only the change below may find the site
    // gone.
    await new Promise((r) => setTimeout(r, 1500));
    // The site goes away while the app still believes it is online (no sync has failed yet).
    await server.close();
    server = null;
    expect(core!.isOnline()).toBe(true);
    valueOf(await call('notifications:mark-read', { siteId: site.id, notificationId: unread.id }));
    // The background send fails on the network: the app says offline (and starts probing) by
    // itself.
    await until(() =>
      events.some(
        (e) => e.event === 'network:changed' && !(e.payload as { online: boolean }).online,
      ),
    );
    expect(core!.isOnline()).toBe(false);
    expect((await status(site.id)).pendingChanges).toBe(1);

    server = await startServer(port);
    await until(async () => (await status(site.id)).pendingChanges === 0);
    await until(
      () =>
        (
          server!.db.prepare('SELECT read_at FROM notifications WHERE id = ?').get(unread.id) as {
            read_at: number | null;
          }
        ).read_at !== null,
    );
    expect(core!.isOnline()).toBe(true);
  });

  it('syncs on the schedule from settings, and a changed interval reschedules (0 turns it off)', async () => {
    server = await startServer();
    const call = await startCore({ minuteMs: 150 });
    valueOf(await call('settings:update', { autoSyncMinutes: 0 }));
    const site = await signedInSite(core!, server.url);
    valueOf(await call('sync:now', { siteId: site.id }));
    // Past the one sync the core runs shortly after start.
    await new Promise((r) => setTimeout(r, 1500));

    const runs = () =>
      events.filter(
        (e) => e.event === 'sync:progress' && !(e.payload as { running: boolean }).running,
      ).length;
    const before = runs();
    await new Promise((r) => setTimeout(r, 500));
    expect(runs()).toBe(before); // off: nothing runs by itself

    valueOf(await call('settings:update', { autoSyncMinutes: 1 }));
    await until(() => runs() >= before + 2, 5000); // every "minute" (150 ms here)

    valueOf(await call('settings:update', { autoSyncMinutes: 0 }));
    await new Promise((r) => setTimeout(r, 300));
    const stopped = runs();
    await new Promise((r) => setTimeout(r, 500));
    expect(runs()).toBe(stopped);
  });

  it('keeps settings across restarts (JSON settings store)', async () => {
    const make = () =>
      createTestCore({
        dataDir: join(dir, 'app'),
        version: '0',
        settingsStore: createJsonSettingsStore(join(dir, 'app', 'settings.json')),
        openExternal: async () => {},
      });
    core = await make();
    valueOf(
      await invoke(core.handlers, 'settings:update', { autoSyncMinutes: 0, language: 'zh-TW' }),
    );
    await core.close();
    core = await make();
    expect(valueOf(await invoke(core.handlers, 'settings:get', undefined))).toMatchObject({
      autoSyncMinutes: 0,
      language: 'zh-TW',
    });
  });
});
