import type { Unknown } from '../site-values';
import type { IsoDateTime } from './base';
import type { OrderView, PaymentState } from './billing';
import type { LectureState } from './courses';

/** Profile, search, settings, token protection and updates. */

export interface ProfileView {
  readonly userId: string;
  readonly name: string;
  readonly email: string;
  readonly avatarUrl: string | null;
  readonly schools: readonly {
    readonly id: string;
    readonly name: string;
    readonly subdomain: string;
    readonly roles: readonly string[];
  }[];
}

/** What search finds, in the order the kind filter lists them. */
export const SEARCH_HIT_KINDS = [
  'course',
  'section',
  'lecture',
  'instructor',
  'order',
  'payment',
  'product',
  'event',
  'consulting',
  'notification',
] as const;
export type SearchHitKind = (typeof SEARCH_HIT_KINDS)[number];

export interface SearchHit {
  readonly kind: SearchHitKind;
  /** The item's id in its site: a course, section, lecture, payment, product, event registration,
   * consulting service
   *  or notice id; an order's trade number; an instructor's name. */
  readonly id: string;
  readonly siteId: string;
  /**
   * For courses, sections, lectures and consulting: the course they belong to; an instructor's
   * first course.
   */
  readonly courseId: string | null;
  readonly title: string;
  /** Text around the match, with the match wrapped in [[ and ]]. */
  readonly snippet: string;
  /**
   * Where the hit belongs and its state, for a line such as "Lecture · Intro to Data Analysis ·
   * Completed".
   */
  readonly context: SearchHitContext;
}

/**
 * Each field is there for the kinds it applies to (null otherwise); values the site sent outside
 * the known ones are 'unknown'.
 */
export interface SearchHitContext {
  /** Section, lecture, consulting: the course's title. */
  readonly course: string | null;
  /** Lecture: its section's title. */
  readonly section: string | null;
  /** Lecture: completed, read, unread, locked. */
  readonly lectureState: LectureState | 'locked' | Unknown | null;
  /** Course: percent complete. */
  readonly percent: number | null;
  /** Course: its instructor; consulting: the consultant. */
  readonly person: string | null;
  /** Instructor: how many of the student's courses they teach. */
  readonly courseCount: number | null;
  /** Order, payment (a payment's hit has no title of its own: it is named by this). */
  readonly tradeNo: string | null;
  readonly amount: { readonly value: number; readonly currency: string } | null;
  readonly orderState: OrderView['summaryState'] | null;
  readonly paymentState: PaymentState | Unknown | null;
  /** Event: its start; order and payment: created; product: delivered; notice: sent. */
  readonly at: IsoDateTime | null;
}

export type LanguagePreference = 'system' | 'en' | 'zh-TW';
export type ThemePreference = 'system' | 'light' | 'dark';

export interface Settings {
  /** 0 turns automatic sync off. */
  readonly autoSyncMinutes: number;
  readonly language: LanguagePreference;
  readonly theme: ThemePreference;
  /**
   * Linux without a keyring: the user allowed tokens on disk under safeStorage's basic_text
   * backend.
   */
  readonly allowWeakTokenStorage: boolean;
  /** OS notifications (electron/core/desktop/notifier.ts), each kind on or off. */
  readonly notifyPaymentDue: boolean;
  readonly notifyNewNotices: boolean;
  readonly notifySignIn: boolean;
  /** One notification a week summing up what changed (core/desktop/weekly-digest.ts). */
  readonly notifyWeeklyDigest: boolean;
  /** Reminders (electron/core/db/reminders.ts), each kind on or off. */
  readonly remindAccessEnding: boolean;
  readonly remindLectureUnlocked: boolean;
  readonly remindEventStarting: boolean;
  /**
   * Electron: an icon in the tray / menu bar; closing the last window then keeps the app running.
   */
  readonly trayEnabled: boolean;
  /** Electron: start with the session, minimized. */
  readonly startAtLogin: boolean;
  /**
   * The school the screens showed last (chosen in the site menu), so a restart opens on it: the
   * page's own storage is per origin, and the browser host's origin changes with its port at every
   * start.
   */
  readonly lastSiteId: string | null;
}

export interface TokenProtection {
  /**
   * e.g. 'keychain', 'dpapi', 'gnome_libsecret', 'kwallet', 'basic_text',
   * 'node-aes-256-gcm-keyfile', 'memory-only'.
   */
  readonly backend: string;
  /** Tokens survive a restart. */
  readonly persistent: boolean;
  /** The backend is weak (e.g. basic_text): the UI explains and offers the opt-in. */
  readonly weak: boolean;
  readonly description: string;
}

/**
 * Auto-update (electron/core/desktop/updates.ts). `off`: this host cannot update itself (the
 * browser host, a checkout) or no update feed is configured; Settings says which.
 */
export type UpdateState =
  | { readonly status: 'off'; readonly reason: 'host' | 'development' | 'no-feed' | 'unsupported' }
  /**
   * lastCheckedAt: the last check that reached the update server. unreachable: the latest check did not (offline, or
   * the server down); the app is as up to date as of lastCheckedAt, and checks again later.
   */
  | {
      readonly status: 'idle';
      readonly lastCheckedAt: IsoDateTime | null;
      readonly unreachable?: { readonly at: IsoDateTime; readonly reason: string };
    }
  | { readonly status: 'checking' }
  | { readonly status: 'available'; readonly version: string }
  | { readonly status: 'downloading'; readonly version: string; readonly percent: number }
  /** Downloaded: "Restart to update". restartQueued: asked for while a sync or sign-out runs; it follows. */
  | { readonly status: 'ready'; readonly version: string; readonly restartQueued: boolean }
  | {
      readonly status: 'error';
      readonly message: string;
      readonly lastCheckedAt: IsoDateTime | null;
    };
