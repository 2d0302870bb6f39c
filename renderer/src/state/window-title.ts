import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { Route } from './routes';

/**
 * The window's (and the browser tab's) title names the screen: "Purchases – Learning Desktop", so
 * the task bar, the window switcher and the history menus say where each entry leads. A course's
 * screen names the course itself (features/course sets it once the course is read).
 */
export function useWindowTitle(route: Route): void {
  const { t, i18n } = useTranslation();
  useEffect(() => {
    const screen =
      route.screen === 'course'
        ? t('course.title')
        : route.screen === 'search'
          ? route.query.trim()
            ? t('search.titleFor', { query: route.query.trim() })
            : t('search.title')
          : t(`nav.${route.screen === 'add-site' ? 'addSite' : route.screen}`);
    document.title = `${screen} – ${t('app.name')}`;
  }, [route, t, i18n.language]);
}

/**
 * A screen whose heading arrives with its data (a course): names the window after it, and moves
 * focus to the heading once it is there, as the shell does for screens whose heading is there at
 * once (unless the student is typing in the header's search field).
 */
export function useLoadedScreenTitle(title: string | undefined): void {
  const { t } = useTranslation();
  const focused = useRef<string | null>(null);
  useEffect(() => {
    if (title === undefined) return;
    document.title = `${title} – ${t('app.name')}`;
    if (focused.current === title) return;
    focused.current = title;
    if (document.activeElement?.closest('.topbar, .screen')) return;
    document.getElementById('screen-title')?.focus({ preventScroll: true });
  }, [title, t]);
}
