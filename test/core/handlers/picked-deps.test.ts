import { describe, expect, it } from 'vitest';
import type { SiteSummary } from '../../../electron/common/view-models';
import { getNotifications, getNotificationsSummary } from '../../../electron/core/db';
import { createFirstScreenStore } from '../../../electron/core/desktop/first-screen';
import { isCoreError } from '../../../electron/core/errors';
import { createNotificationHandlers } from '../../../electron/core/handlers/notifications';
import { createSettingsHandlers } from '../../../electron/core/handlers/settings';
import { createSyncHandlers } from '../../../electron/core/handlers/sync';
import { createTodayHandlers } from '../../../electron/core/handlers/today';
import { silentLogger } from '../../../electron/core/log';
import { loadLiveSettings } from '../../../electron/core/settings/live-settings';
import { createMemorySettingsStore } from '../../../electron/core/settings/settings-store';
import { createSyncService, type SyncService } from '../../../electron/core/sync';
import { noSleep, openTempDb, startSite, tempDir } from '../sync/helpers/setup';

/**
 * Each handler module built from only the services it picks (handlers/*.ts `XxxHandlersDeps`), over
 * a real SQLite copy synced from a real embedded server: no full core.
 */

const SITE_ID = 'demo';

function siteAt(baseUrl: string, lastSyncedAt: string | null): SiteSummary {
  return {
    id: SITE_ID,
    label: 'Demo School',
    baseUrl,
    clientId: 'demo-desktop',
    isDemo: false,
    status: 'ready',
    schoolId: null,
    subdomain: null,
    profile: null,
    grantedScopes: [],
    missingScopes: [],
    lastSyncedAt,
  };
}

/** One site synced into a temp database, and a site list of just that site. */
async function syncedSite() {
  const { server, client } = await startSite();
  const { db } = openTempDb();
  const sync: SyncService = createSyncService({ db, clientFor: () => client, sleep: noSleep });
  const summary = await sync.syncNow(SITE_ID);
  expect(summary.outcome).toBe('completed');
  const site = siteAt(server.url, summary.finishedAt);
  const sites = {
    list: () => [site],
    getSite: (siteId: string) => (siteId === SITE_ID ? site : null),
  };
  return { db, sync, site, sites, close: () => sync.close() };
}

async function codeOf(promise: Promise<unknown>): Promise<string | null> {
  try {
    await promise;
    return null;
  } catch (error) {
    return isCoreError(error) ? error.code : 'not a CoreError';
  }
}

describe('handler modules built from their picked services', () => {
  it('today: every listed school with its unread count, and only listed schools', async () => {
    const { db, sites, close } = await syncedSite();
    const clock = { now: () => Date.now() };
    const today = createTodayHandlers({ db, sites, clock })['today:get'];
    const answer = await today(undefined as never);
    expect(answer.sites.map((s) => s.siteId)).toEqual([SITE_ID]);
    const unread = getNotificationsSummary(db, SITE_ID).unreadCount;
    expect(unread).toBeGreaterThan(0);
    expect(answer.sites[0]!.unreadCount).toBe(unread);
    // A school no longer in the list is not shown, though its rows are still in the database.
    const none = await createTodayHandlers({ db, sites: { list: () => [] }, clock })['today:get'](
      undefined as never,
    );
    expect(none.sites).toEqual([]);
    expect(none.continueLearning).toEqual([]);
    expect(none.attention).toEqual([]);
    await close();
  });

  it('notifications: read from the copy, marked read through the outbox, unknown sites refused', async () => {
    const { db, sync, sites, close } = await syncedSite();
    const handlers = createNotificationHandlers({ db, sites, sync });
    const summary = await handlers['notifications:summary']({ siteId: SITE_ID });
    expect(summary).toEqual(getNotificationsSummary(db, SITE_ID));
    const target = getNotifications(db, SITE_ID).items.find((n) => n.readAt === null)!;
    await handlers['notifications:mark-read']({ siteId: SITE_ID, notificationId: target.id });
    const after = getNotifications(db, SITE_ID).items.find((n) => n.id === target.id)!;
    expect(after.readAt).not.toBeNull();
    expect((await handlers['notifications:summary']({ siteId: SITE_ID })).unreadCount).toBe(
      summary.unreadCount - 1,
    );
    expect(await codeOf(handlers['notifications:summary']({ siteId: 'gone' }))).toBe('not-found');
    await sync.replayOutbox(SITE_ID);
    await close();
  });

  it('sync: now runs through the scheduler it is given, status joins the sync status and its view', async () => {
    const { sync, sites, close } = await syncedSite();
    const ran: string[] = [];
    const handlers = createSyncHandlers({
      sites,
      sync,
      scheduler: { runSync: (siteId) => (ran.push(siteId), sync.syncNow(siteId)) },
    });
    const run = await handlers['sync:now']({ siteId: SITE_ID });
    expect(run.outcome).toBe('completed');
    expect(ran).toEqual([SITE_ID]);
    const status = await handlers['sync:status']({ siteId: SITE_ID });
    expect(status.running).toBe(false);
    expect(status.lastSyncedAt).toBe(run.finishedAt);
    expect(status.view.lastSyncedAt).toBe(status.lastSyncedAt);
    expect(await codeOf(handlers['sync:now']({ siteId: 'gone' }))).toBe('not-found');
    expect(ran).toEqual([SITE_ID]);
    await close();
  });

  it('settings: saved and announced, the token protection as the cipher says', async () => {
    const changed: string[] = [];
    const settings = await loadLiveSettings(createMemorySettingsStore(), (next) =>
      changed.push(next.theme),
    );
    const firstScreen = createFirstScreenStore(tempDir(), { getSite: () => null });
    const info = {
      name: 'Learning Desktop',
      version: '0.0.0-test',
      dataDir: '/nowhere',
      host: 'browser' as const,
      platform: process.platform,
      demoAvailable: false,
    };
    const cipher = {
      backend: 'node-aes-256-gcm-keyfile',
      persistent: true,
      weak: false,
      description: 'a key file',
    };
    const handlers = createSettingsHandlers(
      { settings, firstScreen, log: silentLogger },
      info,
      cipher,
    );
    expect(await handlers['app:get-info'](undefined as never)).toEqual(info);
    const next = await handlers['settings:update']({ theme: 'dark' });
    expect(next.theme).toBe('dark');
    expect(await handlers['settings:get'](undefined as never)).toEqual(next);
    expect(changed).toEqual(['dark']);
    expect(await handlers['security:get-token-protection'](undefined as never)).toEqual(cipher);
  });
});
