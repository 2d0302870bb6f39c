import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExportFile } from '../../electron/core/export/service';
import type {
  Channel,
  ChannelInput,
  ChannelOutput,
  IpcHandlers,
} from '../../electron/common/ipc-contract';
import type { Result } from '../../electron/common/result';
import type { SiteSummary } from '../../electron/common/view-models';
import { createAppCore, type AppCore, type AppCoreOptions } from '../../electron/core/app-core';
import { dispatch } from '../../electron/core/ipc-dispatch';
import { createMemorySettingsStore } from '../../electron/core/settings/settings-store';
import { createEmbeddedServer, type EmbeddedServer } from '../../embedded-server/index';
import { runAuthorization, type AuthorizeScript } from './scripted-browser';

/**
 * Shared scaffolding for tests of the composition root: a real core (Node cipher, SQLite, site
 * manager, sync) with the settings a test wants by default: in memory, no interval sync, no demo,
 * version 0.0.0-test in the browser host. A test passes only what it does differently.
 */
export function createTestCore(
  options: Partial<AppCoreOptions> & Pick<AppCoreOptions, 'dataDir'>,
): Promise<AppCore> {
  return createAppCore({
    version: '0.0.0-test',
    host: 'browser',
    settingsStore: createMemorySettingsStore({ autoSyncMinutes: 0 }),
    demo: { enabled: false },
    openExternal: async () => undefined,
    ...options,
  });
}

/**
 * The "system browser" of a test: drives the site's sign-in and consent pages (as the demo student
 * unless the script says otherwise) and follows the redirect to the app's loopback receiver.
 * `script` is read at each sign-in, so a test can switch to denying the consent.
 */
export function systemBrowser(
  script: () => Omit<AuthorizeScript, 'stopAt'> = () => ({}),
): (url: string) => Promise<void> {
  return async (url) => {
    const redirect = new URL(url).searchParams.get('redirect_uri')!;
    void runAuthorization(url, { stopAt: redirect, ...script() }).then((callback) =>
      fetch(callback).then((r) => r.text()),
    );
  };
}

/** A channel's input as a call passes it: nothing for a channel that takes none. */
export type ChannelArgs<C extends Channel> =
  ChannelInput<C> extends undefined ? [input?: undefined] : [input: ChannelInput<C>];

/**
 * dispatch (ipc-dispatch.ts, what both hosts call) typed as the renderer's api.invoke is: the
 * channel is a key of the contract, and its input and its answer are typed from it. A test of
 * refused input (an unknown channel, a value of the wrong type) calls dispatch itself.
 */
export function invoke<C extends Channel>(
  handlers: IpcHandlers,
  channel: C,
  ...input: ChannelArgs<C>
): Promise<Result<ChannelOutput<C>>> {
  // dispatch runs handlers[channel], whose Result IpcHandlers ties to the channel's output.
  return dispatch(handlers, channel, input[0]) as Promise<Result<ChannelOutput<C>>>;
}

/** A typed call of a channel on one core's handlers (what `caller` returns). */
export type ChannelCall = <C extends Channel>(
  channel: C,
  ...input: ChannelArgs<C>
) => Promise<Result<ChannelOutput<C>>>;

/**
 * invoke bound to one core's handlers: `caller(core.handlers)`, or `caller(() => core.handlers)`
 * for a core made later (in a beforeAll), read at each call.
 */
export function caller(handlers: IpcHandlers | (() => IpcHandlers)): ChannelCall {
  return (channel, ...input) =>
    invoke(typeof handlers === 'function' ? handlers() : handlers, channel, ...input);
}

/** Unwraps a Result or fails the test with its error. */
export function valueOf<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

/**
 * The signed-in-site fixture: adds the site and signs in through the dispatcher, as the renderer
 * does (the core's openExternal must complete the sign-in, e.g. systemBrowser()). Resolves with the
 * site as signed in.
 */
export async function signedInSite(
  core: AppCore,
  baseUrl: string,
  clientId = 'demo-desktop',
): Promise<SiteSummary> {
  const added = valueOf(await invoke(core.handlers, 'sites:add', { baseUrl, clientId }));
  return valueOf(await invoke(core.handlers, 'sites:sign-in', { siteId: added.id }));
}

/**
 * A real core signed in to a real embedded demo site and synced once; `close()` ends both and
 * removes the folder.
 */
export interface SyncedDemo {
  readonly server: EmbeddedServer;
  readonly core: AppCore;
  readonly site: SiteSummary;
  readonly dataDir: string;
  /** Every file the core delivered (exports), in order. */
  readonly delivered: ExportFile[];
  close(): Promise<void>;
}

/**
 * The synced-demo fixture: the demo seed served over real HTTP, a core (the server's clock unless
 * `aheadMs` moves it, Taipei time unless `timeZone` says otherwise) signed in through the consent
 * pages, and one full sync.
 */
export async function syncedDemo(options: {
  readonly prefix: string;
  readonly timeZone?: string;
  readonly aheadMs?: () => number;
}): Promise<SyncedDemo> {
  const server = await createEmbeddedServer({ port: 0, seed: 'demo', site: 'demo' });
  const dataDir = mkdtempSync(join(tmpdir(), options.prefix));
  const delivered: ExportFile[] = [];
  const core = await createTestCore({
    dataDir,
    clock: { now: () => server.clock.now() + (options.aheadMs?.() ?? 0) },
    timeZone: options.timeZone ?? 'Asia/Taipei',
    signInTimeoutMs: 20_000,
    openExternal: systemBrowser(),
    deliverFile: async (file) => {
      delivered.push(file);
      return { kind: 'saved', fileName: file.fileName };
    },
  });
  const site = await signedInSite(core, server.url);
  valueOf(await invoke(core.handlers, 'sync:now', { siteId: site.id }));
  return {
    server,
    core,
    site,
    dataDir,
    delivered,
    async close() {
      await core.close();
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
