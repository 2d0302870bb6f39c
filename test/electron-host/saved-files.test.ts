import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenOutcome, ProductOfflineView } from '../../electron/common/downloads';
import type { SiteSummary } from '../../electron/common/view-models';
import { ensureBuiltApp } from '../helpers/built-app';
import { serveBundle, type ServedBundle } from '../helpers/electron-stand-in';
import { runAuthorization } from '../helpers/scripted-browser';

/**
 * Purchased files opened inside the installed app: the built main bundle (out/main/index.js) under
 * the stand-in `electron` module, its own app:// handler answering the window's requests for
 * /saved-files/... The demo is signed in through "the system browser" (a scripted one, over real
 * HTTP), synced, and a PDF and an audio file are saved by the real download manager; then each is
 * asked for the way Chromium's PDF viewer and an <audio> element ask: a whole GET and byte ranges.
 */
const buildError = ensureBuiltApp();
let work: string;
let app: ServedBundle;
let site: SiteSummary;
const opened: Record<string, OpenOutcome> = {};

async function value<T>(
  promise: Promise<{ ok: boolean; value?: T; error?: { code: string; message: string } }>,
): Promise<T> {
  const r = await promise;
  if (!r.ok) throw new Error(`${r.error?.code}: ${r.error?.message}`);
  return r.value as T;
}

/**
 * The sign-in's browser tab: the main process asks the OS to open the authorize URL, the script
 * signs in there.
 */
async function signIn(siteId: string): Promise<void> {
  const done = value(app.call('sites:sign-in', { siteId }));
  // The stand-in window's own link probes reach the system browser too; the sign-in's is on the
  // site.
  for (let i = 0; i < 20; i++) {
    const external = (await app.next()).find(
      (m) => m.type === 'external' && m.url.startsWith(site.baseUrl),
    );
    if (external?.type === 'external') {
      const redirect = new URL(external.url).searchParams.get('redirect_uri')!;
      await (await fetch(await runAuthorization(external.url, { stopAt: redirect }))).text();
      await done;
      return;
    }
  }
  throw new Error('the sign-in opened no browser');
}

async function save(productId: string): Promise<void> {
  await value(app.call('downloads:save', { siteId: site.id, productId }));
  for (let i = 0; i < 600; i++) {
    const view = (
      await value<ProductOfflineView[]>(app.call('downloads:list', { siteId: site.id }))
    ).find((v) => v.productId === productId);
    if (view?.saved) return;
    if (view?.job?.state === 'failed')
      throw new Error(`saving ${productId} failed: ${view.job.error?.message}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${productId} was not saved`);
}

beforeAll(async () => {
  if (buildError) return;
  work = mkdtempSync(join(tmpdir(), 'ld-saved-files-'));
  app = await serveBundle(work, resolve('out/main/index.js'), {
    FAKE_USER_DATA: join(work, 'userData'),
  });
  for (let i = 0; i < 200; i++) {
    const sites = await value<SiteSummary[]>(app.call('sites:list'));
    if (sites.length === 2) {
      site = sites[0]!;
      break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  await signIn(site.id);
  await value(app.call('sync:now', { siteId: site.id }));
  for (const productId of ['dlv_sql_cheatsheet', 'dlv_listening_drills']) {
    await save(productId);
    opened[productId] = await value<OpenOutcome>(
      app.call('downloads:open', { siteId: site.id, productId }),
    );
  }
}, 120_000);

afterAll(async () => {
  await app?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Where the page resolves the file's URL: against its own origin, app://learning-desktop/. */
const appUrl = (outcome: OpenOutcome) => {
  if (outcome.kind !== 'view') throw new Error(`not viewed inside the app: ${outcome.kind}`);
  return new URL(outcome.url, 'app://learning-desktop/index.html').href;
};

describe('saved files through the built main bundle’s app:// handler', () => {
  it('was built, and both files open inside the app', () => {
    expect(buildError).toBeNull();
    expect(opened['dlv_sql_cheatsheet']).toMatchObject({ kind: 'view', viewAs: 'pdf' });
    expect(opened['dlv_listening_drills']).toMatchObject({ kind: 'view', viewAs: 'audio' });
  });

  it('serves the PDF whole, inline, with ranges offered', async () => {
    const r = await app.scheme(appUrl(opened['dlv_sql_cheatsheet']!));
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/pdf');
    expect(r.headers['accept-ranges']).toBe('bytes');
    expect(r.headers['content-disposition']).toMatch(/^inline;/);
    expect(r.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(Number(r.headers['content-length'])).toBe(r.body.length);
  });

  it('answers a Range request for the PDF with 206 and exactly those bytes', async () => {
    const whole = await app.scheme(appUrl(opened['dlv_sql_cheatsheet']!));
    const r = await app.scheme(appUrl(opened['dlv_sql_cheatsheet']!), { range: 'bytes=0-4' });
    expect(r.status).toBe(206);
    expect(r.headers['content-range']).toBe(`bytes 0-4/${whole.body.length}`);
    expect(r.body.toString('latin1')).toBe('%PDF-');
  });

  it('answers an <audio> element’s seeks: an open range, a suffix range, and one past the end', async () => {
    const url = appUrl(opened['dlv_listening_drills']!);
    const head = await app.scheme(url, { range: 'bytes=0-11' });
    expect(head.status).toBe(206);
    expect(head.headers['content-type']).toMatch(/^audio\//);
    expect(head.body.toString('latin1', 0, 4)).toBe('RIFF');
    expect(head.body.toString('latin1', 8, 12)).toBe('WAVE');
    const size = Number(head.headers['content-range']!.split('/')[1]);
    const tail = await app.scheme(url, { range: 'bytes=100-' });
    expect(tail.status).toBe(206);
    expect(tail.headers['content-range']).toBe(`bytes 100-${size - 1}/${size}`);
    expect(tail.body.length).toBe(size - 100);
    const last = await app.scheme(url, { range: 'bytes=-16' });
    expect(last.body.equals(tail.body.subarray(tail.body.length - 16))).toBe(true);
    expect((await app.scheme(url, { range: `bytes=${size}-` })).status).toBe(416);
  });

  it('serves saved files on the app’s own host only, and GET or HEAD only', async () => {
    const url = new URL(appUrl(opened['dlv_sql_cheatsheet']!));
    expect(
      (await app.scheme(url.href.replace('app://learning-desktop/', 'app://elsewhere/'))).status,
    ).toBe(403);
    const head = await app.scheme(url.href, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect((await app.scheme(url.href, { method: 'POST' })).status).toBe(405);
  });
});
