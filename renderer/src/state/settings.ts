import { useQueryClient } from '@tanstack/react-query';
import type { Settings } from '../../../electron/common/view-models';
import { channelKey, useChannel, useChannelMutation } from '../query';

/**
 * Changing settings from any section of the Settings screen: the core's answer replaces the cached
 * settings, and if the core refused, the settings are read again so the screen shows what is really
 * saved.
 */
export function useUpdateSettings() {
  const client = useQueryClient();
  const m = useChannelMutation('settings:update');
  const key = channelKey('settings:get');
  return {
    ...m,
    update: (patch: Partial<Settings>) => {
      m.mutate(patch, {
        onSuccess: (next) => client.setQueryData(key, next),
        onError: () => void client.invalidateQueries({ queryKey: key }),
      });
    },
  };
}

/** The settings and a way to change some of them (the desktop sections of Settings). */
export function useDesktopSettings() {
  const client = useQueryClient();
  const q = useChannel('settings:get', undefined, { staleTime: Infinity });
  const m = useUpdateSettings();
  return {
    settings: q.data,
    error: m.error,
    update: (patch: Partial<Settings>) => {
      // Shown at once; the core's answer (or, if it refused, a fresh read) then replaces it.
      if (q.data) client.setQueryData(channelKey('settings:get'), { ...q.data, ...patch });
      m.update(patch);
    },
  };
}
