/**
 * The authorization request (RFC 6749 §4.1.1 with PKCE S256, RFC 7636 §4.3; resource, RFC 8707 §2)
 * and the checks of the callback that answers it, one rule at a time, each with its own error code
 * (after oauth4webapi's validateAuthResponse): state, then iss (RFC 9207), then error parameters,
 * then the code.
 */
import { timingSafeEqual } from 'node:crypto';
import { CoreError, isCoreError } from '../errors';
import { redactString, rememberSecrets } from '../log';
import type { CallbackVerdict, FailureReason } from './callback-page';
import type { CallbackPageKind } from './loopback-receiver';
import { codeChallengeS256, createCodeVerifier, randomToken } from './pkce';
import { sanitizeDescription, signInFailedHint } from './token-client';

export interface AuthorizationRequest {
  readonly url: string;
  readonly state: string;
  readonly nonce: string;
  readonly codeVerifier: string;
}

/**
 * Builds the authorization URL (RFC 6749 §4.1.1, RFC 7636 §4.3, RFC 8707 §2.1, OIDC Core §3.1.2.1).
 */
export function buildAuthorizationRequest(input: {
  readonly authorizationEndpoint: string;
  readonly clientId: string;
  readonly redirectUri: string;
  readonly scopes: readonly string[];
  /** RFC 8707; null when the server refused it (see runSignIn). */
  readonly resource: string | null;
}): AuthorizationRequest {
  // OpenID Connect Core §11: a server that knows offline_access issues a refresh token only for it,
  // and only with prompt=consent (it ignores offline_access otherwise).
  const offline = input.scopes.includes('offline_access');
  const codeVerifier = createCodeVerifier();
  rememberSecrets(codeVerifier);
  const state = randomToken();
  const nonce = randomToken();
  const url = new URL(input.authorizationEndpoint);
  const params: Record<string, string> = {
    response_type: 'code',
    client_id: input.clientId,
    redirect_uri: input.redirectUri,
    scope: input.scopes.join(' '),
    state,
    nonce,
    code_challenge: codeChallengeS256(codeVerifier),
    code_challenge_method: 'S256',
    ...(input.resource !== null ? { resource: input.resource } : {}),
    ...(offline ? { prompt: 'consent' } : {}),
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return { url: url.href, state, nonce, codeVerifier };
}

/**
 * Checks a callback one rule at a time and returns the code. Each failure has its own code and
 * message: state-mismatch, issuer-mismatch, sign-in-denied (access_denied), sign-in-failed (other
 * errors / no code).
 */
export function validateCallback(
  params: URLSearchParams,
  expected: {
    readonly state: string;
    readonly issuer: string;
    readonly issParameterSupported: boolean;
  },
): string {
  // RFC 6749 §10.12: the state binds the answer to this attempt (CSRF). Checked first: nothing else
  // in an answer that is not ours is worth reading.
  if (params.get('state') !== expected.state) {
    throw new CoreError(
      'state-mismatch',
      'The sign-in answer does not belong to this sign-in attempt. Start the sign-in again.',
    );
  }
  // RFC 9207 §2.4: compare iss when present; when the server says it always sends iss, a missing
  // one is a failure.
  const iss = params.get('iss');
  if (iss !== null && iss !== expected.issuer) {
    throw new CoreError(
      'issuer-mismatch',
      'The sign-in answer came from a different site than the one you are signing in to.',
    );
  }
  if (iss === null && expected.issParameterSupported) {
    throw new CoreError(
      'issuer-mismatch',
      'The sign-in answer did not say which site it came from, although the site always does. Start again.',
    );
  }
  // The code is a secret from the moment it arrives: masked wherever it might be
  // echoed (see log.ts).
  rememberSecrets(params.get('code'));
  const error = params.get('error');
  if (error !== null) {
    // RFC 6749 §4.1.2.1: access_denied is the user saying no: a cancelled sign-in, not a crash.
    if (error === 'access_denied')
      throw new CoreError(
        'sign-in-denied',
        'The sign-in was cancelled at the site. Nothing was changed.',
      );
    const safeError =
      /^[\x20-\x7E]{1,64}$/.test(error) && redactString(error) === error ? error : 'error';
    const raw = sanitizeDescription(params.get('error_description'));
    const description = raw === null ? null : redactString(raw);
    throw new CoreError(
      'sign-in-failed',
      `The site could not sign you in (${safeError}${description ? `: ${description}` : ''}).`,
      {
        oauthError: safeError,
        at: 'authorization',
        hint: signInFailedHint(safeError),
      },
    );
  }
  const code = params.get('code');
  if (code === null || code === '')
    throw new CoreError(
      'sign-in-failed',
      'The site answered the sign-in without an authorization code.',
    );
  return code;
}

/** What the browser tab says about a failed sign-in: what the student can do about it. */
export function verdictFor(error: unknown): CallbackVerdict {
  if (!isCoreError(error)) return { kind: 'failed', reason: 'site' };
  const hint = error.detail?.hint;
  switch (error.code) {
    case 'sign-in-denied':
      return { kind: 'cancelled' };
    case 'sign-in-cancelled':
    case 'sign-in-timeout':
      return { kind: 'pending' };
    case 'id-token-invalid':
      return {
        kind: 'failed',
        reason: hint === 'clock' ? 'clock' : hint === 'algorithm' ? 'algorithm' : 'site',
      };
    case 'sign-in-failed':
      return { kind: 'failed', reason: signInFailedReason(hint) };
    case 'server-unavailable':
    case 'server-error':
      return { kind: 'failed', reason: 'server' };
    case 'site-unreachable':
    case 'network-unavailable':
      return { kind: 'failed', reason: 'network' };
    case 'wrong-organization':
      return { kind: 'failed', reason: 'organization' };
    case 'state-mismatch':
    case 'issuer-mismatch':
      return { kind: 'failed', reason: 'safety' };
    default:
      return { kind: 'failed', reason: 'site' };
  }
}

function signInFailedReason(hint: unknown): FailureReason {
  return hint === 'client' || hint === 'server' || hint === 'scope' || hint === 'access'
    ? hint
    : 'site';
}

/** Constant-time comparison of the returned state with ours. */
export function sameText(given: string | null, expected: string): boolean {
  if (given === null) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function classifyFor(
  expected: Parameters<typeof validateCallback>[1],
): (p: URLSearchParams) => CallbackPageKind {
  return (params) => {
    try {
      validateCallback(params, expected);
      return 'success';
    } catch (error) {
      return error instanceof CoreError && error.code === 'sign-in-denied' ? 'cancelled' : 'error';
    }
  };
}
