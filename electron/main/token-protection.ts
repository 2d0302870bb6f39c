import { CoreError } from '../core/errors';
import type { Cipher } from '../core/vault/cipher';
import { createMemoryCipher } from '../core/vault/cipher';

/** The part of Electron's safeStorage the vault uses (electron.d.ts SafeStorage). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  getSelectedStorageBackend(): string;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

/**
 * Picks how tokens are protected on Electron (Electron safeStorage docs; security checklist "do not
 * store secrets in plain text"): the OS keychain when there is one (macOS Keychain, Windows DPAPI,
 * libsecret / KWallet on Linux). On Linux without a keyring the backend is `basic_text`, which
 * "encrypts" with a hard-coded password, so a token file would be as good as plain text: tokens
 * then stay in memory only (sign in again after a restart) unless the user opted in
 * (settings.allowWeakTokenStorage, read at start).
 */
export function cipherFromSafeStorage(
  storage: SafeStorageLike,
  options: { readonly platform: string; readonly allowWeakTokenStorage: boolean },
): Cipher {
  if (!storage.isEncryptionAvailable()) {
    return {
      ...createMemoryCipher(),
      description:
        'This system offers no way to encrypt saved sign-ins, so they are kept in memory only: sign in again after restarting the app.',
    };
  }
  const backend =
    options.platform === 'darwin'
      ? 'keychain'
      : options.platform === 'win32'
        ? 'dpapi'
        : storage.getSelectedStorageBackend();
  const weak = backend === 'basic_text' || backend === 'unknown';
  if (weak && !options.allowWeakTokenStorage) {
    // The real backend and "weak" are reported so the UI can explain it and offer the opt-in.
    const memory = createMemoryCipher();
    return {
      backend,
      persistent: false,
      weak: true,
      description:
        'No keyring (such as GNOME Keyring or KWallet) was found, so saved sign-ins could not be protected. They are kept in memory only: sign in again after restarting the app, or allow weak storage in Settings (it applies at the next start).',
      encrypt: memory.encrypt,
      decrypt: memory.decrypt,
    };
  }
  return {
    backend,
    persistent: true,
    weak,
    description: weak
      ? 'No keyring was found; as you chose, sign-ins are kept on disk with weak protection (anyone who can read your files could use them).'
      : `Saved sign-ins are encrypted by your operating system (${describe(backend)}).`,
    // safeStorage takes strings: the vault's bytes travel as base64 so any byte survives the round
    // trip. Either call throws when the OS key is gone or refused (a Linux keyring reset, a deleted
    // or denied Keychain item, a DPAPI key that changed with the user's password): the same
    // storage-error as the Node cipher's, so the site asks for a new sign-in and the app still
    // starts. The OS's message names no secret but is not shown.
    async encrypt(plain) {
      try {
        return storage.encryptString(Buffer.from(plain).toString('base64'));
      } catch (cause) {
        throw new CoreError(
          'storage-error',
          'The sign-in could not be encrypted by your operating system.',
          undefined,
          { cause },
        );
      }
    },
    async decrypt(data) {
      let text: string;
      try {
        text = storage.decryptString(Buffer.from(data));
      } catch (cause) {
        throw new CoreError(
          'storage-error',
          'A saved sign-in could not be decrypted by your operating system (its key was changed or removed). Sign in again.',
          undefined,
          { cause },
        );
      }
      return Buffer.from(text, 'base64');
    },
  };
}

function describe(backend: string): string {
  switch (backend) {
    case 'keychain':
      return 'macOS Keychain';
    case 'dpapi':
      return 'Windows Data Protection';
    case 'gnome_libsecret':
      return 'the Secret Service keyring';
    case 'kwallet':
    case 'kwallet5':
    case 'kwallet6':
      return 'KWallet';
    default:
      return backend;
  }
}
