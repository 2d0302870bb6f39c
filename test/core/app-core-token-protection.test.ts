import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmbeddedServer } from '../../embedded-server/index';
import { isCoreError } from '../../electron/core/errors';
import { cipherFromSafeStorage, type SafeStorageLike } from '../../electron/main/token-protection';
import { createHarness } from './auth/helpers/harness';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/**
 * The Electron host's token-protection policy, in plain Node. `safeStorage` is stood in for by a
 * real AES-GCM cipher with a per-test key (what the OS keychain does for Electron), reporting a
 * chosen backend.
 */
function storage(backend: string, available = true): SafeStorageLike {
  const key = randomBytes(32);
  return {
    isEncryptionAvailable: () => available,
    getSelectedStorageBackend: () => backend,
    encryptString(text) {
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([c.update(text, 'utf8'), c.final()]);
      return Buffer.concat([iv, c.getAuthTag(), body]);
    },
    decryptString(data) {
      const d = createDecipheriv('aes-256-gcm', key, data.subarray(0, 12));
      d.setAuthTag(data.subarray(12, 28));
      return Buffer.concat([d.update(data.subarray(28)), d.final()]).toString('utf8');
    },
  };
}

describe('Electron token protection (safeStorage policy)', () => {
  it('uses a Linux keyring as strong, persistent protection, and round-trips any bytes', async () => {
    const cipher = cipherFromSafeStorage(storage('gnome_libsecret'), {
      platform: 'linux',
      allowWeakTokenStorage: false,
    });
    expect(cipher).toMatchObject({ backend: 'gnome_libsecret', persistent: true, weak: false });
    const bytes = Uint8Array.from([0, 255, 1, 128, 10, 13]);
    const sealed = await cipher.encrypt(bytes);
    expect(Buffer.from(sealed).includes(Buffer.from(bytes))).toBe(false);
    expect([...(await cipher.decrypt(sealed))]).toEqual([...bytes]);
  });

  it('names the macOS and Windows backends', () => {
    expect(
      cipherFromSafeStorage(storage('unknown'), {
        platform: 'darwin',
        allowWeakTokenStorage: false,
      }).backend,
    ).toBe('keychain');
    expect(
      cipherFromSafeStorage(storage('unknown'), { platform: 'win32', allowWeakTokenStorage: false })
        .backend,
    ).toBe('dpapi');
  });

  it('basic_text without opt-in: reported weak, tokens kept in memory only', async () => {
    const cipher = cipherFromSafeStorage(storage('basic_text'), {
      platform: 'linux',
      allowWeakTokenStorage: false,
    });
    expect(cipher).toMatchObject({ backend: 'basic_text', persistent: false, weak: true });
    expect(cipher.description).toMatch(/memory only/);
  });

  it('basic_text with the opt-in: persistent, still reported weak', () => {
    const cipher = cipherFromSafeStorage(storage('basic_text'), {
      platform: 'linux',
      allowWeakTokenStorage: true,
    });
    expect(cipher).toMatchObject({ backend: 'basic_text', persistent: true, weak: true });
  });

  it('no encryption at all: memory only', () => {
    const cipher = cipherFromSafeStorage(storage('gnome_libsecret', false), {
      platform: 'linux',
      allowWeakTokenStorage: true,
    });
    expect(cipher).toMatchObject({ backend: 'memory-only', persistent: false });
  });

  it('a keychain that cannot decrypt (the OS key changed or was removed) is a storage-error, not a crash', async () => {
    const sealed = await cipherFromSafeStorage(storage('gnome_libsecret'), {
      platform: 'linux',
      allowWeakTokenStorage: false,
    }).encrypt(Buffer.from('pair'));
    // Another key: what a keyring reset, a deleted Keychain item or a changed DPAPI key amounts to.
    const after = cipherFromSafeStorage(storage('gnome_libsecret'), {
      platform: 'linux',
      allowWeakTokenStorage: false,
    });
    await expect(after.decrypt(sealed)).rejects.toSatisfy((e) => isCoreError(e, 'storage-error'));
    const refusing: SafeStorageLike = {
      ...storage('keychain'),
      encryptString: () => {
        throw new Error('User interaction is not allowed.');
      },
    };
    await expect(
      cipherFromSafeStorage(refusing, { platform: 'darwin', allowWeakTokenStorage: false }).encrypt(
        Buffer.from('pair'),
      ),
    ).rejects.toSatisfy((e) => isCoreError(e, 'storage-error'));
  });

  it('after the OS key changed, the app starts and the site asks for a new sign-in, which works', async () => {
    const server = await createEmbeddedServer({ port: 0, seed: 'demo', site: 'demo' });
    cleanups.push(() => server.close());
    const h = await createHarness({
      cipher: cipherFromSafeStorage(storage('dpapi'), {
        platform: 'win32',
        allowWeakTokenStorage: false,
      }),
    });
    cleanups.push(() => h.close());
    const site = await h.manager.add({ baseUrl: server.url, clientId: 'demo-desktop' });
    await h.manager.signIn(site.id);
    expect(h.manager.getSite(site.id)?.status).toBe('ready');
    await h.manager.close();

    const manager = await h.reopen({
      cipher: cipherFromSafeStorage(storage('dpapi'), {
        platform: 'win32',
        allowWeakTokenStorage: false,
      }),
    });
    expect(manager.getSite(site.id)).toMatchObject({
      status: 'sign-in-needed',
      signInUnreadable: true,
    });
    await manager.signIn(site.id);
    expect(manager.getSite(site.id)?.status).toBe('ready');
  });
});
