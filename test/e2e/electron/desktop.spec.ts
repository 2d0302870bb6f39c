import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { _electron as electron, expect, test, type ElectronApplication, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { electronSkipReason, launchOptions, packagedExecutable } from './env';

/**
 * The installed-app layer of issue 12, through the real Electron host: one test (or more) per item. Run against the
 * checkout's Electron (`npx playwright test --project=electron`) or a packaged build
 * (LEARNING_DESKTOP_ELECTRON_EXECUTABLE, as .github/workflows/desktop.yml does). Where no Electron binary can be
 * had, every test here is skipped and says why; the decisions behind each one are tested in plain Node (test/core,
 * test/build), the Electron glue is type-checked.
 */
const skipReason = electronSkipReason();
/** @electron/fuses' FuseState (not exported by 1.8): the wire holds ASCII '0' and '1'. */
const DISABLE = 48;
const ENABLE = 49;

type Api = { invoke(channel: string, input?: unknown): Promise<{ ok: boolean; value?: unknown; error?: { code: string } }> };
const invoke = (window: Page, channel: string, input?: unknown) =>
  window.evaluate(([c, i]) => (globalThis as unknown as { learningDesktop: Api }).learningDesktop.invoke(c as string, i), [channel, input] as const);

async function withApp(args: readonly string[], body: (app: ElectronApplication, window: Page, userData: string) => Promise<void>): Promise<void> {
  const userData = mkdtempSync(join(tmpdir(), 'ld-electron-desktop-'));
  const app = await electron.launch(launchOptions(userData, args));
  try {
    const window = await app.firstWindow();
    await window.waitForFunction(() => 'learningDesktop' in globalThis);
    await body(app, window, userData);
  } finally {
    await app.close();
    rmSync(userData, { recursive: true, force: true });
  }
}

test.describe('Electron host: the installed app (issue 12)', () => {
  test.skip(skipReason !== null, skipReason ?? '');

  test('1. fuses: the packaged executable carries the release fuses (the test build re-enables only the inspector)', async () => {
    const executable = packagedExecutable();
    test.skip(executable === null, 'SKIPPED: fuses are flipped at package time; set LEARNING_DESKTOP_ELECTRON_EXECUTABLE to a packaged build.');
    const wire = await getCurrentFuseWire(executable!);
    expect(wire[FuseV1Options.RunAsNode]).toBe(DISABLE);
    expect(wire[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(DISABLE);
    expect(wire[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe(ENABLE);
    expect(wire[FuseV1Options.OnlyLoadAppFromAsar]).toBe(ENABLE);
    expect(wire[FuseV1Options.EnableCookieEncryption]).toBe(ENABLE);
    expect(wire[FuseV1Options.GrantFileProtocolExtraPrivileges]).toBe(DISABLE);
  });

  test('2. the window is app://learning-desktop/, with the CSP header, and refuses paths out of the renderer', async () => {
    await withApp(['--demo'], async (_app, window) => {
      expect(window.url()).toBe('app://learning-desktop/index.html');
      // The bridge answers the app:// page (the IPC sender check names this URL).
      expect((await invoke(window, 'app:get-info')).ok).toBe(true);
      const index = await window.evaluate(async () => {
        const r = await fetch('/index.html');
        return { status: r.status, csp: r.headers.get('content-security-policy') };
      });
      expect(index.status).toBe(200);
      expect(index.csp).toContain("frame-ancestors 'none'");
      const escape = await window.evaluate(async () => (await fetch('/..%2fmain/index.js')).status);
      expect(escape).toBe(403);
      // The page is a secure context on its own origin, with no Node.
      expect(await window.evaluate(() => { const g = globalThis as unknown as { isSecureContext: boolean; location: { origin: string }; require?: unknown }; return [g.isSecureContext, g.location.origin, typeof g.require]; })).toEqual([true, 'app://learning-desktop', 'undefined']);
    });
  });

  test('6. the menu: File, Edit, View, Go, Window, Help with the shared accelerators; its items drive the page (Settings, Keyboard Shortcuts)', async () => {
    await withApp(['--demo'], async (app, window) => {
      const menu = await app.evaluate(({ Menu }) =>
        (Menu.getApplicationMenu()?.items ?? []).map((top) => ({ label: top.label, items: (top.submenu?.items ?? []).map((i) => ({ label: i.label, accelerator: i.accelerator ?? null })) })),
      );
      const tops = menu.map((m) => m.label);
      expect(tops.slice(-6)).toEqual(['File', 'Edit', 'View', 'Go', 'Window', 'Help']);
      const accelerators = menu.flatMap((m) => m.items.map((i) => i.accelerator)).filter(Boolean);
      for (const a of ['CmdOrCtrl+1', 'CmdOrCtrl+2', 'CmdOrCtrl+3', 'CmdOrCtrl+4', 'CmdOrCtrl+5', 'CmdOrCtrl+6', 'CmdOrCtrl+F', 'CmdOrCtrl+R', 'CmdOrCtrl+,']) expect(accelerators).toContain(a);
      // Clicking the item runs what the accelerator runs: the page gets app:command and shows Settings.
      await app.evaluate(({ Menu }) => {
        const item = Menu.getApplicationMenu()?.items.flatMap((t) => t.submenu?.items ?? []).find((i) => i.accelerator === 'CmdOrCtrl+,');
        item?.click();
      });
      await expect(window.getByTestId('nav-settings')).toHaveAttribute('aria-current', 'page');
      await expect(window.getByTestId('shortcuts-settings')).toBeVisible();
      // Help > Keyboard Shortcuts opens the same list in a dialog.
      await app.evaluate(({ Menu }) => {
        Menu.getApplicationMenu()?.items.flatMap((t) => t.submenu?.items ?? []).find((i) => i.label === 'Keyboard Shortcuts')?.click();
      });
      await expect(window.getByTestId('shortcuts-dialog').getByTestId('shortcuts-list')).toBeVisible();
    });
  });
});
