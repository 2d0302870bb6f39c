import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProductOfflineView } from '../../../electron/common/downloads';
import type { SiteSummary } from '../../../electron/common/view-models';
import type { AppCore } from '../../../electron/core/app-core';
import { createEmbeddedServer, type EmbeddedServer } from '../../../embedded-server/index';
import { createTestCore, systemBrowser, invoke, caller, valueOf } from '../../helpers/test-core';

/**
 * The downloads:* channels through the real composition root: a real embedded site serving the
 * demo's product files, a signed-in member, the offline data the product list comes from; and what
 * removing the site or signing out with "remove my data" does to the saved files.
 */
describe('app core: purchased files kept offline', () => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });

  async function signedIn(
    showItemInFolder?: (path: string) => void,
  ): Promise<{ core: AppCore; site: SiteSummary; dataDir: string; server: EmbeddedServer }> {
    const server = await createEmbeddedServer({ port: 0, seed: 'demo', site: 'demo' });
    const dataDir = mkdtempSync(join(tmpdir(), 'ld-core-downloads-'));
    const core = await createTestCore({
      dataDir,
      signInTimeoutMs: 20_000,
      openExternal: systemBrowser(() => ({ decision: 'approve' })),
      ...(showItemInFolder ? { showItemInFolder } : {}),
    });
    cleanup.push(
      () => server.close(),
      () => core.close(),
      () => rmSync(dataDir, { recursive: true, force: true }),
    );
    const call = caller(core.handlers);
    const site = valueOf(
      await call('sites:add', { baseUrl: server.url, clientId: 'demo-desktop' }),
    );
    valueOf(await call('sites:sign-in', { siteId: site.id }));
    valueOf(await call('sync:now', { siteId: site.id }));
    return { core, site, dataDir, server };
  }

  async function saved(
    core: AppCore,
    siteId: string,
    productId: string,
  ): Promise<ProductOfflineView> {
    valueOf(await invoke(core.handlers, 'downloads:save', { siteId, productId }));
    for (let i = 0; i < 500; i++) {
      const view = valueOf(await invoke(core.handlers, 'downloads:list', { siteId })).find(
        (v) => v.productId === productId,
      );
      if (view?.saved || view?.job?.state === 'failed') return view;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error('not saved in time');
  }

  const savedFolders = (dataDir: string) =>
    readdirSync(join(dataDir, 'downloads')).filter((n) => n.startsWith('s-'));

  it('saves a product from the offline data, opens it with the site stopped, and signing out with "remove my data" deletes it', async () => {
    const { core, site, dataDir, server } = await signedIn();
    const pdf = await saved(core, site.id, 'dlv_sql_cheatsheet');
    expect(pdf.saved).toMatchObject({ name: 'sql-cheat-sheet.pdf', viewAs: 'pdf' });
    // The address never comes from the page: an unknown product id is refused, whatever the page
    // sends.
    expect(
      (
        await invoke(core.handlers, 'downloads:save', {
          siteId: site.id,
          productId: 'dgp_not_mine',
        })
      ).ok,
    ).toBe(false);
    // An ended access: no new download.
    const ended = await invoke(core.handlers, 'downloads:save', {
      siteId: site.id,
      productId: 'dlv_focus_audio',
    });
    expect(ended.ok ? null : ended.error.code).toBe('forbidden');

    await server.close();
    const opened = valueOf(
      await invoke(core.handlers, 'downloads:open', {
        siteId: site.id,
        productId: 'dlv_sql_cheatsheet',
      }),
    );
    expect(opened).toMatchObject({ kind: 'view', viewAs: 'pdf' });
    const answer = await core.serveSavedFile((opened as { url: string }).url, 'GET', 'bytes=0-4');
    expect(answer).toMatchObject({
      status: 206,
      headers: {
        'Content-Type': 'application/pdf',
        'Content-Range': expect.stringMatching(/^bytes 0-4\/\d+$/),
      },
    });

    expect(savedFolders(dataDir)).toHaveLength(1);
    valueOf(await invoke(core.handlers, 'sites:sign-out', { siteId: site.id, removeData: true }));
    expect(savedFolders(dataDir)).toEqual([]);
    expect(valueOf(await invoke(core.handlers, 'downloads:storage', undefined))).toMatchObject([
      { siteId: site.id, bytes: 0, products: [] },
    ]);
  });

  it('keeps every product of the school offline when asked (not the ended one), and removing the site deletes its files', async () => {
    const shown: string[] = [];
    const { core, site, dataDir } = await signedIn((path) => void shown.push(path));
    await saved(core, site.id, 'dlv_grammar_poster');
    expect(
      valueOf(
        await invoke(core.handlers, 'downloads:open', {
          siteId: site.id,
          productId: 'dlv_grammar_poster',
        }),
      ),
    ).toMatchObject({
      kind: 'view',
      viewAs: 'image',
    });
    valueOf(
      await invoke(core.handlers, 'downloads:set-keep-all', { siteId: site.id, keepAll: true }),
    );
    for (let i = 0; i < 500; i++) {
      const storage = valueOf(await invoke(core.handlers, 'downloads:storage', undefined));
      if (storage[0]!.products.filter((p) => p.saved).length === 3) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const storage = valueOf(await invoke(core.handlers, 'downloads:storage', undefined));
    // Every delivered product with a file and a running access: the PDF, the WAV and the PNG (not
    // the ended audio).
    expect(storage[0]).toMatchObject({ keepAll: true });
    expect(storage[0]!.products.map((p) => p.productId).sort()).toEqual([
      'dlv_grammar_poster',
      'dlv_listening_drills',
      'dlv_sql_cheatsheet',
    ]);
    valueOf(await invoke(core.handlers, 'sites:remove', { siteId: site.id }));
    expect(savedFolders(dataDir)).toEqual([]);
    expect(existsSync(join(dataDir, 'downloads', 'downloads.json'))).toBe(true);
    expect(shown).toEqual([]);
  });
});
