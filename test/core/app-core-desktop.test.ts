import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DesktopNotification } from '../../electron/common/desktop-notifications';
import type { EventName, IpcEvents } from '../../electron/common/ipc-contract';
import type { SiteSummary } from '../../electron/common/view-models';
import type { AppCore } from '../../electron/core/app-core';
import { createJsonSettingsStore } from '../../electron/core/settings/settings-store';
import { createEmbeddedServer, type EmbeddedServer } from '../../embedded-server/index';
import { revokeGrant } from '../../embedded-server/store/tokens';
import { createTestCore, signedInSite, systemBrowser, caller, valueOf } from '../helpers/test-core';

/**
 * OS notifications and updates through the composition root, over a real site (embedded server on
 * 127.0.0.1, real SQLite on both sides): what a sync brings is announced once, data already there
 * is not, the memory survives a restart of the core, and a kind switched off in Settings stays
 * silent.
 */
describe('app core: OS notifications after syncs, and updates in a host without an updater', () => {
  let server: EmbeddedServer;
  let dataDir: string;
  let core: AppCore;
  let site: SiteSummary;
  const shown: DesktopNotification[] = [];
  const HOUR = 3_600_000;

  const start = async () => {
    const c = await createTestCore({
      dataDir,
      settingsStore: createJsonSettingsStore(join(dataDir, 'settings.json')),
      signInTimeoutMs: 20_000,
      openExternal: systemBrowser(() => ({ decision: 'approve' })),
    });
    c.onEvent(<E extends EventName>(event: E, payload: IpcEvents[E]) => {
      if (event === 'desktop:notification') shown.push(payload as DesktopNotification);
    });
    return c;
  };
  const call = caller(() => core.handlers);
  const sync = async () =>
    expect(valueOf(await call('sync:now', { siteId: site.id }))).toMatchObject({
      outcome: 'completed',
    });
  // The signed-in demo student's own notices (the demo site has other members too).
  const member = () =>
    server.db
      .prepare("SELECT school_id, user_id FROM notifications WHERE id = 'ntf_demo_01'")
      .get() as { school_id: string; user_id: string };
  let added = 0;
  const addNotice = (title: string) => {
    const { school_id, user_id } = member();
    server.db
      .prepare(
        'INSERT INTO notifications (id, school_id, user_id, kind, title, body, url, created_at, read_at) VALUES (?, ?, ?, ?, ?, ?, NULL, ?, NULL)',
      )
      .run(
        `ntf_test_${++added}`,
        school_id,
        user_id,
        'announcement',
        title,
        'body',
        Date.now() + added,
      );
  };

  beforeAll(async () => {
    server = await createEmbeddedServer({ port: 0, seed: 'demo', site: 'demo' });
    dataDir = mkdtempSync(join(tmpdir(), 'ld-core-desktop-'));
    core = await start();
    await call('settings:update', { autoSyncMinutes: 0 });
    site = await signedInSite(core, server.url);
    await sync();
  });
  afterAll(async () => {
    await core?.close();
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('the first sync announces no notice: the member already had them', () => {
    expect(shown.filter((n) => n.kind === 'new-notices')).toEqual([]);
  });

  it('notices that arrive with a later sync: one grouped notification, and nothing on the next sync', async () => {
    addNotice('Room change for Thursday');
    addNotice('New chapter published');
    await sync();
    const notices = shown.filter((n) => n.kind === 'new-notices');
    expect(notices).toEqual([
      expect.objectContaining({ siteId: site.id, count: 2, screen: 'notifications' }),
    ]);
    await sync();
    expect(shown.filter((n) => n.kind === 'new-notices')).toHaveLength(1);
  });

  it('an ATM code that now expires within 24 hours is announced once, without the code', async () => {
    const row = server.db
      .prepare('SELECT id, code_no FROM payments WHERE code_no IS NOT NULL AND user_id = ? LIMIT 1')
      .get(member().user_id) as {
      id: string;
      code_no: string;
    };
    server.db
      .prepare(
        "UPDATE payments SET payment_state = 'not_paid', paid_at = NULL, expired_at = ? WHERE id = ?",
      )
      .run(Date.now() + 5 * HOUR, row.id);
    await sync();
    const due = shown.filter((n) => n.kind === 'payment-due' && n.id.endsWith(row.id));
    expect(due).toEqual([expect.objectContaining({ screen: 'billing', count: 4 })]);
    expect(JSON.stringify(shown)).not.toContain(row.code_no);
    await sync();
    expect(shown.filter((n) => n.kind === 'payment-due' && n.id.endsWith(row.id))).toHaveLength(1);
  });

  it('after a restart of the core nothing already announced comes back', async () => {
    const before = shown.length;
    await core.close();
    core = await start();
    await sync();
    expect(shown.length).toBe(before);
  });

  it('a kind switched off in Settings stays silent (the setting is saved)', async () => {
    valueOf(await call('settings:update', { notifyNewNotices: false }));
    expect(valueOf(await call('settings:get'))).toMatchObject({
      notifyNewNotices: false,
      notifyPaymentDue: true,
      notifySignIn: true,
    });
    const before = shown.length;
    addNotice('Silent one');
    await sync();
    expect(shown.length).toBe(before);
  });

  it('a sign-in the site no longer honours is announced once; after a new sign-in, the next loss is announced again', async () => {
    const revokeAll = () => {
      const grants = server.db
        .prepare('SELECT DISTINCT grant_id FROM token_pairs WHERE revoked_at IS NULL')
        .all() as { grant_id: string }[];
      for (const g of grants) revokeGrant(server.db, g.grant_id, Date.now(), 'revoked-by-test');
      expect(grants.length).toBeGreaterThan(0);
    };
    const signInNotices = () => shown.filter((n) => n.kind === 'sign-in' && n.siteId === site.id);
    revokeAll();
    await call('sync:now', { siteId: site.id });
    await expect.poll(() => signInNotices().length).toBe(1);
    expect(signInNotices()[0]).toMatchObject({ screen: 'settings', noticeTitle: null });
    // Still signed out: nothing new to say.
    await call('sync:now', { siteId: site.id });
    await new Promise((r) => setTimeout(r, 100));
    expect(signInNotices()).toHaveLength(1);
    // Signed in again, then lost again: a new notification.
    valueOf(await call('sites:sign-in', { siteId: site.id }));
    await sync();
    revokeAll();
    await call('sync:now', { siteId: site.id });
    await expect.poll(() => signInNotices().length).toBe(2);
  });

  it('updates are off in this host and say why; check and restart change nothing', async () => {
    expect(valueOf(await call('updates:get-state'))).toEqual({ status: 'off', reason: 'host' });
    expect(valueOf(await call('updates:check'))).toEqual({ status: 'off', reason: 'host' });
    expect(valueOf(await call('updates:restart'))).toEqual({ status: 'off', reason: 'host' });
  });
});
