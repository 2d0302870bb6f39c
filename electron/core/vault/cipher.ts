/**
 * How the vault encrypts: a small interface the Electron host implements with safeStorage, and two Node
 * implementations: an AES-256-GCM cipher keyed by a per-device key file (browser host, tests) and a
 * memory-only mode (tokens are never persisted; used when safeStorage is basic_text and the user did not opt in).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { CoreError } from '../errors';

export interface Cipher {
  /** e.g. 'keychain', 'dpapi', 'basic_text', 'node-aes-256-gcm-keyfile', 'memory-only'. */
  readonly backend: string;
  /** False: the vault keeps records in memory only and never writes them to disk. */
  readonly persistent: boolean;
  /** True when the protection is weak (e.g. safeStorage basic_text): the UI explains it. */
  readonly weak: boolean;
  readonly description: string;
  encrypt(plain: Uint8Array): Promise<Uint8Array>;
  decrypt(data: Uint8Array): Promise<Uint8Array>;
}

const FORMAT_VERSION = 1;
const IV_BYTES = 12; // NIST SP 800-38D §8.2: 96-bit IVs for GCM
const TAG_BYTES = 16;
const KEY_BYTES = 32;
// Binds every record to this format so a blob cannot be replayed as some other kind of data.
const AAD = Buffer.from('learning-desktop.vault.v1', 'utf8');

/**
 * AES-256-GCM with a random per-device key kept in `keyFile` (created 0600; a looser mode is tightened at
 * open). Record layout: version(1) | iv(12) | tag(16) | ciphertext. A fresh random IV per record.
 */
export async function createNodeCipher(keyFile: string): Promise<Cipher> {
  const key = await loadOrCreateKey(keyFile);
  return {
    backend: 'node-aes-256-gcm-keyfile',
    persistent: true,
    weak: false,
    description: 'Tokens are encrypted with AES-256-GCM using a key stored in a file only your user account can read.',
    async encrypt(plain) {
      const iv = randomBytes(IV_BYTES);
      const c = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      c.setAAD(AAD);
      const body = Buffer.concat([c.update(plain), c.final()]);
      return Buffer.concat([Buffer.from([FORMAT_VERSION]), iv, c.getAuthTag(), body]);
    },
    async decrypt(data) {
      const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
      if (buf.length < 1 + IV_BYTES + TAG_BYTES || buf[0] !== FORMAT_VERSION) {
        throw new CoreError('storage-error', 'A saved sign-in could not be read (unknown format). Sign in again.');
      }
      const iv = buf.subarray(1, 1 + IV_BYTES);
      const tag = buf.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
      const d = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      d.setAAD(AAD);
      d.setAuthTag(tag);
      try {
        return Buffer.concat([d.update(buf.subarray(1 + IV_BYTES + TAG_BYTES)), d.final()]);
      } catch (cause) {
        throw new CoreError('storage-error', 'A saved sign-in could not be decrypted (it was changed or the key was replaced). Sign in again.', undefined, { cause });
      }
    },
  };
}

async function loadOrCreateKey(keyFile: string): Promise<Buffer> {
  await mkdir(dirname(keyFile), { recursive: true, mode: 0o700 });
  try {
    // 'wx': create exclusively, so two processes never overwrite each other's key.
    const handle = await open(keyFile, 'wx', 0o600);
    try {
      const key = randomBytes(KEY_BYTES);
      await handle.writeFile(key);
      await handle.sync();
      return key;
    } finally {
      await handle.close();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
      throw new CoreError('storage-error', 'The token encryption key could not be created.', undefined, { cause: error });
    }
  }
  if (process.platform !== 'win32') {
    const info = await stat(keyFile);
    // Tighten a key file that group or others can read (e.g. restored from a backup with a loose umask).
    if ((info.mode & 0o077) !== 0) await chmod(keyFile, 0o600);
  }
  const key = await readFile(keyFile);
  if (key.length !== KEY_BYTES) {
    throw new CoreError('storage-error', 'The token encryption key file is damaged. Remove it and sign in again.');
  }
  return key;
}

/** Memory-only mode: nothing is persisted, so "encryption" is an identity copy that never reaches disk. */
export function createMemoryCipher(): Cipher {
  return {
    backend: 'memory-only',
    persistent: false,
    weak: false,
    description: 'Tokens are kept in memory only: you will need to sign in again after restarting the app.',
    async encrypt(plain) {
      return Uint8Array.from(plain);
    },
    async decrypt(data) {
      return Uint8Array.from(data);
    },
  };
}
