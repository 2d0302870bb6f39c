import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestServer } from '../../helpers/server';
import { ScriptedBrowser } from '../../helpers/scripted-browser';
import type { EmbeddedServer } from '../../../embedded-server/index';
import {
  ClientMetadataError,
  guardedLookup,
  isPublicAddress,
  validateDocument,
} from '../../../embedded-server/oauth/client-metadata';
import { authorizeUrl, obtainCode, pkce, postForm } from '../helpers';

/**
 * A local "client website" serving metadata documents (tests run with allowPrivateMetadataHosts).
 */
let site: Server;
let origin = '';
const hits = new Map<string, number>();
const documents = new Map<
  string,
  { status?: number; headers?: Record<string, string>; body?: string; hang?: boolean }
>();

beforeAll(async () => {
  site = createServer((req, res) => {
    hits.set(req.url!, (hits.get(req.url!) ?? 0) + 1);
    const doc = documents.get(req.url!);
    if (!doc) {
      res.statusCode = 404;
      res.end();
      return;
    }
    if (doc.hang) return; // never answers: the fetch must time out
    res.writeHead(doc.status ?? 200, {
      'content-type': 'application/json',
      ...(doc.headers ?? {}),
    });
    res.end(doc.body ?? '');
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(async () => {
  site.closeAllConnections();
  await new Promise((r) => site.close(r));
});

function publish(path: string, doc: Record<string, unknown>): string {
  const clientId = `${origin}${path}`;
  documents.set(path, { body: JSON.stringify({ client_id: clientId, ...doc }) });
  return clientId;
}

function cimdServer(extra: Parameters<typeof startTestServer>[0] = {}): Promise<EmbeddedServer> {
  return startTestServer({
    allowPrivateMetadataHosts: true,
    clientMetadataDocuments: { allowedHosts: ['127.0.0.1'] },
    ...extra,
  });
}

async function authorizeStatus(
  server: EmbeddedServer,
  clientId: string,
  redirectUri: string,
  scope = 'openid courses:read',
): Promise<number> {
  const res = await fetch(
    authorizeUrl(server, {
      client_id: clientId,
      redirect_uri: redirectUri,
      scope,
      resource: null,
      code_challenge: pkce().challenge,
    }),
    { redirect: 'manual' },
  );
  return res.status;
}

describe('Client ID Metadata Documents (spec Authentication 6, draft-ietf-oauth-client-id-metadata-document)', () => {
  it('an operator authorizes a metadata-document client and it exchanges its code with client_id = document URL', async () => {
    const server = await cimdServer();
    const clientId = publish('/apps/ok.json', {
      client_name: 'Metadata App',
      redirect_uris: ['http://127.0.0.1:7777/cb'],
      token_endpoint_auth_method: 'none',
    });
    const got = await obtainCode(
      server,
      {
        client_id: clientId,
        redirect_uri: 'http://127.0.0.1:7777/cb',
        scope: 'openid profile courses:read orders:read',
        resource: null,
      },
      { email: 'owner@example.com', password: 'owner-demo' },
    );
    const res = await postForm(`${server.url}/api/oauth/token`, {
      grant_type: 'authorization_code',
      code: got.code,
      redirect_uri: got.redirectUri,
      client_id: clientId,
      code_verifier: got.verifier,
    });
    expect(res.status).toBe(200);
    expect(res.body.scope).toBe('openid profile courses:read orders:read');
  });

  it('an unreviewed client may request read and identity scopes only: a write scope gets invalid_scope', async () => {
    const server = await cimdServer();
    const clientId = publish('/apps/writer.json', { redirect_uris: ['http://127.0.0.1:7777/cb'] });
    const url = await new ScriptedBrowser().authorize(
      authorizeUrl(server, {
        client_id: clientId,
        redirect_uri: 'http://127.0.0.1:7777/cb',
        scope: 'courses:write',
        resource: null,
        code_challenge: pkce().challenge,
      }),
      { stopAt: 'http://127.0.0.1:7777/cb' },
    );
    expect(new URL(url).searchParams.get('error')).toBe('invalid_scope');
  });

  it('account:read is refused (operator audience)', async () => {
    const server = await cimdServer();
    const clientId = publish('/apps/member.json', { redirect_uris: ['http://127.0.0.1:7777/cb'] });
    const url = await new ScriptedBrowser().authorize(
      authorizeUrl(server, {
        client_id: clientId,
        redirect_uri: 'http://127.0.0.1:7777/cb',
        scope: 'account:read',
        resource: null,
        code_challenge: pkce().challenge,
      }),
      { stopAt: 'http://127.0.0.1:7777/cb' },
    );
    expect(new URL(url).searchParams.get('error')).toBe('invalid_scope');
  });

  it('a document whose client_id is not its URL is refused (error page, no redirect)', async () => {
    const server = await cimdServer();
    documents.set('/apps/liar.json', {
      body: JSON.stringify({
        client_id: 'https://other.example/app.json',
        redirect_uris: ['http://127.0.0.1:7777/cb'],
      }),
    });
    expect(
      await authorizeStatus(server, `${origin}/apps/liar.json`, 'http://127.0.0.1:7777/cb'),
    ).toBe(400);
  });

  it('redirect_uris must sit under the document host or be loopback', async () => {
    const server = await cimdServer();
    const clientId = publish('/apps/elsewhere.json', {
      redirect_uris: ['https://attacker.example/cb'],
    });
    expect(await authorizeStatus(server, clientId, 'https://attacker.example/cb')).toBe(400);
  });

  it('"under the document host" means its origin: another port of the same name is refused', () => {
    const url = new URL('https://apps.example/learning.json');
    const doc = (redirect: string) => ({ client_id: url.href, redirect_uris: [redirect] });
    expect(validateDocument(url, doc('https://apps.example/cb')).redirect_uris).toEqual([
      'https://apps.example/cb',
    ]);
    expect(validateDocument(url, doc('https://apps.example:443/cb')).redirect_uris).toEqual([
      'https://apps.example:443/cb',
    ]);
    expect(() => validateDocument(url, doc('https://apps.example:8443/cb'))).toThrow(
      ClientMetadataError,
    );
    expect(() => validateDocument(url, doc('http://apps.example/cb'))).toThrow(ClientMetadataError);
    expect(validateDocument(url, doc('http://127.0.0.1/cb')).redirect_uris).toEqual([
      'http://127.0.0.1/cb',
    ]);
  });

  it('a document over 5 KB is refused', async () => {
    const server = await cimdServer();
    const clientId = `${origin}/apps/big.json`;
    documents.set('/apps/big.json', {
      body: JSON.stringify({
        client_id: clientId,
        redirect_uris: ['http://127.0.0.1:7777/cb'],
        client_name: 'x'.repeat(6000),
      }),
    });
    expect(await authorizeStatus(server, clientId, 'http://127.0.0.1:7777/cb')).toBe(400);
  });

  it('a redirect from the document URL is not followed', async () => {
    const server = await cimdServer();
    const target = publish('/apps/target.json', { redirect_uris: ['http://127.0.0.1:7777/cb'] });
    documents.set('/apps/moved.json', { status: 302, headers: { location: target } });
    expect(
      await authorizeStatus(server, `${origin}/apps/moved.json`, 'http://127.0.0.1:7777/cb'),
    ).toBe(400);
  });

  it('a document that never arrives times out and is refused', async () => {
    const server = await cimdServer();
    documents.set('/apps/slow.json', { hang: true });
    const started = Date.now();
    expect(
      await authorizeStatus(server, `${origin}/apps/slow.json`, 'http://127.0.0.1:7777/cb'),
    ).toBe(400);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('a host neither allowlisted nor open is refused without fetching', async () => {
    const server = await startTestServer({ allowPrivateMetadataHosts: true });
    const clientId = publish('/apps/closed.json', { redirect_uris: ['http://127.0.0.1:7777/cb'] });
    expect(await authorizeStatus(server, clientId, 'http://127.0.0.1:7777/cb')).toBe(400);
    expect(hits.get('/apps/closed.json')).toBeUndefined();
  });

  it('open registration accepts any host', async () => {
    const server = await startTestServer({
      allowPrivateMetadataHosts: true,
      clientMetadataDocuments: { open: true },
    });
    const clientId = publish('/apps/open.json', { redirect_uris: ['http://127.0.0.1:7777/cb'] });
    // to sign-in
    expect(await authorizeStatus(server, clientId, 'http://127.0.0.1:7777/cb')).toBe(303);
  });

  it('without the test switch, private and loopback addresses are refused even for open registration', async () => {
    const server = await startTestServer({ clientMetadataDocuments: { open: true } });
    expect(
      await authorizeStatus(server, 'https://127.0.0.1/app.json', 'http://127.0.0.1:7777/cb'),
    ).toBe(400);
    expect(
      await authorizeStatus(server, 'https://[::1]/app.json', 'http://127.0.0.1:7777/cb'),
    ).toBe(400);
    expect(
      await authorizeStatus(server, `${origin}/apps/open.json`, 'http://127.0.0.1:7777/cb'),
    ).toBe(400); // http refused
  });

  it('caches a fetched document (5 minutes) instead of fetching on every request', async () => {
    const server = await cimdServer();
    const clientId = publish('/apps/cached.json', { redirect_uris: ['http://127.0.0.1:7777/cb'] });
    await authorizeStatus(server, clientId, 'http://127.0.0.1:7777/cb');
    await authorizeStatus(server, clientId, 'http://127.0.0.1:7777/cb');
    expect(hits.get('/apps/cached.json')).toBe(1);
  });
});

describe('SSRF guard: only public unicast addresses', () => {
  it.each([
    ['127.0.0.1', false],
    ['10.1.2.3', false],
    ['172.16.0.1', false],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['::1', false],
    ['fd00::1', false],
    ['fe80::1', false],
    ['::ffff:127.0.0.1', false],
    ['93.184.216.34', true],
    ['2606:2800:220:1:248:1893:25c8:1946', true],
  ])('%s -> public %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});

describe('SSRF guard on DNS: the address dialled is the address checked (no DNS rebinding)', () => {
  const lookup = (allowPrivate: boolean, all: boolean) =>
    new Promise<{ err: NodeJS.ErrnoException | null; result: unknown }>((resolve) => {
      guardedLookup(allowPrivate)(
        'localhost',
        { all } as never,
        ((err: NodeJS.ErrnoException | null, result: unknown) => resolve({ err, result })) as never,
      );
    });

  it('refuses a name that resolves to loopback', async () => {
    for (const all of [false, true]) {
      const { err } = await lookup(false, all);
      expect(err?.code).toBe('EPRIVATE');
    }
  });

  it('lets it through in the test mode only', async () => {
    const { err, result } = await lookup(true, true);
    expect(err).toBeNull();
    expect(Array.isArray(result) && result.length > 0).toBe(true);
  });
});
