import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { LanguagePreference } from '../../../electron/common/view-models';

// English is in the first chunk: every window needs it (it is the fallback of every other
// language), and fetched on its own it was a request the first paint waited for after the scripts
// had run (50-250 ms of a cold start). Every other language is a chunk of its own, loaded when
// first used (Vite splits a lazy glob import per file), so an English window never downloads or
// parses the Chinese strings. The files stay plain JSON for translators.
const en = import.meta.glob<Record<string, unknown>>('./en.json', {
  eager: true,
  import: 'default',
})['./en.json']!;
const loaders = import.meta.glob<Record<string, unknown>>(['./*.json', '!./en.json'], {
  import: 'default',
});

export type AppLanguage = 'en' | 'zh-TW';

/**
 * The OS language decides by default: any Chinese locale gets Traditional Chinese, everything else
 * English.
 */
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

const FILES: Record<AppLanguage, string> = { en: './en.json', 'zh-TW': './zh-TW.json' };

/**
 * Loads a language's strings once; English is also loaded for another language, as its fallback.
 */
async function loadLanguage(lng: AppLanguage): Promise<void> {
  const needed: AppLanguage[] = lng === 'en' ? ['en'] : [lng, 'en'];
  await Promise.all(
    needed
      .filter((l) => !i18next.hasResourceBundle(l, 'translation'))
      .map(async (l) =>
        i18next.addResourceBundle(l, 'translation', l === 'en' ? en : await loaders[FILES[l]]!()),
      ),
  );
}

export function applyLanguage(pref: LanguagePreference): void {
  const lng = resolveLanguage(pref);
  document.documentElement.lang = lng;
  if (i18next.language !== lng) void loadLanguage(lng).then(() => i18next.changeLanguage(lng));
}

/** Resolves once the strings of the system's language are in: the app renders after it. */
export const i18nReady: Promise<void> = (async () => {
  const lng = systemLanguage();
  await i18next.use(initReactI18next).init({
    resources: {},
    lng,
    fallbackLng: 'en',
    interpolation: { escapeValue: false },
    returnNull: false,
    // No vendor notice in the console: the app's console is for its own diagnostics.
    showSupportNotice: false,
  });
  await loadLanguage(lng);
  document.documentElement.lang = i18next.language;
})();

export default i18next;
