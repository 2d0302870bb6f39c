import type { Page } from '@playwright/test';
import type { BrowserHost } from '../../electron/browser-host/server';
import { expect } from './fixtures';
import { translator } from './helpers-ui';

/**
 * What the detail specs (ui-details, ui-details-account) share: the English strings, the site's
 * label, Sync now.
 */

export const t = translator('en');
export const DAY = 86_400_000;
export const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export async function siteLabel(host: BrowserHost): Promise<string> {
  const r = await host.core.handlers['sites:list'](undefined);
  if (!r.ok) throw new Error(r.error.message);
  return r.value[0]!.label;
}

/** Clicks "Sync now" once the status bar offers it, and waits for that run to end. */
export async function syncNow(page: Page): Promise<void> {
  const button = page.getByTestId('sync-now');
  await expect(button).toBeEnabled({ timeout: 30_000 });
  await button.click();
  await expect(page.getByTestId('sync-now')).toBeEnabled({ timeout: 30_000 });
}
