/** The download manager as the rest of the core sees it (manager.ts builds it). */
import type { AuthorizedSend } from '../auth/token-manager';
import type { Logger } from '../log';
import type { ProductOfflineView, SiteStorageView, ViewAs } from '../../common/downloads';
import type { DigitalProductView } from '../../common/view-models';
import type { FileSource, MarkKind } from './mark-of-the-web';

export interface DownloadManagerOptions {
  /** `<dataDir>/downloads` */
  readonly dir: string;
  /**
   * The site's products as last synced (the offline database), or null for a site the app does not
   * know.
   */
  readonly products: (siteId: string) => readonly DigitalProductView[] | null;
  /** The site's origin: the only one its member's token is sent to. */
  readonly siteOrigin: (siteId: string) => string | null;
  readonly sendWith: (siteId: string) => AuthorizedSend;
  readonly now: () => number;
  /** A product's offline state changed (progress at most every `progressEveryMs`). */
  readonly onChange: (view: ProductOfflineView) => void;
  readonly concurrency?: number;
  /** Waits before the automatic retries after a transient failure; then it stops as failed. */
  readonly retryDelaysMs?: readonly number[];
  readonly askAboveBytes?: number;
  readonly maxBytes?: number;
  readonly idleTimeoutMs?: number;
  readonly progressEveryMs?: number;
  readonly durableEveryMs?: number;
  readonly logger?: Logger;
  /**
   * Marks a saved file as from the Internet (mark-of-the-web.ts); tests pass one with another
   * platform's facility.
   */
  readonly markFile?: (path: string, source: FileSource) => Promise<MarkKind>;
  /**
   * The transfer thread's script (default: the bundled one beside the core, else its source through
   * tsx).
   */
  readonly transferWorkerScript?: string;
}

export interface SavedFileAnswer {
  readonly status: 200 | 206 | 403 | 404 | 405 | 416;
  readonly headers: Readonly<Record<string, string>>;
  /** The bytes to send (inclusive range of `file`), or null. */
  readonly body: {
    readonly file: string;
    readonly start: number;
    readonly end: number;
  } | null;
}

export interface DownloadManager {
  list(siteId: string): ProductOfflineView[];
  /**
   * The student is looking at the site's products (their offline states were just listed): the
   * transfer thread starts now, off the answer's path, when a product there has a file, so a first
   * "Save" does not wait for it. Resolves true once the thread runs, false when the site has no
   * file to save (no thread is started for it).
   */
  prepare(siteId: string): Promise<boolean>;
  storage(siteIds: readonly string[]): SiteStorageView[];
  save(
    siteId: string,
    productId: string,
    options?: { readonly confirmLarge?: boolean },
  ): Promise<ProductOfflineView>;
  pause(siteId: string, productId: string): Promise<ProductOfflineView>;
  resume(siteId: string, productId: string): Promise<ProductOfflineView>;
  cancel(siteId: string, productId: string): Promise<void>;
  remove(siteId: string, productId: string): Promise<void>;
  /** Every file of the site (a removed site, a sign-out with "remove my data", "remove all"). */
  removeSite(siteId: string, options?: { readonly forgetSetting?: boolean }): Promise<void>;
  setKeepAll(siteId: string, keepAll: boolean): Promise<void>;
  /**
   * A sync of the site committed: note changed files, and keep every product offline where asked.
   */
  afterSync(siteId: string): Promise<void>;
  /** The saved copy on disk (checked against the manifest), for opening. */
  locate(
    siteId: string,
    productId: string,
  ): Promise<{
    readonly path: string;
    readonly name: string;
    readonly viewAs: ViewAs | null;
    readonly url: string;
  }>;
  /**
   * An app-origin request for a saved file (`/saved-files/...`): only the inline types, with Range.
   */
  serve(pathname: string, method: string, range: string | undefined): Promise<SavedFileAnswer>;
  /**
   * The network is back: transfers that stopped for the network (not for a refusal) start again.
   */
  networkBack(): void;
  /** Resolves when no transfer runs or waits (tests, soak). */
  idle(): Promise<void>;
  close(): Promise<void>;
}
