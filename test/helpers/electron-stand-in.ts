import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runAuthorization } from './scripted-browser';

/**
 * A stand-in for the `electron` module, so the built main bundle runs in plain Node: a loader hook
 * answers `import 'electron'` with a small fake that records what the host asked of it, one JSON
 * line per call on stdout. Everything else the bundle loads is real.
 */
export const FAKE_ELECTRON = `
import { EventEmitter } from 'node:events';
import { request as httpRequest } from 'node:http';
import { createRequire } from 'node:module';
const loadedCommonJs = createRequire(import.meta.url).cache;
// Windows made once __quietWindows is set are counted, not recorded (the first window's record stays the only one).
const record = (kind, data) => { if (!globalThis.__quietWindows || !['window', 'window-open', 'load', 'csp-header', 'permission', 'permission-check'].includes(kind)) process.stdout.write(JSON.stringify({ kind, data }) + '\\n'); };
class Session { constructor() { this.webRequest = { onHeadersReceived: (l) => { this.csp = l; record('csp-header', true); } }; }
  // Asked by the app's page and by another origin: the camera (never), full screen (the app's page only).
  setPermissionRequestHandler(h) { for (const [permission, requestingUrl] of [['camera', 'app://learning-desktop/index.html'], ['fullscreen', 'app://learning-desktop/index.html'], ['fullscreen', 'https://evil.example/']])
    h(null, permission, (granted) => record('permission', { permission, requestingUrl, granted }), { requestingUrl }); }
  setPermissionCheckHandler(h) { record('permission-check', [h(null, 'clipboard-sanitized-write', 'app://learning-desktop'), h(null, 'clipboard-read', 'app://learning-desktop')]); } }
class WebContents extends EventEmitter { constructor(id) { super(); this.id = id; this.session = new Session(); }
  setWindowOpenHandler(h) { record('window-open', h({ url: 'file:///etc/passwd' }).action);
    // Links a page could open: only the https one without user info may reach the system browser (open-external).
    for (const url of ['https://user:pass@evil.example/', 'https://token@evil.example/', 'smb://evil.example/share', 'http://evil.example/', 'https://school.example/join']) h({ url }); }
  send(event, payload) { record('send', event); globalThis.__outbound?.({ type: 'event', event, payload }); }
  // A receipt or report printed to PDF: what Chromium would print is not ours to check; the bytes say it ran.
  async printToPDF(options) { record('print-to-pdf', options); return Buffer.from('%PDF-1.7 printed by the stand-in'); } }
let nextId = 1;
export class BrowserWindow extends EventEmitter {
  static all = [];
  constructor(options) { super(); this.webContents = new WebContents(nextId++); BrowserWindow.all.push(this); record('window', options.webPreferences); }
  static getAllWindows() { return BrowserWindow.all; }
  loadURL(url) { record('load', url); return Promise.resolve(); }
  show() {} isMinimized() { return false; } focus() {} restore() {} destroy() { record('window-destroyed', true); }
}
const handlers = new Map();
export const ipcMain = { on() {}, handle(c, f) { handlers.set(c, f); }, removeHandler(c) { handlers.delete(c); } };
globalThis.__ipc = handlers;
export const app = Object.assign(new EventEmitter(), {
  enableSandbox() { record('sandbox', true); },
  // FAKE_SECOND_INSTANCE: another copy holds the lock. Whether SQLite was loaded by the time the lock is asked for.
  requestSingleInstanceLock() { const got = !process.env.FAKE_SECOND_INSTANCE; record('single-instance-lock', { got, sqliteLoaded: Object.keys(loadedCommonJs).some((k) => /[\\/]better-sqlite3[\\/]/.test(k)) }); return got; }, whenReady() { globalThis.__ready = true; return Promise.resolve(); },
  getPath() { return process.env.FAKE_USER_DATA; }, getAppPath() { return process.cwd(); }, getLocale() { return 'en-US'; }, setAsDefaultProtocolClient() { return true; },
  getLoginItemSettings() { return { openAtLogin: false, wasOpenedAsHidden: false }; }, setLoginItemSettings(s) { record('login-item', s); }, getVersion() { return process.env.FAKE_APP_VERSION ?? '9.9.9'; }, getName() { return 'Learning Desktop'; },
  name: 'Learning Desktop', isPackaged: true, quit() { record('quit', true); globalThis.__quit = true; }, relaunch() {}, exit(c) { record('exit', c); process.exit(c); },
  setAppUserModelId(id) { record('app-user-model-id', id); },
});
// macOS's launch link: when the app first listens for 'open-url', note whether the heavy part of the app (SQLite)
// was already loaded, and deliver FAKE_OPEN_URL on the next turn, as Electron may while the ESM graph still loads.
const baseOn = app.on.bind(app);
app.on = (event, listener) => {
  if (event === 'open-url' && !globalThis.__openUrlListened) {
    globalThis.__openUrlListened = true;
    record('open-url-listener', { sqliteLoaded: Object.keys(loadedCommonJs).some((k) => /[\\\\/]better-sqlite3[\\\\/]/.test(k)) });
    if (process.env.FAKE_OPEN_URL) setImmediate(() => app.emit('open-url', { preventDefault() {} }, process.env.FAKE_OPEN_URL));
  }
  return baseOn(event, listener);
};
export const shell = { openExternal: async (url) => { record('open-external', url); globalThis.__outbound?.({ type: 'external', url }); }, showItemInFolder() {} };
// FAKE_SAFE_STORAGE names the Linux backend (default basic_text, no keyring); the "encryption" is a reversible mark.
export const safeStorage = { isEncryptionAvailable: () => true, getSelectedStorageBackend: () => process.env.FAKE_SAFE_STORAGE ?? 'basic_text',
  encryptString: (s) => { record('encrypt-string', true); return Buffer.from('enc:' + s); }, decryptString: (b) => b.toString().replace(/^enc:/, '') };
export const Menu = { buildFromTemplate: (t) => t, setApplicationMenu: (m) => { globalThis.__menu = m; record('menu', m.map((i) => i.label ?? i.role)); } };
// showSaveDialog: FAKE_SAVE_DIR plays the folder the student picks (the name the app proposed); none: cancelled.
export const dialog = { showMessageBox: async (w, o) => { record('message-box', (o ?? w).message); return { response: 1 }; }, showErrorBox: (t, m) => record('error-box', m),
  showSaveDialog: async (w, o) => { const options = o ?? w; const dir = process.env.FAKE_SAVE_DIR; record('save-dialog', { name: options.defaultPath.split(/[\\/]/).pop(), filters: options.filters });
    return dir ? { canceled: false, filePath: dir + '/' + options.defaultPath.split(/[\\/]/).pop() } : { canceled: true }; } };
const schemes = new Map();
globalThis.__schemes = schemes;
export const protocol = {
  registerSchemesAsPrivileged(list) { record('privileged-schemes', { ready: globalThis.__ready === true, list }); },
  handle(scheme, handler) { schemes.set(scheme, handler); record('protocol-handle', scheme); },
};
// net.isOnline(): the OS's view of the network (this machine has one). net.request: Electron's ClientRequest
// (electron-updater's HTTP), played by Node's http.request, whose events and methods it mirrors ('response',
// 'error', setHeader, end, abort); Electron's own options (session, redirect) mean nothing to Node.
export const net = { isOnline: () => true, request: ({ session, redirect, ...options }) => httpRequest(options) };
export const session = { fromPartition: () => ({}) };
export const autoUpdater = new EventEmitter();
// Where Electron puts the app's resources (app.asar, app-update.yml) when a test names them.
if (process.env.FAKE_RESOURCES_PATH) process.resourcesPath = process.env.FAKE_RESOURCES_PATH;
export const powerMonitor = new EventEmitter();
globalThis.__powerMonitor = powerMonitor;
export class Notification extends EventEmitter {
  static isSupported() { return true; }
  constructor(options) { super(); this.options = options; }
  show() { record('os-notification', this.options); }
}
export const nativeImage = { createFromPath: (p) => ({ path: p, resize() { return this; } }) };
export class Tray extends EventEmitter { constructor() { super(); record('tray', true); globalThis.__tray = this; } setToolTip(t) { this.tooltip = t; }
  setContextMenu(m) { this.menu = m; record('tray-menu', m.map((i) => i.label ?? i.type)); } destroy() { record('tray-destroyed', true); } }
export default { app, BrowserWindow, ipcMain, shell, safeStorage, Menu, dialog, protocol, net, session, autoUpdater, powerMonitor, Notification, nativeImage, Tray };
`;

/** Boots the bundle with --demo, then asks it what the tests check, one recorded line each. */
export const DRIVER = (bundleUrl: string) => `
const record = (kind, data) => process.stdout.write(JSON.stringify({ kind, data }) + '\\n');
process.argv.push('--demo');
await import(${JSON.stringify(bundleUrl)});
const { app } = await import('electron');
const until = async (f) => { for (let i = 0; i < 200 && !(await f()); i++) await new Promise((r) => setTimeout(r, 50)); };
const trusted = { sender: { id: 1 }, senderFrame: { url: 'app://learning-desktop/index.html' } };
const ipc = globalThis.__ipc;
await until(async () => ipc.has('sites:list') && (await ipc.get('sites:list')(trusted)).value?.length === 2);
record('sites', (await ipc.get('sites:list')(trusted)).value.map((s) => ({ isDemo: s.isDemo, baseUrl: s.baseUrl })));
record('info', (await ipc.get('app:get-info')(trusted)).value);
record('pending-invite', (await ipc.get('invite:take-pending')(trusted)).value);
record('protection', (await ipc.get('security:get-token-protection')(trusted)).value);
record('untrusted', await ipc.get('sites:list')({ sender: { id: 99 }, senderFrame: { url: 'https://evil.example/' } }));
record('iframe', await ipc.get('sites:list')({ sender: { id: 1 }, senderFrame: { url: 'https://evil.example/' } }));
record('bad-input', await ipc.get('library:list')(trusted, { siteId: 5 }));
record('file-frame', await ipc.get('sites:list')({ sender: { id: 1 }, senderFrame: { url: ${JSON.stringify(new URL('../renderer/index.html', bundleUrl).href)} } }));
// The window's own scheme, answered by the real handler over the real out/renderer.
const serveApp = async (url, method = 'GET') => {
  const r = await globalThis.__schemes.get('app')(new Request(url, { method }));
  return { status: r.status, csp: r.headers.get('content-security-policy'), type: r.headers.get('content-type'), body: (await r.text()).slice(0, 200) };
};
record('app-index', await serveApp('app://learning-desktop/index.html'));
record('updates', (await ipc.get('updates:get-state')(trusted)).value);
record('power-listeners', ['resume', 'unlock-screen'].map((e) => globalThis.__powerMonitor.listenerCount(e)));
record('app-traversal', await serveApp('app://learning-desktop/..%2fmain/index.js'));
record('app-post', await serveApp('app://learning-desktop/index.html', 'POST'));
const site = (await ipc.get('sites:list')(trusted)).value[0];
const discovery = await fetch(site.baseUrl + '/.well-known/oauth-authorization-server');
record('demo-discovery', discovery.status);
// The window closed (to the tray), then the app launched again: the second instance's launch shows a window.
const { BrowserWindow } = await import('electron');
const before = BrowserWindow.getAllWindows().length;
globalThis.__quietWindows = true;
BrowserWindow.getAllWindows()[0].emit('closed');
app.emit('second-instance', {}, [process.execPath], process.cwd());
record('second-instance-windows', BrowserWindow.getAllWindows().length - before);
let prevented = false;
app.emit('will-quit', { preventDefault() { prevented = true; } });
await until(async () => { try { await fetch(site.baseUrl + '/.well-known/oauth-authorization-server'); return false; } catch { return true; } });
// The core closes everything (the demo sites last but the data folder's lock) and only then quits.
await until(async () => globalThis.__quit === true);
record('closed', { prevented });
process.exit(0);
`;

/**
 * Boots the bundle with --demo and serves its Electron side to a test over loopback HTTP, as the
 * renderer process would reach it: POST /ipc {channel, input} calls the ipcMain handler with the
 * window's sender and top frame (Electron's IpcMainInvokeEvent); GET
 * /scheme?url=[&range=][&method=] answers through the app:// protocol handler (a Request in, a
 * Response out); GET /next long-polls what the main process sent the window (webContents.send) and
 * what it asked the OS to open (shell.openExternal). Prints {"kind":"serving","data":port}.
 */
export const SERVE_DRIVER = (bundleUrl: string) => `
import { createServer } from 'node:http';
const record = (kind, data) => process.stdout.write(JSON.stringify({ kind, data }) + '\\n');
process.argv.push('--demo');
const outbox = [];
let wake = null;
globalThis.__outbound = (m) => { outbox.push(m); wake?.(); };
await import(${JSON.stringify(bundleUrl)});
const until = async (f) => { for (let i = 0; i < 400 && !f(); i++) await new Promise((r) => setTimeout(r, 50)); };
await until(() => globalThis.__ipc?.has('sites:list') && globalThis.__schemes?.has('app'));
const { BrowserWindow } = await import('electron');
const body = (req) => new Promise((resolve) => { const parts = []; req.on('data', (c) => parts.push(c)); req.on('end', () => resolve(Buffer.concat(parts).toString('utf8'))); });
const server = createServer(async (req, res) => {
  try {
    const url = new URL(req.url, 'http://127.0.0.1');
    if (req.method === 'POST' && url.pathname === '/ipc') {
      const { channel, input } = JSON.parse(await body(req));
      const handler = globalThis.__ipc.get(channel);
      const win = BrowserWindow.getAllWindows()[0];
      const event = { sender: win.webContents, senderFrame: { url: 'app://learning-desktop/index.html' } };
      const result = handler ? await handler(event, input) : undefined;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ result: result ?? null, handled: !!handler }));
    } else if (url.pathname === '/scheme') {
      // A Range header (the media elements' seeking) and the method pass through as the renderer would send them.
      const range = url.searchParams.get('range');
      const init = { method: url.searchParams.get('method') ?? 'GET', headers: range ? { range } : {} };
      const answer = await globalThis.__schemes.get('app')(new Request(url.searchParams.get('url'), init));
      const bytes = Buffer.from(await answer.arrayBuffer());
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: answer.status, headers: [...answer.headers], body: bytes.toString('base64') }));
    } else if (req.method === 'POST' && url.pathname === '/menu') {
      // A click on the application menu's item at this label path (File > Sync Now).
      const { labels } = JSON.parse(await body(req));
      let items = globalThis.__menu;
      let item;
      for (const label of labels) { item = items.find((i) => i.label === label); items = item?.submenu ?? []; }
      item?.click?.();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ clicked: typeof item?.click === 'function' }));
    } else if (url.pathname === '/menu') {
      const strip = (items) => items.map((i) => ({ label: i.label, role: i.role, enabled: i.enabled, submenu: i.submenu ? strip(i.submenu) : undefined }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(strip(globalThis.__menu ?? [])));
    } else if (req.method === 'POST' && url.pathname === '/tray') {
      // A click on the tray icon's menu item with this label.
      const { label } = JSON.parse(await body(req));
      const item = globalThis.__tray?.menu?.find((i) => i.label === label);
      item?.click?.();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ clicked: typeof item?.click === 'function' }));
    } else if (url.pathname === '/exit') {
      // A clean exit, so that what the process ran is written out (NODE_V8_COVERAGE writes at exit, not on a kill).
      res.writeHead(200).end();
      setImmediate(() => process.exit(0));
    } else if (url.pathname === '/next') {
      if (outbox.length === 0) await new Promise((r) => { wake = r; setTimeout(r, 5_000); });
      wake = null;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(outbox.splice(0)));
    } else res.writeHead(404).end();
  } catch (error) {
    res.writeHead(500).end(String(error?.name));
  }
});
server.listen(0, '127.0.0.1', () => record('serving', server.address().port));
`;

/** The link the stand-in's macOS delivers by 'open-url' while the app starts. */
export const INVITE_LINK =
  'learning-desktop://add-site?site=https%3A%2F%2Fschool.example.com&client_id=app_invited';

/** Writes the stand-in and its loader hook into `dir`; returns Node's arguments that install it. */
export function installStandIn(dir: string): string[] {
  writeFileSync(join(dir, 'electron.mjs'), FAKE_ELECTRON);
  writeFileSync(
    join(dir, 'hooks.mjs'),
    `export async function resolve(s, c, next) { return s === 'electron' ? { url: ${JSON.stringify(pathToFileURL(join(dir, 'electron.mjs')).href)}, shortCircuit: true } : next(s, c); }`,
  );
  // CommonJS packages (electron-updater) `require('electron')`, which the ESM hook does not see:
  // the same module, loaded first, is handed to them through a CommonJS file that require resolves
  // 'electron' to.
  writeFileSync(join(dir, 'electron.cjs'), 'module.exports = globalThis.__standInElectron;');
  writeFileSync(
    join(dir, 'register.mjs'),
    [
      `import Module, { register } from 'node:module';`,
      `register(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)});`,
      `globalThis.__standInElectron = await import(${JSON.stringify(pathToFileURL(join(dir, 'electron.mjs')).href)});`,
      `const resolveFilename = Module._resolveFilename;`,
      `Module._resolveFilename = function (request, ...rest) { return request === 'electron' ? ${JSON.stringify(join(dir, 'electron.cjs'))} : resolveFilename.call(this, request, ...rest); };`,
    ].join('\n'),
  );
  return ['--import', pathToFileURL(join(dir, 'register.mjs')).href];
}

export interface Recorded {
  readonly kind: string;
  readonly data: unknown;
}

/**
 * Runs the DRIVER against `bundle` under the stand-in (installed in `dir`), with `userData` as the
 * data folder.
 */
export function driveBundle(
  dir: string,
  bundle: string,
  userData: string,
): { run: SpawnSyncReturns<string>; lines: Recorded[] } {
  const args = installStandIn(dir);
  writeFileSync(join(dir, 'driver.mjs'), DRIVER(pathToFileURL(bundle).href));
  const run = spawnSync(process.execPath, [...args, join(dir, 'driver.mjs')], {
    env: { ...process.env, FAKE_USER_DATA: userData, FAKE_OPEN_URL: INVITE_LINK },
    encoding: 'utf8',
    timeout: 60_000,
  });
  const lines = run.stdout
    .split('\n')
    .filter((l) => l.startsWith('{"kind"'))
    .map((l) => JSON.parse(l) as Recorded);
  return { run, lines };
}

/**
 * A main bundle booted by SERVE_DRIVER under the stand-in, and the calls a test makes to it over
 * loopback HTTP.
 */
export interface ServedBundle {
  /** ipcMain's handler for `channel`, called as the window's top frame. */
  call<T = unknown>(
    channel: string,
    input?: unknown,
  ): Promise<{ ok: boolean; value?: T; error?: { code: string; message: string } }>;
  /**
   * What the main process sent the window or asked the OS to open since the last call (waits up to
   * 5 s for one).
   */
  next(): Promise<
    ({ type: 'event'; event: string; payload: unknown } | { type: 'external'; url: string })[]
  >;
  /** One request through the app:// protocol handler. */
  scheme(
    url: string,
    init?: { range?: string; method?: string },
  ): Promise<{ status: number; headers: Record<string, string>; body: Buffer }>;
  /**
   * The application menu as set (labels, roles, enabled, submenus), and a click on the item at a
   * label path.
   */
  menu(): Promise<{ label?: string; role?: string; enabled?: boolean; submenu?: unknown[] }[]>;
  click(labels: string[]): Promise<boolean>;
  /** A click on the tray menu's item with this label. */
  clickTray(label: string): Promise<boolean>;
  /**
   * What the stand-in recorded so far (one JSON line per call), and everything printed on stderr.
   */
  stdout(): string;
  stderr(): string;
  close(): Promise<void>;
}

/**
 * Boots `bundle` with SERVE_DRIVER under the stand-in (installed in `dir`), `env` added to the
 * process's.
 */
export async function serveBundle(
  dir: string,
  bundle: string,
  env: Record<string, string>,
): Promise<ServedBundle> {
  const args = installStandIn(dir);
  writeFileSync(join(dir, 'serve.mjs'), SERVE_DRIVER(pathToFileURL(bundle).href));
  const child = spawn(process.execPath, [...args, join(dir, 'serve.mjs')], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  const port = await new Promise<number>((ok, fail) => {
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const line = buffered.split('\n').find((l) => l.startsWith('{"kind":"serving"'));
      if (line) ok((JSON.parse(line) as { data: number }).data);
    });
    child.once('exit', (code) =>
      fail(new Error(`the main bundle exited (${code}): ${stderr.slice(0, 2000)}`)),
    );
  });
  const base = `http://127.0.0.1:${port}`;
  return {
    async call(channel, input) {
      const r = (await (
        await fetch(`${base}/ipc`, { method: 'POST', body: JSON.stringify({ channel, input }) })
      ).json()) as { result: never };
      return r.result;
    },
    async next() {
      return (await (await fetch(`${base}/next`)).json()) as never;
    },
    async scheme(url, init = {}) {
      const query = new URLSearchParams({ url, ...init });
      const r = (await (await fetch(`${base}/scheme?${query}`)).json()) as {
        status: number;
        headers: [string, string][];
        body: string;
      };
      return {
        status: r.status,
        headers: Object.fromEntries(r.headers),
        body: Buffer.from(r.body, 'base64'),
      };
    },
    async menu() {
      return (await (await fetch(`${base}/menu`)).json()) as never;
    },
    async click(labels) {
      return (
        (await (
          await fetch(`${base}/menu`, { method: 'POST', body: JSON.stringify({ labels }) })
        ).json()) as { clicked: boolean }
      ).clicked;
    },
    async clickTray(label) {
      return (
        (await (
          await fetch(`${base}/tray`, { method: 'POST', body: JSON.stringify({ label }) })
        ).json()) as { clicked: boolean }
      ).clicked;
    },
    stdout: () => stdout,
    stderr: () => stderr,
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      await fetch(`${base}/exit`).catch(() => child.kill());
      await exited;
    },
  };
}

/**
 * The first demo site of a bundle booted with --demo, signed in through "the system browser": the
 * main process asks the OS to open the authorize URL and a scripted browser signs in there (over
 * real HTTP), then one sync.
 */
export async function signedInDemoSite(
  app: ServedBundle,
): Promise<{ id: string; baseUrl: string }> {
  let site: { id: string; baseUrl: string } | undefined;
  for (let i = 0; i < 200 && !site; i++) {
    const sites = (await app.call<{ id: string; baseUrl: string }[]>('sites:list')).value ?? [];
    if (sites.length === 2) site = sites[0];
    else await new Promise((r) => setTimeout(r, 50));
  }
  if (!site) throw new Error('the demo sites never appeared');
  const done = app.call('sites:sign-in', { siteId: site.id });
  let signedIn = false;
  // The stand-in window's own link probes reach the system browser too; the sign-in's is on the
  // site.
  for (let i = 0; i < 20 && !signedIn; i++) {
    const external = (await app.next()).find(
      (m) => m.type === 'external' && m.url.startsWith(site.baseUrl),
    );
    if (external?.type !== 'external') continue;
    const redirect = new URL(external.url).searchParams.get('redirect_uri')!;
    await (await fetch(await runAuthorization(external.url, { stopAt: redirect }))).text();
    signedIn = true;
  }
  if (!signedIn || !(await done).ok) throw new Error('the sign-in did not complete');
  const synced = await app.call('sync:now', { siteId: site.id });
  if (!synced.ok) throw new Error(`the sync failed: ${synced.error?.message}`);
  return site;
}
