import { describe, expect, it } from 'vitest';
import { parseInviteLink } from '../../../electron/core/invite/invite-link';
import type { EmbeddedServer } from '../../../embedded-server/index';
import { startTestServer } from '../../helpers/server';
import { ScriptedBrowser, parseForms, type BrowserPage } from '../../helpers/scripted-browser';

/**
 * The admin page's "Open in Learning Desktop" link: read back by the app's own parser, it names
 * this site and the application, and never a secret.
 */
const APPS = '/admin/developers/oauth-applications';

async function page(r: Awaited<ReturnType<ScriptedBrowser['navigate']>>): Promise<BrowserPage> {
  if (!('page' in r)) throw new Error('expected a page');
  return r.page;
}

async function operator(server: EmbeddedServer): Promise<ScriptedBrowser> {
  const browser = new ScriptedBrowser();
  const signIn = await page(await browser.navigate(`${server.url}/admin`));
  const form = parseForms(signIn.html).find((f) => 'password' in f.fields)!;
  const dashboard = await page(
    await browser.submit(signIn.url, form, { email: 'owner@example.com', password: 'owner-demo' }),
  );
  const beta = parseForms(dashboard.html).find((f) => f.fields.feature === 'mcp_connections')!;
  await page(await browser.submit(dashboard.url, beta, { enabled: 'on' }));
  return browser;
}

async function create(
  browser: ScriptedBrowser,
  server: EmbeddedServer,
  fields: Record<string, string>,
): Promise<string> {
  const list = await page(await browser.navigate(`${server.url}${APPS}`));
  const form = parseForms(list.html).find((f) => 'redirect_uris' in f.fields)!;
  const created = await page(await browser.submit(list.url, form, fields));
  expect(created.status).toBe(201);
  return /class="client-id">([^<]+)</.exec(created.html)![1]!;
}

/** The row of an application in the list, by its client id. */
function row(html: string, clientId: string): string {
  return html.split('<tr>').find((r) => r.includes(`<code>${clientId}</code>`)) ?? '';
}

const unescape = (s: string) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');

describe('admin page: an invite link for students (learning-desktop://add-site)', () => {
  it('a public application that allows the desktop redirect gets a link the app reads as this site and this client id', async () => {
    const server = await startTestServer();
    const browser = await operator(server);
    const clientId = await create(browser, server, {
      name: 'Desktop <b>& co</b>',
      redirect_uris: 'http://127.0.0.1/callback',
    });
    const list = await page(await browser.navigate(`${server.url}${APPS}`));
    const cells = row(list.html, clientId);
    const href = /<a class="invite-link" href="([^"]+)"/.exec(cells)?.[1];
    expect(href, 'the row has an invite link').toBeDefined();
    const link = unescape(href!);
    expect(link).toBe(
      `learning-desktop://add-site?site=${encodeURIComponent(server.url)}&client_id=${clientId}`,
    );
    expect(parseInviteLink(link)).toEqual({ ok: true, invite: { baseUrl: server.url, clientId } });
    // The same link in text, to copy into an e-mail; the name in the label is escaped.
    expect(unescape(/<code class="invite-url">([^<]+)<\/code>/.exec(cells)![1]!)).toBe(link);
    expect(cells).toContain(
      'aria-label="Open Desktop &lt;b&gt;&amp; co&lt;/b&gt; in Learning Desktop"',
    );
    // The site in the link is the issuer the app will discover.
    const metadata = (await (
      await fetch(`${server.url}/.well-known/oauth-authorization-server`)
    ).json()) as { issuer: string };
    expect(metadata.issuer).toBe(server.url);
  });

  it('no link for a confidential application (its secret cannot travel in a link) or one without the desktop redirect', async () => {
    const server = await startTestServer();
    const browser = await operator(server);
    const confidential = await create(browser, server, {
      name: 'Server',
      redirect_uris: 'http://127.0.0.1/callback',
      confidential: 'on',
    });
    const webOnly = await create(browser, server, {
      name: 'Web',
      redirect_uris: 'https://app.example.com/cb',
    });
    const otherPath = await create(browser, server, {
      name: 'Other path',
      redirect_uris: 'http://127.0.0.1/cb',
    });
    const list = await page(await browser.navigate(`${server.url}${APPS}`));
    expect(row(list.html, confidential)).not.toContain('learning-desktop:');
    expect(row(list.html, confidential)).toContain('a client secret cannot travel in a link');
    for (const id of [webOnly, otherPath]) {
      expect(row(list.html, id)).not.toContain('learning-desktop:');
      expect(row(list.html, id)).toContain(
        'Add the redirect URI <code>http://127.0.0.1/callback</code>',
      );
    }
    // No link on the page carries a secret parameter.
    expect(list.html).not.toMatch(/learning-desktop:[^"<]*secret/);
  });
});
