import { useQueryClient } from '@tanstack/react-query';
import type { Settings } from '../../../../electron/common/view-models';
import { channelKey, useChannel, useChannelMutation } from '../../query';

/**
 * Changing settings from any section of the Settings screen. The change shows at once (a checkbox the student
 * clicked must not spring back while the core saves); the core's answer then replaces the cached settings, and
 * if the core refused, the settings are read again so the screen shows what is really saved.
 */
export function useUpdateSettings() {
  const client = useQueryClient();
  const m = useChannelMutation('settings:update');
  const key = channelKey('settings:get');
  return {
    ...m,
    update: (patch: Partial<Settings>) => {
      const before = client.getQueryData<Settings>(key);
      if (before) client.setQueryData<Settings>(key, { ...before, ...patch });
      m.mutate(patch, {
        onSuccess: (next) => client.setQueryData(key, next),
        onError: () => void client.invalidateQueries({ queryKey: key }),
      });
    },
  };
}

/** The settings and a way to change some of them (the desktop sections of Settings). */
export function useDesktopSettings() {
  const q = useChannel('settings:get', undefined, { staleTime: Infinity });
  const m = useUpdateSettings();
  return { settings: q.data, error: m.error, update: m.update };
}
