/** The words of a site's sign-in state, as the site switcher and Settings > Sites show it. */
import type { SiteStatus } from '../../../../electron/common/view-models';
import { assertNever } from '../../../../electron/common/result';

export function siteStatusKey(s: SiteStatus): string {
  switch (s) {
    case 'signed-out':
    case 'signing-in':
    case 'ready':
    case 'sign-in-needed':
    case 'sign-out-pending':
    case 'sign-out-unconfirmed':
      return `settings.sites.status.${s}`;
    default:
      return assertNever(s, 'site status');
  }
}
