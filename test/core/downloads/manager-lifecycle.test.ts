import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DownloadManager } from '../../../electron/core/downloads/manager';
import {
  managerFor,
  pdfLike,
  product,
  SITE,
  startFileServer,
  TOKEN,
  type FileServer,
} from '../helpers/file-server';
import type { DigitalProductView } from '../../../electron/common/view-models';
import { partialsIn, savedFilesIn, waitFor } from './helpers';

/**
 * The download manager over real HTTP on 127.0.0.1 (a real server, real files, the real token
 * manager), after the saving: the start-up clean-up, new versions of a file, access that ended,
 * removal, and serving a saved file.
 */
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

describe('start-up clean-up, updates, removal, serving', () => {
  it('removes leftovers at start: unnamed partial files, unnamed folders, and a saved file changed on disk', async () => {
    server.files.set('/f.pdf', { body: pdfLike(10_000) });
    products = [product('p1', `${server.origin}/f.pdf`)];
    const first = await open();
    await first.manager.save(SITE, 'p1');
    await first.manager.idle();
    await first.manager.close();
    managers.length = 0;
    writeFileSync(join(dir, 'downloads', '.partial', 'deadbeefdeadbeef.part'), 'half');
    const saved = savedFiles()[0]!.path;
    mkdirSync(join(saved, '..', '..', '0123456789abcdef'));
    writeFileSync(join(saved, '..', '..', '0123456789abcdef', 'half.pdf'), 'x');
    writeFileSync(saved, 'truncated');
    const { manager } = await open();
    expect(partials()).toEqual([]);
    expect(savedFiles()).toEqual([]);
    expect(manager.list(SITE)).toEqual([]);
  });

  it('offers a new version when the address changes, and keeps the old copy until the new one is complete', async () => {
    server.files.set('/v1.pdf', { body: pdfLike(10_000, 1) });
    server.files.set('/v2.pdf', { body: pdfLike(300_000, 2) });
    products = [product('p1', `${server.origin}/v1.pdf`)];
    const { manager } = await open();
    await manager.save(SITE, 'p1');
    await manager.idle();
    products = [product('p1', `${server.origin}/v2.pdf`)];
    await manager.afterSync(SITE);
    expect(manager.list(SITE)[0]).toMatchObject({ updateAvailable: true, saved: { size: 10_000 } });
    server.throttle = 16_384;
    await manager.save(SITE, 'p1');
    await waitFor(() => (manager.list(SITE)[0]?.job?.progress.bytes ?? 0) > 50_000);
    expect(manager.list(SITE)[0]).toMatchObject({
      saved: { size: 10_000 },
      job: { isUpdate: true, state: 'downloading' },
    });
    expect(savedFiles().map((f) => f.body.length)).toEqual([10_000]);
    await manager.idle();
    expect(manager.list(SITE)[0]).toMatchObject({
      updateAvailable: false,
      saved: { size: 300_000 },
      job: null,
    });
    expect(savedFiles().map((f) => f.body.length)).toEqual([300_000]);
  });

  it('offers a new version when the same address serves another file (a conditional HEAD after a sync)', async () => {
    server.files.set('/same.pdf', { body: pdfLike(10_000, 1) });
    server.files.set('/still.pdf', { body: pdfLike(10_000, 3) });
    products = [
      product('p1', `${server.origin}/same.pdf`),
      product('p2', `${server.origin}/still.pdf`),
    ];
    const { manager } = await open();
    await manager.save(SITE, 'p1');
    await manager.save(SITE, 'p2');
    await manager.idle();
    server.files.set('/same.pdf', { body: pdfLike(12_000, 2) });
    await manager.afterSync(SITE);
    expect(manager.list(SITE).map((v) => [v.productId, v.updateAvailable])).toEqual([
      ['p1', true],
      ['p2', false],
    ]);
    const heads = server.requests.filter((r) => r.headers['if-none-match'] !== undefined);
    expect(heads.map((r) => r.path).sort()).toEqual(['/same.pdf', '/still.pdf']);
    expect(heads.every((r) => r.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
    await manager.save(SITE, 'p1');
    await manager.idle();
    expect(manager.list(SITE)[0]).toMatchObject({
      updateAvailable: false,
      saved: { size: 12_000 },
    });
  });

  it('marks a file whose access ended, keeps it readable, and removes it when asked', async () => {
    server.files.set('/f.pdf', { body: pdfLike(10_000) });
    products = [product('p1', `${server.origin}/f.pdf`)];
    const { manager } = await open();
    await manager.save(SITE, 'p1');
    await manager.idle();
    products = [
      product('p1', `${server.origin}/f.pdf`, { expireDate: '2020-01-01T00:00:00.000Z' }),
    ];
    expect(manager.list(SITE)[0]).toMatchObject({ accessEnded: true, saved: { size: 10_000 } });
    await expect(manager.locate(SITE, 'p1')).resolves.toMatchObject({ viewAs: 'pdf' });
    await manager.remove(SITE, 'p1');
    expect(savedFiles()).toEqual([]);
    expect(manager.list(SITE)).toEqual([]);
  });

  it('keeps every product of a school offline when asked, and removing the site removes its files', async () => {
    server.files.set('/a.pdf', { body: pdfLike(1000) });
    server.files.set('/b.pdf', { body: pdfLike(2000) });
    products = [
      product('a', `${server.origin}/a.pdf`),
      product('b', `${server.origin}/b.pdf`),
      product('old', `${server.origin}/a.pdf`, { expireDate: '2020-01-01T00:00:00.000Z' }),
    ];
    const { manager } = await open();
    await manager.setKeepAll(SITE, true);
    await manager.idle();
    expect(manager.storage([SITE])).toMatchObject([{ siteId: SITE, keepAll: true, bytes: 3000 }]);
    await manager.removeSite(SITE, { forgetSetting: true });
    expect(savedFiles()).toEqual([]);
    expect(manager.storage([SITE])).toMatchObject([{ keepAll: false, bytes: 0, products: [] }]);
  });

  it('the products screen starts the transfer thread only where a product has a file to save', async () => {
    server.files.set('/a.pdf', { body: pdfLike(1000) });
    products = [product('none', null)];
    const { manager } = await open();
    // Nothing to save here (and a site the app does not know): no thread is started for it.
    expect(await manager.prepare(SITE)).toBe(false);
    expect(await manager.prepare('another-site')).toBe(false);
    products = [product('none', null), product('a', `${server.origin}/a.pdf`)];
    expect(await manager.prepare(SITE)).toBe(true);
    await manager.save(SITE, 'a');
    await manager.idle();
    expect(manager.list(SITE).find((p) => p.productId === 'a')).toMatchObject({
      saved: { size: 1000 },
    });
    await manager.close();
    // Closed: nothing starts again.
    expect(await manager.prepare(SITE)).toBe(false);
  });

  it('serves a saved file to the app with byte ranges, and nothing by another version or path', async () => {
    const body = pdfLike(5000);
    server.files.set('/f.pdf', { body });
    products = [product('p1', `${server.origin}/f.pdf`)];
    const { manager } = await open();
    await manager.save(SITE, 'p1');
    await manager.idle();
    const { url } = await manager.locate(SITE, 'p1');
    const whole = await manager.serve(url, 'GET', undefined);
    expect(whole).toMatchObject({
      status: 200,
      headers: {
        'Content-Type': 'application/pdf',
        'Content-Length': '5000',
        'X-Content-Type-Options': 'nosniff',
      },
    });
    const part = await manager.serve(url, 'GET', 'bytes=100-199');
    expect(part).toMatchObject({
      status: 206,
      headers: { 'Content-Range': 'bytes 100-199/5000' },
      body: { start: 100, end: 199 },
    });
    expect((await manager.serve(url, 'GET', 'bytes=9000-')).status).toBe(416);
    expect(
      (await manager.serve(url.replace(/\/[0-9a-f]{16}\//, '/0000000000000000/'), 'GET', undefined))
        .status,
    ).toBe(404);
    expect(
      (await manager.serve('/saved-files/site-1/../../etc/passwd', 'GET', undefined)).status,
    ).toBe(404);
    expect((await manager.serve(url, 'POST', undefined)).status).toBe(405);
  });
});
