/**
 * The sign-in doctor's checks against the real embedded server on 127.0.0.1, each with the matching
 * fault switched on (embedded-server README decision 26), over real HTTP. Where the fault is in
 * front of the site (a tampered discovery document, a certificate nobody trusts) a real server
 * plays that part: a rewriting HTTP proxy, an https listener.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { DoctorCheck, DoctorCheckId, DoctorReport } from '../../../electron/common/doctor';
import {
  classifyTlsCode,
  excludedByNoProxy,
  proxyHost,
} from '../../../electron/core/doctor/checks';
import { runDoctor, type DoctorDeps } from '../../../electron/core/doctor/run-doctor';
import type { FetchLike } from '../../../electron/core/net/http';
import { startTestServer, tempDir } from '../../helpers/server';

const APP = { version: '0.0.0-test', host: 'browser', platform: process.platform } as const;

function deps(overrides: Partial<DoctorDeps> = {}): DoctorDeps {
  return { fetch: (url, init) => fetch(url, init), clock: Date, env: {}, app: APP, ...overrides };
}

function byId(report: DoctorReport, id: DoctorCheckId): DoctorCheck {
  const found = report.checks.find((c) => c.id === id);
  if (!found) throw new Error(`no ${id} check`);
  return found;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return String((server.address() as AddressInfo).port);
}

/**
 * A real HTTP server in front of the embedded server that rewrites its RFC 8414 document (a
 * misconfigured site).
 */
async function tamperedSite(
  target: string,
  rewrite: (doc: Record<string, unknown>, origin: string) => Record<string, unknown>,
): Promise<string> {
  let origin = '';
  const server = createHttpServer((req, res) => {
    void (async () => {
      const upstream = await fetch(`${target}${req.url ?? '/'}`, { redirect: 'manual' });
      let body = Buffer.from(await upstream.arrayBuffer());
      if ((req.url ?? '').startsWith('/.well-known/')) {
        // The proxy is its own origin: the site's document rewritten to it, then the fault applied.
        const doc = JSON.parse(body.toString('utf8').split(target).join(origin)) as Record<
          string,
          unknown
        >;
        body = Buffer.from(
          JSON.stringify(
            req.url === '/.well-known/oauth-authorization-server' ? rewrite(doc, origin) : doc,
          ),
        );
      }
      res.writeHead(upstream.status, {
        'content-type': upstream.headers.get('content-type') ?? 'application/json',
      });
      res.end(body);
    })();
  });
  origin = `http://127.0.0.1:${await listen(server)}`;
  return origin;
}

describe('sign-in doctor: checks against the embedded server', () => {
  it('a healthy site: every network check ok, TLS not used on loopback http, no attempt yet', async () => {
    const server = await startTestServer();
    const report = await runDoctor(
      { site: { label: 'Demo', baseUrl: server.url, clientId: 'demo-desktop' }, attempt: null },
      deps(),
    );
    expect(report.checks.map((c) => [c.id, c.status, c.finding])).toEqual([
      ['discovery', 'ok', 'discoveryOk'],
      ['tls', 'skipped', 'tlsNotUsed'],
      ['proxy', 'ok', 'proxyNone'],
      ['loopback', 'ok', 'loopbackOk'],
      ['browser', 'skipped', 'browserNoAttempt'],
      ['clock', 'ok', 'clockOk'],
      ['client', 'ok', 'clientOk'],
    ]);
    expect(report.site).toEqual({ label: 'Demo', baseUrl: server.url, clientId: 'demo-desktop' });
  });

  it('site offline: discovery unreachable; clock and client cannot be checked', async () => {
    const server = await startTestServer();
    server.setFaults({ offline: true });
    const report = await runDoctor(
      { site: { label: 'Demo', baseUrl: server.url, clientId: 'demo-desktop' }, attempt: null },
      deps(),
    );
    expect(byId(report, 'discovery')).toMatchObject({
      status: 'problem',
      finding: 'discoveryUnreachable',
      params: { origin: server.url },
    });
    expect(byId(report, 'clock')).toMatchObject({ status: 'skipped', finding: 'clockUnknown' });
    expect(byId(report, 'client')).toMatchObject({ status: 'skipped', finding: 'clientUnchecked' });
    // The listener on this computer is fine: the doctor tells the two apart.
    expect(byId(report, 'loopback').status).toBe('ok');
  });

  it('proxy in the environment: a problem only when the direct connection failed, named without its credentials', async () => {
    const server = await startTestServer();
    const env = {
      HTTP_PROXY: 'http://student:hunter2-proxy-password@proxy.school.example:3128',
      NO_PROXY: 'intranet.example',
    };
    const reachable = await runDoctor(
      { site: { label: 'Demo', baseUrl: server.url, clientId: 'demo-desktop' }, attempt: null },
      deps({ env }),
    );
    expect(byId(reachable, 'proxy')).toMatchObject({
      status: 'ok',
      finding: 'proxyDirectOk',
      params: { variable: 'HTTP_PROXY', proxy: 'proxy.school.example:3128' },
    });
    server.setFaults({ offline: true });
    const offline = await runDoctor(
      { site: { label: 'Demo', baseUrl: server.url, clientId: 'demo-desktop' }, attempt: null },
      deps({ env }),
    );
    expect(byId(offline, 'proxy')).toMatchObject({
      status: 'problem',
      finding: 'proxyMayBeRequired',
      params: { variable: 'HTTP_PROXY', proxy: 'proxy.school.example:3128' },
    });
    expect(JSON.stringify(offline)).not.toContain('hunter2');
    expect(JSON.stringify(offline)).not.toContain('student:');
    const excluded = await runDoctor(
      { site: { label: 'Demo', baseUrl: server.url, clientId: 'demo-desktop' }, attempt: null },
      deps({ env: { ...env, NO_PROXY: 'localhost,127.0.0.1' } }),
    );
    expect(byId(excluded, 'proxy')).toMatchObject({ status: 'ok', finding: 'proxyExcluded' });
  });

  it('slow network: the site answers, but slowly enough to say so', async () => {
    const server = await startTestServer();
    server.setFaults({ latencyMs: 2_100 });
    const report = await runDoctor(
      { site: { label: 'Demo', baseUrl: server.url, clientId: 'demo-desktop' }, attempt: null },
      deps(),
    );
    const discovery = byId(report, 'discovery');
    expect(discovery).toMatchObject({ status: 'warning', finding: 'discoverySlow' });
    expect(discovery.params.seconds).toBeGreaterThanOrEqual(2.1);
  });

  it('clock skew: the site’s Date header against this computer’s clock, both directions', async () => {
    const server = await startTestServer();
    server.setFaults({ clockSkewMs: 15 * 60_000 });
    const ahead = await runDoctor(
      { site: { label: 'Demo', baseUrl: server.url, clientId: 'demo-desktop' }, attempt: null },
      deps(),
    );
    expect(byId(ahead, 'clock')).toEqual({
      id: 'clock',
      status: 'problem',
      finding: 'clockComputerBehind',
      params: { minutes: 15 },
    });
    server.setFaults({ clockSkewMs: -15 * 60_000 });
    const behind = await runDoctor(
      { site: { label: 'Demo', baseUrl: server.url, clientId: 'demo-desktop' }, attempt: null },
      deps(),
    );
    expect(byId(behind, 'clock')).toEqual({
      id: 'clock',
      status: 'problem',
      finding: 'clockComputerAhead',
      params: { minutes: 15 },
    });
    server.setFaults({ clockSkewMs: 45_000 });
    const slight = await runDoctor(
      { site: { label: 'Demo', baseUrl: server.url, clientId: 'demo-desktop' }, attempt: null },
      deps(),
    );
    expect(byId(slight, 'clock')).toMatchObject({ status: 'warning', finding: 'clockSlightlyOff' });
  });

  it('client id no longer registered: the site’s error page for an unknown client (RFC 6749 §4.1.2.1)', async () => {
    const server = await startTestServer();
    const report = await runDoctor(
      {
        site: { label: 'Demo', baseUrl: server.url, clientId: 'app_deleted_long_ago' },
        attempt: null,
      },
      deps(),
    );
    expect(byId(report, 'client')).toMatchObject({
      status: 'problem',
      finding: 'clientUnknown',
      params: { clientId: 'app_deleted_long_ago' },
    });
    // An application the operator deletes stops being recognised too (admin pages, decision 19).
    server.db
      .prepare("DELETE FROM oauth_clients WHERE client_id = 'demo-desktop-confidential'")
      .run();
    const deleted = await runDoctor(
      {
        site: { label: 'Demo', baseUrl: server.url, clientId: 'demo-desktop-confidential' },
        attempt: null,
      },
      deps(),
    );
    expect(byId(deleted, 'client').finding).toBe('clientUnknown');
  });

  it('discovery documents: issuer mismatch, no S256, an endpoint on another origin', async () => {
    const server = await startTestServer();
    const site = (origin: string) => ({
      site: { label: 'Demo', baseUrl: origin, clientId: 'demo-desktop' },
      attempt: null,
    });
    const issuer = await tamperedSite(server.url, (doc) => ({
      ...doc,
      issuer: 'https://elsewhere.example',
    }));
    expect(byId(await runDoctor(site(issuer), deps()), 'discovery')).toMatchObject({
      status: 'problem',
      finding: 'discoveryIssuerMismatch',
      params: { issuer: 'https://elsewhere.example' },
    });
    const plain = await tamperedSite(server.url, (doc) => ({
      ...doc,
      code_challenge_methods_supported: ['plain'],
    }));
    expect(byId(await runDoctor(site(plain), deps()), 'discovery')).toMatchObject({
      status: 'problem',
      finding: 'discoveryNoS256',
    });
    const foreign = await tamperedSite(server.url, (doc) => ({
      ...doc,
      token_endpoint: 'https://tokens.elsewhere.example/token',
    }));
    expect(byId(await runDoctor(site(foreign), deps()), 'discovery')).toMatchObject({
      status: 'warning',
      finding: 'discoveryForeignEndpoint',
      params: { endpoint: 'token_endpoint', endpointOrigin: 'https://tokens.elsewhere.example' },
    });
    // No revocation endpoint is fine (RFC 8414 §2, sign-out is then local); ID tokens signed
    // without keys are not.
    const broken = await tamperedSite(server.url, (doc) => ({ ...doc, jwks_uri: undefined }));
    expect(byId(await runDoctor(site(broken), deps()), 'discovery')).toMatchObject({
      status: 'problem',
      finding: 'discoveryInvalid',
    });
  });

  it('discovery: a site that serves no sign-in description, and one whose server fails', async () => {
    const notASite = createHttpServer((req, res) => {
      res.writeHead(req.url?.startsWith('/.well-known/') ? 404 : 200, {
        'content-type': 'text/html',
      });
      res.end('<p>hello</p>');
    });
    const a = `http://127.0.0.1:${await listen(notASite)}`;
    const report = await runDoctor(
      { site: { label: 'x', baseUrl: a, clientId: 'demo-desktop' }, attempt: null },
      deps(),
    );
    expect(byId(report, 'discovery')).toMatchObject({
      status: 'problem',
      finding: 'discoveryMissing',
    });
    // The site still answered, so its clock could be read.
    expect(byId(report, 'clock').status).toBe('ok');
    const failing = createHttpServer((_req, res) => {
      res.writeHead(502);
      res.end();
    });
    const b = `http://127.0.0.1:${await listen(failing)}`;
    expect(
      byId(
        await runDoctor({ site: { label: 'x', baseUrl: b, clientId: 'c' }, attempt: null }, deps()),
        'discovery',
      ),
    ).toMatchObject({
      status: 'problem',
      finding: 'discoveryServerError',
      params: { status: 502 },
    });
  });

  it('discovery: an issuer on a path, named only by the RFC 9728 document, is what the sign-in uses: ok', async () => {
    const server = await startTestServer();
    let origin = '';
    // The site's own origin publishes no RFC 8414 document; its authorization server lives under
    // /as.
    const site = createHttpServer((req, res) => {
      void (async () => {
        const url = req.url ?? '/';
        if (url === '/.well-known/oauth-protected-resource') {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ resource: origin, authorization_servers: [`${origin}/as`] }));
          return;
        }
        if (url === '/.well-known/oauth-authorization-server/as') {
          const doc = (await (
            await fetch(`${server.url}/.well-known/oauth-authorization-server`)
          ).json()) as Record<string, unknown>;
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({ ...doc, issuer: `${origin}/as` })
              .split(server.url)
              .join(origin),
          );
          return;
        }
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{}');
      })();
    });
    origin = `http://127.0.0.1:${await listen(site)}`;
    const report = await runDoctor(
      { site: { label: 'x', baseUrl: origin, clientId: 'demo-desktop' }, attempt: null },
      deps(),
    );
    expect(byId(report, 'discovery')).toMatchObject({ status: 'ok', finding: 'discoveryOk' });
  });

  const openssl = spawnSync('openssl', ['version']).status === 0;
  it.skipIf(!openssl)(
    'TLS: a certificate nobody trusts is named as such (needs the openssl command to make one)',
    async () => {
      const dir = tempDir();
      const made = spawnSync('openssl', [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ]);
      expect(made.status).toBe(0);
      const tls = createHttpsServer(
        { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
        (_req, res) => res.end('{}'),
      );
      const origin = `https://127.0.0.1:${await listen(tls)}`;
      const report = await runDoctor(
        { site: { label: 'x', baseUrl: origin, clientId: 'c' }, attempt: null },
        deps(),
      );
      expect(byId(report, 'tls')).toMatchObject({
        status: 'problem',
        finding: 'tlsUntrusted',
        params: { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' },
      });
      expect(byId(report, 'discovery').finding).toBe('discoveryUnreachable');
    },
  );

  it('TLS codes: expired, untrusted, wrong name, other', () => {
    expect(classifyTlsCode('CERT_HAS_EXPIRED')).toBe('tlsExpired');
    expect(classifyTlsCode('UNABLE_TO_GET_ISSUER_CERT_LOCALLY')).toBe('tlsUntrusted');
    expect(classifyTlsCode('ERR_TLS_CERT_ALTNAME_INVALID')).toBe('tlsNameMismatch');
    expect(classifyTlsCode('ERR_SSL_WRONG_VERSION_NUMBER')).toBe('tlsFailed');
    expect(classifyTlsCode('ECONNREFUSED')).toBeNull();
  });

  it('loopback listener: an address that cannot be bound, and a listener the app cannot reach', async () => {
    const server = await startTestServer();
    const site = {
      site: { label: 'Demo', baseUrl: server.url, clientId: 'demo-desktop' },
      attempt: null,
    };
    // 192.0.2.1 (TEST-NET-1, RFC 5737) is on no interface of this computer: listen() fails like a
    // refused bind.
    const bind = await runDoctor(site, deps({ loopbackHost: '192.0.2.1' }));
    expect(byId(bind, 'loopback')).toMatchObject({
      status: 'problem',
      finding: 'loopbackBindFailed',
      params: { code: 'EADDRNOTAVAIL' },
    });
    // A firewall rule between the app and 127.0.0.1 cannot be installed by a test; a fetch that
    // drops the connection the way such a rule does stands in for it (the listener itself is real).
    const firewalled: FetchLike = () =>
      Promise.reject(
        new TypeError('fetch failed', {
          cause: Object.assign(new Error('connect ETIMEDOUT'), { code: 'ETIMEDOUT' }),
        }),
      );
    const blocked = await runDoctor(site, deps({ loopbackFetch: firewalled }));
    expect(byId(blocked, 'loopback')).toMatchObject({
      status: 'problem',
      finding: 'loopbackUnreachable',
      params: { code: 'ETIMEDOUT' },
    });
  });

  it('proxy helpers: host and port only; NO_PROXY as curl reads it', () => {
    expect(proxyHost('http://u:p@proxy.example:8080/path')).toBe('proxy.example:8080');
    expect(proxyHost('proxy.example:3128')).toBe('proxy.example:3128');
    expect(excludedByNoProxy('.school.example', 'learn.school.example', '443')).toBe(true);
    expect(excludedByNoProxy('school.example:8443', 'school.example', '443')).toBe(false);
    expect(excludedByNoProxy('*', 'anything', '80')).toBe(true);
    expect(excludedByNoProxy('other.example', 'school.example', '443')).toBe(false);
  });
});
