import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS, type EventName, type IpcEvents } from '../../electron/common/ipc-contract';
import type { SiteSummary } from '../../electron/common/view-models';
import type { AppCore } from '../../electron/core/app-core';
import { createEmbeddedServer, type EmbeddedServer } from '../../embedded-server/index';
import { createTestCore, systemBrowser, caller, valueOf } from '../helpers/test-core';

/** Unwraps a Result or fails the test with its error. */

/**
 * The composition root at the Node level: a real embedded server on 127.0.0.1, a real core (Node
 * cipher, SQLite offline database, site manager, sync service), and a scripted browser standing in
 * for the system browser: it signs in as the demo student and approves (or denies) the consent.
 */
describe('app core: every channel over a real site', () => {
  let server: EmbeddedServer;
  let dataDir: string;
  let core: AppCore;
  let decision: 'approve' | 'deny' = 'approve';
  const events: { event: EventName; payload: unknown }[] = [];
  let site: SiteSummary;

  beforeAll(async () => {
    server = await createEmbeddedServer({ port: 0, seed: 'demo', site: 'demo' });
    dataDir = mkdtempSync(join(tmpdir(), 'ld-core-'));
    core = await createTestCore({
      dataDir,
      signInTimeoutMs: 20_000,
      // The "system browser": drives the site's sign-in and consent pages and follows the redirect
      // to the app.
      openExternal: systemBrowser(() => ({ decision })),
    });
    core.onEvent(<E extends EventName>(event: E, payload: IpcEvents[E]) =>
      events.push({ event, payload }),
    );
  });

  afterAll(async () => {
    await core?.close();
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const call = caller(() => core.handlers);

  it('answers every channel of the contract (none is left unbuilt)', () => {
    for (const c of CHANNELS) expect(typeof core.handlers[c]).toBe('function');
  });

  it('reports the app and the token protection of the Node cipher', async () => {
    const info = valueOf(await call('app:get-info'));
    expect(info).toMatchObject({ host: 'browser', dataDir, demoAvailable: false });
    expect(valueOf(await call('security:get-token-protection'))).toMatchObject({
      backend: 'node-aes-256-gcm-keyfile',
      persistent: true,
      weak: false,
    });
  });

  it('refuses a site whose discovery is not there, in plain words', async () => {
    const result = await call('sites:add', {
      baseUrl: 'http://127.0.0.1:9',
      clientId: 'demo-desktop',
    });
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(['site-unreachable', 'discovery-invalid', 'network-unavailable']).toContain(
        result.error.code,
      );
  });

  it('adds the site after discovery and lists it signed out', async () => {
    site = valueOf(await call('sites:add', { baseUrl: server.url, clientId: 'demo-desktop' }));
    expect(site).toMatchObject({ baseUrl: server.url, status: 'signed-out', isDemo: false });
    expect(valueOf(await call('sites:list'))).toHaveLength(1);
    expect(events.some((e) => e.event === 'sites:changed')).toBe(true);
  });

  it('a denied consent ends the sign-in with sign-in-denied', async () => {
    decision = 'deny';
    const result = await call('sites:sign-in', { siteId: site.id });
    decision = 'approve';
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('sign-in-denied');
  });

  it('signs in, then syncs, and every view channel answers from the offline data', async () => {
    const signedIn = valueOf(await call('sites:sign-in', { siteId: site.id }));
    expect(signedIn.status).toBe('ready');
    expect(signedIn.profile?.email).toBe('student@example.com');
    expect(events.some((e) => e.event === 'sign-in:progress')).toBe(true);

    const run = valueOf(await call('sync:now', { siteId: site.id }));
    expect(['completed', 'partial']).toContain(run.outcome);
    expect(events.some((e) => e.event === 'data:changed')).toBe(true);
    expect(events.some((e) => e.event === 'sync:progress')).toBe(true);

    const library = valueOf(await call('library:list', { siteId: site.id }));
    expect(library.length).toBeGreaterThan(0);
    const course = valueOf(
      await call('course:get', { siteId: site.id, courseId: library[0]!.courseId }),
    );
    expect(course.sections.length).toBeGreaterThan(0);
    expect(valueOf(await call('billing:get', { siteId: site.id })).orders.length).toBeGreaterThan(
      0,
    );
    expect(valueOf(await call('entitlements:get', { siteId: site.id }))).toHaveProperty(
      'digitalProducts',
    );
    expect(Array.isArray(valueOf(await call('consulting:list', { siteId: site.id })))).toBe(true);
    expect(valueOf(await call('profile:get', { siteId: site.id }))).toMatchObject({
      email: 'student@example.com',
    });
    expect(
      Array.isArray(valueOf(await call('search:query', { siteId: site.id, query: 'a' }))),
    ).toBe(true);
    const notices = valueOf(await call('notifications:list', { siteId: site.id }));
    expect(notices.items.length).toBeGreaterThan(0);

    const status = valueOf(await call('sync:status', { siteId: site.id }));
    expect(status.lastSyncedAt).not.toBeNull();
    expect(valueOf(await call('sites:list'))[0]!.lastSyncedAt).toBe(status.lastSyncedAt);
  });

  it('marks a notice read through the outbox; the site accepts it', async () => {
    const before = valueOf(await call('notifications:list', { siteId: site.id }));
    const unread = before.items.find((n) => n.readAt === null)!;
    expect(unread).toBeDefined();
    valueOf(await call('notifications:mark-read', { siteId: site.id, notificationId: unread.id }));
    const run = valueOf(await call('sync:now', { siteId: site.id }));
    expect(['completed', 'partial']).toContain(run.outcome);
    const after = valueOf(await call('notifications:list', { siteId: site.id }));
    expect(after.items.find((n) => n.id === unread.id)).toMatchObject({ pendingSync: false });
    expect(after.items.find((n) => n.id === unread.id)?.readAt).not.toBeNull();
    // The site itself has it read (its own database, not the app's copy).
    const row = server.db
      .prepare('SELECT read_at FROM notifications WHERE id = ?')
      .get(unread.id) as { read_at: number | null };
    expect(row.read_at).not.toBeNull();
    expect(valueOf(await call('sync:status', { siteId: site.id })).pendingChanges).toBe(0);
  });

  it('persists settings and reports them in an event', async () => {
    const updated = valueOf(await call('settings:update', { theme: 'dark', autoSyncMinutes: 15 }));
    expect(updated).toMatchObject({ theme: 'dark', autoSyncMinutes: 15 });
    expect(valueOf(await call('settings:get'))).toMatchObject({
      theme: 'dark',
      autoSyncMinutes: 15,
    });
    expect(events.some((e) => e.event === 'settings:changed')).toBe(true);
    const bad = await call('settings:update', { autoSyncMinutes: -1 });
    expect(bad.ok).toBe(false);
  });

  it('keeps both of two settings changes made at once (each update starts from the one before)', async () => {
    valueOf(await call('settings:update', { theme: 'light', language: 'en' }));
    const [first, second] = await Promise.all([
      call('settings:update', { theme: 'dark' }),
      call('settings:update', { language: 'zh-TW' }),
    ]);
    expect(valueOf(first)).toMatchObject({ theme: 'dark', language: 'en' });
    expect(valueOf(second)).toMatchObject({ theme: 'dark', language: 'zh-TW' });
    expect(valueOf(await call('settings:get'))).toMatchObject({ theme: 'dark', language: 'zh-TW' });
  });

  it('answers not-found for an unknown site', async () => {
    const result = await call('library:list', { siteId: 'nope' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('not-found');
  });

  it('signs out (revoking at the site) and removes the offline data when asked', async () => {
    const result = valueOf(await call('sites:sign-out', { siteId: site.id, removeData: true }));
    expect(result).toEqual({ revoked: true, pending: false });
    // The site's own record: no live token pair is left for the app's client.
    const live = server.db
      .prepare(
        "SELECT COUNT(*) AS n FROM token_pairs WHERE client_id = 'demo-desktop' AND revoked_at IS NULL",
      )
      .get() as {
      n: number;
    };
    expect(live.n).toBe(0);
    expect(valueOf(await call('sites:list'))[0]!.status).toBe('signed-out');
    expect(valueOf(await call('library:list', { siteId: site.id }))).toEqual([]);
    valueOf(await call('sites:remove', { siteId: site.id }));
    expect(valueOf(await call('sites:list'))).toEqual([]);
  });
});
