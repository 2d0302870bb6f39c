/**
 * The handlers of the IPC contract, composed from what app-parts.ts made: one module per area in
 * handlers/, plus desktop/ and export/, each given only the services it uses.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { CHANNELS, type IpcHandlers } from '../common/ipc-contract';
import { withResults } from '../common/result';
import type { AppInfo } from '../common/view-models';
import { CoreError } from './errors';
import { createExportHandlers, type FileDelivery } from './export/service';
import { createDemoHandlers } from './handlers/demo';
import { createDoctorHandlers } from './handlers/doctor';
import { createDownloadHandlers } from './handlers/downloads';
import { createInviteHandlers } from './handlers/invite';
import { createNotificationHandlers } from './handlers/notifications';
import { requireSite, type AppServices } from './handlers/services';
import { createSettingsHandlers } from './handlers/settings';
import { createSiteHandlers } from './handlers/sites';
import { createSitePageHandlers } from './handlers/site-pages';
import { createTodayHandlers } from './handlers/today';
import { createSyncHandlers } from './handlers/sync';
import { createViewHandlers } from './handlers/views';
import { createMediaHandlers } from './handlers/media';
import type { PlanServices } from './handlers/plan-services';
import { createAssistantHandlers } from './handlers/assistant';
import { CHECKOUT_ICON } from './mcp-local/bundle';
import { checkoutLaunch } from './mcp-local/launch';
import { createArchiveHandlers } from './handlers/archive';
import { createChangeHandlers } from './handlers/changes';
import { createNoteHandlers } from './handlers/notes';
import type { ImageDiskCache } from './downloads/image-cache';
import { type InviteInbox } from './invite/inbox';
import { type Cipher } from './vault/cipher';
import type { AppCoreOptions, Context } from './app-parts';

/**
 * How a file the student asked for reaches them; without the host's delivery, asking is refused.
 */
function fileDelivery(options: AppCoreOptions): FileDelivery {
  return (
    options.deliverFile ??
    (async () => {
      throw new CoreError('forbidden', 'This version of the app cannot save files.');
    })
  );
}

/**
 * What is the student's own, kept beside the school's data: notes, what changed, archives, the
 * assistant.
 */
function studentHandlers(options: AppCoreOptions, services: AppServices) {
  const { db, sites, sync } = services;
  return {
    ...createChangeHandlers(services),
    ...createArchiveHandlers(services, {
      parent: join(options.dataDir, 'Archives'),
      timeZone: options.timeZone,
      reveal: options.showItemInFolder ?? null,
    }),
    ...createNoteHandlers(services, {
      openExternal: options.openExternal,
      deliver: options.deliverFile ?? null,
    }),
    ...createAssistantHandlers({
      db,
      sites,
      sync,
      dataDir: options.dataDir,
      launch: options.mcpLaunch ?? checkoutLaunch(options.dataDir),
      places: options.assistantPlaces ?? {
        home: homedir(),
        platform: process.platform,
        env: process.env,
      },
      deliver: fileDelivery(options),
      bundle: {
        version: options.version,
        get iconPath() {
          return options.mcpIcon?.() ?? CHECKOUT_ICON;
        },
      },
    }),
  };
}

/** The handlers of every channel of the contract, each module given the services it uses. */
export function composeHandlers(
  { options, clock }: Context,
  parts: {
    services: AppServices;
    info: AppInfo;
    cipher: Cipher;
    invites: InviteInbox;
    imageCache: ImageDiskCache;
    plan: PlanServices;
  },
): IpcHandlers {
  const { services, info, cipher, invites, imageCache, plan } = parts;
  const { db, writer, sites, downloads, desktop } = services;
  const site = (siteId: string) => requireSite(services, siteId);
  const handlers: IpcHandlers = {
    ...withResults({
      ...createSettingsHandlers(services, info, cipher),
      ...createSiteHandlers(services),
      ...createSyncHandlers(services),
      ...createViewHandlers(services),
      ...createMediaHandlers(
        services,
        options.fetch ?? ((input, init) => fetch(input, init)),
        imageCache,
      ),
      ...createSitePageHandlers(services, options.openExternal),
      ...createTodayHandlers(services),
      ...plan.handlers({ sites, writer }),
      ...createNotificationHandlers(services),
      ...createDoctorHandlers(services, info, {
        ...(options.fetch ? { fetch: options.fetch } : {}),
        ...(options.env ? { env: options.env } : {}),
      }),
      ...createDemoHandlers(services),
      ...createInviteHandlers(invites),
      ...createDownloadHandlers({
        manager: downloads,
        requireSite: site,
        siteIds: () => sites.list().map((s) => s.id),
        showInFolder: options.showItemInFolder ?? null,
      }),
      ...studentHandlers(options, services),
    }),
    ...desktop.handlers,
    ...createExportHandlers({
      db,
      now: () => new Date(clock.now()),
      site,
      ...(options.timeZone === undefined ? {} : { timeZone: () => options.timeZone! }),
      // Built on the writer's thread: the main process only receives the finished text.
      purchaseHistoryCsv: ({ now: at, ...input }) =>
        writer.call('export:orders-csv', { ...input, now: at.toISOString() }),
      deliver: fileDelivery(options),
    }),
  };
  // Every channel of the contract has a handler (the type says so; this guards a widened cast).
  for (const c of CHANNELS)
    if (typeof handlers[c] !== 'function') throw new Error(`no handler for ${c}`);
  return handlers;
}
