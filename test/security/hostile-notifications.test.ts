import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  notificationText,
  type DesktopNotification,
} from '../../electron/common/desktop-notifications';
import { labelsNeedingHost } from '../../electron/common/site-values';
import type { EventName, IpcEvents } from '../../electron/common/ipc-contract';
import type { SiteSummary } from '../../electron/common/view-models';
import type { AppCore } from '../../electron/core/app-core';
import { PAYMENT_MARKS_KEPT } from '../../electron/core/desktop/notifier';
import { createJsonSettingsStore } from '../../electron/core/settings/settings-store';
import { createEmbeddedServer, type EmbeddedServer } from '../../embedded-server/index';
import { createTestCore, systemBrowser, caller, valueOf } from '../helpers/test-core';

/**
 * A site that hands out a hundred new ATM codes, each expiring within hours, before every sync:
 * through the composition root over real HTTP (embedded server on 127.0.0.1, real SQLite both
 * sides). The student gets one notification a sync, and the memory of what was announced
 * (notified.json) stays bounded.
 */
describe('an OS notification flood from a site', () => {
  let server: EmbeddedServer;
  let dataDir: string;
  let core: AppCore;
  let site: SiteSummary;
  const shown: DesktopNotification[] = [];
  const HOUR = 3_600_000;
  const call = caller(() => core.handlers);

  beforeAll(async () => {
    server = await createEmbeddedServer({ port: 0, seed: 'demo', site: 'demo' });
    dataDir = mkdtempSync(join(tmpdir(), 'ld-flood-'));
    core = await createTestCore({
      dataDir,
      settingsStore: createJsonSettingsStore(join(dataDir, 'settings.json')),
      signInTimeoutMs: 20_000,
      openExternal: systemBrowser(() => ({ decision: 'approve' })),
    });
    core.onEvent(<E extends EventName>(event: E, payload: IpcEvents[E]) => {
      if (event === 'desktop:notification') shown.push(payload as DesktopNotification);
    });
    await call('settings:update', { autoSyncMinutes: 0 });
    site = valueOf(await call('sites:add', { baseUrl: server.url, clientId: 'demo-desktop' }));
    valueOf(await call('sites:sign-in', { siteId: site.id }));
    expect(valueOf(await call('sync:now', { siteId: site.id }))).toMatchObject({
      outcome: 'completed',
    });
  });
  afterAll(async () => {
    await core?.close();
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a hundred new codes before each of 7 syncs: one notification a sync, and notified.json keeps at most its cap', async () => {
    const template = server.db
      .prepare('SELECT * FROM payments WHERE code_no IS NOT NULL LIMIT 1')
      .get() as Record<string, unknown>;
    const columns = Object.keys(template);
    const insert = server.db.prepare(
      `INSERT INTO payments (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`,
    );
    for (let round = 0; round < 7; round++) {
      server.db.transaction(() => {
        for (let i = 0; i < 100; i++) {
          insert.run({
            ...template,
            id: `pay_flood_${round}_${i}`,
            trade_no: `FLOOD-${round}-${i}`,
            payment_state: 'not_paid',
            paid_at: null,
            expired_at: Date.now() + (3 + (i % 10)) * HOUR,
          });
        }
      })();
      const before = shown.length;
      expect(valueOf(await call('sync:now', { siteId: site.id }))).toMatchObject({
        outcome: 'completed',
      });
      // The notice is sent after the sync's answer (the notification queue's own turn).
      const due = () => shown.slice(before).filter((n) => n.kind === 'payment-due');
      await expect.poll(() => due().length, { timeout: 10_000 }).toBeGreaterThan(0);
      expect(due()).toHaveLength(1);
      expect(due()[0]!.codes).toBeGreaterThan(1);
    }
    const memory = JSON.parse(readFileSync(join(dataDir, 'notified.json'), 'utf8')) as {
      payments: Record<string, string>;
    };
    expect(Object.keys(memory.payments).length).toBeLessThanOrEqual(PAYMENT_MARKS_KEPT);
  });
});

/**
 * A second school that names itself exactly like the first (RFC 9728 resource_name: both publish
 * "the same" name):
 * through the composition root over real HTTP, two embedded servers on 127.0.0.1. The site menu
 * shows each one's host beside the label (labelsNeedingHost); an OS notification about either names
 * its host too, or "New notice from <name>" could be from either school.
 */
describe('two schools with one name', () => {
  const servers: EmbeddedServer[] = [];
  let dataDir: string;
  let core: AppCore;
  const shown: DesktopNotification[] = [];
  const call = caller(() => core.handlers);

  beforeAll(async () => {
    servers.push(
      await createEmbeddedServer({ port: 0, seed: 'demo', site: 'demo' }),
      await createEmbeddedServer({ port: 0, seed: 'demo', site: 'demo' }),
    );
    dataDir = mkdtempSync(join(tmpdir(), 'ld-same-name-'));
    core = await createTestCore({
      dataDir,
      settingsStore: createJsonSettingsStore(join(dataDir, 'settings.json')),
      signInTimeoutMs: 20_000,
      openExternal: systemBrowser(() => ({ decision: 'approve' })),
    });
    core.onEvent(<E extends EventName>(event: E, payload: IpcEvents[E]) => {
      if (event === 'desktop:notification') shown.push(payload as DesktopNotification);
    });
    await call('settings:update', { autoSyncMinutes: 0 });
  });
  afterAll(async () => {
    await core?.close();
    for (const s of servers) await s.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a notification about either names its host, as the site menu does', async () => {
    const sites: SiteSummary[] = [];
    for (const server of servers) {
      const site = valueOf(
        await call('sites:add', { baseUrl: server.url, clientId: 'demo-desktop' }),
      );
      valueOf(await call('sites:sign-in', { siteId: site.id }));
      expect(valueOf(await call('sync:now', { siteId: site.id }))).toMatchObject({
        outcome: 'completed',
      });
      sites.push(site);
    }
    const [first, second] = sites as [SiteSummary, SiteSummary];
    // The same name, as the schools gave it.
    expect(first.label).toBe(second.label);
    const hosts = labelsNeedingHost(valueOf(await call('sites:list')));
    expect([...hosts.values()]).toEqual([
      new URL(servers[0]!.url).host,
      new URL(servers[1]!.url).host,
    ]);

    const server = servers[1]!;
    const { school_id, user_id } = server.db
      .prepare("SELECT school_id, user_id FROM notifications WHERE id = 'ntf_demo_01'")
      .get() as {
      school_id: string;
      user_id: string;
    };
    server.db
      .prepare(
        'INSERT INTO notifications (id, school_id, user_id, kind, title, body, url, created_at, read_at) VALUES (?, ?, ?, ?, ?, ?, NULL, ?, NULL)',
      )
      .run(
        'ntf_same_name',
        school_id,
        user_id,
        'announcement',
        'Your account needs attention',
        'Sign in at the link',
        Date.now(),
      );
    const before = shown.length;
    expect(valueOf(await call('sync:now', { siteId: second.id }))).toMatchObject({
      outcome: 'completed',
    });
    const notice = shown.slice(before).find((n) => n.kind === 'new-notices');
    expect(notice).toMatchObject({
      siteId: second.id,
      siteLabel: `${second.label} (${new URL(server.url).host})`,
    });
    expect(notificationText(notice!, 'en').title).toBe(
      `New notice from ${second.label} (${new URL(server.url).host})`,
    );
  });
});
