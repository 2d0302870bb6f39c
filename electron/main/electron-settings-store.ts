import Store from 'electron-store';
import type { Settings } from '../common/view-models';
import type { SettingsStore } from '../core/settings/settings-store';
import { DEFAULT_SETTINGS, normaliseSettings } from '../core/settings/settings-store';

/**
 * Preferences on Electron: electron-store (a JSON file in userData, written atomically). Values are
 * normalised on the way in and out, so a hand-edited file can never hand the core an invalid
 * setting.
 */
export function createElectronSettingsStore(): SettingsStore {
  const store = new Store<{ settings: Settings }>({
    name: 'preferences',
    defaults: { settings: DEFAULT_SETTINGS },
  });
  return {
    async load() {
      return normaliseSettings(store.get('settings'));
    },
    async save(settings) {
      store.set('settings', normaliseSettings(settings));
    },
  };
}
