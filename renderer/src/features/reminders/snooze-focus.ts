import type { NotificationSnoozeTarget } from '../../../../electron/common/shortcuts';

/** How long the row is looked for: Today's answer may still be on its way after the click. */
const LOOK_MS = 5000;

/**
 * After a reminder notification's click: its item's snooze buttons on Today, scrolled to and the
 * first one focused, so the snooze the OS's notification lacks (Windows, Linux, a browser) is one
 * key away. The row is looked for each frame until Today shows it; an item no longer there (paid,
 * ended) leaves Today as it opened.
 */
export function focusSnoozeOf(target: NotificationSnoozeTarget): void {
  const started = performance.now();
  const look = () => {
    const found = [...document.querySelectorAll<HTMLElement>('[data-testid="snooze"]')].find(
      (el) =>
        el.dataset['kind'] === target.kind &&
        el.dataset['siteId'] === target.siteId &&
        el.dataset['subjectId'] === target.subjectId,
    );
    const button = found?.querySelector('button');
    if (found && button) {
      found.scrollIntoView({ block: 'center' });
      button.focus();
      hold(button, 0);
      return;
    }
    if (performance.now() - started < LOOK_MS) requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}

/**
 * Moving to Today puts focus on its heading (state/screen-place.ts) once the screen has settled,
 * which may be a few frames after the row shows: for those frames the button takes focus back from
 * the heading, and from nothing else (the student may have moved on).
 */
function hold(button: HTMLElement, frames: number): void {
  if (frames > HOLD_FRAMES || !button.isConnected) return;
  const active = document.activeElement;
  if (active !== button && (active === null || active === document.body || active.id === HEADING))
    button.focus();
  requestAnimationFrame(() => hold(button, frames + 1));
}

const HOLD_FRAMES = 30;
/** The screen's heading, which screen-place.ts focuses on a move. */
const HEADING = 'screen-title';
