import { useEffect, useRef, type RefObject } from 'react';
import { namesAPlace } from './history-entries';
import type { Route } from './routes';

/**
 * How long a screen may take to render the height its saved position needs (its list read from the
 * cache).
 */
const MAX_FRAMES = 90;

/**
 * Which screen a route shows, for the scroll position it is left at (a course's page is its own).
 */
export function placeKey(route: Route, siteId: string | null): string {
  return JSON.stringify([siteId, route]);
}

/**
 * Where the student was on each screen: moving to a screen puts focus on its heading (keyboard and
 * screen-reader users land on it) and shows it from the top, unless the student was there before in
 * this session; then its scroll position comes back, and coming back from a course to My courses,
 * focus is on that course's card, as a browser's Back does for a page. Not for the window's first
 * screen, nor when the site list arrives under it (no move: the scroll and focus would force a
 * layout of the whole page just before its first paint).
 */
export function useScreenPlace(
  main: RefObject<HTMLElement | null>,
  route: Route,
  siteId: string | null,
): void {
  const positions = useRef(new Map<string, number>());
  const shown = useRef<{ key: string; route: Route; siteId: string | null } | null>(null);

  // The position of the screen shown, as the student scrolls it.
  useEffect(() => {
    const el = main.current;
    if (!el) return;
    const onScroll = () => {
      if (shown.current) positions.current.set(shown.current.key, el.scrollTop);
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => el.removeEventListener('scroll', onScroll);
  }, [main]);

  const key = placeKey(route, siteId);
  useEffect(() => {
    const previous = shown.current;
    shown.current = { key, route, siteId };
    const el = main.current;
    if (!el || previous === null || previous.key === key) return;
    // The site list arriving under the first screen: no move.
    if (previous.siteId === null && placeKey(previous.route, siteId) === key) return;
    const saved = namesAPlace(route) ? undefined : positions.current.get(key);
    const card =
      previous.route.screen === 'course' && route.screen === 'library'
        ? previous.route.courseId
        : null;
    // Typing in the header's search field must keep its focus while results update.
    const keepFocus = Boolean(document.activeElement?.closest('.topbar'));
    let frames = 0;
    let frame = 0;
    const settle = () => {
      if (saved !== undefined) el.scrollTop = saved;
      const placed = saved === undefined || Math.abs(el.scrollTop - saved) <= 1;
      const cardButton = card === null ? null : courseCardButton(card);
      const heading = document.getElementById('screen-title');
      const ready =
        placed && (keepFocus || cardButton !== null || (card === null && heading !== null));
      if (!ready && frames++ < MAX_FRAMES) {
        frame = requestAnimationFrame(settle);
        return;
      }
      // The screen placed focus itself meanwhile (an order it was opened at): that stays.
      const active = document.activeElement;
      const placedByScreen = frames > 0 && active !== null && active !== el && el.contains(active);
      if (!keepFocus && !placedByScreen) (cardButton ?? heading)?.focus({ preventScroll: true });
    };
    if (saved === undefined) el.scrollTo({ top: 0 });
    settle();
    return () => cancelAnimationFrame(frame);
  }, [key, route, siteId, main]);
}

/**
 * The title button of a course's card in My courses, when the card is in the page (the list is
 * windowed).
 */
function courseCardButton(courseId: string): HTMLElement | null {
  return document.querySelector<HTMLElement>(
    `[data-testid="course-card"][data-course-id="${CSS.escape(courseId)}"] .card-link`,
  );
}
