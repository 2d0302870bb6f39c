/**
 * Stable error codes shared by the core, both hosts and the renderer. The renderer maps each to a
 * translated explanation; the message in `AppError` is the English fallback.
 */
export const ERROR_CODES = [
  'invalid-input',
  'not-found',
  'network-unavailable',
  'site-unreachable',
  'discovery-invalid',
  'pkce-unsupported',
  'sign-in-cancelled',
  'sign-in-denied',
  'sign-in-timeout',
  'sign-in-failed',
  'state-mismatch',
  'issuer-mismatch',
  'id-token-invalid',
  'wrong-organization',
  'sign-in-needed',
  'insufficient-scope',
  'server-unavailable',
  'server-error',
  'sync-cancelled',
  'sync-failed',
  'storage-error',
  'site-data-invalid',
  'site-data-changing',
  'database-too-new',
  'forbidden',
  'internal',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}

/**
 * Failures that mean "the network or the site is not there right now" (a 503 included), as opposed
 * to a refusal: the sync tries again, and the app marks itself offline and probes until a site
 * answers.
 */
export const TRANSIENT_ERROR_CODES = [
  'site-unreachable',
  'server-unavailable',
  'network-unavailable',
] as const satisfies readonly ErrorCode[];

export function isTransientErrorCode(code: string): boolean {
  return (TRANSIENT_ERROR_CODES as readonly string[]).includes(code);
}
