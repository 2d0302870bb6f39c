import { fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import type { DownloadManager } from '../../../electron/core/downloads/manager';
import { createDownloadHandlers } from '../../../electron/core/handlers/downloads';
import {
  managerFor,
  pdfLike,
  product,
  SITE,
  startFileServer,
  TOKEN,
  type FileServer,
} from '../helpers/file-server';
import { partialsIn, savedFilesIn, waitFor } from './helpers';
import type { DigitalProductView } from '../../../electron/common/view-models';

/**
 * The download manager over real HTTP on 127.0.0.1 (a real server, real files, the real token
 * manager): saving, resuming after a cut, a pause, a restart and a kill -9, a file that changed,
 * refusals, the atomic placement and the start-up clean-up.
 */
const CHILD = fileURLToPath(new URL('../helpers/download-child.ts', import.meta.url));
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let dir: string;
let server: FileServer;
let products: DigitalProductView[];
const managers: DownloadManager[] = [];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ld-downloads-'));
  server = await startFileServer();
  products = [];
});
afterEach(async () => {
  for (const m of managers.splice(0)) await m.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function open(overrides: Parameters<typeof managerFor>[3] = {}) {
  const made = await managerFor(dir, server.origin, () => products, overrides);
  managers.push(made.manager);
  return made;
}

const savedFiles = () => savedFilesIn(dir);
const partials = () => partialsIn(dir);

describe('saving a product file', () => {
  it('downloads it complete into its own folder, with the token sent to the site, and says so', async () => {
    const body = pdfLike(300_000);
    server.files.set('/f/cheatsheet.pdf', { body, digest: 'right' });
    server.token = TOKEN;
    products = [product('p1', `${server.origin}/f/cheatsheet.pdf`)];
    const { manager } = await open();
    await manager.save(SITE, 'p1');
    await manager.idle();
    const [view] = manager.list(SITE);
    expect(view?.saved).toMatchObject({ name: 'cheatsheet.pdf', size: body.length, viewAs: 'pdf' });
    expect(view?.job).toBeNull();
    const files = savedFiles();
    expect(files).toHaveLength(1);
    expect(sha(files[0]!.body)).toBe(sha(body));
    expect(partials()).toEqual([]);
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    const located = await manager.locate(SITE, 'p1');
    expect(located.url).toMatch(/^\/saved-files\/site-1\/p1\/[0-9a-f]{16}\/cheatsheet\.pdf$/);
  });

  it('never sends the token to another origin, nor after a redirect leaves the site', async () => {
    const other = await startFileServer();
    onTestFinished(() => other.close());
    other.files.set('/cdn/a.pdf', { body: pdfLike(1000) });
    other.files.set('/cdn/b.pdf', { body: pdfLike(2000) });
    server.redirects.set('/go', `${other.origin}/cdn/b.pdf`);
    products = [product('p1', `${other.origin}/cdn/a.pdf`), product('p2', `${server.origin}/go`)];
    const { manager } = await open();
    await manager.save(SITE, 'p1');
    await manager.save(SITE, 'p2');
    await manager.idle();
    expect(manager.list(SITE).map((v) => v.saved?.size)).toEqual([1000, 2000]);
    expect(server.requests.find((r) => r.path === '/go')?.headers.authorization).toBe(
      `Bearer ${TOKEN}`,
    );
    expect(other.requests.map((r) => r.headers.authorization)).toEqual([undefined, undefined]);
  });

  it('refuses hostile addresses before any request, and redirects to them', async () => {
    products = [
      product('http', 'http://example.com/file.pdf'),
      product('creds', `http://user:pass@127.0.0.1:1/file.pdf`),
      product('js', 'javascript:alert(1)'),
      product('file', 'file:///etc/passwd'),
      product('redirect', `${server.origin}/r`),
    ];
    server.redirects.set('/r', 'http://example.com/x.pdf');
    const { manager } = await open();
    for (const id of ['http', 'creds', 'js', 'file'])
      await expect(manager.save(SITE, id)).rejects.toMatchObject({ code: 'forbidden' });
    await manager.save(SITE, 'redirect');
    await manager.idle();
    const view = manager.list(SITE).find((v) => v.productId === 'redirect');
    expect(view?.job?.state).toBe('failed');
    expect(view?.job?.error?.message).toMatch(/not secure/);
    expect(view?.saved).toBeNull();
    expect(server.requests.map((r) => r.path)).toEqual(['/r']);
  });

  it('sanitises the name the site suggests: no folders, no executable hiding behind a double extension', async () => {
    server.files.set('/x', {
      body: Buffer.from('MZ...'),
      disposition: 'attachment; filename="../../notes.pdf.exe"',
    });
    server.files.set('/y', {
      body: Buffer.from('hello'),
      disposition: "attachment; filename*=UTF-8''%E2%80%AEfdp.txt",
    });
    server.files.set('/z', {
      body: Buffer.from('hello'),
      disposition: 'attachment; filename="CON.txt"',
    });
    products = [
      product('x', `${server.origin}/x`),
      product('y', `${server.origin}/y`),
      product('z', `${server.origin}/z`),
    ];
    const { manager } = await open();
    for (const id of ['x', 'y', 'z']) await manager.save(SITE, id);
    await manager.idle();
    expect(manager.list(SITE).map((v) => v.saved?.name)).toEqual([
      'notes.pdf.exe.download',
      'fdp.txt.download',
      '_CON.txt.download',
    ]);
    for (const f of savedFiles())
      expect(f.path.startsWith(join(dir, 'downloads', 's-'))).toBe(true);
    // Not an inline type: never served to the page (shown in its folder instead).
    const located = await manager.locate(SITE, 'x');
    expect(located.viewAs).toBeNull();
    expect((await manager.serve(located.url, 'GET', undefined)).status).toBe(403);
  });

  it('opens a type the app does not show inside it in its folder (Electron), or says where it is (browser host); never runs it', async () => {
    server.files.set('/t.zip', { body: Buffer.from('PK\x03\x04 zip bytes') });
    products = [product('z', `${server.origin}/t.zip`)];
    const { manager } = await open();
    await manager.save(SITE, 'z');
    await manager.idle();
    const shown: string[] = [];
    const deps = { manager, requireSite: () => undefined, siteIds: () => [SITE] };
    const electron = createDownloadHandlers({
      ...deps,
      showInFolder: (path) => void shown.push(path),
    });
    const opened = await electron['downloads:open']({ siteId: SITE, productId: 'z' });
    expect(opened).toMatchObject({
      kind: 'shown-in-folder',
      path: expect.stringMatching(/t\.zip\.download$/),
    });
    expect(shown).toHaveLength(1);
    const browser = createDownloadHandlers({ ...deps, showInFolder: null });
    expect(await browser['downloads:open']({ siteId: SITE, productId: 'z' })).toMatchObject({
      kind: 'located',
    });
  });

  it('answers 404 and 410 at once, without retrying, and keeps nothing', async () => {
    products = [product('gone', `${server.origin}/gone.pdf`)];
    server.status = 410;
    const { manager } = await open();
    await manager.save(SITE, 'gone');
    await manager.idle();
    const [view] = manager.list(SITE);
    expect(view?.job).toMatchObject({ state: 'failed', error: { code: 'not-found' } });
    expect(view?.job?.error?.message).toMatch(/withdrawn/);
    expect(server.requests).toHaveLength(1);
    expect(savedFiles()).toEqual([]);
  });
});

describe('resuming', () => {
  it('resumes a cut connection with Range + If-Range and ends with the exact file', async () => {
    const body = pdfLike(500_000);
    server.files.set('/f.pdf', { body, digest: 'right' });
    server.cutAfter = { bytes: 200_000, times: 2 };
    products = [product('p1', `${server.origin}/f.pdf`)];
    const { manager } = await open();
    await manager.save(SITE, 'p1');
    await manager.idle();
    expect(manager.list(SITE)[0]?.saved?.size).toBe(body.length);
    expect(sha(savedFiles()[0]!.body)).toBe(sha(body));
    const ranges = server.requests.map((r) => r.headers.range ?? null);
    expect(ranges[0]).toBeNull();
    // Each retry asks for what is missing (from what was made durable), under the file's ETag.
    expect(ranges.slice(1).every((r) => r !== null && /^bytes=\d+-$/.test(r))).toBe(true);
    expect(server.requests[1]?.headers['if-range']).toMatch(/^"/);
  });

  it('starts again from 0 when the file changed between two tries (If-Range no longer matches)', async () => {
    const before = pdfLike(400_000, 1);
    const after = pdfLike(450_000, 2);
    server.files.set('/f.pdf', { body: before });
    server.cutAfter = { bytes: 150_000, times: 1 };
    products = [product('p1', `${server.origin}/f.pdf`)];
    const { manager } = await open({ retryDelaysMs: [300] });
    await manager.save(SITE, 'p1');
    await new Promise((r) => setTimeout(r, 100));
    server.files.set('/f.pdf', { body: after });
    await manager.idle();
    expect(sha(savedFiles()[0]!.body)).toBe(sha(after));
    expect(server.requests[1]?.headers.range).toMatch(/^bytes=/);
  });

  it('pauses, keeps the partial file, and resumes from it', async () => {
    const body = pdfLike(600_000);
    server.files.set('/f.pdf', { body });
    server.throttle = 16_384;
    products = [product('p1', `${server.origin}/f.pdf`)];
    const { manager } = await open();
    await manager.save(SITE, 'p1');
    await waitFor(() => (manager.list(SITE)[0]?.job?.progress.bytes ?? 0) > 100_000);
    const paused = await manager.pause(SITE, 'p1');
    expect(paused.job?.state).toBe('paused');
    expect(partials()).toHaveLength(1);
    server.throttle = null;
    await manager.resume(SITE, 'p1');
    await manager.idle();
    expect(sha(savedFiles()[0]!.body)).toBe(sha(body));
    expect(server.requests[1]?.headers.range).toMatch(/^bytes=[1-9]\d*-$/);
  });

  it('resumes after the process was killed (kill -9) mid-download, and shows nothing as saved before it is complete', async () => {
    const body = pdfLike(2_000_000);
    server.files.set('/big.pdf', { body, digest: 'right' });
    server.throttle = 8192;
    const child = fork(CHILD, [dir, server.origin, '/big.pdf'], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    await new Promise<void>((resolve, reject) => {
      child.on('message', (m: { bytes: number }) => {
        if (m.bytes > 400_000) resolve();
      });
      child.on('exit', () => reject(new Error('child exited early')));
    });
    // Past two durable marks (50 ms apart in the child), then SIGKILL: no chance to write anything
    // more.
    await new Promise((r) => setTimeout(r, 150));
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    server.throttle = null;
    expect(savedFiles()).toEqual([]);
    products = [product('p1', `${server.origin}/big.pdf`)];
    const { manager } = await open();
    const before = manager.list(SITE)[0];
    expect(before?.saved).toBeNull();
    await manager.idle();
    expect(sha(savedFiles()[0]!.body)).toBe(sha(body));
    const resumed = server.requests[server.requests.length - 1]!;
    expect(resumed.headers.range).toMatch(/^bytes=[1-9]\d*-$/);
  });

  it('a transfer that gave up for the network starts again when the network is back, from where it stopped', async () => {
    const body = pdfLike(600_000);
    server.files.set('/f.pdf', { body });
    server.cutAfter = { bytes: 100_000, times: 4 };
    products = [product('p1', `${server.origin}/f.pdf`)];
    const { manager } = await open();
    await manager.save(SITE, 'p1');
    await manager.idle();
    expect(manager.list(SITE)[0]?.job).toMatchObject({
      state: 'failed',
      error: { code: 'site-unreachable' },
    });
    manager.networkBack();
    await manager.idle();
    expect(sha(savedFiles()[0]!.body)).toBe(sha(body));
    expect(server.requests[server.requests.length - 1]?.headers.range).toMatch(/^bytes=[1-9]/);
  });
});

describe('limits and checks', () => {
  it('asks before a file above the threshold, and saves it once the student says yes', async () => {
    server.files.set('/f.pdf', { body: pdfLike(50_000) });
    products = [product('p1', `${server.origin}/f.pdf`)];
    const { manager } = await open({ askAboveBytes: 10_000 });
    await manager.save(SITE, 'p1');
    await manager.idle();
    expect(manager.list(SITE)[0]?.job).toMatchObject({
      state: 'needs-confirmation',
      progress: { total: 50_000 },
    });
    expect(savedFiles()).toEqual([]);
    await manager.save(SITE, 'p1', { confirmLarge: true });
    await manager.idle();
    expect(manager.list(SITE)[0]?.saved?.size).toBe(50_000);
  });

  it('refuses a file above the hard limit', async () => {
    server.files.set('/f.pdf', { body: pdfLike(50_000) });
    products = [product('p1', `${server.origin}/f.pdf`)];
    const { manager } = await open({ maxBytes: 10_000 });
    await manager.save(SITE, 'p1');
    await manager.idle();
    expect(manager.list(SITE)[0]?.job).toMatchObject({
      state: 'failed',
      error: { code: 'forbidden' },
    });
  });

  it('never presents a file whose digest does not match: it retries, then fails, keeping nothing', async () => {
    server.files.set('/f.pdf', { body: pdfLike(20_000), digest: 'wrong' });
    products = [product('p1', `${server.origin}/f.pdf`)];
    const { manager } = await open();
    await manager.save(SITE, 'p1');
    await manager.idle();
    const [view] = manager.list(SITE);
    expect(view?.saved).toBeNull();
    expect(view?.job).toMatchObject({ state: 'failed' });
    expect(view?.job?.error?.message).toMatch(/checksum/);
    expect(savedFiles()).toEqual([]);
    expect(server.requests).toHaveLength(4);
  });

  it('cancel removes the partial file and the record', async () => {
    server.files.set('/f.pdf', { body: pdfLike(600_000) });
    server.throttle = 8192;
    products = [product('p1', `${server.origin}/f.pdf`)];
    const { manager } = await open();
    await manager.save(SITE, 'p1');
    await waitFor(() => (manager.list(SITE)[0]?.job?.progress.bytes ?? 0) > 50_000);
    await manager.cancel(SITE, 'p1');
    expect(manager.list(SITE)).toEqual([]);
    expect(partials()).toEqual([]);
  });
});
