import type { ReadableDB } from '../db/index';
import type { AssistantRequestView, AssistantView } from '../../common/assistant';
import type { CoreHandlers } from '../../common/ipc-contract';
import { getLastSyncedAt, getNotificationsPage, listSiteIds } from '../db/index';
import { CoreError } from '../errors';
import { diagnoseAssistantConnection } from '../doctor/assistant-connection';
import type { FileDelivery } from '../export/service';
import { ActivityLog } from '../mcp-local/activity-log';
import { buildBundle, BUNDLE_FILE_NAME, previewBundle } from '../mcp-local/bundle';
import {
  ASSISTANT_CLIENTS,
  configPath,
  connectClient,
  disconnectClient,
  entryIn,
  previewConnect,
  readConfig,
  type ClientPlaces,
  type McpLaunch,
} from '../mcp-local/clients';
import {
  allowedSchools,
  DEFAULT_CATEGORIES,
  isActive,
  SURFACE_VERSION,
} from '../mcp-local/consent';
import { ConsentStore } from '../mcp-local/consent-store';
import { AssistantRequests, type MarkReadRequest } from '../mcp-local/requests';
import type { AppServices } from './services';

type AssistantChannel =
  | 'assistant:get'
  | 'assistant:update'
  | 'assistant:connect-preview'
  | 'assistant:connect'
  | 'assistant:bundle-preview'
  | 'assistant:save-bundle'
  | 'assistant:activity'
  | 'assistant:clear-activity'
  | 'assistant:export-activity'
  | 'assistant:requests'
  | 'assistant:answer-request';

export interface AssistantHandlerDeps extends Pick<AppServices, 'db' | 'sites'> {
  /** A confirmed request goes through the outbox like the student's own mark-read. */
  readonly sync: Pick<AppServices['sync'], 'markNotificationRead'>;
  readonly dataDir: string;
  /** How a client starts the server (the app's executable with --mcp, or a checkout's tsx). */
  readonly launch: McpLaunch;
  /** Where the clients keep their files (the student's home; tests: a temporary one). */
  readonly places: ClientPlaces;
  readonly deliver: FileDelivery;
  /** The Claude Desktop bundle: the app's version and the icon (a PNG) it carries. */
  readonly bundle: { readonly version: string; readonly iconPath: string };
}

/**
 * Settings > AI assistant and the "AI activity" view: the consent, the connect buttons, the log.
 */
export function createAssistantHandlers(
  d: AssistantHandlerDeps,
): Pick<CoreHandlers, AssistantChannel> {
  const store = new ConsentStore({
    dataDir: d.dataDir,
    siteIds: () => d.sites.list().map((s) => s.id),
  });
  const activity = new ActivityLog({ dataDir: d.dataDir });
  const view = () => assistantView(d, store);
  const requests = new AssistantRequests({ dataDir: d.dataDir });
  return {
    'assistant:get': view,
    'assistant:update': async (patch) => {
      await store.update(patch);
      // Off removes what the feature wrote, the entries it added to the clients' files too.
      if (patch.enabled === false)
        for (const c of ASSISTANT_CLIENTS) await disconnectClient(c, d.places).catch(() => null);
      return view();
    },
    'assistant:connect-preview': ({ client }) => previewConnect(client, d.launch, d.places),
    'assistant:connect': ({ client }) => connectClient(client, d.launch, d.places),
    'assistant:bundle-preview': async () => previewBundle(d.launch, bundleInfo(d)),
    'assistant:save-bundle': async () =>
      d.deliver({
        kind: 'mcpb',
        fileName: BUNDLE_FILE_NAME,
        mimeType: 'application/zip',
        body: '',
        bytes: await buildBundle(d.launch, bundleInfo(d), d.bundle.iconPath),
      }),
    'assistant:activity': async () => activity.read(),
    'assistant:clear-activity': async () => activity.clear(),
    'assistant:export-activity': () =>
      d.deliver({
        kind: 'csv',
        fileName: 'ai-activity.csv',
        mimeType: 'text/csv',
        body: activityCsv(activity.read()),
      }),
    'assistant:requests': async () => requests.list().flatMap((r) => requestView(d, r)),
    'assistant:answer-request': async ({ id, accept }) => {
      const request = requests.take(id);
      if (!request || !accept) return { marked: 0 };
      // Asked again at the answer: the consent may have changed while the request waited.
      const consent = store.current();
      const allowed = allowedSchools(consent, 'notifications').includes(request.siteId);
      if (!allowed || !consent.allowMarkRead)
        throw new CoreError('forbidden', 'Marking notices read for your assistant is off now.');
      for (const noticeId of request.noticeIds)
        await d.sync.markNotificationRead(request.siteId, noticeId);
      return { marked: request.noticeIds.length };
    },
  };
}

async function assistantView(d: AssistantHandlerDeps, store: ConsentStore): Promise<AssistantView> {
  const consent = store.current();
  const clients = await Promise.all(
    ASSISTANT_CLIENTS.map(async (client) => {
      const path = configPath(client, d.places);
      const read = await readConfig(path);
      const entry =
        read.kind === 'json'
          ? entryIn(client, read.value)
          : read.kind === 'unreadable'
            ? 'unreadable'
            : null;
      return { client, path, entry };
    }),
  );
  const surfaceChanged = consent.enabled && consent.surface !== SURFACE_VERSION;
  const checks = diagnoseAssistantConnection({
    enabled: consent.enabled,
    surfaceChanged,
    synced: synced(d.db),
    schoolsAllowed: isActive(consent) ? allowedSchools(consent, null).length : 0,
    launch: d.launch,
    clients,
  });
  return {
    enabled: consent.enabled,
    cloudAcknowledged: consent.cloudAcknowledged,
    surfaceChanged,
    fullPaymentCodes: consent.fullPaymentCodes,
    allowMarkRead: consent.allowMarkRead,
    schools: d.sites.list().map((s) => ({
      siteId: s.id,
      label: s.label,
      enabled: consent.schools[s.id]?.enabled ?? false,
      categories: consent.schools[s.id]?.categories ?? { ...DEFAULT_CATEGORIES },
    })),
    launch: { command: d.launch.command, args: [...d.launch.args] },
    clients: clients.map((c) => ({
      client: c.client,
      path: c.path,
      connected: c.entry !== null && c.entry !== 'unreadable',
    })),
    checks,
  };
}

/** A request as the student sees it: the school by name and each notice by its (cleaned) title. */
function requestView(d: AssistantHandlerDeps, r: MarkReadRequest): AssistantRequestView[] {
  const site = d.sites.list().find((s) => s.id === r.siteId);
  if (!site) return [];
  const titles = new Map(
    getNotificationsPage(d.db, r.siteId, { offset: 0, limit: 500, onlyUnread: true }).items.map(
      (n) => [n.id, n.title],
    ),
  );
  const notices = r.noticeIds.flatMap((id) => {
    const title = titles.get(id);
    return title === undefined ? [] : [{ id, title }];
  });
  if (notices.length === 0) return [];
  return [
    { id: r.id, at: r.at, client: r.client, siteId: r.siteId, schoolLabel: site.label, notices },
  ];
}

const bundleInfo = (d: AssistantHandlerDeps) => ({
  version: d.bundle.version,
  platform: d.places.platform,
});

function synced(db: ReadableDB): boolean {
  return listSiteIds(db).some((id) => getLastSyncedAt(db, id) !== null);
}

/**
 * The log as CSV (RFC 4180: fields quoted, quotes doubled), with a BOM so spreadsheet apps read
 * UTF-8.
 */
export function activityCsv(entries: ReturnType<ActivityLog['read']>): string {
  const field = (v: string | number) => `"${String(v).replace(/"/g, '""')}"`;
  const head = ['time', 'client', 'kind', 'name', 'arguments', 'rows', 'outcome', 'ms'];
  const lines = entries.map((e) =>
    [e.at, e.client, e.kind, e.name, JSON.stringify(e.args), e.rows, e.outcome, e.ms]
      .map(field)
      .join(','),
  );
  return `\uFEFF${[head.map(field).join(','), ...lines].join('\r\n')}\r\n`;
}
