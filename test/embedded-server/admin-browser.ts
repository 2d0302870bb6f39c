import { expect } from 'vitest';
import type { EmbeddedServer } from '../../embedded-server/index';
import { ScriptedBrowser, parseForms, type BrowserPage } from '../helpers/scripted-browser';

/**
 * An operator at the real admin pages (sign-in form, beta feature switch, application form), for
 * tests that need a member application made the way the spec says one is made: by a site operator
 * in the admin area.
 */
export const APPS_PATH = '/admin/developers/oauth-applications';

export async function openPage(browser: ScriptedBrowser, url: string): Promise<BrowserPage> {
  const r = await browser.navigate(url);
  if (!('page' in r)) throw new Error('expected a page');
  return r.page;
}

/**
 * Signs the owner in through /admin and turns on "MCP connections" (which shows Developers > OAuth
 * applications).
 */
export async function operatorWithApps(server: EmbeddedServer): Promise<ScriptedBrowser> {
  const browser = new ScriptedBrowser();
  const signIn = await openPage(browser, `${server.url}/admin`);
  const signedIn = await browser.submit(signIn.url, parseForms(signIn.html)[0]!, {
    email: 'owner@example.com',
    password: 'owner-demo',
  });
  if (!('page' in signedIn)) throw new Error('expected the dashboard');
  const feature = parseForms(signedIn.page.html).find(
    (f) => f.fields.feature === 'mcp_connections',
  )!;
  await browser.submit(signedIn.page.url, feature, { enabled: 'on' });
  return browser;
}

/**
 * Creates a member application through the form; returns its client_id (and its secret when
 * confidential).
 */
export async function createMemberApp(
  server: EmbeddedServer,
  browser: ScriptedBrowser,
  fields: { name: string; redirect_uris: string; confidential?: 'on' },
): Promise<{ clientId: string; secret: string | null; page: BrowserPage }> {
  const list = await openPage(browser, `${server.url}${APPS_PATH}`);
  const form = parseForms(list.html).find((f) => 'redirect_uris' in f.fields)!;
  const r = await browser.submit(list.url, form, fields);
  if (!('page' in r)) throw new Error('expected a page');
  const clientId = /class="client-id">([^<]+)</.exec(r.page.html)?.[1];
  expect(clientId, r.page.html).toBeTruthy();
  return {
    clientId: clientId!,
    secret: /class="secret">([^<]+)</.exec(r.page.html)?.[1] ?? null,
    page: r.page,
  };
}
