import { describe, expect, it } from 'vitest';
import { getLibrary, getNotifications, listSiteIds } from '../../../electron/core/db';
import { CoreError } from '../../../electron/core/errors';
import { createSyncService } from '../../../electron/core/sync';
import type { SiteClient } from '../../../electron/core/sync/transport';
import { bearerFetch } from './helpers/member-token';
import { noSleep, openTempDb, startSite } from './helpers/setup';

/** Snapshot of what the views show, to prove a failed run changed nothing. */
function viewsOf(db: Parameters<typeof getLibrary>[0]) {
  const now = new Date('2026-11-22T00:00:00.000Z');
  return { library: getLibrary(db, 'demo', now), notifications: getNotifications(db, 'demo') };
}

/** Counts member API requests and runs a hook before each one (to break things mid-run). */
function instrumented(client: SiteClient, before: (n: number) => void | Promise<void>): SiteClient {
  let n = 0;
  return {
    endpoint: client.endpoint,
    fetch: async (input, init) => {
      n += 1;
      await before(n);
      return client.fetch(input, init);
    },
  };
}

describe('a sync interrupted mid-way leaves the last complete snapshot', () => {
  it('server stopped mid-run: the run fails as site-unreachable after bounded retries; data intact', async () => {
    const site = await startSite();
    const { db } = openTempDb();
    const first = createSyncService({ db, clientFor: () => site.client, sleep: noSleep });
    expect((await first.syncNow('demo')).outcome).toBe('completed');
    const before = viewsOf(db);
    const lastSyncedAt = first.status('demo').lastSyncedAt;
    expect(lastSyncedAt).not.toBeNull();
    // Server-side change that must NOT show up: a notification deleted on the server.
    const deleted = before.notifications.items[0]!.id;
    site.server.db.prepare('DELETE FROM notifications WHERE id = ?').run(deleted);

    const sleeps: number[] = [];
    const sync = createSyncService({
      db,
      clientFor: () =>
        instrumented(site.client, async (n) => {
          if (n === 4) await site.server.close(); // after profile, courses and one more page
        }),
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
    const summary = await sync.syncNow('demo');
    expect(summary.outcome).toBe('failed');
    expect(summary.error?.code).toBe('site-unreachable');
    // Exponential backoff, bounded (5 attempts = 4 waits).
    expect(sleeps).toEqual([250, 500, 1000, 2000]);
    expect(viewsOf(db)).toEqual(before);
    expect(sync.status('demo')).toMatchObject({
      online: false,
      lastError: { code: 'site-unreachable' },
      lastSyncedAt,
    });
  });

  it('cancel(siteId) mid-run: outcome cancelled, data intact; a second syncNow joins the running one', async () => {
    const site = await startSite();
    const { db } = openTempDb();
    const plain = createSyncService({ db, clientFor: () => site.client });
    await plain.syncNow('demo');
    const before = viewsOf(db);
    site.server.db.prepare('DELETE FROM notifications').run();

    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const sync = createSyncService({
      db,
      clientFor: () =>
        instrumented(site.client, async (n) => {
          if (n === 3) await gate;
        }),
    });
    const a = sync.syncNow('demo');
    const b = sync.syncNow('demo');
    expect(b).toBe(a);
    await new Promise((r) => setTimeout(r, 50));
    expect(sync.status('demo').running).toBe(true);
    sync.cancel('demo');
    release();
    const summary = await a;
    expect(summary.outcome).toBe('cancelled');
    expect(summary.error?.code).toBe('sync-cancelled');
    expect(viewsOf(db)).toEqual(before);
    expect(sync.status('demo').running).toBe(false);
  });

  it('forgetSite while a sync runs: the run is cancelled and the site does not come back', async () => {
    const site = await startSite();
    const { db } = openTempDb();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const sync = createSyncService({
      db,
      clientFor: () => instrumented(site.client, async (n) => (n === 2 ? gate : undefined)),
    });
    const running = sync.syncNow('demo');
    await new Promise((r) => setTimeout(r, 50));
    const forgetting = sync.forgetSite('demo');
    release();
    expect((await running).outcome).toBe('cancelled');
    await forgetting;
    expect(listSiteIds(db)).toEqual([]);
    expect(getLibrary(db, 'demo', new Date())).toEqual([]);
  });

  it('an AbortSignal passed to syncNow cancels too', async () => {
    const site = await startSite();
    const { db } = openTempDb();
    const controller = new AbortController();
    const sync = createSyncService({
      db,
      clientFor: () => instrumented(site.client, (n) => (n === 2 ? controller.abort() : undefined)),
    });
    const summary = await sync.syncNow('demo', { signal: controller.signal });
    expect(summary.outcome).toBe('cancelled');
    expect(getLibrary(db, 'demo', new Date())).toEqual([]);
  });
});

describe('retries (service-spec "Protected resources": 503 temporarily_unavailable, the client retries)', () => {
  it('retries a 503 with exponential backoff and completes when the site recovers', async () => {
    const site = await startSite();
    const { db } = openTempDb();
    site.server.faults.tokenStoreUnavailable = true;
    const sleeps: number[] = [];
    const sync = createSyncService({
      db,
      clientFor: () => site.client,
      sleep: async (ms) => {
        sleeps.push(ms);
        if (sleeps.length === 2) site.server.faults.tokenStoreUnavailable = false;
      },
    });
    const summary = await sync.syncNow('demo');
    expect(summary.outcome).toBe('completed');
    expect(sleeps).toEqual([250, 500]);
    expect(getLibrary(db, 'demo', new Date()).length).toBeGreaterThan(0);
  });

  it('gives up after the bounded attempts with server-unavailable', async () => {
    const site = await startSite();
    const { db } = openTempDb();
    site.server.faults.tokenStoreUnavailable = true;
    let waits = 0;
    const sync = createSyncService({
      db,
      clientFor: () => site.client,
      sleep: async () => void (waits += 1),
    });
    const summary = await sync.syncNow('demo');
    expect(summary).toMatchObject({ outcome: 'failed', error: { code: 'server-unavailable' } });
    expect(waits).toBe(4);
  });
});

describe('sign-in and scopes (service-spec "Protected resources", "Scopes")', () => {
  it("'sign-in-needed' from the auth fetch stops the run with that error; data intact", async () => {
    const site = await startSite();
    const { db } = openTempDb();
    await createSyncService({ db, clientFor: () => site.client }).syncNow('demo');
    const before = viewsOf(db);
    const sync = createSyncService({
      db,
      clientFor: () => ({
        endpoint: site.client.endpoint,
        fetch: async () => {
          throw new CoreError('sign-in-needed', 'Sign in again.');
        },
      }),
      sleep: noSleep,
    });
    const summary = await sync.syncNow('demo');
    expect(summary).toMatchObject({ outcome: 'failed', error: { code: 'sign-in-needed' } });
    expect(viewsOf(db)).toEqual(before);
  });

  it('a token the server refuses (401 invalid_token) ends as sign-in-needed', async () => {
    const site = await startSite();
    const { db } = openTempDb();
    const sync = createSyncService({
      db,
      clientFor: () => ({ endpoint: site.client.endpoint, fetch: bearerFetch('not-a-token') }),
      sleep: noSleep,
    });
    expect(await sync.syncNow('demo')).toMatchObject({
      outcome: 'failed',
      error: { code: 'sign-in-needed' },
    });
  });

  it('a token without account:read: fields come back as errors naming the scope (HTTP 200); outcome partial, stored data kept', async () => {
    const full = await startSite();
    const { db } = openTempDb();
    await createSyncService({ db, clientFor: () => full.client }).syncNow('demo');
    const before = viewsOf(db);
    const { getMemberToken, siteClient } = await import('./helpers/member-token');
    const writeOnly = await getMemberToken(full.server, 'openid account:write');
    const sync = createSyncService({
      db,
      clientFor: () => siteClient(full.server.url, writeOnly.accessToken),
    });
    const summary = await sync.syncNow('demo');
    expect(summary).toMatchObject({
      outcome: 'partial',
      missingScopes: ['account:read'],
      error: null,
    });
    expect(viewsOf(db)).toEqual(before);
    expect(sync.status('demo').missingScopes).toEqual(['account:read']);
  });
});
