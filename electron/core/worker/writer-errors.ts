import type { AppError } from '../../common/result';
import { CoreError, isCoreError } from '../errors';

/**
 * A failure as it crosses the writer's thread boundary: the core's code and plain-words message,
 * never an Error.
 */
export function toWireError(error: unknown): AppError {
  if (isCoreError(error)) return error.toAppError();
  const code = (error as { code?: unknown } | null)?.code;
  // SQLite's own codes say what went wrong (SQLITE_FULL, SQLITE_IOERR, SQLITE_BUSY...) without
  // quoting any data.
  return {
    code: 'storage-error',
    message: 'The offline data could not be saved; your earlier data is unchanged. Try again.',
    ...(typeof code === 'string' ? { detail: { reason: code } } : {}),
  };
}

export function fromWireError(error: AppError, cause?: unknown): CoreError {
  return new CoreError(
    error.code,
    error.message,
    error.detail,
    cause === undefined ? undefined : { cause },
  );
}
