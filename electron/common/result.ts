/**
 * Results that cross a process boundary. Error subclasses do not survive structured clone, so every
 * channel answers `{ ok: true, value } | { ok: false, error }` instead of throwing.
 */
import type { ErrorCode } from './errors';

export interface AppError {
  readonly code: ErrorCode;
  /** Plain words for the user: what happened and what to do next. Never carries a secret. */
  readonly message: string;
  /** Optional machine detail, e.g. the missing scope for `insufficient-scope`. */
  readonly detail?: Readonly<Record<string, string | number | boolean | null>>;
}

export type Result<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: AppError };

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function err<T = never>(
  code: ErrorCode,
  message: string,
  detail?: AppError['detail'],
): Result<T> {
  return detail === undefined
    ? { ok: false, error: { code, message } }
    : { ok: false, error: { code, message, detail } };
}

/**
 * Handlers return their value (or throw a CoreError); this wraps each answer in `ok`, and the
 * dispatcher (electron/core/ipc-dispatch.ts) turns what they throw into the failed Result.
 */
export function withResults<
  H extends { readonly [K in keyof H]: (input: never) => Promise<unknown> },
>(
  handlers: H,
): { [K in keyof H]: (input: Parameters<H[K]>[0]) => Promise<Result<Awaited<ReturnType<H[K]>>>> } {
  const wrapped: Record<string, (input: unknown) => Promise<Result<unknown>>> = {};
  for (const [name, handler] of Object.entries(handlers) as [
    string,
    (input: unknown) => Promise<unknown>,
  ][]) {
    wrapped[name] = async (input) => ok(await handler(input));
  }
  return wrapped as {
    [K in keyof H]: (input: Parameters<H[K]>[0]) => Promise<Result<Awaited<ReturnType<H[K]>>>>;
  };
}

export function assertNever(value: never, what = 'value'): never {
  throw new Error(`Unexpected ${what}: ${JSON.stringify(value)}`);
}
