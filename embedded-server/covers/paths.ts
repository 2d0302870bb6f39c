/**
 * Where a course cover lives, and how a stored cover value becomes the absolute URL the APIs
 * return.
 *
 * The seeds store a site-relative path (`/covers/<slug>.svg`, served by this server: no external
 * host, so covers load offline and in tests); an operator may store an absolute http(s) URL
 * instead. The stored value never carries the origin, because a site's origin (its issuer) is only
 * known once it listens.
 */

/** Site-relative path of a course's generated cover (covers/routes.ts serves it). */
export function coverPath(slug: string): string {
  return `/covers/${encodeURIComponent(slug)}.svg`;
}

/**
 * The absolute URL for a stored cover value: a site-relative path (`/...`) resolves against the
 * site's base URL (the issuer, `http://127.0.0.1:<port>`); an absolute http(s) URL passes through
 * unchanged; null stays null. Anything else (another scheme, a relative path without `/`, a path
 * that would leave the origin such as `//host/x` or `/\host`) is not a picture this site vouches
 * for: null, so the app shows its fallback.
 */
export function absoluteSiteUrl(value: string | null, baseUrl: string): string | null {
  if (value === null || value === '') return null;
  if (value.startsWith('/')) {
    let url: URL;
    try {
      url = new URL(value, baseUrl);
    } catch {
      return null;
    }
    // WHATWG URL parsing turns `//host/x` and `/\host/x` into another origin: only same-origin
    // paths qualify.
    return url.origin === new URL(baseUrl).origin ? url.href : null;
  }
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? value : null;
  } catch {
    return null;
  }
}
