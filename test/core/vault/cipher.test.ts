import { mkdtemp, readFile, rm, stat, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryCipher, createNodeCipher } from '../../../electron/core/vault/cipher';
import { isCoreError } from '../../../electron/core/errors';
import { createVault } from '../../../electron/core/vault/vault';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ld-cipher-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const text = (s: string) => new TextEncoder().encode(s);

describe('Node cipher: AES-256-GCM with a per-device key file (NIST SP 800-38D)', () => {
  it('round-trips, uses a fresh IV per record and never contains the plaintext', async () => {
    const cipher = await createNodeCipher(join(dir, 'vault.key'));
    const plain = text('refresh-token-value-xyz');
    const a = await cipher.encrypt(plain);
    const b = await cipher.encrypt(plain);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(false);
    expect(Buffer.from(a).subarray(1, 13).equals(Buffer.from(b).subarray(1, 13))).toBe(false);
    expect(Buffer.from(a).toString('latin1')).not.toContain('refresh-token-value-xyz');
    expect(new TextDecoder().decode(await cipher.decrypt(a))).toBe('refresh-token-value-xyz');
    expect(cipher).toMatchObject({
      backend: 'node-aes-256-gcm-keyfile',
      persistent: true,
      weak: false,
    });
  });

  it('detects tampering through the authentication tag', async () => {
    const cipher = await createNodeCipher(join(dir, 'vault.key'));
    const sealed = Buffer.from(await cipher.encrypt(text('hello')));
    sealed[sealed.length - 1] = (sealed[sealed.length - 1] as number) ^ 1;
    await expect(cipher.decrypt(sealed)).rejects.toSatisfy((e) => isCoreError(e, 'storage-error'));
  });

  it('creates the key file with mode 0600, reuses it, and tightens a loose mode at open', async () => {
    const keyFile = join(dir, 'sub', 'vault.key');
    const first = await createNodeCipher(keyFile);
    const key = await readFile(keyFile);
    expect(key.length).toBe(32);
    if (process.platform !== 'win32') expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    const sealed = await first.encrypt(text('persist'));
    if (process.platform !== 'win32') await chmod(keyFile, 0o644);
    const second = await createNodeCipher(keyFile);
    if (process.platform !== 'win32') expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    expect(new TextDecoder().decode(await second.decrypt(sealed))).toBe('persist');
  });

  it('an empty or damaged key file with no vault records counts as never created', async () => {
    for (const damaged of [Buffer.alloc(0), Buffer.alloc(7)]) {
      const keyFile = join(dir, `vault-${damaged.length}.key`);
      await writeFile(keyFile, damaged, { mode: 0o600 });
      const cipher = await createNodeCipher(keyFile, { recordsDir: join(dir, 'no-records') });
      expect(cipher.keyReplaced).toBe(false);
      expect((await readFile(keyFile)).length).toBe(32);
      expect(
        new TextDecoder().decode(await cipher.decrypt(await cipher.encrypt(text('works')))),
      ).toBe('works');
      // The replacement is the key from now on.
      const again = await createNodeCipher(keyFile, { recordsDir: join(dir, 'no-records') });
      expect(
        new TextDecoder().decode(await again.decrypt(await cipher.encrypt(text('same')))),
      ).toBe('same');
    }
  });

  it('an empty key file with vault records: a new key, keyReplaced, and the old records read as storage-error', async () => {
    const keyFile = join(dir, 'vault.key');
    const first = await createNodeCipher(keyFile);
    const vault = createVault({ dir: join(dir, 'vault'), cipher: first });
    await vault.put('siteA', {
      clientId: 'c',
      clientSecret: null,
      accessToken: 'a',
      refreshToken: 'r',
      expiresAt: null,
      scopes: [],
      schoolId: 's',
      schoolSubdomain: null,
      resource: null,
      issuer: null,
    });
    await writeFile(keyFile, Buffer.alloc(0));
    const second = await createNodeCipher(keyFile);
    expect(second.keyReplaced).toBe(true);
    await expect(
      createVault({ dir: join(dir, 'vault'), cipher: second }).get('siteA'),
    ).rejects.toSatisfy((e) => isCoreError(e, 'storage-error'));
    expect((await createNodeCipher(keyFile)).keyReplaced).toBe(false);
  });

  it('a different key cannot read the records of another device', async () => {
    const a = await createNodeCipher(join(dir, 'a.key'));
    const b = await createNodeCipher(join(dir, 'b.key'));
    await expect(b.decrypt(await a.encrypt(text('x')))).rejects.toSatisfy((e) =>
      isCoreError(e, 'storage-error'),
    );
  });
});

describe('memory-only cipher', () => {
  it('is marked non-persistent and round-trips', async () => {
    const c = createMemoryCipher();
    expect(c).toMatchObject({ backend: 'memory-only', persistent: false });
    expect(new TextDecoder().decode(await c.decrypt(await c.encrypt(text('m'))))).toBe('m');
  });
});
