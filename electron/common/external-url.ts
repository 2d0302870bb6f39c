/**
 * The one check for an address that leaves the app (a site's download or join link, a link a page
 * opens, the system browser for sign-in): ARCHITECTURE "a URL leaves the app only if it is https
 * (http on loopback), without credentials". A site can send any scheme (`file:`, `smb:`,
 * `ms-msdt:`, `vscode:`, `data:`...), and the OS hands each to whatever program claims it; user
 * info in an address (`https://user:pass@...`) is sent to the host by the browser, and lets an
 * address look like another host's. Pure: every process uses it.
 */
import { hostKind } from './host-kind';

/** RFC 8252 §8.3 loopback: 127.0.0.0/8, [::1], and the name localhost. */
export function isLoopbackHostname(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** Longer than any link a school would send; a longer one is refused rather than handed on. */
const MAX_URL_LENGTH = 4096;

/** The address, normalised, when it may leave the app; null when it may not. */
export function externalUrl(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_URL_LENGTH) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol === 'http:') {
    if (!isLoopbackHostname(url.hostname)) return null;
  } else if (url.protocol !== 'https:') {
    return null;
  }
  if (url.username !== '' || url.password !== '') return null;
  return url.href;
}

/**
 * A link a site sent (a product's download, an event's join link), when it may leave the app for
 * that site: the check above, and the rule discovery and pictures follow. Plain http only when the
 * site itself is on loopback, and an address on this computer or its network (127.0.0.0/8 however
 * written: `0x7f.1`, `2130706433`; `[::1]`, `[::ffff:127.0.0.1]`, RFC 1918, link-local...) only
 * when the site is there too: a school on the Internet may not point the student, or the app's
 * downloads, at local services.
 */
export function siteLinkUrl(value: unknown, siteBaseUrl: string): string | null {
  const href = externalUrl(value);
  if (href === null) return null;
  let site: URL;
  try {
    site = new URL(siteBaseUrl);
  } catch {
    return null;
  }
  const url = new URL(href);
  const siteKind = hostKind(site.hostname);
  if (url.protocol === 'http:' && siteKind !== 'loopback') return null;
  if (hostKind(url.hostname) !== 'public' && siteKind === 'public') return null;
  return href;
}
