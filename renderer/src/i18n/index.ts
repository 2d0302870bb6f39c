import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { LanguagePreference } from '../../../electron/common/view-models';

// Vite bundles the JSON at build time (eager glob), which keeps the files plain JSON for translators.
const files = import.meta.glob<Record<string, unknown>>('./*.json', { eager: true, import: 'default' });
const en = files['./en.json']!;
const zhTW = files['./zh-TW.json']!;

export type AppLanguage = 'en' | 'zh-TW';

/** The OS language decides by default: any Chinese locale gets Traditional Chinese, everything else English. */
export function systemLanguage(): AppLanguage {
  const langs = navigator.languages.length > 0 ? navigator.languages : [navigator.language];
  for (const l of langs) {
    const lower = l.toLowerCase();
    if (lower.startsWith('zh')) return 'zh-TW';
    if (lower.startsWith('en')) return 'en';
  }
  return 'en';
}

export function resolveLanguage(pref: LanguagePreference): AppLanguage {
  return pref === 'system' ? systemLanguage() : pref;
}

export function applyLanguage(pref: LanguagePreference): void {
  const lng = resolveLanguage(pref);
  document.documentElement.lang = lng;
  if (i18next.language !== lng) void i18next.changeLanguage(lng);
}

void i18next.use(initReactI18next).init({
  resources: { en: { translation: en }, 'zh-TW': { translation: zhTW } },
  lng: systemLanguage(),
  fallbackLng: 'en',
  interpolation: { escapeValue: false },
  returnNull: false,
  // No vendor notice in the console: the app's console is for its own diagnostics.
  showSupportNotice: false,
});
document.documentElement.lang = i18next.language;

export default i18next;
