/**
 * Purchased files kept on this computer (a digital product's `downloadUrl`, saved into the app's
 * data folder):
 * the view models the core answers and the renderer shows. Pure types and constants, shared by
 * every process.
 */
import type { AppError } from './result';

/** How a saved file opens inside the app; null: it is shown in its folder instead (never run). */
export type ViewAs = 'pdf' | 'image' | 'audio' | 'video';

/**
 * A transfer's state. `needs-confirmation`: the file is larger than the ask threshold and waits for
 * a yes.
 */
export type DownloadState = 'queued' | 'downloading' | 'paused' | 'failed' | 'needs-confirmation';

export interface DownloadProgress {
  readonly bytes: number;
  /** null when the site did not say how large the file is. */
  readonly total: number | null;
  /** Bytes per second over the last few seconds (0 before the first second). */
  readonly bytesPerSecond: number;
  /** null when it cannot be estimated yet (no size, no speed). */
  readonly secondsLeft: number | null;
}

export interface DownloadJobView {
  readonly state: DownloadState;
  readonly progress: DownloadProgress;
  /** Why it stopped (failed), or why it waits (needs-confirmation: the size), in plain words. */
  readonly error: AppError | null;
  /** A newer version of a file already saved: the old copy stays until this one is complete. */
  readonly isUpdate: boolean;
  /** When the next automatic try starts (epoch ms), while it backs off after a failure. */
  readonly retryAt: number | null;
}

export interface SavedFileView {
  readonly name: string;
  readonly size: number;
  readonly savedAt: string;
  readonly viewAs: ViewAs | null;
}

export interface ProductOfflineView {
  readonly siteId: string;
  readonly productId: string;
  readonly title: string;
  /** The complete copy on this computer, or null. */
  readonly saved: SavedFileView | null;
  readonly job: DownloadJobView | null;
  /** The site now names a different file (address, size or version) than the one saved. */
  readonly updateAvailable: boolean;
  /**
   * The student's access ended (the product expired or left their purchases). The saved copy stays
   * readable (the app cannot take back what the school delivered), is marked, and offered for
   * removal; no new download starts.
   */
  readonly accessEnded: boolean;
}

export interface SiteStorageView {
  readonly siteId: string;
  /** "Keep every product of this school offline". */
  readonly keepAll: boolean;
  /** Bytes of complete copies (partial transfers not counted). */
  readonly bytes: number;
  readonly products: readonly ProductOfflineView[];
}

/** What opening a saved file did. */
export type OpenOutcome =
  /**
   * Shown inside the app: `url` is served by the app itself (app:// in Electron, the browser host's
   * own origin).
   */
  | {
      readonly kind: 'view';
      readonly url: string;
      readonly viewAs: ViewAs;
      readonly name: string;
    }
  /** The file manager shows it, selected (Electron); the app never runs it. */
  | { readonly kind: 'shown-in-folder'; readonly path: string }
  /** The browser host cannot open a folder on this computer: the page says where the file is. */
  | { readonly kind: 'located'; readonly path: string };

/** The path prefix saved files are served under, on the renderer's own origin. */
export const SAVED_FILES_PATH = '/saved-files/';

/** Files larger than this are saved only after the student says yes (the size is shown). */
export const ASK_ABOVE_BYTES = 200 * 1024 * 1024;
/** Files larger than this are refused (a digital product, not a disk image). */
export const MAX_DOWNLOAD_BYTES = 4 * 1024 * 1024 * 1024;
