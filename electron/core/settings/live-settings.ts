import type { Settings } from '../../common/view-models';
import type { SettingsStore } from './settings-store';

/** The settings in force, and their updates one after another. */
export interface LiveSettings {
  current(): Settings;
  /**
   * Saves the given fields (undefined ones are left as they are) and answers the settings now in
   * force.
   */
  update(patch: object): Promise<Settings>;
}

export async function loadLiveSettings(
  store: SettingsStore,
  onChanged: (settings: Settings, change: { readonly intervalChanged: boolean }) => void,
): Promise<LiveSettings> {
  let settings: Settings = await store.load();
  /** The update in progress (updates run one after another). */
  let updates: Promise<void> = Promise.resolve();
  return {
    current: () => settings,
    update(patch) {
      // One update at a time: each starts from the settings the previous one saved. Two changes
      // made in quick succession (theme, then language) otherwise both start from the old settings
      // and the later save drops the earlier change.
      const run = updates.then(async () => {
        const next: Settings = {
          ...settings,
          ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)),
        };
        await store.save(next);
        const intervalChanged = next.autoSyncMinutes !== settings.autoSyncMinutes;
        settings = await store.load();
        onChanged(settings, { intervalChanged });
        return settings;
      });
      updates = run.then(
        () => undefined,
        () => undefined,
      );
      return run;
    },
  };
}
