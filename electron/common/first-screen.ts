/**
 * The first frame from the last session: a cold start paints the opening screen (Today) as the
 * window last showed it, from markup the host puts into the page it sends, before the app's scripts
 * have run; the live app takes the window over once its own Today has its data. Shared by the
 * renderer (which captures and releases it), the core (which keeps it) and the hosts (which send
 * it).
 */

/** The element the hosts put the saved frame in (a sibling after #root). */
export const FIRST_SCREEN_ID = 'ld-first-screen';

/**
 * The most markup kept (UTF-8 bytes); a larger frame is not saved, and the start draws the app's
 * own way.
 */
export const FIRST_SCREEN_MAX_BYTES = 512 * 1024;

/**
 * What the renderer sends to be kept: the frame, and what the page's <html> said when it was
 * captured.
 */
export interface FirstScreenInput {
  /** #root's markup, inert (no ids, no test ids: see renderer/src/state/first-screen.ts). */
  readonly html: string;
  /** The page's main script's file name: a frame is sent only to the build that drew it. */
  readonly build: string;
  readonly lang: string;
  readonly dir: 'ltr' | 'rtl';
  /** data-theme on <html> (absent: the OS decides). */
  readonly theme: 'light' | 'dark' | null;
  /**
   * The schools whose data the frame shows: a frame naming one that is gone (or signed out with its
   * data removed) is refused.
   */
  readonly siteIds: readonly string[];
}
