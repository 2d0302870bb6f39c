import type { InviteOutcome } from '../../../electron/common/files-and-invites';

/** In-page routes (never URL paths: the bundle loads from file:// and from the loopback host alike). */
export type Route =
  /** The first screen once signed in: what to do next across every school. */
  | { readonly screen: 'today' }
  | { readonly screen: 'library' }
  | { readonly screen: 'course'; readonly courseId: string }
  /** `tradeNo`: one order shown first (jumped to from the command palette), the rest a click away. */
  | { readonly screen: 'billing'; readonly tradeNo?: string }
  | { readonly screen: 'entitlements' }
  | { readonly screen: 'consulting' }
  | { readonly screen: 'notifications' }
  | { readonly screen: 'profile' }
  | { readonly screen: 'search'; readonly query: string }
  /**
   * `section`: the part of Settings to bring into view (its navigation, the command palette, Back).
   * `intent`: a step to offer at once (from the command palette): a site's sign-out, asked to confirm.
   */
  | { readonly screen: 'settings'; readonly section?: SettingsSection; readonly intent?: { readonly signOut: string } }
  /** `invite`: the app was opened with a school's invite link (the form is filled in from it, or it was refused). */
  | { readonly screen: 'add-site'; readonly invite?: InviteOutcome };

export type Screen = Route['screen'];

/** The parts of Settings, in the order its navigation lists them ('demo' only where the demo sites run). */
export const SETTINGS_SECTIONS = ['schools', 'notifications', 'storage', 'appearance', 'privacy', 'desktop', 'demo', 'about'] as const;
export type SettingsSection = (typeof SETTINGS_SECTIONS)[number];

export function isSettingsSection(value: unknown): value is SettingsSection {
  return typeof value === 'string' && (SETTINGS_SECTIONS as readonly string[]).includes(value);
}

/** Screens reachable from the navigation without an argument. */
export type SimpleScreen = Exclude<Screen, 'course' | 'search'>;
