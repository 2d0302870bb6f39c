/**
 * The school's own pages for what the app shows (service-spec does not show them; the decision is
 * written in embedded-server/README.md, "Decisions (student pages)"): a course by its slug, a
 * lecture by its id with the position to resume from, an order by its trade number, a consulting
 * service by its id. Every address is built on the site's base URL and checked before it leaves the
 * app (external-url.ts: same origin, https or loopback http, no credentials).
 */
import { CoreError } from '../errors';
import { checkExternalUrl } from './external-url';

export type SitePage =
  | { readonly kind: 'course'; readonly slug: string }
  | {
      readonly kind: 'lecture';
      readonly slug: string;
      readonly lectureId: string;
      readonly positionSeconds: number;
    }
  | { readonly kind: 'order'; readonly tradeNo: string }
  | { readonly kind: 'consulting'; readonly serviceId: string };

// An id of '.' or '..' is a dot-segment and would move up the path (RFC 3986 §5.2.4; the WHATWG URL
// parser reads '%2E%2E' as one too): no page has such an address.
function segment(value: string): string {
  if (value === '.' || value === '..')
    throw new CoreError('invalid-input', 'This address cannot be opened (a dot-segment id).');
  return encodeURIComponent(value);
}

/**
 * The path of a page below the site's base URL (the query carries the position in whole seconds).
 */
export function sitePagePath(page: SitePage): string {
  switch (page.kind) {
    case 'course':
      return `/courses/${segment(page.slug)}`;
    case 'lecture': {
      const t = Math.max(0, Math.floor(page.positionSeconds));
      return `/courses/${segment(page.slug)}/lectures/${segment(page.lectureId)}${t > 0 ? `?t=${t}` : ''}`;
    }
    case 'order':
      return `/orders/${segment(page.tradeNo)}`;
    case 'consulting':
      return `/consulting/${segment(page.serviceId)}`;
  }
}

/** The page's address on the site, checked to stay on the site's own origin. */
export function sitePageUrl(baseUrl: string, page: SitePage): string {
  const base = baseUrl.replace(/\/+$/, '');
  return checkExternalUrl(`${base}${sitePagePath(page)}`, base).toString();
}
