/**
 * The messages between the download manager (main thread) and its transfer thread
 * (transfer-worker.ts). The thread sends the requests and writes, hashes and fsyncs the bytes; the
 * main thread keeps what it alone may hold: the member's token (asked for per request, under the
 * token manager's rules) and the manifest (told where a transfer stands: its answer's validator,
 * its progress, the bytes made durable).
 */
import type { AppError } from '../../common/result';
import type { TransferInput, TransferResult, Validator } from './transfer';

/** What the thread needs of a TransferInput: everything but the functions and the signal. */
export type TransferJob = Omit<
  TransferInput,
  'send' | 'signal' | 'onStart' | 'onBytes' | 'onDurable'
> & {
  /** At most one progress message this often. */
  readonly progressEveryMs: number;
};

export type StartInfo = Validator & {
  readonly total: number | null;
  readonly offset: number;
  readonly name: string;
};

/** A failure as it crosses the thread boundary: plain data, never an Error. */
export type WireFailure =
  | { readonly kind: 'stopped' }
  | { readonly kind: 'confirm'; readonly size: number }
  | {
      readonly kind: 'transient';
      readonly message: string;
      readonly restart: boolean;
      readonly reason: 'network' | 'cut' | 'checksum' | 'server-busy';
    }
  | { readonly kind: 'core'; readonly error: AppError };

export type ToThread =
  | { readonly type: 'transfer'; readonly id: number; readonly job: TransferJob }
  | { readonly type: 'abort'; readonly id: number }
  /** The token for the thread's request `askId` (called again after a refresh). */
  | {
      readonly type: 'token';
      readonly id: number;
      readonly askId: number;
      readonly token: string;
      readonly url: string;
    }
  /** The token manager is done with request `askId`: its last answer stands, or it failed. */
  | {
      readonly type: 'sent';
      readonly id: number;
      readonly askId: number;
      readonly failure: WireFailure | null;
    }
  /** The main thread has recorded the answer's validator (or could not). */
  | { readonly type: 'started'; readonly id: number; readonly failure: WireFailure | null }
  | { readonly type: 'hash'; readonly id: number; readonly file: string };

export type FromThread =
  /** Request `askId` to `url` goes to the site's origin: the token manager's rules apply. */
  | { readonly type: 'send'; readonly id: number; readonly askId: number; readonly url: string }
  | {
      readonly type: 'answered';
      readonly id: number;
      readonly askId: number;
      readonly status: number;
      readonly wwwAuthenticate: string | null;
    }
  | {
      readonly type: 'answer-failed';
      readonly id: number;
      readonly askId: number;
      readonly failure: WireFailure;
    }
  | { readonly type: 'start'; readonly id: number; readonly info: StartInfo }
  | { readonly type: 'bytes'; readonly id: number; readonly bytes: number }
  | { readonly type: 'durable'; readonly id: number; readonly bytes: number }
  | { readonly type: 'done'; readonly id: number; readonly result: TransferResult }
  | { readonly type: 'failed'; readonly id: number; readonly failure: WireFailure }
  | { readonly type: 'hashed'; readonly id: number; readonly sha256: string | null };
