/**
 * Which web permissions the app's window may have (Electron security checklist #5, "handle session
 * permission requests"): everything is refused, except what the app's own page uses, asked by the
 * app's own page. The Electron host hands every request and check of the window's session to
 * `allowPermission`.
 */
import { isAppUrl } from './app-protocol';

/**
 * Electron's permission names the page needs: `fullscreen` for the video player's full-screen
 * button, and `clipboard-sanitized-write` for the copy buttons (navigator.clipboard.writeText,
 * Chromium's "sanitized" write of plain text). Reading the clipboard, the camera, notifications
 * from the page and everything else stay refused.
 */
const ALLOWED = new Set(['fullscreen', 'clipboard-sanitized-write']);

/** True when `permission`, asked from `requestingUrl` (a page URL or an origin), may be granted. */
export function allowPermission(permission: string, requestingUrl: string | undefined): boolean {
  if (!ALLOWED.has(permission) || !requestingUrl) return false;
  let url: URL;
  try {
    url = new URL(requestingUrl);
  } catch {
    return false;
  }
  return isAppUrl(url);
}
