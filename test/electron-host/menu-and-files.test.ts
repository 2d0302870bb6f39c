import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Settings } from '../../electron/common/view-models';
import { ensureBuiltApp } from '../helpers/built-app';
import { serveBundle, signedInDemoSite, type ServedBundle } from '../helpers/electron-stand-in';

/**
 * The installed app's menu, tray, save dialog and token storage, through the built main bundle
 * under the stand-in `electron`: each menu command clicked as the student clicks it, the tray
 * switched on and used, the files the app hands the student (a CSV, a report printed to PDF)
 * written where the save dialog says, and the sign-in kept encrypted by the system's keyring, from
 * a signed-in, synced demo site.
 */
const buildError = ensureBuiltApp();
let work: string;
let saveDir: string;
let app: ServedBundle;
let siteId: string;

/** The stand-in's records of one kind, in order. */
const records = (kind: string) =>
  app
    .stdout()
    .split('\n')
    .filter((l) => l.startsWith('{"kind"'))
    .map((l) => JSON.parse(l) as { kind: string; data: unknown })
    .filter((l) => l.kind === kind)
    .map((l) => l.data);

beforeAll(async () => {
  if (buildError) return;
  work = mkdtempSync(join(tmpdir(), 'ld-menu-files-'));
  saveDir = join(work, 'chosen-folder');
  mkdirSync(saveDir);
  app = await serveBundle(work, resolve('out/main/index.js'), {
    FAKE_USER_DATA: join(work, 'userData'),
    FAKE_SAVE_DIR: saveDir,
    // A Linux desktop with a keyring (GNOME Keyring, KWallet): sign-ins are kept, encrypted by it.
    FAKE_SAFE_STORAGE: 'gnome_libsecret',
    // Electron's resources folder, where the tray icon sits beside app.asar.
    FAKE_RESOURCES_PATH: work,
  });
  siteId = (await signedInDemoSite(app)).id;
}, 120_000);

afterAll(async () => {
  await app?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the built main bundle’s save dialog', () => {
  it('was built', () => expect(buildError).toBeNull());

  it('writes the purchase CSV where the student chose, telling the page the name only', async () => {
    const saved = await app.call<{ kind: string; fileName: string }>('export:orders-csv', {
      siteId,
      language: 'en',
    });
    expect(saved.value).toMatchObject({ kind: 'saved', fileName: expect.stringMatching(/\.csv$/) });
    expect(saved.value!.fileName).not.toContain('/');
    const csv = readFileSync(join(saveDir, saved.value!.fileName), 'utf8');
    expect(csv.split('\r\n').length).toBeGreaterThan(1);
    expect(records('save-dialog')).toContainEqual({
      name: saved.value!.fileName,
      filters: [{ name: 'CSV', extensions: ['csv'] }],
    });
  });

  it('prints the progress report to PDF in a hidden window that runs no script, then closes it', async () => {
    const saved = await app.call<{ kind: string; fileName: string }>('export:progress-report', {
      siteId,
      language: 'en',
    });
    expect(saved.value).toMatchObject({ kind: 'saved', fileName: expect.stringMatching(/\.pdf$/) });
    expect(readFileSync(join(saveDir, saved.value!.fileName), 'latin1')).toMatch(/^%PDF-/);
    expect(records('print-to-pdf')).toEqual([{ pageSize: 'A4', printBackground: true }]);
    const printWindow = (records('window') as { javascript?: boolean; sandbox?: boolean }[]).find(
      (w) => w.javascript === false,
    );
    expect(printWindow).toMatchObject({
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      javascript: false,
    });
    expect(records('window-destroyed')).toEqual([true]);
  });
});

describe('the built main bundle’s application menu', () => {
  it('holds File, Edit, View, Go, Window and Help, with updates off', async () => {
    const menu = await app.menu();
    expect(menu.map((m) => m.label).filter(Boolean)).toEqual(
      expect.arrayContaining(['File', 'Edit', 'View', 'Go', 'Window', 'Help']),
    );
    const help = menu.find((m) => m.label === 'Help')!.submenu as {
      label?: string;
      enabled?: boolean;
    }[];
    expect(help.find((i) => i.label === 'Check for Updates…')).toMatchObject({ enabled: false });
  });

  it('sends the page its commands (Go > Back, Help > Keyboard Shortcuts)', async () => {
    await app.next();
    expect(await app.click(['Go', 'Back'])).toBe(true);
    expect(await app.click(['Help', 'Keyboard Shortcuts'])).toBe(true);
    const sent = (await app.next())
      .filter((m) => m.type === 'event' && m.event === 'app:command')
      .map((m) => (m as { payload: unknown }).payload);
    expect(sent).toEqual([
      { command: 'history', direction: 'back' },
      { command: 'show-shortcuts' },
    ]);
  });

  it('toggles the theme through the core (View > Toggle Theme), and syncs (File > Sync Now)', async () => {
    const before = (await app.call<Settings>('settings:get')).value!.theme;
    expect(await app.click(['View', 'Toggle Theme'])).toBe(true);
    let after = before;
    for (let i = 0; i < 100 && after === before; i++) {
      await new Promise((r) => setTimeout(r, 20));
      after = (await app.call<Settings>('settings:get')).value!.theme;
    }
    expect(after).toBe(before === 'dark' ? 'light' : 'dark');
    const runs = async () => (await app.call('sync:status', { siteId })).value;
    const lastBefore = JSON.stringify(await runs());
    expect(await app.click(['File', 'Sync Now'])).toBe(true);
    let lastAfter = lastBefore;
    for (let i = 0; i < 300 && lastAfter === lastBefore; i++) {
      await new Promise((r) => setTimeout(r, 20));
      lastAfter = JSON.stringify(await runs());
    }
    expect(lastAfter).not.toBe(lastBefore);
  });

  it('opens Help’s links in the system browser only (https), and shows About in a box', async () => {
    await app.next();
    const help = (await app.menu()).find((m) => m.label === 'Help')!.submenu as {
      label?: string;
    }[];
    const links = help
      .map((i) => i.label)
      .filter(
        (l): l is string =>
          !!l && l !== 'Keyboard Shortcuts' && !l.startsWith('Check for') && !l.startsWith('About'),
      );
    for (const label of links) expect(await app.click(['Help', label])).toBe(true);
    const opened = (await app.next())
      .filter((m) => m.type === 'external')
      .map((m) => (m as { url: string }).url);
    expect(opened.length).toBeGreaterThan(0);
    for (const url of opened) expect(url).toMatch(/^https:\/\//);
    // About lives in the app menu on macOS and in Help elsewhere.
    const about =
      process.platform === 'darwin' ? null : help.find((i) => i.label?.startsWith('About'));
    if (about) {
      expect(await app.click(['Help', about.label!])).toBe(true);
      expect(records('message-box')).toContainEqual(expect.stringMatching(/^Learning Desktop /));
    }
    expect(existsSync(saveDir)).toBe(true);
  });
});

describe('the built main bundle’s token storage and tray', () => {
  it('keeps the sign-in encrypted by the system (the Secret Service keyring on Linux), on disk', async () => {
    const protection = (
      await app.call<{ backend: string; persistent: boolean; weak: boolean; description: string }>(
        'security:get-token-protection',
      )
    ).value!;
    const backend =
      process.platform === 'darwin'
        ? 'keychain'
        : process.platform === 'win32'
          ? 'dpapi'
          : 'gnome_libsecret';
    expect(protection).toMatchObject({ backend, persistent: true, weak: false });
    expect(protection.description).toMatch(
      /^Saved sign-ins are encrypted by your operating system \((?:the Secret Service keyring|macOS Keychain|Windows Data Protection)\)\.$/,
    );
    // The signed-in site's pair went through safeStorage.
    expect(records('encrypt-string').length).toBeGreaterThan(0);
  });

  it('shows the tray icon when switched on, whose menu opens the window, syncs and quits; and removes it when off', async () => {
    const switched = await app.call('settings:update', { trayEnabled: true });
    expect(switched, JSON.stringify(switched)).toMatchObject({ ok: true });
    for (let i = 0; i < 100 && records('tray-menu').length === 0; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(records('tray')).toEqual([true]);
    expect(records('tray-menu').at(-1)).toEqual(
      expect.arrayContaining(['Open Learning Desktop', 'Sync Now', 'Quit']),
    );
    const menus = records('tray-menu').length;
    expect(await app.clickTray('Sync Now')).toBe(true);
    // The menu says it is syncing, then offers Sync Now again once the sync is over.
    const after = () => records('tray-menu').slice(menus) as string[][];
    const done = () =>
      after().some((m) => m.includes('Syncing…')) && after().at(-1)!.includes('Sync Now');
    for (let i = 0; i < 500 && !done(); i++) await new Promise((r) => setTimeout(r, 20));
    expect(after().some((m) => m.includes('Syncing…'))).toBe(true);
    expect(after().at(-1)).toContain('Sync Now');
    expect(await app.clickTray('Open Learning Desktop')).toBe(true);
    await app.call('settings:update', { trayEnabled: false });
    for (let i = 0; i < 100 && records('tray-destroyed').length === 0; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(records('tray-destroyed')).toEqual([true]);
  });
});
