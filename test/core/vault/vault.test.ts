import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryCipher, createNodeCipher } from '../../../electron/core/vault/cipher';
import type { SiteSecrets } from '../../../electron/core/vault/vault';
import { createVault, listVaultFiles } from '../../../electron/core/vault/vault';
import { isCoreError } from '../../../electron/core/errors';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ld-vault-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const record = (n: number): SiteSecrets => ({
  clientId: 'demo-desktop-confidential',
  clientSecret: `client-secret-${n}-XYZ`,
  accessToken: `at_access-token-${n}-ABCDEFG`,
  refreshToken: `rt_refresh-token-${n}-HIJKLMN`,
  expiresAt: 1_900_000_000_000,
  scopes: ['openid', 'account:read'],
  schoolId: 'sch_demo',
  schoolSubdomain: 'demo',
  resource: 'http://127.0.0.1:1234',
  issuer: 'http://127.0.0.1:1234',
});

describe('vault: encrypted per-site records', () => {
  it('stores, reads back, replaces and deletes one record per site', async () => {
    const vault = createVault({
      dir: join(dir, 'vault'),
      cipher: await createNodeCipher(join(dir, 'key')),
    });
    await vault.put('siteA', record(1));
    await vault.put('siteB', record(2));
    expect(await vault.get('siteA')).toEqual(record(1));
    await vault.put('siteA', record(3));
    expect(await vault.get('siteA')).toEqual(record(3));
    await vault.delete('siteA');
    expect(await vault.get('siteA')).toBeNull();
    expect(await vault.get('siteB')).toEqual(record(2));
  });

  it('never writes a token or secret in plain text, and leaves no temp files (atomic replace)', async () => {
    const vdir = join(dir, 'vault');
    const vault = createVault({ dir: vdir, cipher: await createNodeCipher(join(dir, 'key')) });
    await Promise.all([
      vault.put('siteA', record(1)),
      vault.put('siteA', record(2)),
      vault.put('siteB', record(3)),
    ]);
    await vault.addPendingRevocation({
      siteId: 'siteA',
      revocationEndpoint: 'http://x/revoke',
      token: 'rt_pending-secret-QQQ',
      tokenTypeHint: 'refresh_token',
      clientId: 'c',
      clientSecret: 'pending-client-secret-RRR',
      queuedAt: 1,
    });
    const names = await readdir(vdir);
    expect(names.filter((n) => n.endsWith('.tmp'))).toEqual([]);
    const files = await listVaultFiles(vdir);
    expect(files.length).toBe(3);
    for (const file of files) {
      const raw = (await readFile(file)).toString('latin1');
      for (const needle of [
        'access-token',
        'refresh-token',
        'client-secret',
        'pending-secret',
        'pending-client-secret',
        'sch_demo',
      ]) {
        expect(raw).not.toContain(needle);
      }
    }
    expect(await vault.get('siteA')).toEqual(record(2));
  });

  it('keeps a durable queue of pending revocations', async () => {
    const cipher = await createNodeCipher(join(dir, 'key'));
    const vault = createVault({ dir: join(dir, 'vault'), cipher });
    const e1 = await vault.addPendingRevocation({
      siteId: 's',
      revocationEndpoint: 'http://x/revoke',
      token: 't1',
      tokenTypeHint: 'refresh_token',
      clientId: 'c',
      clientSecret: null,
      queuedAt: 1,
    });
    await vault.addPendingRevocation({
      siteId: 's',
      revocationEndpoint: 'http://x/revoke',
      token: 't2',
      tokenTypeHint: 'refresh_token',
      clientId: 'c',
      clientSecret: null,
      queuedAt: 2,
    });
    // A new vault over the same directory (an app restart) sees the queue.
    const again = createVault({ dir: join(dir, 'vault'), cipher });
    expect((await again.listPendingRevocations()).map((e) => e.token)).toEqual(['t1', 't2']);
    await again.removePendingRevocation(e1.id);
    expect((await vault.listPendingRevocations()).map((e) => e.token)).toEqual(['t2']);
  });

  it('memory-only mode writes nothing to disk', async () => {
    const vdir = join(dir, 'vault');
    const vault = createVault({ dir: vdir, cipher: createMemoryCipher() });
    await vault.put('siteA', record(1));
    expect(await vault.get('siteA')).toEqual(record(1));
    expect(vault.persistent).toBe(false);
    await expect(readdir(vdir)).rejects.toThrow();
  });

  it('refuses site ids that could escape the vault directory', async () => {
    const vault = createVault({ dir: join(dir, 'vault'), cipher: createMemoryCipher() });
    await expect(vault.put('../evil', record(1))).rejects.toSatisfy((e) =>
      isCoreError(e, 'invalid-input'),
    );
  });
});

describe('vault: temp files left by a crash', () => {
  it('removes stale .site-*.vault.*.tmp files when it opens, keeps the records and a write in progress', async () => {
    const vdir = join(dir, 'vault');
    const cipher = await createNodeCipher(join(dir, 'key'));
    const first = createVault({ dir: vdir, cipher });
    await first.put('siteA', record(1));
    // What a process killed between writing and renaming leaves: a full encrypted copy under a temp
    // name.
    const sealed = await readFile(join(vdir, 'site-siteA.vault'));
    const stale = [
      '.site-siteA.vault.0123456789ab.tmp',
      '.site-siteB.vault.ba9876543210.tmp',
      '.revocations.vault.aaaaaaaaaaaa.tmp',
    ];
    for (const name of stale) await writeFile(join(vdir, name), sealed, { mode: 0o600 });
    // A write of this process is in progress while another vault object opens on the directory.
    let written = false;
    const writing = first.put('siteC', record(3)).finally(() => (written = true));
    let reopened = createVault({ dir: vdir, cipher });
    while (!written) {
      await new Promise((r) => setImmediate(r));
      reopened = createVault({ dir: vdir, cipher });
    }
    await writing;
    expect((await readdir(vdir)).sort()).toEqual(['site-siteA.vault', 'site-siteC.vault']);
    expect(await reopened.get('siteA')).toEqual(record(1));
    expect(await reopened.get('siteC')).toEqual(record(3));
  });
});
