import { expect, type ElectronApplication, type Page } from '@playwright/test';
import { signInOnSite } from '../fixtures';

/** The preload bridge's invoke, called in the window (the page has no Node and no raw IPC). */
type Api = {
  invoke(
    channel: string,
    input?: unknown,
  ): Promise<{ ok: boolean; value?: unknown; error?: { code: string } }>;
};
export const invoke = (window: Page, channel: string, input?: unknown) =>
  window.evaluate(
    ([c, i]) =>
      (globalThis as unknown as { learningDesktop: Api }).learningDesktop.invoke(c as string, i),
    [channel, input] as const,
  );

/**
 * Replaces shell.openExternal in the main process with a recorder of the URLs the app asks the
 * system to open.
 */
export async function recordExternalUrls(
  app: ElectronApplication,
): Promise<() => Promise<string[]>> {
  await app.evaluate(({ shell }) => {
    const opened: string[] = [];
    (globalThis as { __opened?: string[] }).__opened = opened;
    shell.openExternal = async (url: string) => {
      opened.push(url);
    };
  });
  return () => app.evaluate(() => [...((globalThis as { __opened?: string[] }).__opened ?? [])]);
}

/**
 * Signs in to the first demo site the way a student does: the app opens the authorize page in "the
 * system browser" (the test's Chromium tab plays it), the loopback redirect returns to the app.
 * Returns the site's id.
 */
export async function signInToDemo(
  app: ElectronApplication,
  window: Page,
  browserTab: Page,
): Promise<string> {
  const opened = await recordExternalUrls(app);
  await expect
    .poll(
      async () => {
        const r = await invoke(window, 'sites:list');
        return r.ok ? (r.value as { isDemo: boolean }[]).filter((s) => s.isDemo).length : -1;
      },
      { timeout: 30_000 },
    )
    .toBe(2);
  const sites = (await invoke(window, 'sites:list')).value as { id: string; isDemo: boolean }[];
  const demo = sites.find((s) => s.isDemo)!;
  const signedIn = invoke(window, 'sites:sign-in', { siteId: demo.id });
  await expect.poll(async () => (await opened()).length, { timeout: 30_000 }).toBeGreaterThan(0);
  await browserTab.goto((await opened())[0]!);
  await signInOnSite(browserTab, 'approve');
  expect((await signedIn).ok).toBe(true);
  return demo.id;
}
