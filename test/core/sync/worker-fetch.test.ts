import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { createEmbeddedServer } from '../../../embedded-server/index';
import { getLibrary, getNotifications } from '../../../electron/core/db';
import { isCoreError } from '../../../electron/core/errors';
import { createVault } from '../../../electron/core/vault/vault';
import { createSyncService } from '../../../electron/core/sync';
import type { SiteClient } from '../../../electron/core/sync/transport';
import { createHarness, type Harness } from '../auth/helpers/harness';
import { bearerFetch, fetchOnlyClient } from './helpers/member-token';
import { contents, openTempDb, openWorkerDb, startSite } from './helpers/setup';

/**
 * The sync's pages as the app sends them: the writer worker requests each page itself
 * (worker-contract.ts `stage:fetch`) with a token the main process picked under the token manager's
 * rules (`sendWith`), so this thread neither sends, reads, parses nor copies a page. Real embedded
 * server, real worker, real SQLite, real token manager.
 */
const NOW = new Date('2026-06-01T00:00:00.000Z');

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/**
 * A site manager signed in to a real embedded server (harness.ts), and a client built as app-core
 * builds it.
 */
async function signedIn(options: { scopes?: string[] } = {}) {
  const server = await createEmbeddedServer({ port: 0, seed: 'demo', site: 'demo' });
  cleanups.push(() => server.close());
  const h: Harness = await createHarness({
    extra: options.scopes ? { scopes: options.scopes } : {},
  });
  cleanups.push(() => h.close());
  const site = await h.manager.add({ baseUrl: server.url, clientId: 'demo-desktop' });
  await h.manager.signIn(site.id);
  const vault = createVault({ dir: join(h.dir, 'vault'), cipher: h.cipher });
  const client: SiteClient = {
    endpoint: `${server.url}/member/graphql`,
    fetch: h.manager.fetchFor(site.id) as typeof fetch,
    sendWith: h.manager.sendWith(site.id),
  };
  return { server, h, siteId: site.id, vault, client };
}

/**
 * A site that takes every request and never answers; it records each request and when its
 * connection closed.
 */
async function silentSite() {
  const requests: { closed: boolean }[] = [];
  const held: ServerResponse[] = [];
  const server = createServer((req, res) => {
    const entry = { closed: false };
    requests.push(entry);
    held.push(res);
    res.on('close', () => (entry.closed = true));
    req.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(async () => {
    for (const res of held) res.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

/** A demo site synced once through the writer worker; `before` is its library as stored. */
async function syncedOnce() {
  const site = await startSite();
  const { db, writer } = await openWorkerDb();
  const first = createSyncService({ db, writer, clientFor: () => site.client });
  expect((await first.syncNow('demo')).outcome).toBe('completed');
  await first.close();
  return { site, db, writer, before: getLibrary(db, 'demo', NOW) };
}

describe('the sync pages sent by the writer worker', () => {
  it('this thread sends none of them, and the stored data is what the fetch path stores', async () => {
    const site = await startSite();
    const { db, writer } = await openWorkerDb();
    let sentHere = 0;
    const sentByWorker: string[] = [];
    const client: SiteClient = {
      endpoint: site.client.endpoint,
      fetch: (input, init) => {
        sentHere += 1;
        return bearerFetch(site.accessToken)(input, init);
      },
      sendWith: (target, send) => {
        sentByWorker.push(target);
        return send(site.accessToken, target);
      },
    };
    const sync = createSyncService({ db, writer, clientFor: () => client });
    const summary = await sync.syncNow('demo');
    await sync.close();
    expect(summary).toMatchObject({ outcome: 'completed', error: null });
    expect(sentHere).toBe(0);
    // One request per page, each to the member endpoint.
    expect(sentByWorker.length).toBeGreaterThanOrEqual(8);
    expect(new Set(sentByWorker)).toEqual(new Set([site.client.endpoint]));

    // The same site through this thread's fetch (the path a host's own fetch takes), into another
    // file.
    const reference = openTempDb();
    const viaFetch = createSyncService({
      db: reference.db,
      clientFor: () => fetchOnlyClient(site.server.url, site.accessToken),
    });
    expect((await viaFetch.syncNow('demo')).counts).toEqual(summary.counts);
    await viaFetch.close();
    expect(contents(db)).toBe(contents(reference.db));
    expect(getLibrary(db, 'demo', NOW)).toEqual(getLibrary(reference.db, 'demo', NOW));
  });

  it('a page refused with 401: the token manager refreshes once and the worker sends the page again with the new token', async () => {
    const { h, siteId, vault, client } = await signedIn();
    const { db, writer } = await openWorkerDb();
    const current = await vault.get(siteId);
    // A token the site no longer accepts while it still looks fresh locally.
    await vault.put(siteId, {
      ...(current as NonNullable<typeof current>),
      accessToken: 'at_not-a-real-token',
    });
    const sync = createSyncService({ db, writer, clientFor: () => client });
    const summary = await sync.syncNow(siteId);
    await sync.close();
    expect(summary).toMatchObject({ outcome: 'completed', error: null });
    // The pages that went out together with the dead token all waited for the one refresh.
    expect(h.refreshRequests()).toHaveLength(1);
    expect((await vault.get(siteId))?.accessToken).not.toBe('at_not-a-real-token');
    expect(getNotifications(db, siteId).items.length).toBeGreaterThan(0);
    expect(h.manager.getSite(siteId)?.status).toBe('ready');
    // The main thread's fetch carried the refresh only, no page.
    expect(h.sent.filter((r) => r.url.endsWith('/member/graphql'))).toEqual([]);
  });

  it('a 401 that survives the refresh ends the sign-in; the stored data is kept', async () => {
    const { h, server, siteId, client } = await signedIn();
    const { db, writer } = await openWorkerDb();
    const sync = createSyncService({ db, writer, clientFor: () => client });
    expect((await sync.syncNow(siteId)).outcome).toBe('completed');
    const before = getLibrary(db, siteId, NOW);
    // Every token of the member is revoked at the site: the refresh fails as well.
    server.db.prepare('DELETE FROM token_pairs').run();
    const summary = await sync.syncNow(siteId);
    await sync.close();
    expect(summary).toMatchObject({ outcome: 'failed', error: { code: 'sign-in-needed' } });
    expect(h.manager.getSite(siteId)?.status).toBe('sign-in-needed');
    expect(getLibrary(db, siteId, NOW)).toEqual(before);
  });

  it('403 insufficient_scope for a page: the run names the missing scope, the site records it, nothing is stored', async () => {
    const { h, siteId, client } = await signedIn({ scopes: ['openid', 'profile', 'email'] });
    const { db, writer } = await openWorkerDb();
    const sync = createSyncService({ db, writer, clientFor: () => client });
    const summary = await sync.syncNow(siteId);
    await sync.close();
    expect(summary).toMatchObject({ outcome: 'failed', error: { code: 'insufficient-scope' } });
    expect(h.manager.getSite(siteId)?.missingScopes).toContain('account:read');
    expect(getLibrary(db, siteId, NOW)).toEqual([]);
  });

  it("sendWith never hands the site's token to another origin", async () => {
    const { h, siteId } = await signedIn();
    const send = vi.fn(async () => ({ status: 200, wwwAuthenticate: null }));
    await expect(
      h.manager.sendWith(siteId)('https://evil.example.com/member/graphql', send),
    ).rejects.toSatisfy((e) => isCoreError(e, 'forbidden'));
    expect(send).not.toHaveBeenCalled();
  });

  it('a cancel stops the pages the worker has on the network at once; the stored snapshot is unchanged', async () => {
    const { site, db, writer, before } = await syncedOnce();

    const silent = await silentSite();
    const sync = createSyncService({
      db,
      writer,
      clientFor: () => ({ ...site.client, endpoint: `${silent.url}/member/graphql` }),
    });
    const running = sync.syncNow('demo');
    await vi.waitFor(() => expect(silent.requests.length).toBeGreaterThanOrEqual(4));
    expect(silent.requests.every((r) => !r.closed)).toBe(true);
    sync.cancel('demo');
    expect(await running).toMatchObject({
      outcome: 'cancelled',
      error: { code: 'sync-cancelled' },
    });
    // The site never answered: only the worker's abort closed those requests.
    await vi.waitFor(() => expect(silent.requests.every((r) => r.closed)).toBe(true));
    await sync.close();
    expect(getLibrary(db, 'demo', NOW)).toEqual(before);
  });

  it('an answer cut off mid-body is a lost connection: retried with backoff, then site-unreachable; the stored snapshot is kept', async () => {
    const { site, db, writer, before } = await syncedOnce();
    // Promises 10,000 bytes of JSON, sends 20, and drops the connection.
    const cut = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '10000' });
      res.write('{"data":{"viewer":{"');
      setImmediate(() => res.destroy());
    });
    await new Promise<void>((resolve) => cut.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => cut.close(() => resolve())));
    const sleeps: number[] = [];
    const sync = createSyncService({
      db,
      writer,
      clientFor: () => ({
        ...site.client,
        endpoint: `http://127.0.0.1:${(cut.address() as AddressInfo).port}/member/graphql`,
      }),
      sleep: async (ms) => void sleeps.push(ms),
    });
    expect(await sync.syncNow('demo')).toMatchObject({
      outcome: 'failed',
      error: { code: 'site-unreachable' },
    });
    await sync.close();
    expect(sleeps).toEqual([250, 500, 1000, 2000]);
    expect(getLibrary(db, 'demo', NOW)).toEqual(before);
  });

  it('the worker dying while pages are on the network fails the run with a storage error; the next sync completes', async () => {
    const site = await startSite();
    const { db, writer } = await openWorkerDb();
    const silent = await silentSite();
    let endpoint = `${silent.url}/member/graphql`;
    const sync = createSyncService({ db, writer, clientFor: () => ({ ...site.client, endpoint }) });
    const running = sync.syncNow('demo');
    await vi.waitFor(() => expect(silent.requests.length).toBeGreaterThanOrEqual(1));
    await writer.crash();
    expect(await running).toMatchObject({ outcome: 'failed', error: { code: 'storage-error' } });
    endpoint = site.client.endpoint;
    expect((await sync.syncNow('demo')).outcome).toBe('completed');
    await sync.close();
    expect(writer.restarts).toBe(1);
    expect(getLibrary(db, 'demo', NOW).length).toBeGreaterThan(0);
  });
});
