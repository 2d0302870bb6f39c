import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { lookup } from 'node:dns/promises';
import type { AddressInfo, Socket } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { siteLinkUrl } from '../../electron/common/external-url';
import { hostKind } from '../../electron/common/host-kind';
import { findNoticeTarget, getEntitlements } from '../../electron/core/db';
import { checkFileUrl } from '../../electron/core/downloads/safety';
import { transfer } from '../../electron/core/downloads/transfer';
import { isCoreError } from '../../electron/core/errors';
import { entitlementLinksForSite } from '../../electron/core/net/external-url';
import { fileGet } from '../../electron/core/net/file-get';
import { imageUrlAllowed } from '../../electron/core/net/site-image';
import { syncLinks } from './helpers/synced-links';

/**
 * A school on the Internet naming this computer or its network for a download or a join link:
 * `http://127.0.0.1:*` in any of its spellings, `https://[::1]`, a private address, or a
 * public-looking name that resolves to one. The rule discovery and pictures already follow:
 * loopback http only when the site itself is on loopback, and a local address only for a local
 * site. Real HTTP on 127.0.0.1 (the hostile local service counts the connections it got), the real
 * sync, view and download transfer.
 */
const SCHOOL = 'https://school.example';
const NOW = new Date('2026-06-01T00:00:00.000Z');

const LOCAL = [
  'http://127.0.0.1:9/join',
  'http://0x7f.1:9/join',
  'http://2130706433:9/join',
  'http://127.1:9/join',
  'http://localhost:9/join',
  'http://[::1]:9/join',
  'https://127.0.0.1/file.pdf',
  'https://0x7f000001/file.pdf',
  'https://[::1]/file.pdf',
  'https://[::ffff:127.0.0.1]/file.pdf',
  'https://localhost/file.pdf',
  'https://app.localhost/file.pdf',
  'https://10.0.0.5/file.pdf',
  'https://192.168.1.1/router',
  'https://169.254.169.254/latest/meta-data',
  'https://[fd00::1]/file.pdf',
  'https://0.0.0.0/file.pdf',
];

describe('an https school naming this computer or its network', () => {
  it.each(LOCAL)('%s is refused for an https school on the Internet', (url) => {
    expect(siteLinkUrl(url, SCHOOL)).toBeNull();
    expect(() => checkFileUrl(url, SCHOOL)).toThrow(
      /this computer or its local network|not secure/,
    );
  });

  it('https links on public hosts pass; a loopback site keeps its loopback links (demo sites, tests)', () => {
    expect(siteLinkUrl('https://cdn.example.net/a.pdf', SCHOOL)).toBe(
      'https://cdn.example.net/a.pdf',
    );
    expect(siteLinkUrl('https://meet.example.com/j/1', SCHOOL)).toBe(
      'https://meet.example.com/j/1',
    );
    expect(siteLinkUrl('http://127.0.0.1:9/join', 'http://127.0.0.1:4000')).toBe(
      'http://127.0.0.1:9/join',
    );
    expect(siteLinkUrl('https://[::1]/file.pdf', 'http://127.0.0.1:4000')).toBe(
      'https://[::1]/file.pdf',
    );
    // A school on a private network (a campus server) may name its own network, but not plain http.
    expect(siteLinkUrl('https://10.0.0.5/file.pdf', 'https://10.0.0.2')).toBe(
      'https://10.0.0.5/file.pdf',
    );
    expect(siteLinkUrl('http://127.0.0.1:9/join', 'https://10.0.0.2')).toBeNull();
  });

  it('pictures follow the same rule (the core fetches them)', () => {
    expect(imageUrlAllowed('https://127.0.0.1:8443/cover.png', SCHOOL)).toBe(false);
    expect(imageUrlAllowed('https://192.168.1.1/cover.png', SCHOOL)).toBe(false);
    expect(imageUrlAllowed('https://cdn.example.net/cover.png', SCHOOL)).toBe(true);
    expect(imageUrlAllowed('https://127.0.0.1:8443/cover.png', 'http://127.0.0.1:4000')).toBe(true);
  });

  it('the views the screens, the downloads and calendar files read refuse them and say so (urlRefused)', async () => {
    const { site, db, outcome } = await syncLinks('https://cdn.example.net/ok', LOCAL);
    expect(outcome).toBe('completed');

    const links = (baseUrl: string) => {
      const view = entitlementLinksForSite(getEntitlements(db, 'hostile', NOW), baseUrl);
      return [
        ...view.digitalProducts.map((p) => [p.downloadUrl, p.urlRefused]),
        ...view.eventRegistrations.map((e) => [e.joinUrl, e.urlRefused]),
      ];
    };
    const asSchool = links(SCHOOL);
    expect(asSchool.length).toBeGreaterThan(2);
    expect(asSchool).toContainEqual(['https://cdn.example.net/ok', undefined]);
    for (const [url, refused] of asSchool)
      if (url !== 'https://cdn.example.net/ok') expect([url, refused]).toEqual([null, true]);
    // The same copy for a site that is itself on loopback keeps its loopback links.
    expect(
      links(site.url).filter(
        ([url]) => typeof url === 'string' && hostKind(new URL(url).hostname) === 'loopback',
      ).length,
    ).toBeGreaterThan(0);

    // A notice that leads to one of the events: its join link is not offered for the school either.
    const event = getEntitlements(db, 'hostile', NOW).eventRegistrations.find(
      (e) => e.joinUrl !== null && e.joinUrl.startsWith('http://'),
    );
    expect(event).toBeDefined();
    const target = findNoticeTarget(db, 'hostile', SCHOOL, `${SCHOOL}/events/${event!.eventId}`);
    expect(target).toMatchObject({ kind: 'event', joinUrl: null });
    expect(
      findNoticeTarget(db, 'hostile', site.url, `${site.url}/events/${event!.eventId}`),
    ).toMatchObject({
      kind: 'event',
      joinUrl: event!.joinUrl,
    });
  });
});

/**
 * A local service another program runs on 127.0.0.1: what the school wants the app to reach. Counts
 * connections.
 */
async function localService(): Promise<{ port: number; connections: () => number }> {
  let connections = 0;
  const server = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4 local secret'),
  );
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { port: (server.address() as AddressInfo).port, connections: () => connections };
}

async function tryTransfer(url: string, siteOrigin: string): Promise<unknown> {
  const dir = await mkdtemp(join(tmpdir(), 'ld-local-links-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return transfer({
    url,
    siteOrigin,
    send: () => Promise.reject(new Error('no token is sent to another origin')),
    title: 'File',
    partFile: join(dir, 'part'),
    resume: null,
    signal: AbortSignal.timeout(10_000),
    idleTimeoutMs: 5_000,
    maxBytes: 1024 * 1024,
    askAboveBytes: null,
    onStart: async () => undefined,
    onBytes: () => undefined,
    onDurable: () => undefined,
  }).then(
    (r) => r,
    (e: unknown) => e,
  );
}

/**
 * This computer's own name: a public-looking host name (no dot, not localhost) that resolves to a
 * local address.
 */
const LOCAL_NAME = hostname();
const localNameResolvesLocally = await lookup(LOCAL_NAME, { all: true }).then(
  (all) =>
    all.length > 0 &&
    all.every((a) => hostKind(a.address) !== 'public') &&
    hostKind(LOCAL_NAME) === 'public',
  () => false,
);

describe('a download for an https school, connected to', () => {
  it('a file address on 127.0.0.1 (in any spelling) is refused before any connection', async () => {
    const local = await localService();
    for (const host of ['127.0.0.1', '0x7f.1', '2130706433', '[::ffff:127.0.0.1]']) {
      const error = await tryTransfer(`https://${host}:${local.port}/file.pdf`, SCHOOL);
      expect(isCoreError(error, 'forbidden')).toBe(true);
      expect((error as { detail?: Record<string, unknown> }).detail).toMatchObject({
        reason: 'unsafe-address',
      });
    }
    expect(local.connections()).toBe(0);
  });

  it.runIf(localNameResolvesLocally)(
    'a public-looking name that resolves to 127.0.0.1 counts as 127.0.0.1: refused, never connected',
    async () => {
      const local = await localService();
      const error = await tryTransfer(`https://${LOCAL_NAME}:${local.port}/file.pdf`, SCHOOL);
      expect(isCoreError(error, 'forbidden')).toBe(true);
      expect((error as Error).message).toMatch(/this computer or its local network/);
      expect(local.connections()).toBe(0);
    },
  );

  it.runIf(localNameResolvesLocally)(
    'core/net: the same name is connected to when public-only is off (a loopback site), refused when on',
    async () => {
      const local = await localService();
      const url = new URL(`http://${LOCAL_NAME}:${local.port}/file.pdf`);
      const res = await fileGet(url, {
        headers: {},
        signal: AbortSignal.timeout(10_000),
        idleTimeoutMs: 5_000,
      });
      res.resume();
      expect(res.statusCode).toBe(200);
      const before = local.connections();
      expect(before).toBe(1);
      await expect(
        fileGet(url, {
          headers: {},
          signal: AbortSignal.timeout(10_000),
          idleTimeoutMs: 5_000,
          publicOnly: true,
        }),
      ).rejects.toSatisfy((e) => isCoreError(e, 'forbidden'));
      expect(local.connections()).toBe(before);
    },
  );
});
