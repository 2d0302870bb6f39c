import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuiltApp } from '../helpers/built-app';

/**
 * The built Electron main bundle (out/main/index.js), run in plain Node where no Electron binary can be had.
 * Only the `electron` module itself is a stand-in (a loader hook answers `import 'electron'` with a small fake that
 * records what the host asked of it); the bundle, the core, SQLite, electron-store and the demo sites are real.
 * It proves what type-checking cannot: the bundle loads as ESM, finds the embedded server's SQL and schema files
 * beside it, wires IPC with the sender check, builds the menu, and closes the core on quit.
 * The bundle is (re)built first when it is missing or older than the sources it is made of.
 */
const bundle = resolve('out/main/index.js');
// Built once per run for every test of the built host (test/helpers/built-app.ts); a failed build fails here.
const buildError = ensureBuiltApp();
const built = buildError === null;
it('out/ is built', () => expect(buildError).toBeNull());

const FAKE_ELECTRON = `
import { EventEmitter } from 'node:events';
const record = (kind, data) => process.stdout.write(JSON.stringify({ kind, data }) + '\\n');
class Session { constructor() { this.webRequest = { onHeadersReceived: (l) => { this.csp = l; record('csp-header', true); } }; }
  setPermissionRequestHandler(h) { h(null, 'camera', (v) => record('permission', v)); } setPermissionCheckHandler() {} }
class WebContents extends EventEmitter { constructor(id) { super(); this.id = id; this.session = new Session(); }
  setWindowOpenHandler(h) { record('window-open', h({ url: 'file:///etc/passwd' }).action); } send(event) { record('send', event); } }
let nextId = 1;
export class BrowserWindow extends EventEmitter {
  static all = [];
  constructor(options) { super(); this.webContents = new WebContents(nextId++); BrowserWindow.all.push(this); record('window', options.webPreferences); }
  static getAllWindows() { return BrowserWindow.all; }
  loadURL(url) { record('load', url); return Promise.resolve(); }
  show() {} isMinimized() { return false; } focus() {} restore() {}
}
const handlers = new Map();
export const ipcMain = { on() {}, handle(c, f) { handlers.set(c, f); }, removeHandler(c) { handlers.delete(c); } };
globalThis.__ipc = handlers;
export const app = Object.assign(new EventEmitter(), {
  enableSandbox() { record('sandbox', true); }, requestSingleInstanceLock() { return true; }, whenReady() { globalThis.__ready = true; return Promise.resolve(); },
  getPath() { return process.env.FAKE_USER_DATA; }, getAppPath() { return process.cwd(); }, getLocale() { return 'en-US'; }, setAsDefaultProtocolClient() { return true; },
  getLoginItemSettings() { return { openAtLogin: false, wasOpenedAsHidden: false }; }, setLoginItemSettings(s) { record('login-item', s); }, getVersion() { return '9.9.9'; }, getName() { return 'Learning Desktop'; },
  name: 'Learning Desktop', isPackaged: true, quit() { record('quit', true); globalThis.__quit = true; }, relaunch() {}, exit(c) { record('exit', c); process.exit(c); },
});
export const shell = { openExternal: async (url) => record('open-external', url) };
export const safeStorage = { isEncryptionAvailable: () => true, getSelectedStorageBackend: () => 'basic_text',
  encryptString: (s) => Buffer.from(s), decryptString: (b) => b.toString() };
export const Menu = { buildFromTemplate: (t) => t, setApplicationMenu: (m) => record('menu', m.map((i) => i.label ?? i.role)) };
export const dialog = { showMessageBox: async () => ({ response: 1 }), showErrorBox: (t, m) => record('error-box', m) };
const schemes = new Map();
globalThis.__schemes = schemes;
export const protocol = {
  registerSchemesAsPrivileged(list) { record('privileged-schemes', { ready: globalThis.__ready === true, list }); },
  handle(scheme, handler) { schemes.set(scheme, handler); record('protocol-handle', scheme); },
};
export const powerMonitor = new EventEmitter();
globalThis.__powerMonitor = powerMonitor;
export class Notification extends EventEmitter {
  static isSupported() { return true; }
  constructor(options) { super(); this.options = options; }
  show() { record('os-notification', this.options); }
}
export const nativeImage = { createFromPath: (p) => ({ path: p, resize() { return this; } }) };
export class Tray extends EventEmitter { constructor() { super(); record('tray', true); } setToolTip() {} setContextMenu() {} destroy() {} }
export default { app, BrowserWindow, ipcMain, shell, safeStorage, Menu, dialog, protocol, powerMonitor, Notification, nativeImage, Tray };
`;

const DRIVER = (bundleUrl: string) => `
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
record('protection', (await ipc.get('security:get-token-protection')(trusted)).value);
record('untrusted', await ipc.get('sites:list')({ sender: { id: 99 }, senderFrame: { url: 'https://evil.example/' } }));
record('iframe', await ipc.get('sites:list')({ sender: { id: 1 }, senderFrame: { url: 'https://evil.example/' } }));
record('bad-input', await ipc.get('library:list')(trusted, { siteId: 5 }));
record('file-frame', await ipc.get('sites:list')({ sender: { id: 1 }, senderFrame: { url: ${JSON.stringify(pathToFileURL(resolve('out/renderer/index.html')).href)} } }));
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
let prevented = false;
app.emit('will-quit', { preventDefault() { prevented = true; } });
await until(async () => { try { await fetch(site.baseUrl + '/.well-known/oauth-authorization-server'); return false; } catch { return true; } });
// The core closes everything (the demo sites last but the data folder's lock) and only then quits.
await until(async () => globalThis.__quit === true);
record('closed', { prevented });
process.exit(0);
`;

describe.skipIf(!built)('Electron main bundle in plain Node (electron stood in)', () => {
  let dir: string;
  let lines: { kind: string; data: unknown }[] = [];
  const of = (kind: string) => lines.filter((l) => l.kind === kind).map((l) => l.data);

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ld-electron-bundle-'));
    writeFileSync(join(dir, 'electron.mjs'), FAKE_ELECTRON);
    writeFileSync(join(dir, 'hooks.mjs'), `export async function resolve(s, c, next) { return s === 'electron' ? { url: ${JSON.stringify(pathToFileURL(join(dir, 'electron.mjs')).href)}, shortCircuit: true } : next(s, c); }`);
    writeFileSync(join(dir, 'register.mjs'), `import { register } from 'node:module'; register(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)});`);
    writeFileSync(join(dir, 'driver.mjs'), DRIVER(pathToFileURL(bundle).href));
    const run = spawnSync(process.execPath, ['--import', pathToFileURL(join(dir, 'register.mjs')).href, join(dir, 'driver.mjs')], {
      env: { ...process.env, FAKE_USER_DATA: join(dir, 'userData') },
      encoding: 'utf8',
      timeout: 30_000,
    });
    lines = run.stdout
      .split('\n')
      .filter((l) => l.startsWith('{"kind"'))
      .map((l) => JSON.parse(l) as { kind: string; data: unknown });
    if (run.status !== 0) throw new Error(`the bundle failed: ${run.stderr.slice(0, 2000)}`);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('hardens the window (checklist: sandbox, context isolation, no Node, permissions denied, no new windows)', () => {
    expect(of('sandbox')).toEqual([true]);
    expect(of('window')[0]).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true });
    expect(of('permission')).toEqual([false]);
    expect(of('window-open')).toEqual(['deny']);
  });

  it('loads the window from app://learning-desktop/ (checklist #18), never file://, served with the CSP header', () => {
    expect(of('load')).toEqual(['app://learning-desktop/index.html']);
    // Privileges are declared before the app is ready, as Electron requires.
    expect(of('privileged-schemes')).toEqual([{ ready: false, list: [{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } }] }]);
    expect(of('protocol-handle')).toEqual(['app']);
    const index = of('app-index')[0] as { status: number; csp: string; type: string; body: string };
    expect(index).toMatchObject({ status: 200, type: 'text/html; charset=utf-8' });
    expect(index.csp).toContain("script-src 'self'");
    expect(index.body).toMatch(/<!doctype html>/i);
    expect(of('app-traversal')[0]).toMatchObject({ status: 403, body: '' });
    expect((of('app-traversal')[0] as { csp: string }).csp).toContain("default-src 'self'");
    expect(of('app-post')[0]).toMatchObject({ status: 405 });
    // A file:// frame is no longer the app's page: its IPC is refused.
    expect(of('file-frame')[0]).toMatchObject({ ok: false, error: { code: 'forbidden' } });
  });

  it('packaged without an update feed: updates are off and say why; start at login and wake sync are wired', () => {
    expect(of('updates')).toEqual([{ status: 'off', reason: 'no-feed' }]);
    expect(of('power-listeners')).toEqual([[1, 1]]);
    // Linux has no login items in Electron: nothing is set there; macOS and Windows get the user's choice (off).
    expect(of('login-item')).toEqual(process.platform === 'linux' ? [] : [expect.objectContaining({ openAtLogin: false })]);
    // The tray is off by default.
    expect(of('tray')).toEqual([]);
  });

  it('--demo starts the demo sites from the bundle and lists both', () => {
    const sites = of('sites')[0] as { isDemo: boolean; baseUrl: string }[];
    expect(sites).toHaveLength(2);
    expect(sites.every((s) => s.isDemo && /^http:\/\/127\.0\.0\.1:\d+$/.test(s.baseUrl))).toBe(true);
    expect(of('demo-discovery')).toEqual([200]);
    expect(of('info')[0]).toMatchObject({ host: 'electron', version: '9.9.9', demoAvailable: true });
    expect(existsSync(join(dir, 'userData', 'demo-server', 'demo.db'))).toBe(true);
  });

  it('basic_text safeStorage: reported weak, tokens in memory only (no vault on disk)', () => {
    expect(of('protection')[0]).toMatchObject({ backend: 'basic_text', persistent: false, weak: true });
  });

  it('answers only our window’s top frame, and validates input', () => {
    expect(of('untrusted')[0]).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(of('iframe')[0]).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(of('bad-input')[0]).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
  });

  it('builds the application menu and keeps preferences in electron-store', () => {
    expect(of('menu')[0]).toEqual(process.platform === 'darwin' ? ['Learning Desktop', 'File', 'Edit', 'View', 'Go', 'Window', 'Help'] : ['File', 'Edit', 'View', 'Go', 'Window', 'Help']);
    expect(JSON.parse(readFileSync(join(dir, 'userData', 'preferences.json'), 'utf8'))).toHaveProperty('settings.autoSyncMinutes');
  });

  it('an offline database from a newer version: a plain-words error box, then exit 1', () => {
    const userData = join(dir, 'newer');
    mkdirSync(userData);
    const db = new Database(join(userData, 'offline.db'));
    db.pragma('user_version = 999');
    db.close();
    writeFileSync(join(dir, 'start.mjs'), `await import(${JSON.stringify(pathToFileURL(bundle).href)}); await new Promise((r) => setTimeout(r, 10_000));`);
    const run = spawnSync(process.execPath, ['--import', pathToFileURL(join(dir, 'register.mjs')).href, join(dir, 'start.mjs')], {
      env: { ...process.env, FAKE_USER_DATA: userData },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    const box = run.stdout.split('\n').filter((l) => l.startsWith('{"kind":"error-box"'));
    expect(box).toHaveLength(1);
    expect((JSON.parse(box[0]!) as { data: string }).data).toMatch(/newer/i);
  });

  it('closes the core (and the demo sites) before quitting', () => {
    expect(of('closed')).toEqual([{ prevented: true }]);
    expect(of('quit')).toEqual([true]);
  });
});
