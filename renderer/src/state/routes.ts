import type { InviteOutcome } from '../../../electron/common/files-and-invites';

/** In-page routes (never URL paths: the bundle loads from file:// and from the loopback host alike). */
export type Route =
  | { readonly screen: 'library' }
  | { readonly screen: 'course'; readonly courseId: string }
  | { readonly screen: 'billing' }
  | { readonly screen: 'entitlements' }
  | { readonly screen: 'consulting' }
  | { readonly screen: 'notifications' }
  | { readonly screen: 'profile' }
  | { readonly screen: 'search'; readonly query: string }
  | { readonly screen: 'settings' }
  /** `invite`: the app was opened with a school's invite link (the form is filled in from it, or it was refused). */
  | { readonly screen: 'add-site'; readonly invite?: InviteOutcome };

export type Screen = Route['screen'];

/** Screens reachable from the navigation without an argument. */
export type SimpleScreen = Exclude<Screen, 'course' | 'search'>;
