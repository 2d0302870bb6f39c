import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuiltApp } from '../helpers/built-app';
import { driveBundle, installStandIn } from '../helpers/electron-stand-in';

/**
 * The built Electron main bundle (out/main/index.js), run in plain Node where no Electron binary
 * can be had. Only the `electron` module itself is a stand-in (a loader hook answers
 * `import 'electron'` with a small fake that records what the host asked of it); the bundle, the
 * core, SQLite, electron-store and the demo sites are real. It proves what type-checking cannot:
 * the bundle loads as ESM, finds the embedded server's SQL and schema files beside it, wires IPC
 * with the sender check, builds the menu, and closes the core on quit. The bundle is (re)built
 * first when it is missing or older than the sources it is made of.
 */
const bundle = resolve('out/main/index.js');
// Built once per run for every test of the built host (test/helpers/built-app.ts); a failed build
// fails here.
const buildError = ensureBuiltApp();
const built = buildError === null;
it('out/ is built', () => expect(buildError).toBeNull());

describe.skipIf(!built)('Electron main bundle in plain Node (electron stood in)', () => {
  let dir: string;
  let lines: { kind: string; data: unknown }[] = [];
  const of = (kind: string) => lines.filter((l) => l.kind === kind).map((l) => l.data);

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ld-electron-bundle-'));
    const driven = driveBundle(dir, bundle, join(dir, 'userData'));
    lines = driven.lines;
    if (driven.run.status !== 0)
      throw new Error(`the bundle failed: ${driven.run.stderr.slice(0, 2000)}`);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('hardens the window (checklist: sandbox, context isolation, no Node, permissions denied but two, no new windows)', () => {
    expect(of('sandbox')).toEqual([true]);
    expect(of('window')[0]).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    });
    // Refused but full screen (the video player) and the clipboard write (copy buttons), for the
    // app's page only.
    expect(of('permission')).toEqual([
      { permission: 'camera', requestingUrl: 'app://learning-desktop/index.html', granted: false },
      {
        permission: 'fullscreen',
        requestingUrl: 'app://learning-desktop/index.html',
        granted: true,
      },
      { permission: 'fullscreen', requestingUrl: 'https://evil.example/', granted: false },
    ]);
    expect(of('permission-check')).toEqual([[true, false]]);
    expect(of('window-open')).toEqual(['deny']);
  });

  it('a link a page opens reaches the system browser only as https without user info (common/external-url.ts)', () => {
    // Once per window the run made.
    expect(of('open-external').length).toBeGreaterThan(0);
    expect(new Set(of('open-external'))).toEqual(new Set(['https://school.example/join']));
  });

  it('loads the window from app://learning-desktop/ (checklist #18), never file://, served with the CSP header', () => {
    expect(of('load')).toEqual(['app://learning-desktop/index.html']);
    // Privileges are declared before the app is ready, as Electron requires.
    expect(of('privileged-schemes')).toEqual([
      {
        ready: false,
        list: [
          {
            scheme: 'app',
            privileges: {
              standard: true,
              secure: true,
              supportFetchAPI: true,
              codeCache: true,
              stream: true,
            },
          },
        ],
      },
    ]);
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
    // Linux has no login items in Electron: nothing is set there; macOS and Windows get the user's
    // choice (off).
    expect(of('login-item')).toEqual(
      process.platform === 'linux' ? [] : [expect.objectContaining({ openAtLogin: false })],
    );
    // The tray is off by default.
    expect(of('tray')).toEqual([]);
  });

  it('--demo starts the demo sites from the bundle and lists both', () => {
    const sites = of('sites')[0] as { isDemo: boolean; baseUrl: string }[];
    expect(sites).toHaveLength(2);
    expect(sites.every((s) => s.isDemo && /^http:\/\/127\.0\.0\.1:\d+$/.test(s.baseUrl))).toBe(
      true,
    );
    expect(of('demo-discovery')).toEqual([200]);
    expect(of('info')[0]).toMatchObject({
      host: 'electron',
      version: '9.9.9',
      demoAvailable: true,
    });
    expect(existsSync(join(dir, 'userData', 'demo-server', 'demo.db'))).toBe(true);
  });

  it('basic_text safeStorage: reported weak, tokens in memory only (no vault on disk)', () => {
    expect(of('protection')[0]).toMatchObject({
      backend: 'basic_text',
      persistent: false,
      weak: true,
    });
  });

  it('answers only our window’s top frame, and validates input', () => {
    expect(of('untrusted')[0]).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(of('iframe')[0]).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(of('bad-input')[0]).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
  });

  it('builds the application menu and keeps preferences in electron-store', () => {
    expect(of('menu')[0]).toEqual(
      process.platform === 'darwin'
        ? ['Learning Desktop', 'File', 'Edit', 'View', 'Go', 'Window', 'Help']
        : ['File', 'Edit', 'View', 'Go', 'Window', 'Help'],
    );
    expect(
      JSON.parse(readFileSync(join(dir, 'userData', 'preferences.json'), 'utf8')),
    ).toHaveProperty('settings.autoSyncMinutes');
  });

  it('an offline database from a newer version: a plain-words error box, then exit 1', () => {
    const userData = join(dir, 'newer');
    mkdirSync(userData);
    const db = new Database(join(userData, 'offline.db'));
    db.pragma('user_version = 999');
    db.close();
    writeFileSync(
      join(dir, 'start.mjs'),
      `await import(${JSON.stringify(pathToFileURL(bundle).href)}); await new Promise((r) => setTimeout(r, 10_000));`,
    );
    const run = spawnSync(process.execPath, [...installStandIn(dir), join(dir, 'start.mjs')], {
      env: { ...process.env, FAKE_USER_DATA: userData },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    const box = run.stdout.split('\n').filter((l) => l.startsWith('{"kind":"error-box"'));
    expect(box).toHaveLength(1);
    expect((JSON.parse(box[0]!) as { data: string }).data).toMatch(/newer/i);
  });

  it('listens for macOS launch links before the heavy part of the app is loaded, and shows a link that came meanwhile', () => {
    // index.ts holds 'open-url' first and loads the host (SQLite, the core) dynamically after.
    expect(of('open-url-listener')).toEqual([{ sqliteLoaded: false }]);
    expect(of('pending-invite')[0]).toMatchObject({
      ok: true,
      invite: { clientId: 'app_invited' },
    });
  });

  it('a second launch after the window was closed (to the tray) opens a window again', () => {
    expect(of('second-instance-windows')).toEqual([1]);
  });

  it('writes its log to logs/main.log in the data folder', () => {
    expect(readFileSync(join(dir, 'userData', 'logs', 'main.log'), 'utf8')).not.toBe('');
  });

  it('an unexpected error: one plain line in the log file, a box that says the app stopped and where the log is, exit 1', () => {
    const userData = join(dir, 'crash');
    // An error whose message quotes a token, as a site's answer might.
    writeFileSync(
      join(dir, 'crash.mjs'),
      `await import(${JSON.stringify(pathToFileURL(bundle).href)});
const until = async (f) => { for (let i = 0; i < 200 && !f(); i++) await new Promise((r) => setTimeout(r, 50)); };
await until(() => globalThis.__ipc?.has('sites:list'));
setTimeout(() => { throw new Error('refresh failed: refresh_token=rt-secret-123'); }, 10);
await new Promise((r) => setTimeout(r, 10_000));`,
    );
    const run = spawnSync(process.execPath, [...installStandIn(dir), join(dir, 'crash.mjs')], {
      env: { ...process.env, FAKE_USER_DATA: userData },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    const box = run.stdout.split('\n').filter((l) => l.startsWith('{"kind":"error-box"'));
    expect(box).toHaveLength(1);
    const shown = (JSON.parse(box[0]!) as { data: string }).data;
    const logFile = join(userData, 'logs', 'main.log');
    expect(shown).toContain(logFile);
    const log = readFileSync(logFile, 'utf8');
    expect(log).toContain('Learning Desktop stopped after an unexpected error: Error');
    expect(`${log}${shown}${run.stdout}${run.stderr}`).not.toContain('rt-secret-123');
  });

  it('closes the core (and the demo sites) before quitting', () => {
    expect(of('closed')).toEqual([{ prevented: true }]);
    expect(of('quit')).toEqual([true]);
  });
});
