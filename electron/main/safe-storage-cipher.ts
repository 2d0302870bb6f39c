import { safeStorage } from 'electron';
import type { Cipher } from '../core/vault/cipher';
import { cipherFromSafeStorage } from './token-protection';

/**
 * The vault's Cipher on Electron: safeStorage, i.e. the OS keychain. The policy (what counts as
 * weak, when tokens stay in memory only) lives in token-protection.ts, which does not import
 * electron so it is tested in plain Node. Must be called after app 'ready'
 * (getSelectedStorageBackend answers only then).
 */
export function createSafeStorageCipher(options: {
  readonly allowWeakTokenStorage: boolean;
}): Cipher {
  return cipherFromSafeStorage(safeStorage, {
    platform: process.platform,
    allowWeakTokenStorage: options.allowWeakTokenStorage,
  });
}
