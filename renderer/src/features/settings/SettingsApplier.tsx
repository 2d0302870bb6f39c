import { useEffect } from 'react';
import type { ThemePreference } from '../../../../electron/common/view-models';
import { applyLanguage } from '../../i18n';
import { useChannel } from '../../query';

export function applyTheme(theme: ThemePreference): void {
  // 'system' leaves the attribute off so the prefers-color-scheme media query decides.
  if (theme === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
}

/** Applies the saved language and theme; before they load (or if they cannot), the OS decides. */
export function SettingsApplier() {
  const q = useChannel('settings:get', undefined, { staleTime: Infinity });
  useEffect(() => {
    if (!q.data) return;
    applyLanguage(q.data.language);
    applyTheme(q.data.theme);
  }, [q.data]);
  return null;
}
