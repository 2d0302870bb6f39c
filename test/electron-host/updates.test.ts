import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractAll } from '@electron/asar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import type { UpdateState } from '../../electron/common/view-models';
import { ensureBuiltApp } from '../helpers/built-app';
import { serveBundle, type ServedBundle } from '../helpers/electron-stand-in';
import { packageApps, type Packaged, type StandInPackage } from '../helpers/package-app';

/**
 * An update as a student's installed deb gets it, without the Electron binary: electron-builder
 * packages version A (0.1.0) and version B (0.2.0) as debs with the release config
 * (test/helpers/package-app.ts: stand-in Electron and fpm), and B's release is served on 127.0.0.1
 * the way GitHub Releases serves one (the releases feed, the latest release, the release's files:
 * electron-updater's GitHub provider, pointed at this host by `publish.host`). A's app.asar is
 * extracted and its main bundle booted under the stand-in `electron` module with A's resources
 * folder, so the real electron-updater reads A's app-update.yml and package-type, picks its deb
 * updater, and checks B.
 *
 * Linux only: electron-updater chooses its updater by the system it runs on (NSIS on Windows,
 * Squirrel on macOS, which only a real Electron has), and electron-builder makes a deb only on
 * Linux.
 */
const OWNER = 'learning-desktop';
const REPO = 'learning-desktop';
const buildError = process.platform === 'linux' ? ensureBuiltApp() : null;

let work: string;
let server: Server;
let port = 0;
const asked: string[] = [];
/** The release the stand-in GitHub serves: its tag and files (latest-linux.yml and the deb). */
let release: { tag: string; files: Map<string, Buffer> } | null = null;
let resources = '';
let mainBundle = '';
let made: { a: Packaged; b: Packaged } | null = null;

/** GitHub's releases.atom for one published release (a draft is not in it). */
const atom = (tag: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en-US">
  <id>tag:github.com,2008:https://github.com/${OWNER}/${REPO}/releases</id>
  <link type="text/html" rel="alternate" href="https://github.com/${OWNER}/${REPO}/releases"/>
  <title>Release notes from ${REPO}</title>
  <updated>2026-12-01T00:00:00Z</updated>
  <entry>
    <id>tag:github.com,2008:Repository/1/${tag}</id>
    <updated>2026-12-01T00:00:00Z</updated>
    <link rel="alternate" type="text/html" href="https://github.com/${OWNER}/${REPO}/releases/tag/${tag}"/>
    <title>${tag.slice(1)}</title>
    <content type="html">&lt;p&gt;What changed.&lt;/p&gt;</content>
    <author><name>${OWNER}</name></author>
  </entry>
</feed>`;

function startGitHub(): Promise<void> {
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    asked.push(path);
    const base = `/${OWNER}/${REPO}/releases`;
    if (!release) return void res.writeHead(404).end();
    if (path === `${base}.atom`)
      return void res
        .writeHead(200, { 'content-type': 'application/atom+xml' })
        .end(atom(release.tag));
    // A host other than github.com is GitHub Enterprise to electron-updater: the latest release
    // through /api/v3.
    if (path === `/api/v3/repos/${OWNER}/${REPO}/releases/latest`)
      return void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ tag_name: release.tag }));
    const file = path.startsWith(`${base}/download/${release.tag}/`)
      ? release.files.get(path.split('/').pop()!)
      : undefined;
    if (!file) return void res.writeHead(404).end();
    res
      .writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-length': String(file.length),
      })
      .end(file);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      port = (server.address() as AddressInfo).port;
      resolve();
    }),
  );
}

/** The release's files as electron-builder left them: the channel file and each file it names. */
function releaseOf(
  dir: string,
  tag: string,
  edit: (feed: { sha512: string; files: { sha512: string }[] }) => void = () => {},
) {
  const feed = parse(readFileSync(join(dir, 'latest-linux.yml'), 'utf8')) as {
    path: string;
    sha512: string;
    files: { url: string; sha512: string }[];
  };
  const files = new Map(feed.files.map((f) => [f.url, readFileSync(join(dir, f.url))] as const));
  edit(feed);
  files.set('latest-linux.yml', Buffer.from(stringify(feed)));
  return { tag, files };
}

const sha512 = (data: Buffer) => createHash('sha512').update(data).digest('base64');

beforeAll(async () => {
  if (process.platform !== 'linux' || buildError) return;
  work = mkdtempSync(join(tmpdir(), 'ld-updates-'));
  await startGitHub();
  // In CI the deb's Homepage and the release's owner and repo come from the checkout's origin; a
  // copy of the project has none, so both are named.
  const feedAt = [
    `-c.publish.owner=${OWNER}`,
    `-c.publish.repo=${REPO}`,
    `-c.publish.host=127.0.0.1:${port}`,
    '-c.publish.protocol=http',
    `-c.extraMetadata.homepage=https://github.com/${OWNER}/${REPO}`,
  ];
  const [a, b] = await packageApps(work, [
    { name: 'a', args: ['--linux', 'deb', ...feedAt] },
    { name: 'b', args: ['--linux', 'deb', ...feedAt, '-c.extraMetadata.version=0.2.0'] },
  ]);
  made = { a, b };
  resources = join(a.releaseDir, 'linux-unpacked', 'resources');
  if (a.status !== 0 || b.status !== 0) return;
  const extracted = join(work, 'a-extracted');
  extractAll(join(resources, 'app.asar'), extracted);
  cpSync(join(resources, 'app.asar.unpacked'), extracted, { recursive: true });
  mainBundle = join(extracted, 'out', 'main', 'index.js');
}, 600_000);

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((r) => (server ? server.close(r) : r(null)));
  if (work) rmSync(work, { recursive: true, force: true });
});

/**
 * Version A, started afresh (its own data and download folders), as the student's installed deb.
 */
async function startA(
  name: string,
  env: Record<string, string> = {},
): Promise<{ app: ServedBundle; cache: string }> {
  const dir = join(work, name);
  mkdirSync(dir);
  const cache = join(dir, 'cache');
  const app = await serveBundle(dir, mainBundle, {
    FAKE_USER_DATA: join(dir, 'userData'),
    FAKE_RESOURCES_PATH: resources,
    FAKE_APP_VERSION: '0.1.0',
    XDG_CACHE_HOME: cache,
    ...env,
  });
  return { app, cache };
}

/** Settings' "Check for updates", then the state once the check and any download are over. */
async function checkAndSettle(app: ServedBundle): Promise<UpdateState> {
  await app.call('updates:check');
  for (let i = 0; i < 1200; i++) {
    const state = (await app.call<UpdateState>('updates:get-state')).value!;
    if (!['checking', 'available', 'downloading'].includes(state.status)) return state;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the update neither finished nor failed');
}

const pending = (cache: string) => {
  const dir = join(cache, 'learning-desktop-updater', 'pending');
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.deb')) : [];
};

describe.runIf(process.platform === 'linux')(
  'updates of an installed deb, with the real electron-updater',
  () => {
    it('packages A and B with the release config', () => {
      expect(buildError).toBeNull();
      expect(made?.a.status, made?.a.output.slice(-3000)).toBe(0);
      expect(made?.b.status, made?.b.output.slice(-3000)).toBe(0);
    });

    it('writes A’s feed into its resources (GitHub Releases) and marks it a deb, as the deb installs it', () => {
      const config = parse(readFileSync(join(resources, 'app-update.yml'), 'utf8')) as Record<
        string,
        unknown
      >;
      expect(config).toMatchObject({
        provider: 'github',
        owner: OWNER,
        repo: REPO,
        host: `127.0.0.1:${port}`,
        protocol: 'http',
      });
      expect(config['updaterCacheDirName']).toBe('learning-desktop-updater');
      expect(readFileSync(join(resources, 'package-type'), 'utf8')).toBe('deb');
    });

    it('publishes B’s latest-linux.yml naming the deb with its SHA-512, and the deb depends on what Chromium needs', () => {
      const feed = parse(readFileSync(join(made!.b.releaseDir, 'latest-linux.yml'), 'utf8')) as {
        version: string;
        files: { url: string; sha512: string; size: number }[];
      };
      expect(feed.version).toBe('0.2.0');
      const [deb] = feed.files;
      expect(deb!.url).toMatch(/_0\.2\.0_amd64\.deb$|_0\.2\.0_arm64\.deb$/);
      const bytes = readFileSync(join(made!.b.releaseDir, deb!.url));
      expect(deb!.sha512).toBe(sha512(bytes));
      expect(deb!.size).toBe(bytes.length);
      const record = JSON.parse(bytes.toString('utf8')) as StandInPackage;
      expect(record.packageType).toBe('deb');
      const depends = record.args.flatMap((arg, i) => (record.args[i - 1] === '-d' ? [arg] : []));
      expect(record.args[record.args.indexOf('--url') + 1]).toBe(
        `https://github.com/${OWNER}/${REPO}`,
      );
      expect(depends).toEqual(
        expect.arrayContaining(['libasound2 | libasound2t64', 'libgbm1', 'libnss3', 'libgtk-3-0']),
      );
    });

    it('finds B, downloads it, checks its SHA-512 and stops at ready to install', async () => {
      release = releaseOf(made!.b.releaseDir, 'v0.2.0');
      asked.length = 0;
      const { app, cache } = await startA('good');
      try {
        const state = await checkAndSettle(app);
        expect(state, app.stderr().slice(-2000)).toEqual({
          status: 'ready',
          version: '0.2.0',
          restartQueued: false,
        });
        const debName = [...release.files.keys()].find((f) => f.endsWith('.deb'))!;
        expect(asked).toEqual(
          expect.arrayContaining([
            `/${OWNER}/${REPO}/releases.atom`,
            `/${OWNER}/${REPO}/releases/download/v0.2.0/latest-linux.yml`,
            `/${OWNER}/${REPO}/releases/download/v0.2.0/${debName}`,
          ]),
        );
        // The downloaded deb, waiting for "Restart to update", is B's byte for byte.
        const [downloaded] = pending(cache);
        expect(
          sha512(readFileSync(join(cache, 'learning-desktop-updater', 'pending', downloaded!))),
        ).toBe(sha512(release.files.get(debName)!));
        // Nothing was installed: the app is still there and still ready.
        expect((await app.call<UpdateState>('updates:get-state')).value).toEqual(state);
      } finally {
        await app.close();
      }
    }, 120_000);

    it('refuses a download whose SHA-512 is not the release’s, deletes it and tells the student', async () => {
      const forged = sha512(Buffer.from('another file'));
      release = releaseOf(made!.b.releaseDir, 'v0.2.0', (feed) => {
        feed.sha512 = forged;
        for (const f of feed.files) f.sha512 = forged;
      });
      const { app, cache } = await startA('forged');
      try {
        const state = await checkAndSettle(app);
        expect(state).toEqual({
          status: 'error',
          message:
            'The downloaded update did not match what its release published, so it was deleted.',
          lastCheckedAt: expect.any(String),
        });
        expect(pending(cache)).toEqual([]);
      } finally {
        await app.close();
      }
    }, 120_000);

    it('a deb built without a feed has updates off, or takes the one LEARNING_DESKTOP_UPDATE_URL names (a generic feed)', async () => {
      // A's package without its app-update.yml: what a build from a checkout with no GitHub origin
      // makes.
      const bare = join(work, 'bare-resources');
      mkdirSync(bare);
      writeFileSync(join(bare, 'package-type'), 'deb');
      const off = await startA('no-feed', { FAKE_RESOURCES_PATH: bare });
      try {
        expect((await off.app.call<UpdateState>('updates:get-state')).value).toEqual({
          status: 'off',
          reason: 'no-feed',
        });
      } finally {
        await off.app.close();
      }
      // The same copy with a mirror of B's release named: it finds B there, and downloads it into
      // its own folder.
      release = releaseOf(made!.b.releaseDir, 'v0.2.0');
      const { app, cache } = await startA('override', {
        FAKE_RESOURCES_PATH: bare,
        LEARNING_DESKTOP_UPDATE_URL: `http://127.0.0.1:${port}/${OWNER}/${REPO}/releases/download/v0.2.0/`,
      });
      try {
        expect(await checkAndSettle(app)).toEqual({
          status: 'ready',
          version: '0.2.0',
          restartQueued: false,
        });
        expect(pending(cache)).toHaveLength(1);
      } finally {
        await app.close();
      }
    }, 120_000);

    it('with no update server reachable, is quietly up to date as of the last check that got through, saying why', async () => {
      // A's own release is the latest: up to date.
      release = releaseOf(made!.a.releaseDir, 'v0.1.0');
      const { app } = await startA('offline');
      try {
        const first = await checkAndSettle(app);
        expect(first).toEqual({ status: 'idle', lastCheckedAt: expect.any(String) });
        // The server goes away (the student is offline): the port refuses.
        server.closeAllConnections();
        await new Promise((r) => server.close(r));
        const later = await checkAndSettle(app);
        expect(later).toEqual({
          status: 'idle',
          lastCheckedAt: (first as { lastCheckedAt: string }).lastCheckedAt,
          unreachable: {
            at: expect.any(String),
            reason: 'The update server could not be reached.',
          },
        });
      } finally {
        await app.close();
      }
    }, 120_000);
  },
);
