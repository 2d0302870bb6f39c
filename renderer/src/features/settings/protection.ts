import type { TokenProtection } from '../../../../electron/common/view-models';

/**
 * Where the OS keeps the key, by safeStorage backend (Electron safeStorage docs); others are shown
 * by their id.
 */
const STORES = new Set(['keychain', 'dpapi', 'gnome_libsecret', 'kwallet', 'kwallet5', 'kwallet6']);

/**
 * The sentence explaining how sign-ins are protected, in the UI's language. The core describes its
 * cipher in English (logs, diagnostics); the screen says the same from the facts it reports
 * (backend, persistent, weak). `null` for a combination the app does not know: the core's own
 * description is shown then.
 */
export function protectionDescription(
  p: TokenProtection,
  t: (key: string, vars?: Record<string, string>) => string,
): string | null {
  if (p.weak)
    return p.persistent
      ? t('settings.security.describe.weakDisk')
      : t('settings.security.describe.weakMemory');
  if (!p.persistent) return t('settings.security.describe.memory');
  if (p.backend === 'node-aes-256-gcm-keyfile') return t('settings.security.describe.keyFile');
  if (STORES.has(p.backend))
    return t('settings.security.describe.os', {
      store: t(`settings.security.store.${p.backend.replace(/^kwallet\d$/, 'kwallet')}`),
    });
  return null;
}
