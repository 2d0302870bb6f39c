import type { IsoDateTime, SiteId } from './base';

/** The app and its sites: what a site summary shows, adding, signing in and out. */

export interface AppInfo {
  readonly name: string;
  readonly version: string;
  readonly dataDir: string;
  readonly host: 'electron' | 'browser';
  readonly platform: string;
  /** True when the embedded demo server can be started by this host. */
  readonly demoAvailable: boolean;
}

export type SiteStatus =
  /** Added, never signed in (or signed out and kept). */
  | 'signed-out'
  | 'signing-in'
  | 'ready'
  /** The refresh token was refused or a 401 survived one refresh: offline data stays readable. */
  | 'sign-in-needed'
  /** Signed out locally; revocation with the refresh token is queued until the site is reachable. */
  | 'sign-out-pending'
  /** A queued sign-out was lost with a restart: tokens were kept in memory only (the user's choice), so the
   * revocation could not be kept either. The session may still be live at the site; the user is told so. */
  | 'sign-out-unconfirmed';

export interface SiteProfile {
  readonly userId: string;
  readonly name: string;
  readonly email: string;
  readonly avatarUrl: string | null;
}

export interface SiteSummary {
  readonly id: SiteId;
  /** The school's name once known, else the host name. */
  readonly label: string;
  readonly baseUrl: string;
  readonly clientId: string;
  readonly isDemo: boolean;
  readonly status: SiteStatus;
  readonly schoolId: string | null;
  readonly subdomain: string | null;
  readonly profile: SiteProfile | null;
  /** Scopes granted by the last sign-in. */
  readonly grantedScopes: readonly string[];
  /** Scopes the site refused to serve during the last sync or call (e.g. account:write). */
  readonly missingScopes: readonly string[];
  readonly lastSyncedAt: IsoDateTime | null;
  /**
   * With status 'sign-in-needed': the saved sign-in exists but cannot be read (its key was lost or
   * the file is damaged), so the screen says that rather than "expired".
   */
  readonly signInUnreadable?: boolean;
  /**
   * Data scopes the app asked for at the last sign-in and the site did not grant (the student left
   * them unticked on the site's page, or the site withheld them): the screen says so rather than
   * only "missing".
   */
  readonly declinedScopes?: readonly string[];
}

export interface AddSiteInput {
  readonly baseUrl: string;
  readonly clientId: string;
  /** Only for a confidential application; stored in the vault, never shown again. */
  readonly clientSecret?: string;
}

export interface SignOutInput {
  readonly siteId: SiteId;
  /** Also delete the site's offline data. */
  readonly removeData: boolean;
}

export interface SignOutResult {
  /** The refresh token was revoked at the site. */
  readonly revoked: boolean;
  /** The revocation is queued and will be retried when the site is reachable. */
  readonly pending: boolean;
  /**
   * Present (true) when the site offers no revocation endpoint (RFC 7009 is optional): the sign-in
   * was ended on this computer only, and stays valid at the site until its tokens expire there.
   */
  readonly localOnly?: true;
}

export type SignInPhase =
  'discovering' | 'waiting-for-browser' | 'exchanging-code' | 'verifying' | 'done' | 'failed';

export interface SignInProgress {
  readonly siteId: SiteId;
  readonly phase: SignInPhase;
  /**
   * The authorization URL, while waiting for the browser (so the UI can offer to open it again).
   */
  readonly authorizationUrl?: string;
}
