/**
 * An address the core opens in the system browser for a site: the one shared check
 * (common/external-url.ts: https, or http on loopback, no credentials), and on top of it the site's
 * own origin - a page of the school is never opened on another host, whatever the site's data
 * holds.
 */
import { externalUrl, siteLinkUrl } from '../../common/external-url';
import type { EntitlementsView } from '../../common/view-models';
import { CoreError } from '../errors';

/** Why an address may not leave the app for this site, or null when it may. */
export function externalUrlProblem(raw: string, expectedOrigin?: string): string | null {
  const href = externalUrl(raw);
  if (href === null) return 'only https, or http on this computer, without a user name or password';
  if (expectedOrigin !== undefined && new URL(href).origin !== new URL(expectedOrigin).origin)
    return 'another site';
  return null;
}

/**
 * The address, parsed, when it may leave the app; CoreError('invalid-input') naming the reason
 * otherwise.
 */
export function checkExternalUrl(raw: string, expectedOrigin?: string): URL {
  const problem = externalUrlProblem(raw, expectedOrigin);
  if (problem !== null)
    throw new CoreError('invalid-input', `This address cannot be opened (${problem}).`);
  return new URL(raw);
}

/**
 * A site's products and events with every link it may not send refused (common/external-url.ts
 * siteLinkUrl): the link becomes null and `urlRefused` says why, as for a link of another scheme.
 * Applied wherever the saved copy's links leave the core (the screens, the downloads, a calendar
 * file), since the database does not know the site.
 */
export function entitlementLinksForSite<
  V extends Pick<EntitlementsView, 'digitalProducts' | 'eventRegistrations'>,
>(view: V, siteBaseUrl: string): V {
  return {
    ...view,
    digitalProducts: view.digitalProducts.map((p) => onlySiteLink(p, 'downloadUrl', siteBaseUrl)),
    eventRegistrations: view.eventRegistrations.map((e) => onlySiteLink(e, 'joinUrl', siteBaseUrl)),
  };
}

function onlySiteLink<T extends { readonly urlRefused?: true }, K extends keyof T & string>(
  item: T,
  key: K,
  siteBaseUrl: string,
): T {
  const value = item[key] as unknown;
  if (typeof value !== 'string' || siteLinkUrl(value, siteBaseUrl) !== null) return item;
  return { ...item, [key]: null, urlRefused: true };
}
