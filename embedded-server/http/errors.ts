/**
 * OAuth error classes: one per error code, each carrying its HTTP status, `error` and
 * `error_description` (RFC 6749 §5.2, RFC 7009 §2.2.1, RFC 7591 §3.2.2, RFC 8707 §2, RFC 6750
 * §3.1). One serializer, `toErrorBody`, turns anything else into a bare 500 `server_error` so
 * internals never leak (node-oidc-provider lib/helpers/errors.js, err_out.js).
 */
export abstract class OAuthError extends Error {
  abstract readonly error: string;
  readonly status: number = 400;
  /** Optional link to human documentation (the real service may add `error_uri`). */
  errorUri?: string;
  /**
   * Response headers the error requires (e.g. WWW-Authenticate for a refused Authorization header).
   */
  headers?: Record<string, string>;
  constructor(readonly description: string) {
    super(description);
    this.name = new.target.name;
  }
}

export class InvalidRequestError extends OAuthError {
  readonly error = 'invalid_request';
}
/** RFC 6749 §5.2: 401 when client authentication failed. */
export class InvalidClientError extends OAuthError {
  readonly error = 'invalid_client';
  override readonly status = 401;
}
export class InvalidGrantError extends OAuthError {
  readonly error = 'invalid_grant';
}
/**
 * Spec "Errors": revocation by a confidential client without its secret answers 403
 * unauthorized_client.
 */
export class UnauthorizedClientError extends OAuthError {
  readonly error = 'unauthorized_client';
  override readonly status: number;
  constructor(description: string, status = 400) {
    super(description);
    this.status = status;
  }
}
export class UnsupportedGrantTypeError extends OAuthError {
  readonly error = 'unsupported_grant_type';
}
export class UnsupportedResponseTypeError extends OAuthError {
  readonly error = 'unsupported_response_type';
}
export class UnsupportedTokenTypeError extends OAuthError {
  readonly error = 'unsupported_token_type';
}
export class InvalidScopeError extends OAuthError {
  readonly error = 'invalid_scope';
}
/** OpenID Connect Core §3.1.2.6 */
export class RequestNotSupportedError extends OAuthError {
  readonly error = 'request_not_supported';
}
/** OpenID Connect Core §3.1.2.6 */
export class RequestUriNotSupportedError extends OAuthError {
  readonly error = 'request_uri_not_supported';
}
/** RFC 8707 §2: the requested resource is invalid or not acceptable. */
export class InvalidTargetError extends OAuthError {
  readonly error = 'invalid_target';
}
export class AccessDeniedError extends OAuthError {
  readonly error = 'access_denied';
  override readonly status = 403;
}
/** RFC 7591 §3.2.2 */
export class InvalidClientMetadataError extends OAuthError {
  readonly error = 'invalid_client_metadata';
}
/** RFC 7591 §3.2.2 */
export class InvalidRedirectUriError extends OAuthError {
  readonly error = 'invalid_redirect_uri';
}
export class InvalidTokenError extends OAuthError {
  readonly error = 'invalid_token';
  override readonly status = 401;
}
export class InsufficientScopeError extends OAuthError {
  readonly error = 'insufficient_scope';
  override readonly status = 403;
}
export class TemporarilyUnavailableError extends OAuthError {
  readonly error = 'temporarily_unavailable';
  override readonly status = 503;
}
export class ServerError extends OAuthError {
  readonly error = 'server_error';
  override readonly status = 500;
}
/** Not an OAuth code, but served with the same JSON shape for unknown paths and methods. */
export class NotFoundError extends OAuthError {
  readonly error = 'not_found';
  override readonly status = 404;
}
export class MethodNotAllowedError extends OAuthError {
  readonly error = 'method_not_allowed';
  override readonly status = 405;
}
/** RFC 6585 §4: the loopback registration quota (decision 25); carries Retry-After. */
export class TooManyRegistrationsError extends OAuthError {
  readonly error = 'temporarily_unavailable';
  override readonly status = 429;
}
export class PayloadTooLargeError extends OAuthError {
  readonly error = 'invalid_request';
  override readonly status = 413;
}

export interface ErrorBody {
  error: string;
  error_description: string;
  error_uri?: string;
}

/**
 * The one serializer. Unknown errors become a bare server_error: no message, no stack, no class
 * name.
 */
export function toErrorBody(err: unknown): {
  status: number;
  body: ErrorBody;
  headers?: Record<string, string>;
} {
  if (err instanceof OAuthError) {
    const body: ErrorBody = { error: err.error, error_description: err.description };
    if (err.errorUri) body.error_uri = err.errorUri;
    return { status: err.status, body, ...(err.headers ? { headers: err.headers } : {}) };
  }
  return {
    status: 500,
    body: {
      error: 'server_error',
      error_description: 'The server encountered an unexpected condition.',
    },
  };
}
