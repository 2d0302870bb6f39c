import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Settings } from '../../../../electron/common/view-models';
import { channelKey, useChannel, useChannelMutation } from '../../query';

/**
 * Changing settings from any section of the Settings screen: the core's answer replaces the cached settings, and
 * if the core refused, the settings are read again so the screen shows what is really saved.
 */
export function useUpdateSettings() {
  const client = useQueryClient();
  const m = useChannelMutation('settings:update');
  const key = channelKey('settings:get');
  return {
    ...m,
    update: (patch: Partial<Settings>, settled?: () => void) => {
      m.mutate(patch, {
        onSuccess: (next) => client.setQueryData(key, next),
        onError: () => void client.invalidateQueries({ queryKey: key }),
        onSettled: settled,
      });
    },
  };
}

/**
 * The settings and a way to change some of them (the desktop sections of Settings). A change shows at once, in
 * the same render as the click (a checkbox must not spring back while the core saves it), until the core answered.
 */
export function useDesktopSettings() {
  const q = useChannel('settings:get', undefined, { staleTime: Infinity });
  const m = useUpdateSettings();
  const [pending, setPending] = useState<Partial<Settings>>({});
  return {
    settings: q.data && { ...q.data, ...pending },
    error: m.error,
    update: (patch: Partial<Settings>) => {
      setPending((p) => ({ ...p, ...patch }));
      m.update(patch, () =>
        // Only what this change set: a later change to the same setting stays shown until its own answer.
        setPending((p) => Object.fromEntries(Object.entries(p).filter(([k, v]) => (patch as Record<string, unknown>)[k] !== v)) as Partial<Settings>),
      );
    },
  };
}
