/** What a transfer is given and gives back, and the failures it tells apart (transfer.ts). */
import type { AuthorizedSend } from '../auth/token-manager';
import { CoreError } from '../errors';
import type { ViewAs } from '../../common/downloads';

export interface Validator {
  readonly etag: string | null;
  readonly lastModified: string | null;
}

export interface TransferInput {
  readonly url: string;
  /** The site's origin: the only one the member's token goes to. */
  readonly siteOrigin: string;
  /**
   * The token manager's rules for a request to the site's origin (one refresh
   * on 401, insufficient_scope).
   */
  readonly send: AuthorizedSend;
  readonly title: string;
  readonly partFile: string;
  /**
   * What an earlier try left: bytes known to be on disk, and the validator they were fetched under.
   */
  readonly resume: (Validator & { readonly bytes: number }) | null;
  readonly signal: AbortSignal;
  readonly idleTimeoutMs: number;
  readonly maxBytes: number;
  /** Larger declared sizes stop with NeedsConfirmation; null: the student already said yes. */
  readonly askAboveBytes: number | null;
  /**
   * The answer is in: its validator, size and name (saved with the partial file, so a
   * restart can resume).
   */
  readonly onStart: (
    info: Validator & {
      readonly total: number | null;
      readonly offset: number;
      readonly name: string;
    },
  ) => Promise<void>;
  /** Bytes in the partial file so far (progress). */
  readonly onBytes: (bytes: number) => void;
  /** Bytes made durable (fdatasync) so far: a restart resumes from here. */
  readonly onDurable: (bytes: number) => void;
  readonly durableEveryMs?: number;
}

export interface TransferResult extends Validator {
  readonly bytes: number;
  readonly sha256: string;
  readonly name: string;
  readonly viewAs: ViewAs | null;
}

/** The file is larger than the ask threshold: nothing was written; the size is for the question. */
export class NeedsConfirmation extends Error {
  constructor(readonly size: number) {
    super('needs confirmation');
  }
}

/**
 * A failure worth another try (network, 5xx, a cut connection); `restart` drops the
 * partial file first.
 */
export class TransientError extends CoreError {
  constructor(
    message: string,
    readonly restart = false,
    options?: { cause?: unknown },
    reason: 'network' | 'cut' | 'checksum' | 'server-busy' = 'network',
  ) {
    super('site-unreachable', message, { reason }, options);
  }
}

export function formatMiB(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
