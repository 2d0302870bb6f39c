/**
 * View models of the files the app writes for the student (purchase CSV, receipts, calendar
 * reminders) and of the school's invite links. Plain serialisable data, like view-models.ts.
 */

/** The language a file is written in (the app's two). */
export type FileLanguage = 'en' | 'zh-TW';

/**
 * What became of a file the student asked for. Files go only where the student chooses: the
 * Electron host asks with a save dialog and writes there; the browser host hands the page a
 * one-time address to download (or, for a receipt, a print view the browser prints or saves as
 * PDF).
 */
export type SaveOutcome =
  /** Electron: written where the student chose; the file's name only, never the folder. */
  | { readonly kind: 'saved'; readonly fileName: string }
  /** The student closed the save dialog. */
  | { readonly kind: 'cancelled' }
  /** Browser host: the page downloads it from this same-origin address. */
  | { readonly kind: 'download'; readonly url: string; readonly fileName: string }
  /** Browser host: the page opens this same-origin print view (the browser's print dialog saves a PDF). */
  | { readonly kind: 'print-view'; readonly url: string };

/** A school's invite link, read: the two things the add-site form needs. Never a secret. */
export interface InviteView {
  /**
   * The site's origin, host in ASCII (an internationalised name is shown as its xn-- form, so
   * look-alikes show).
   */
  readonly baseUrl: string;
  readonly clientId: string;
}

/** Why a link was refused; each has its own words in the app (invite.refusal.*). */
export const INVITE_REFUSALS = [
  'too-long',
  'malformed',
  'not-an-invite',
  'duplicate-parameter',
  'secret-in-link',
  'site-missing',
  'site-invalid',
  'site-not-https',
  'site-has-credentials',
  'site-not-origin',
  'client-id-missing',
  'client-id-invalid',
] as const;
export type InviteRefusal = (typeof INVITE_REFUSALS)[number];

export type InviteOutcome =
  | { readonly ok: true; readonly invite: InviteView }
  | { readonly ok: false; readonly refusal: InviteRefusal };
