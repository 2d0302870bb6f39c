/**
 * Pictures a site names (course covers, avatars), fetched by the core and handed to the screens as
 * data: URLs. The window never loads an image from a site-chosen address itself: the browser host's
 * session cookie is scoped to 127.0.0.1 (cookies ignore ports, RFC 6265 §8.5), so an <img> pointed
 * at any loopback port carried it there. The core's fetch has no cookies and sends no token; the
 * page's CSP then allows images from the app and data: only.
 */
import { isLoopbackHostname } from '../../common/external-url';
import { hostKind } from '../../common/host-kind';
import { CoreError } from '../errors';
import { readBounded, request, type FetchLike } from './http';

/** Larger pictures are not shown (a cover is tens of KB). */
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;
const IMAGE_TIMEOUT_MS = 15_000;
/**
 * Raster formats and SVG: an SVG shown through <img> runs no script and loads nothing (HTML
 * §4.8.4.1 "images").
 */
const IMAGE_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/svg+xml',
]);
const CACHE_ENTRIES = 300;

/**
 * Whether the app fetches a picture at `url` for the site at `siteBaseUrl`: https (no credentials
 * in the URL; on this computer or its network only for a site there too), or http only on the
 * site's own origin when that is a loopback address (the demo sites and tests).
 */
export function imageUrlAllowed(url: string, siteBaseUrl: string): boolean {
  let u: URL;
  let site: URL;
  try {
    u = new URL(url);
    site = new URL(siteBaseUrl);
  } catch {
    return false;
  }
  if (u.username !== '' || u.password !== '') return false;
  // The rule of every link a site sends (common/external-url.ts siteLinkUrl): nothing on this
  // computer or its network for a site on the Internet.
  if (u.protocol === 'https:')
    return hostKind(u.hostname) === 'public' || hostKind(site.hostname) !== 'public';
  return u.protocol === 'http:' && u.origin === site.origin && isLoopbackHostname(u.hostname);
}

export interface SiteImages {
  /**
   * The picture as a data: URL, or null when it is not allowed, not a picture, too large or
   * unreachable.
   */
  get(url: string, siteBaseUrl: string): Promise<string | null>;
}

/**
 * Fetches pictures with a deadline and a size limit, keeping the last few hundred in memory (least
 * recent out).
 */
export function createSiteImages(fetchImpl: FetchLike): SiteImages {
  const cache = new Map<string, Promise<string | null>>();
  async function load(url: string): Promise<string | null> {
    try {
      // No redirects: a redirect could name any address, checked by no one.
      const res = await request(
        url,
        {
          method: 'GET',
          redirect: 'manual',
          credentials: 'omit',
          headers: { accept: [...IMAGE_TYPES].join(', ') },
        },
        { fetch: fetchImpl, timeoutMs: IMAGE_TIMEOUT_MS },
      );
      const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      if (res.status !== 200 || !IMAGE_TYPES.has(type)) {
        await res.body?.cancel().catch(() => undefined);
        return null;
      }
      const bytes = await readBounded(
        res,
        MAX_IMAGE_BYTES,
        () => new CoreError('server-error', 'The picture is too large.'),
      );
      return `data:${type};base64,${Buffer.from(bytes).toString('base64')}`;
    } catch {
      return null;
    }
  }
  return {
    get(url, siteBaseUrl) {
      if (!imageUrlAllowed(url, siteBaseUrl)) return Promise.resolve(null);
      const hit = cache.get(url);
      if (hit) {
        cache.delete(url);
        cache.set(url, hit);
        return hit;
      }
      const loading = load(url);
      cache.set(url, loading);
      // A failure is not kept: the next screen that shows the picture tries again (e.g. back
      // online).
      void loading.then((v) => {
        if (v === null) cache.delete(url);
      });
      while (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
      return loading;
    },
  };
}
