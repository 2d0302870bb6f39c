import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cipherFromSafeStorage, type SafeStorageLike } from '../../electron/main/token-protection';

/**
 * The Electron host's token-protection policy, in plain Node. `safeStorage` is stood in for by a real AES-GCM
 * cipher with a per-test key (what the OS keychain does for Electron), reporting a chosen backend.
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
    const cipher = cipherFromSafeStorage(storage('gnome_libsecret'), { platform: 'linux', allowWeakTokenStorage: false });
    expect(cipher).toMatchObject({ backend: 'gnome_libsecret', persistent: true, weak: false });
    const bytes = Uint8Array.from([0, 255, 1, 128, 10, 13]);
    const sealed = await cipher.encrypt(bytes);
    expect(Buffer.from(sealed).includes(Buffer.from(bytes))).toBe(false);
    expect([...(await cipher.decrypt(sealed))]).toEqual([...bytes]);
  });

  it('names the macOS and Windows backends', () => {
    expect(cipherFromSafeStorage(storage('unknown'), { platform: 'darwin', allowWeakTokenStorage: false }).backend).toBe('keychain');
    expect(cipherFromSafeStorage(storage('unknown'), { platform: 'win32', allowWeakTokenStorage: false }).backend).toBe('dpapi');
  });

  it('basic_text without opt-in: reported weak, tokens kept in memory only', async () => {
    const cipher = cipherFromSafeStorage(storage('basic_text'), { platform: 'linux', allowWeakTokenStorage: false });
    expect(cipher).toMatchObject({ backend: 'basic_text', persistent: false, weak: true });
    expect(cipher.description).toMatch(/memory only/);
  });

  it('basic_text with the opt-in: persistent, still reported weak', () => {
    const cipher = cipherFromSafeStorage(storage('basic_text'), { platform: 'linux', allowWeakTokenStorage: true });
    expect(cipher).toMatchObject({ backend: 'basic_text', persistent: true, weak: true });
  });

  it('no encryption at all: memory only', () => {
    const cipher = cipherFromSafeStorage(storage('gnome_libsecret', false), { platform: 'linux', allowWeakTokenStorage: true });
    expect(cipher).toMatchObject({ backend: 'memory-only', persistent: false });
  });
});
