import type { CoreHandlers } from '../../common/ipc-contract';
import type { AppInfo, TokenProtection } from '../../common/view-models';
import type { Cipher } from '../vault/cipher';
import type { AppServices } from './services';

/**
 * What the app is, its settings, how it protects the tokens it keeps, and the window's first frame.
 */
export type SettingsHandlersDeps = Pick<AppServices, 'settings' | 'firstScreen' | 'log'>;

export function createSettingsHandlers(
  s: SettingsHandlersDeps,
  info: AppInfo,
  cipher: Pick<Cipher, 'backend' | 'persistent' | 'weak' | 'description'>,
): Pick<
  CoreHandlers,
  | 'app:get-info'
  | 'app:save-first-screen'
  | 'settings:get'
  | 'settings:update'
  | 'security:get-token-protection'
> {
  const tokenProtection: TokenProtection = {
    backend: cipher.backend,
    persistent: cipher.persistent,
    weak: cipher.weak,
    description: cipher.description,
  };
  return {
    'app:get-info': async () => info,
    // The window hands over its opening screen for the next cold start's first frame
    // (desktop/first-screen.ts). One not kept is no error for the window: the next start draws the
    // app's own way. The reason names no data.
    'app:save-first-screen': async (input) => {
      const outcome = await s.firstScreen.save(input);
      if (!outcome.saved) s.log.info('first frame not kept', { reason: outcome.reason });
      return { saved: outcome.saved };
    },
    'settings:get': async () => s.settings.current(),
    'settings:update': async (patch) => {
      const before = s.settings.current();
      const next = await s.settings.update(patch);
      // The saved first frame was drawn in the old language or theme: the next start draws its own.
      if (next.language !== before.language || next.theme !== before.theme)
        await s.firstScreen.forget();
      return next;
    },
    'security:get-token-protection': async () => tokenProtection,
  };
}
