import { isTransientErrorCode, type ErrorCode } from '../common/errors';
import type { AppError } from '../common/result';

/**
 * The core's one error type: a stable `code` from electron/common/errors, a message in plain words
 * for the user (never a secret), an optional detail, and the `cause` for diagnostics (oauth4webapi
 * style). Services throw it; the IPC layer turns it into `{ ok: false, error }`.
 */
export class CoreError extends Error {
  override readonly name = 'CoreError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly detail?: AppError['detail'],
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /**
   * What console.error / util.inspect print: the code and the plain-words message only. Node's
   * default would print the cause chain, and a cause may quote a token (a site's echo, a response
   * body).
   */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `${this.name} [${this.code}]: ${this.message}`;
  }

  toAppError(): AppError {
    return this.detail === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, detail: this.detail };
  }
}

/**
 * Worth another try: the network, or a site briefly unavailable (common/errors.ts
 * TRANSIENT_ERROR_CODES).
 */
export function isTransient(error: CoreError): boolean {
  return isTransientErrorCode(error.code);
}

export function isCoreError(value: unknown, code?: ErrorCode): value is CoreError {
  return value instanceof CoreError && (code === undefined || value.code === code);
}
