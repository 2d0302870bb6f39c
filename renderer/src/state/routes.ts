import type { InviteOutcome } from '../../../electron/common/files-and-invites';
import type { SearchHitKind } from '../../../electron/common/view-models';

/**
 * In-page routes (never URL paths: the bundle loads from file:// and from the loopback host alike).
 */
export type Route =
  /** The first screen once signed in: what to do next across every school. */
  | { readonly screen: 'today' }
  | { readonly screen: 'library' }
  /** `lectureId` / `sectionId`: a row to scroll into view and highlight (opened from search). */
  | {
      readonly screen: 'course';
      readonly courseId: string;
      readonly lectureId?: string;
      readonly sectionId?: string;
    }
  /** `tradeNo`: one order shown first (jumped to from the command palette), the rest a click away. */
  | { readonly screen: 'billing'; readonly tradeNo?: string }
  /** `itemId`: a digital product or event registration to scroll into view and highlight (opened from search). */
  | { readonly screen: 'entitlements'; readonly itemId?: string }
  /** `itemId`: a consulting service to scroll into view and highlight (opened from search). */
  | { readonly screen: 'consulting'; readonly itemId?: string }
  /** `itemId`: a notice to scroll into view and highlight (opened from search), its pages loaded until it shows. */
  | { readonly screen: 'notifications'; readonly itemId?: string }
  | { readonly screen: 'profile' }
  /** The student's notes of every school, newest first; `siteId` / `courseId`: only those. */
  | { readonly screen: 'notes'; readonly siteId?: string; readonly courseId?: string }
  /** Every school's data unless `siteId` names one; every kind unless `kind` names one. */
  | {
      readonly screen: 'search';
      readonly query: string;
      readonly kind?: SearchHitKind;
      readonly siteId?: string;
    }
  /**
   * `section`: the part of Settings to bring into view (its navigation, the command palette, Back).
   * `intent`: a step to offer at once (from the command palette): a site's sign-out, asked to confirm, or the
   * sign-in check, its button focused.
   */
  | {
      readonly screen: 'settings';
      readonly section?: SettingsSection;
      readonly intent?: { readonly signOut?: string; readonly checkSignIn?: boolean };
    }
  /** `invite`: the app was opened with a school's invite link (the form is filled in from it, or it was refused). */
  | { readonly screen: 'add-site'; readonly invite?: InviteOutcome };

export type Screen = Route['screen'];

/**
 * The parts of Settings, in the order its navigation lists them ('demo' only where the demo sites
 * run).
 */
export const SETTINGS_SECTIONS = [
  'schools',
  'notifications',
  'storage',
  'appearance',
  'privacy',
  'assistant',
  'desktop',
  'demo',
  'about',
] as const;
export type SettingsSection = (typeof SETTINGS_SECTIONS)[number];

export function isSettingsSection(value: unknown): value is SettingsSection {
  return typeof value === 'string' && (SETTINGS_SECTIONS as readonly string[]).includes(value);
}

/** Screens reachable from the navigation without an argument. */
export type SimpleScreen = Exclude<Screen, 'course' | 'search'>;
