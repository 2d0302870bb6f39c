import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isCoreError } from '../../../electron/core/errors';
import type { SiteRecord } from '../../../electron/core/sites/site-store';
import { createSiteStore } from '../../../electron/core/sites/site-store';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ld-store-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const site = (id: string): SiteRecord => ({
  id,
  label: 'Demo',
  baseUrl: 'http://127.0.0.1:1',
  clientId: 'demo-desktop',
  confidential: false,
  isDemo: true,
  status: 'signed-out',
  schoolId: null,
  subdomain: null,
  profile: null,
  grantedScopes: [],
  missingScopes: [],
  metadata: null,
  addedAt: '2026-01-01T00:00:00.000Z',
});

describe('sites.json (non-secret config, atomic replace)', () => {
  it('an absent file is an empty list; saves round-trip; the last of concurrent saves wins; no temp files remain', async () => {
    const store = createSiteStore(dir);
    expect(await store.load()).toEqual([]);
    await Promise.all([store.save([site('a')]), store.save([site('a'), site('b')])]);
    expect((await store.load()).map((s) => s.id)).toEqual(['a', 'b']);
    expect((await readdir(dir)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    if (process.platform !== 'win32')
      expect((await stat(join(dir, 'sites.json'))).mode & 0o777).toBe(0o600);
  });

  it('a damaged file is a storage-error, not a silent reset', async () => {
    await writeFile(join(dir, 'sites.json'), JSON.stringify({ version: 1, sites: [{ id: 1 }] }));
    await expect(createSiteStore(dir).load()).rejects.toSatisfy((e) =>
      isCoreError(e, 'storage-error'),
    );
    await writeFile(join(dir, 'sites.json'), '{"version":1,"sites":[');
    await expect(createSiteStore(dir).load()).rejects.toSatisfy((e) =>
      isCoreError(e, 'storage-error'),
    );
  });
});
