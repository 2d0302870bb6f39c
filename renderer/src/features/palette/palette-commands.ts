import type { TFunction } from 'i18next';
import type { SearchHit, Settings, TodayCourse } from '../../../../electron/common/view-models';
import { SHORTCUTS, shortcutLabel } from '../../../../electron/common/shortcuts';
import { call } from '../../api';
import type { PaletteItem } from './palette';

type Entry = { readonly item: PaletteItem; readonly run: () => void };

/**
 * The shortcut of a palette entry, written for this platform (Ctrl on Linux and Windows, ⌘ on
 * macOS).
 */
export function paletteShortcut(itemId: string, isMac: boolean): string | undefined {
  if (itemId === 'back') return isMac ? '⌘[' : 'Alt+←';
  if (itemId === 'forward') return isMac ? '⌘]' : 'Alt+→';
  const id = itemId === 'go-settings' ? 'settings' : itemId === 'sync' ? 'sync-now' : itemId;
  const shortcut = SHORTCUTS.find((s) => s.id === id);
  return shortcut ? shortcutLabel(shortcut, isMac) : undefined;
}

/**
 * The palette's commands beyond going somewhere: continue the course Today leads with, on the
 * school's site; the theme and the language; Back and Forward. Each opens or sets at once (the
 * settings apply live).
 */
export function extraCommands(
  t: TFunction,
  next: TodayCourse | undefined,
  settings: Settings | undefined,
): Entry[] {
  const list: Entry[] = [];
  const step = next?.nextStep;
  if (next && step && (step.kind === 'resume' || step.kind === 'next' || step.kind === 'start')) {
    list.push({
      item: {
        id: 'continue',
        kind: 'command',
        label: t('palette.continue', { title: step.lecture.title }),
        detail: next.title,
      },
      run: () =>
        void call('site:open-page', {
          siteId: next.siteId,
          page: { kind: 'lecture', courseId: next.courseId, lectureId: step.lecture.lectureId },
        }).catch(() => undefined),
    });
  }
  for (const theme of ['light', 'dark', 'system'] as const)
    if (settings?.theme !== theme)
      list.push({
        item: {
          id: `theme-${theme}`,
          kind: 'command',
          label: t('palette.theme', { theme: t(`settings.prefs.${theme}`) }),
        },
        run: () => void call('settings:update', { theme }).catch(() => undefined),
      });
  for (const [language, name] of [
    ['en', 'English'],
    ['zh-TW', '繁體中文'],
  ] as const)
    if (settings?.language !== language)
      list.push({
        item: {
          id: `language-${language}`,
          kind: 'command',
          label: t('palette.language', { language: name }),
        },
        run: () => void call('settings:update', { language }).catch(() => undefined),
      });
  list.push({
    item: { id: 'back', kind: 'command', label: t('palette.back') },
    run: () => history.back(),
  });
  list.push({
    item: { id: 'forward', kind: 'command', label: t('palette.forward') },
    run: () => history.forward(),
  });
  return list;
}

/**
 * A lecture found by search can be resumed on the school's site straight from the palette, beside
 * opening its course.
 */
export function lectureOnSite(t: TFunction, h: SearchHit): Entry | null {
  if (h.kind !== 'lecture' || h.courseId === null) return null;
  const courseId = h.courseId;
  return {
    item: {
      id: `found-site-${h.siteId}-${h.id}`,
      kind: 'found',
      label: t('palette.lectureOnSite', { title: h.title }),
      detail: h.context.course ?? undefined,
    },
    run: () =>
      void call('site:open-page', {
        siteId: h.siteId,
        page: { kind: 'lecture', courseId, lectureId: h.id },
      }).catch(() => undefined),
  };
}
