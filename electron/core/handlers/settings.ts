import type { CoreHandlers } from '../../common/ipc-contract';
import type { AppInfo, TokenProtection } from '../../common/view-models';
import type { Cipher } from '../vault/cipher';
import type { AppServices } from './services';

/** What the app is, its settings, and how it protects the tokens it keeps. */
export function createSettingsHandlers(
  s: Pick<AppServices, 'settings'>,
  info: AppInfo,
  cipher: Pick<Cipher, 'backend' | 'persistent' | 'weak' | 'description'>,
): Pick<CoreHandlers, 'app:get-info' | 'settings:get' | 'settings:update' | 'security:get-token-protection'> {
  const tokenProtection: TokenProtection = {
    backend: cipher.backend,
    persistent: cipher.persistent,
    weak: cipher.weak,
    description: cipher.description,
  };
  return {
    'app:get-info': async () => info,
    'settings:get': async () => s.settings.current(),
    'settings:update': (patch) => s.settings.update(patch),
    'security:get-token-protection': async () => tokenProtection,
  };
}
