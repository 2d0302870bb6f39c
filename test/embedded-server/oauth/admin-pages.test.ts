import { describe, expect, it } from 'vitest';
import { startTestServer } from '../../helpers/server';
import { ScriptedBrowser, parseForms, type BrowserPage } from '../../helpers/scripted-browser';
import type { EmbeddedServer } from '../../../embedded-server/index';
import { exchangeCode, obtainCode, userinfo } from '../helpers';

const APPS = '/admin/developers/oauth-applications';

async function open(browser: ScriptedBrowser, url: string): Promise<BrowserPage> {
  const r = await browser.navigate(url);
  if (!('page' in r)) throw new Error('expected a page');
  return r.page;
}

/** Signs in through the real sign-in form reached from /admin. */
async function adminBrowser(
  server: EmbeddedServer,
  email = 'owner@example.com',
  password = 'owner-demo',
): Promise<{ browser: ScriptedBrowser; page: BrowserPage }> {
  const browser = new ScriptedBrowser();
  const signIn = await open(browser, `${server.url}/admin`);
  expect(signIn.url).toContain('/sign-in?return_to=%2Fadmin');
  const form = parseForms(signIn.html)[0]!;
  const r = await browser.submit(signIn.url, form, { email, password });
  if (!('page' in r)) throw new Error('expected a page');
  return { browser, page: r.page };
}

async function enableMcp(browser: ScriptedBrowser, dashboard: BrowserPage): Promise<BrowserPage> {
  const form = parseForms(dashboard.html).find((f) => f.fields.feature === 'mcp_connections')!;
  const r = await browser.submit(dashboard.url, form, { enabled: 'on' });
  if (!('page' in r)) throw new Error('expected a page');
  return r.page;
}

async function createApp(
  browser: ScriptedBrowser,
  server: EmbeddedServer,
  fields: Record<string, string>,
): Promise<BrowserPage> {
  const list = await open(browser, `${server.url}${APPS}`);
  const form = parseForms(list.html).find((f) => 'redirect_uris' in f.fields)!;
  const r = await browser.submit(list.url, form, fields);
  if (!('page' in r)) throw new Error('expected a page');
  return r.page;
}

describe('Admin area: operators only (decision, README)', () => {
  it('sends an anonymous visitor to sign-in and refuses a student with 403', async () => {
    const server = await startTestServer();
    const { page } = await adminBrowser(server, 'student@example.com', 'student-demo');
    expect(page.status).toBe(403);
    expect(page.html).toContain('Only the site');
  });

  it('the owner reaches the dashboard, a readable page with lang and labels', async () => {
    const server = await startTestServer();
    const { page } = await adminBrowser(server);
    expect(page.status).toBe(200);
    expect(page.html).toMatch(/<html lang="en">/);
    expect(page.html).toContain('MCP connections');
    expect(page.html).not.toContain('href="/admin/developers/oauth-applications"');
  });
});

describe('Sign-out', () => {
  it('ends the session: /admin sends the browser back to sign-in', async () => {
    const server = await startTestServer();
    const { browser, page } = await adminBrowser(server);
    const signOut = parseForms(page.html).find((f) => f.action === '/sign-out')!;
    await browser.submit(page.url, signOut, {});
    const again = await open(browser, `${server.url}/admin`);
    expect(again.url).toContain('/sign-in');
  });
});

describe('Beta feature "MCP connections" opens Developers > OAuth applications (spec "OAuth client")', () => {
  it('the applications page is 404 until the feature is enabled', async () => {
    const server = await startTestServer();
    const { browser, page } = await adminBrowser(server);
    expect((await open(browser, `${server.url}${APPS}`)).status).toBe(404);
    const after = await enableMcp(browser, page);
    expect(after.html).toContain('Developers › OAuth applications');
    expect((await open(browser, `${server.url}${APPS}`)).status).toBe(200);
  });

  it('refuses a feature toggle without the CSRF token', async () => {
    const server = await startTestServer();
    const { browser } = await adminBrowser(server);
    const res = await browser.request(`${server.url}/admin/beta-features`, {
      method: 'POST',
      form: { feature: 'mcp_connections', enabled: 'on' },
    });
    expect(res.status).toBe(403);
    expect(server.db.prepare('SELECT count(*) AS n FROM school_features').get()).toEqual({ n: 0 });
  });
});

describe('OAuth applications: create, list, delete member clients', () => {
  it('a public application (checkbox unchecked) has no secret and works for a student at once', async () => {
    const server = await startTestServer();
    const { browser, page } = await adminBrowser(server);
    await enableMcp(browser, page);
    const created = await createApp(browser, server, {
      name: 'My Desktop',
      redirect_uris: 'http://127.0.0.1/cb',
    });
    expect(created.status).toBe(201);
    expect(created.html).toContain('Public application: no client secret.');
    const clientId = /class="client-id">([^<]+)</.exec(created.html)![1]!;
    const got = await obtainCode(server, {
      client_id: clientId,
      redirect_uri: 'http://127.0.0.1:40000/cb',
    });
    const res = await exchangeCode(server, got, { client_id: clientId });
    expect(res.status).toBe(200);
    expect(res.body.school_id).toBe('sch_demo');
  });

  it('a confidential application shows its secret once; none is refused for it', async () => {
    const server = await startTestServer();
    const { browser, page } = await adminBrowser(server);
    await enableMcp(browser, page);
    const created = await createApp(browser, server, {
      name: 'Server App',
      redirect_uris: 'https://app.example.com/cb\nhttp://127.0.0.1/cb',
      confidential: 'on',
    });
    expect(created.status).toBe(201);
    const clientId = /class="client-id">([^<]+)</.exec(created.html)![1]!;
    const secret = /class="secret">([^<]+)</.exec(created.html)![1]!;
    expect(secret).toMatch(/^cs_/);
    const list = await open(browser, `${server.url}${APPS}`);
    expect(list.html).toContain(clientId);
    expect(list.html).not.toContain(secret);
    expect(list.html).toContain('Confidential');
    const got = await obtainCode(server, {
      client_id: clientId,
      redirect_uri: 'http://127.0.0.1:40001/cb',
    });
    expect((await exchangeCode(server, got, { client_id: clientId })).status).toBe(401);
    expect(
      (await exchangeCode(server, got, { client_id: clientId, client_secret: secret })).status,
    ).toBe(200);
  });

  it('a re-sent creation form (reload of the created page) creates nothing and shows no secret again', async () => {
    const server = await startTestServer();
    const { browser, page } = await adminBrowser(server);
    await enableMcp(browser, page);
    const list = await open(browser, `${server.url}${APPS}`);
    const form = parseForms(list.html).find((f) => 'redirect_uris' in f.fields)!;
    const fields = {
      name: 'Server App',
      redirect_uris: 'https://app.example.com/cb',
      confidential: 'on',
    };
    const first = await browser.submit(list.url, form, fields);
    if (!('page' in first)) throw new Error('expected a page');
    expect(first.page.status).toBe(201);
    const clientId = /class="client-id">([^<]+)</.exec(first.page.html)![1]!;
    // The browser re-sends the same POST.
    const again = await browser.submit(list.url, form, fields);
    if (!('page' in again)) throw new Error('expected a page');
    expect(again.page.status).toBe(409);
    expect(again.page.html).toContain(clientId);
    expect(again.page.html).not.toContain('class="secret"');
    const after = await open(browser, `${server.url}${APPS}`);
    expect(after.html.match(/<td>Server App<\/td>/g)).toHaveLength(1);
  });

  it('deleting an application removes it and its tokens stop working', async () => {
    const server = await startTestServer();
    const { browser, page } = await adminBrowser(server);
    await enableMcp(browser, page);
    const created = await createApp(browser, server, {
      name: 'Temp',
      redirect_uris: 'http://127.0.0.1/cb',
    });
    const clientId = /class="client-id">([^<]+)</.exec(created.html)![1]!;
    const got = await obtainCode(server, {
      client_id: clientId,
      redirect_uri: 'http://127.0.0.1:40002/cb',
    });
    const tokens = (await exchangeCode(server, got, { client_id: clientId })).body;
    const list = await open(browser, `${server.url}${APPS}`);
    const del = parseForms(list.html).find((f) => f.action.includes(encodeURIComponent(clientId)))!;
    const after = await browser.submit(list.url, del, {});
    expect('page' in after && after.page.html).not.toContain(clientId);
    expect((await userinfo(server, tokens.access_token)).status).toBe(401);
    const res = await fetch(`${server.url}/oauth/authorize?client_id=${clientId}`, {
      redirect: 'manual',
    });
    expect(res.status).toBe(400);
  });

  it('refuses bad redirect URIs with a readable error and keeps what was typed (escaped)', async () => {
    const server = await startTestServer();
    const { browser, page } = await adminBrowser(server);
    await enableMcp(browser, page);
    const res = await createApp(browser, server, {
      name: '<script>alert(1)</script>',
      redirect_uris: 'http://example.com/cb',
    });
    expect(res.status).toBe(400);
    expect(res.html).toContain('plain http is only allowed on 127.0.0.1');
    expect(res.html).not.toContain('<script>alert(1)</script>');
    expect(res.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('escapes application names in the list', async () => {
    const server = await startTestServer();
    const { browser, page } = await adminBrowser(server);
    await enableMcp(browser, page);
    await createApp(browser, server, {
      name: '<img src=x onerror=alert(1)>',
      redirect_uris: 'http://127.0.0.1/cb',
    });
    const list = await open(browser, `${server.url}${APPS}`);
    expect(list.html).not.toContain('<img src=x');
    expect(list.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('member applications are per site: a demo app is unknown at demo2', async () => {
    const demo2 = await startTestServer({ site: 'demo2' });
    demo2.db
      .prepare(
        "INSERT INTO oauth_clients (client_id, school_id, name, audience, origin, confidential, secret_hash, redirect_uris, created_at) VALUES ('app_other', 'sch_demo', 'Other', 'member', 'admin', 0, NULL, '[\"http://127.0.0.1/cb\"]', 0)",
      )
      .run();
    const res = await fetch(
      `${demo2.url}/oauth/authorize?client_id=app_other&redirect_uri=http://127.0.0.1/cb`,
      { redirect: 'manual' },
    );
    expect(res.status).toBe(400);
  });
});
