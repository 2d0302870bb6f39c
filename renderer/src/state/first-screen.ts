/**
 * The first frame from the last session (electron/common/first-screen.ts), the renderer's side:
 * - capture: when Today shows its data, a moment later, #root's markup is sent to be kept for the
 *   next cold start;
 * - release: the host put that frame over the page (#ld-first-screen, inert, aria-hidden) so the
 *   window shows the student's Today before these scripts have run; it goes as soon as the live app
 *   draws its own opening screen (in the same frame: useLayoutEffect runs before the browser
 *   paints), or any other screen, or an error.
 * The frame is inert: a click goes through it to the live app beneath, whose frame (top bar, navigation) is laid out
 * the same.
 */
import { useEffect, useLayoutEffect } from 'react';
import {
  FIRST_SCREEN_ID,
  FIRST_SCREEN_MAX_BYTES,
  type FirstScreenInput,
} from '../../../electron/common/first-screen';
import { call } from '../api';

/**
 * How long after Today's data is on screen the frame is captured (its pictures and late parts in
 * place).
 */
const CAPTURE_DELAY_MS = 1500;
/**
 * The latest the frame stays when the live app never says it is ready (it then shows whatever it
 * has).
 */
export const FIRST_SCREEN_LONGEST_MS = 15_000;

/**
 * The live app shows its own screen from now on: the last session's frame goes. Safe to call any
 * number of times.
 */
export function releaseFirstScreen(): void {
  const frame = document.getElementById(FIRST_SCREEN_ID);
  if (!frame) return;
  frame.remove();
  performance.mark('first-screen-released');
}

/** Releases the frame once `ready`, before the browser paints the render that made it so. */
export function useReleaseFirstScreen(ready = true): void {
  useLayoutEffect(() => {
    if (ready) releaseFirstScreen();
  }, [ready]);
}

/**
 * The page's build, as the hosts name it: the file name of the main script (Vite hashes it by
 * content).
 */
function buildId(): string {
  return new URL(import.meta.url).pathname.split('/').pop() || 'dev';
}

/**
 * #root's markup as the frame to keep, or null (the previous frame is still up, or it is too
 * large):
 * - dialogs are left out; status lines, live regions and what is marked `data-first-screen="blank"`
 *   (times relative to now, which would be stale at the next start) keep their place but are not
 *   shown;
 * - ids go (the live page beneath has the same ones) and test ids are renamed `data-frame-testid`,
 *   so what looks for the app's elements finds the live ones only.
 */
export function captureFirstScreen(siteIds: readonly string[]): FirstScreenInput | null {
  const root = document.getElementById('root');
  if (!root || document.getElementById(FIRST_SCREEN_ID)) return null;
  const clone = root.cloneNode(true) as HTMLElement;
  for (const element of clone.querySelectorAll(
    'dialog, [role="dialog"], [role="alertdialog"], [data-first-screen="omit"]',
  ))
    element.remove();
  for (const element of clone.querySelectorAll<HTMLElement>(
    '[role="status"], [role="alert"], [aria-live], [data-first-screen="blank"]',
  ))
    element.style.visibility = 'hidden';
  for (const element of clone.querySelectorAll('*')) {
    element.removeAttribute('id');
    const testId = element.getAttribute('data-testid');
    if (testId !== null) {
      element.removeAttribute('data-testid');
      element.setAttribute('data-frame-testid', testId);
    }
  }
  const html = clone.innerHTML;
  if (new TextEncoder().encode(html).length > FIRST_SCREEN_MAX_BYTES) return null;
  const page = document.documentElement;
  const theme =
    page.dataset.theme === 'light' || page.dataset.theme === 'dark' ? page.dataset.theme : null;
  return {
    html,
    build: buildId(),
    lang: page.lang || 'en',
    dir: page.dir === 'rtl' ? 'rtl' : 'ltr',
    theme,
    siteIds,
  };
}

/**
 * While the opening screen is mounted: captures and sends the frame CAPTURE_DELAY_MS after each
 * change of its data (`version`), when the browser is idle. A frame that is not kept costs nothing:
 * the next start draws the app's way.
 */
export function useCaptureFirstScreen(siteIds: readonly string[] | null, version: number): void {
  const key = siteIds?.join('\u0000') ?? null;
  useEffect(() => {
    if (key === null || key === '') return;
    let live = true;
    const timer = setTimeout(() => {
      const whenIdle = window.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 0));
      whenIdle(
        () => {
          if (!live) return;
          const frame = captureFirstScreen(key.split('\u0000'));
          if (frame)
            void call('app:save-first-screen', { ...frame, siteIds: [...frame.siteIds] }).catch(
              () => undefined,
            );
        },
        { timeout: 2000 },
      );
    }, CAPTURE_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [key, version]);
}
