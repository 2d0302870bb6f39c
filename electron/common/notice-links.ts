/**
 * Where a school's notice leads, read from its `url` (service-spec shows the field, not its form).
 * Decision (embedded-server/README.md, "Decisions (student pages)"): a notice's url is a path below
 * the site's base URL (`/orders/T2026...`) or an absolute address on the site's own origin, naming
 * one of the site's student pages: a course (`/courses/{slug}`, or one of its lectures), an order
 * (`/orders/{tradeNo}`), an event (`/events/{eventId}`) or a consulting service
 * (`/consulting/{serviceId}`). Anything else leads nowhere in the app (the notice is still shown);
 * an address on another origin, with credentials, or unreadable is never followed. Pure: the core
 * looks the ids up in the saved copy, the screens name the button from the kind.
 */

export type NoticeLink =
  | { readonly kind: 'course'; readonly slug: string; readonly lectureId: string | null }
  | { readonly kind: 'order'; readonly tradeNo: string }
  | { readonly kind: 'event'; readonly eventId: string }
  | { readonly kind: 'consulting'; readonly serviceId: string };

/** Longer than any address a school would put in a notice: not read. */
export const NOTICE_URL_MAX = 2048;
const SEGMENT_MAX = 200;

/**
 * The path segments below the base URL's path, decoded; null when the address is not one of the
 * site's.
 */
function segmentsBelowBase(url: string, baseUrl: string): string[] | null {
  let base: URL;
  let target: URL;
  try {
    base = new URL(baseUrl);
    const basePath = base.pathname.replace(/\/+$/, '');
    // A path (not a scheme-relative '//host') is below the base URL's own path.
    target =
      url.startsWith('/') && !url.startsWith('//')
        ? new URL(`${basePath}${url}`, base.origin)
        : new URL(url);
  } catch {
    return null;
  }
  if (target.origin !== base.origin || target.username !== '' || target.password !== '')
    return null;
  const basePath = base.pathname.replace(/\/+$/, '');
  if (
    basePath !== '' &&
    target.pathname !== basePath &&
    !target.pathname.startsWith(`${basePath}/`)
  )
    return null;
  const rest = target.pathname
    .slice(basePath.length)
    .split('/')
    .filter((s) => s !== '');
  const out: string[] = [];
  for (const raw of rest) {
    let s: string;
    try {
      s = decodeURIComponent(raw);
    } catch {
      return null;
    }
    // A dot-segment is not an id (RFC 3986 §5.2.4), nor is an overlong one.
    if (s === '.' || s === '..' || s.length > SEGMENT_MAX) return null;
    out.push(s);
  }
  return out;
}

export function readNoticeLink(url: string | null, baseUrl: string): NoticeLink | null {
  if (url === null || url.length === 0 || url.length > NOTICE_URL_MAX) return null;
  const parts = segmentsBelowBase(url.trim(), baseUrl);
  if (!parts) return null;
  const [area, id, sub, subId] = parts;
  if (id === undefined) return null;
  if (area === 'courses' && parts.length === 2)
    return { kind: 'course', slug: id, lectureId: null };
  if (area === 'courses' && parts.length === 4 && sub === 'lectures' && subId !== undefined)
    return { kind: 'course', slug: id, lectureId: subId };
  if (parts.length !== 2) return null;
  if (area === 'orders') return { kind: 'order', tradeNo: id };
  if (area === 'events') return { kind: 'event', eventId: id };
  if (area === 'consulting') return { kind: 'consulting', serviceId: id };
  return null;
}
