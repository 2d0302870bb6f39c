import {
  _electron as electron,
  expect,
  test,
  type ElectronApplication,
  type Page,
} from '@playwright/test';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inviteLink } from '../../../electron/core/invite/invite-link';
import { signInOnSite } from '../fixtures';
import { electronSkipReason, launchOptions } from './env';

/**
 * Invite links and saved files through the real Electron host: an invite link given as a launch
 * argument (what Windows and Linux do) fills in the add-site form; the files the student asks for
 * go through the save dialog (replaced in the main process by one that answers a chosen path, as a
 * student would) and a receipt is printed to PDF by webContents.printToPDF. Electron's binary comes
 * from GitHub, which is not reachable everywhere: where it is missing these tests are skipped, and
 * say so.
 */
const skipReason = electronSkipReason();

type Api = {
  invoke(
    channel: string,
    input?: unknown,
  ): Promise<{ ok: boolean; value?: unknown; error?: { code: string } }>;
};
const invoke = (window: Page, channel: string, input?: unknown) =>
  window.evaluate(
    ([c, i]) =>
      (globalThis as unknown as { learningDesktop: Api }).learningDesktop.invoke(c as string, i),
    [channel, input] as const,
  );

/** The save dialog answers `path` (the student's choice) and the system browser is a recorder. */
async function stubDialogAndBrowser(
  app: ElectronApplication,
  path: () => string,
): Promise<() => Promise<string[]>> {
  await app.evaluate(({ dialog, shell }, target) => {
    const g = globalThis as { __opened?: string[]; __saveTo?: string };
    g.__opened = [];
    g.__saveTo = target;
    dialog.showSaveDialog = (async () => ({
      canceled: false,
      filePath: g.__saveTo,
    })) as typeof dialog.showSaveDialog;
    shell.openExternal = async (url: string) => void g.__opened!.push(url);
  }, path());
  return () => app.evaluate(() => [...((globalThis as { __opened?: string[] }).__opened ?? [])]);
}

const saveTo = (app: ElectronApplication, target: string) =>
  app.evaluate((_e, t) => void ((globalThis as { __saveTo?: string }).__saveTo = t), target);

test.describe('Electron host: invite links and saved files', () => {
  test.skip(skipReason !== null, skipReason ?? '');

  test('a launch argument invite fills the form; CSV, receipt PDF and .ics are written where the dialog says', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    const userData = mkdtempSync(join(tmpdir(), 'ld-electron-files-'));
    const out = mkdtempSync(join(tmpdir(), 'ld-electron-out-'));
    const app = await electron.launch(
      launchOptions(userData, ['--demo', inviteLink('https://school.example.com', 'app_invited')]),
    );
    try {
      const opened = await stubDialogAndBrowser(app, () => join(out, 'purchases.csv'));
      const window = await app.firstWindow();
      // The link waited for the page (taken once) and only filled the form in.
      await expect(window.getByTestId('invite-client-id')).toHaveText('app_invited', {
        timeout: 30_000,
      });
      await expect(window.getByTestId('invite-site')).toHaveText('https://school.example.com');
      expect(
        ((await invoke(window, 'sites:list')).value as { baseUrl: string }[]).some(
          (s) => s.baseUrl === 'https://school.example.com',
        ),
      ).toBe(false);

      // Sign in to the demo site (the test's browser plays the system browser), then ask for the
      // files.
      await expect
        .poll(
          async () =>
            (
              (await invoke(window, 'sites:list')).value as { isDemo: boolean }[] | undefined
            )?.filter((s) => s.isDemo).length ?? 0,
          {
            timeout: 30_000,
          },
        )
        .toBe(2);
      const demo = (
        (await invoke(window, 'sites:list')).value as { id: string; isDemo: boolean }[]
      ).find((s) => s.isDemo)!;
      const signedIn = invoke(window, 'sites:sign-in', { siteId: demo.id });
      await expect
        .poll(async () => (await opened()).length, { timeout: 30_000 })
        .toBeGreaterThan(0);
      await page.goto((await opened())[0]!);
      await signInOnSite(page, 'approve');
      expect((await signedIn).ok).toBe(true);
      await expect
        .poll(
          async () =>
            (
              (await invoke(window, 'billing:summary', { siteId: demo.id })).value as
                { orderCount: number } | undefined
            )?.orderCount ?? 0,
          { timeout: 30_000 },
        )
        .toBeGreaterThan(0);

      const csv = await invoke(window, 'export:orders-csv', { siteId: demo.id, language: 'zh-TW' });
      expect(csv).toEqual({ ok: true, value: { kind: 'saved', fileName: 'purchases.csv' } });
      const bytes = readFileSync(join(out, 'purchases.csv'));
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      expect(bytes.toString('utf8')).toContain('訂單編號');

      const billing = (await invoke(window, 'billing:get', { siteId: demo.id })).value as {
        orders: { tradeNo: string }[];
        pendingInstructions: { paymentId: string }[];
      };
      await saveTo(app, join(out, 'receipt.pdf'));
      expect(
        (
          await invoke(window, 'export:receipt', {
            siteId: demo.id,
            tradeNo: billing.orders[0]!.tradeNo,
            language: 'en',
          })
        ).ok,
      ).toBe(true);
      expect(readFileSync(join(out, 'receipt.pdf')).subarray(0, 5).toString('latin1')).toBe(
        '%PDF-',
      );

      await saveTo(app, join(out, 'deadline.ics'));
      expect(
        (
          await invoke(window, 'calendar:payment-deadline', {
            siteId: demo.id,
            paymentId: billing.pendingInstructions[0]!.paymentId,
            language: 'en',
          })
        ).ok,
      ).toBe(true);
      expect(
        readFileSync(join(out, 'deadline.ics'), 'utf8').startsWith('BEGIN:VCALENDAR\r\n'),
      ).toBe(true);

      // The student cancels the dialog: nothing is written.
      await app.evaluate(({ dialog }) => {
        dialog.showSaveDialog = (async () => ({
          canceled: true,
          filePath: '',
        })) as typeof dialog.showSaveDialog;
      });
      expect(
        await invoke(window, 'export:orders-csv', { siteId: demo.id, language: 'en' }),
      ).toEqual({ ok: true, value: { kind: 'cancelled' } });
      expect(existsSync(join(out, 'purchases (1).csv'))).toBe(false);
    } finally {
      await app.close();
      rmSync(userData, { recursive: true, force: true });
      rmSync(out, { recursive: true, force: true });
    }
  });
});
