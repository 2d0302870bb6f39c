/**
 * How the vault encrypts: a small interface the Electron host implements with safeStorage, and two
 * Node implementations: an AES-256-GCM cipher keyed by a per-device key file (browser host, tests)
 * and a memory-only mode (tokens are never persisted; used when safeStorage is basic_text and the
 * user did not opt in).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmod, mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { CoreError } from '../errors';
import { createFileAtomic, writeFileAtomic } from '../fs/atomic-file';

export interface Cipher {
  /** e.g. 'keychain', 'dpapi', 'basic_text', 'node-aes-256-gcm-keyfile', 'memory-only'. */
  readonly backend: string;
  /** False: the vault keeps records in memory only and never writes them to disk. */
  readonly persistent: boolean;
  /** True when the protection is weak (e.g. safeStorage basic_text): the UI explains it. */
  readonly weak: boolean;
  readonly description: string;
  /**
   * The key that sealed the records already on disk was lost (its file was empty or damaged and has
   * been replaced): those sign-ins cannot be read, and each such site needs a new sign-in.
   */
  readonly keyReplaced?: boolean;
  encrypt(plain: Uint8Array): Promise<Uint8Array>;
  decrypt(data: Uint8Array): Promise<Uint8Array>;
}

const FORMAT_VERSION = 1;
const IV_BYTES = 12; // NIST SP 800-38D §8.2: 96-bit IVs for GCM
const TAG_BYTES = 16;
const KEY_BYTES = 32;
// Binds every record to this format so a blob cannot be replayed as some other kind of data.
const AAD = Buffer.from('learning-desktop.vault.v1', 'utf8');

export interface NodeCipherOptions {
  /** Where the vault keeps the records this key seals (default: `vault/` beside the key file). */
  readonly recordsDir?: string;
}

/**
 * AES-256-GCM with a random per-device key kept in `keyFile` (created 0600 atomically; a looser
 * mode is tightened at open). Record layout: version(1) | iv(12) | tag(16) | ciphertext. A fresh
 * random IV per record.
 */
export async function createNodeCipher(
  keyFile: string,
  options: NodeCipherOptions = {},
): Promise<Cipher> {
  const { key, replaced } = await loadOrCreateKey(
    keyFile,
    options.recordsDir ?? join(dirname(keyFile), 'vault'),
  );
  return {
    backend: 'node-aes-256-gcm-keyfile',
    persistent: true,
    weak: false,
    keyReplaced: replaced,
    description:
      'Tokens are encrypted with AES-256-GCM using a key stored in a file only your user account can read.',
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
        throw new CoreError(
          'storage-error',
          'A saved sign-in could not be read (unknown format). Sign in again.',
        );
      }
      const iv = buf.subarray(1, 1 + IV_BYTES);
      const tag = buf.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
      const d = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      d.setAAD(AAD);
      d.setAuthTag(tag);
      try {
        return Buffer.concat([d.update(buf.subarray(1 + IV_BYTES + TAG_BYTES)), d.final()]);
      } catch (cause) {
        throw new CoreError(
          'storage-error',
          'A saved sign-in could not be decrypted (it was changed or the key was replaced). Sign in again.',
          undefined,
          { cause },
        );
      }
    },
  };
}

async function loadOrCreateKey(
  keyFile: string,
  recordsDir: string,
): Promise<{ key: Buffer; replaced: boolean }> {
  await mkdir(dirname(keyFile), { recursive: true, mode: 0o700 });
  const created = randomBytes(KEY_BYTES);
  try {
    // Exclusive AND atomic: the name appears with the whole fsynced key or not at all, so a
    // crash can never leave an empty key file, and two processes never overwrite each other's key.
    await createFileAtomic(keyFile, created, 0o600);
    return { key: created, replaced: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
      throw new CoreError(
        'storage-error',
        'The token encryption key could not be created.',
        undefined,
        { cause: error },
      );
    }
  }
  let key: Buffer | null = null;
  try {
    if (process.platform !== 'win32') {
      const info = await stat(keyFile);
      // Tighten a key file that group or others can read (e.g. restored from a backup with a loose
      // umask).
      if ((info.mode & 0o077) !== 0) await chmod(keyFile, 0o600);
    }
    key = await readFile(keyFile);
  } catch {
    key = null;
  }
  if (key !== null && key.length === KEY_BYTES) return { key, replaced: false };
  // Empty or damaged (an older version could leave it empty after a crash). Without records nothing
  // was ever sealed with it: it counts as never created. With records, they cannot be read whatever
  // happens; a new key keeps the app usable and each of those sites asks for a new sign-in (the
  // offline data stays).
  const sealed = await hasRecords(recordsDir);
  try {
    await writeFileAtomic(keyFile, created, 0o600);
  } catch (error) {
    throw new CoreError(
      'storage-error',
      'The token encryption key file is damaged and could not be replaced.',
      undefined,
      { cause: error },
    );
  }
  return { key: created, replaced: sealed };
}

async function hasRecords(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).some((name) => name.endsWith('.vault'));
  } catch {
    return false;
  }
}

/**
 * Memory-only mode: nothing is persisted, so "encryption" is an identity copy that never reaches
 * disk.
 */
export function createMemoryCipher(): Cipher {
  return {
    backend: 'memory-only',
    persistent: false,
    weak: false,
    description:
      'Tokens are kept in memory only: you will need to sign in again after restarting the app.',
    async encrypt(plain) {
      return Uint8Array.from(plain);
    },
    async decrypt(data) {
      return Uint8Array.from(data);
    },
  };
}
