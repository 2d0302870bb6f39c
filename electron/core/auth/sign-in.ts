/**
 * The native-app sign-in (RFC 8252): authorization code + PKCE S256 through the system browser, a
 * loopback redirect, then the code exchange, then the identity (verified id_token, else UserInfo).
 * The request and the checks of its callback are authorization.ts's.
 */
import type { SignInPhase } from '../../common/view-models';
import { CoreError, isCoreError } from '../errors';
import type { Logger } from '../log';
import { silentLogger } from '../log';
import type { FetchLike } from '../net/http';
import { abortError } from '../net/http';
import type { ServerMetadata } from './discovery';
import type { JwksCache, UserProfile } from './id-token';
import { createJwksCache, fetchUserInfo, fetchViewer, verifyIdToken } from './id-token';
import { startLoopbackReceiver } from './loopback-receiver';
import { requireMemberAccess } from './member-access';
import type { TokenSet } from './token-client';
import { exchangeCode, revokeUnkept } from './token-client';
import {
  buildAuthorizationRequest,
  classifyFor,
  sameText,
  validateCallback,
  verdictFor,
  type AuthorizationRequest,
} from './authorization';

export { buildAuthorizationRequest, validateCallback, verdictFor, type AuthorizationRequest };

/** Spec scopes for the member audience. */
export const MEMBER_SCOPES: readonly string[] = [
  'openid',
  'profile',
  'email',
  'account:read',
  'account:write',
];
export const DEFAULT_SIGN_IN_TIMEOUT_MS = 5 * 60_000;

export interface SignInOptions {
  readonly metadata: ServerMetadata;
  readonly clientId: string;
  readonly clientSecret: string | null;
  readonly scopes?: readonly string[];
  /** Opens the system browser. Only http(s) URLs are ever passed. */
  readonly openExternal: (url: string) => Promise<void> | void;
  readonly fetch: FetchLike;
  readonly clock?: { now(): number };
  readonly logger?: Logger;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
  readonly onProgress?: (phase: SignInPhase, authorizationUrl?: string) => void;
  /** Reuse a key-set cache across sign-ins to the same site. */
  readonly jwks?: JwksCache;
}

export interface SignInResult {
  readonly tokens: TokenSet;
  readonly profile: UserProfile;
  /**
   * The RFC 8707 resource that was sent; stored with the pair (the server cannot tell it back).
   * Null: none was.
   */
  readonly resource: string | null;
  readonly idTokenVerified: boolean;
}

/**
 * Runs one sign-in from the browser to verified tokens. The receiver only listens while this runs.
 * RFC 8707 §2: an authorization server that does not know the resource indicator answers
 * invalid_target (node-oidc- provider's defaults do so for any resource). That server issues no
 * audience-bound tokens at all, so the sign-in is asked for once more without one (the browser
 * opens again) rather than failing for good; the pair is then stored without a resource and
 * refreshed without one, but only once the member API has taken it (member-access.ts): a pair bound
 * to the sign-in service alone is revoked, and the student told that this sign-in does not reach
 * the member data, instead of a "sign in again" that can never help.
 */
export async function runSignIn(options: SignInOptions): Promise<SignInResult> {
  try {
    return await runAttempt(options, options.metadata.resource);
  } catch (error) {
    if (!(
      isCoreError(error, 'sign-in-failed') &&
      error.detail?.oauthError === 'invalid_target' &&
      error.detail.at === 'authorization'
    ))
      throw error;
    if (options.signal?.aborted) throw error;
    (options.logger ?? silentLogger)
      .child('sign-in')
      .info('the site refused the resource indicator; signing in without one');
    return runAttempt(options, null);
  }
}

async function runAttempt(options: SignInOptions, resource: string | null): Promise<SignInResult> {
  const log = (options.logger ?? silentLogger).child('sign-in');
  const { metadata } = options;
  const scopes = scopesFor(options);
  const progress = options.onProgress ?? (() => undefined);
  if (options.signal?.aborted) throw abortError(options.signal);

  const expected = {
    state: '',
    issuer: metadata.issuer,
    issParameterSupported: metadata.authorizationResponseIssParameterSupported,
  };
  let stateRef = expected;
  const receiver = await startLoopbackReceiver({
    classify: (p) => classifyFor(stateRef)(p),
    // RFC 6749 §10.12: only the answer carrying this attempt's state ends the wait (a stray one
    // never cancels it).
    belongs: (p) => stateRef.state !== '' && sameText(p.get('state'), stateRef.state),
    logger: options.logger,
    // The tab shows the app's verdict after the exchange and the identity check, not before.
    awaitVerdict: true,
  });
  const deadline = attemptDeadline(options);
  const { signal } = deadline;
  // A pair the site issued but this sign-in will not keep (identity check failed,
  // cancelled while verifying).
  let issued: TokenSet | null = null;
  try {
    const authz = buildAuthorizationRequest({
      authorizationEndpoint: metadata.authorizationEndpoint,
      clientId: options.clientId,
      redirectUri: receiver.redirectUri,
      scopes,
      resource,
    });
    stateRef = { ...expected, state: authz.state };
    await openBrowser(options, authz.url, log);
    const params = await raceAbort(receiver.callback, signal);
    const code = validateCallback(params, stateRef);

    progress('exchanging-code');
    const tokens = await exchangeCode(
      {
        tokenEndpoint: metadata.tokenEndpoint,
        code,
        redirectUri: receiver.redirectUri,
        codeVerifier: authz.codeVerifier,
        clientId: options.clientId,
        clientSecret: options.clientSecret,
        resource,
        requestedScopes: scopes,
        revocationEndpoint: metadata.revocationEndpoint,
      },
      { fetch: options.fetch, clock: options.clock, logger: options.logger, signal },
    );
    issued = tokens;
    progress('verifying');
    const { profile, idTokenVerified } = await identify(options, tokens, authz.nonce, signal);
    // Without a resource the pair may be one the member API refuses: tried once, revoked below
    // if it is.
    if (resource === null)
      await requireMemberAccess(metadata.resource, tokens.accessToken, { ...options, signal });
    // Cancelled while verifying: the student no longer wants this pair (the catch
    // below revokes it).
    if (signal.aborted) throw abortError(signal);
    log.info('sign-in complete', { idTokenVerified, scopes: tokens.scopes });
    receiver.finish({ kind: 'success' });
    return { tokens, profile, resource, idTokenVerified };
  } catch (error) {
    receiver.finish(verdictFor(error));
    if (issued !== null) await discardPair(issued, options);
    // Cancelled or timed out: the reason (sign-in-cancelled / sign-in-timeout) is what the user
    // needs to see.
    if (signal.aborted) throw abortError(signal, error);
    throw error;
  } finally {
    deadline.dispose();
    receiver.finish({ kind: 'pending' });
    await receiver.close();
  }
}

/**
 * The scopes asked for. The spec's service issues refresh tokens without offline_access and does
 * not list it; a stock OpenID provider that lists it issues one only when asked (OpenID Connect
 * Core §11), and without one the student would have to sign in again every hour.
 */
function scopesFor(options: SignInOptions): readonly string[] {
  const memberScopes = options.scopes ?? MEMBER_SCOPES;
  return options.metadata.scopesSupported?.includes('offline_access') === true &&
    !memberScopes.includes('offline_access')
    ? [...memberScopes, 'offline_access']
    : memberScopes;
}

/** One attempt's signal: the caller's cancel, or the sign-in timeout. `dispose` lets go of both. */
function attemptDeadline(options: SignInOptions): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(
    () =>
      controller.abort(
        new CoreError(
          'sign-in-timeout',
          'The sign-in took too long and was stopped. Start it again when you are ready.',
        ),
      ),
    options.timeoutMs ?? DEFAULT_SIGN_IN_TIMEOUT_MS,
  );
  return {
    signal: controller.signal,
    dispose: () => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    },
  };
}

/** The system browser at the authorization URL (a web address only). */
async function openBrowser(options: SignInOptions, url: string, log: Logger): Promise<void> {
  const parsedUrl = new URL(url);
  if (parsedUrl.protocol !== 'https:' && parsedUrl.protocol !== 'http:') {
    throw new CoreError('discovery-invalid', 'The sign-in page address is not a web address.');
  }
  options.onProgress?.('waiting-for-browser', url);
  // The URL carries state and nonce: log only where it goes.
  log.info('opening browser', { endpoint: options.metadata.authorizationEndpoint });
  try {
    await options.openExternal(url);
  } catch (cause) {
    if (cause instanceof CoreError) throw cause;
    throw new CoreError(
      'sign-in-failed',
      'The web browser could not be opened for the sign-in.',
      undefined,
      { cause },
    );
  }
}

/**
 * Who signed in: the verified id_token (UserInfo only for a missing profile), else UserInfo
 * or the viewer.
 */
async function identify(
  options: SignInOptions,
  tokens: TokenSet,
  nonce: string,
  signal: AbortSignal,
): Promise<{ profile: UserProfile; idTokenVerified: boolean }> {
  const { metadata } = options;
  if (tokens.idToken === null) {
    // Spec: the JWKS can be published before signing starts; UserInfo is the fallback. A server
    // that issues no id_token and has no UserInfo, or whose UserInfo refuses a token bound to the
    // member API (RFC 8707), still lets the member API say who the token belongs to (its `viewer`).
    const profile = await identifyWithoutIdToken(metadata, tokens.accessToken, {
      fetch: options.fetch,
      signal,
      logger: options.logger,
    });
    return { profile, idTokenVerified: false };
  }
  if (metadata.jwksUri === null)
    throw new CoreError(
      'id-token-invalid',
      'The site sent an identity token but publishes no keys to check it.',
    );
  const jwks =
    options.jwks ??
    createJwksCache(metadata.jwksUri, { fetch: options.fetch, clock: options.clock });
  const profile = await verifyIdToken({
    idToken: tokens.idToken,
    issuer: metadata.issuer,
    clientId: options.clientId,
    nonce,
    jwks,
    clock: options.clock,
    algorithms: metadata.idTokenSigningAlgs,
  });
  // Spec: "A verified id_token needs no UserInfo call". Only if it lacks the profile do we ask
  // UserInfo, and a UserInfo that refuses leaves the verified profile as it is.
  if (profile.email !== null || profile.name !== null || metadata.userinfoEndpoint === null)
    return { profile, idTokenVerified: true };
  const completed = await fetchUserInfo(metadata.userinfoEndpoint, tokens.accessToken, {
    fetch: options.fetch,
    signal,
    logger: options.logger,
    expectedSub: profile.sub,
  }).catch((error: unknown) => {
    if (isCoreError(error, 'sign-in-failed') && error.detail?.refused === true) return profile;
    throw error;
  });
  return { profile: completed, idTokenVerified: true };
}

/**
 * The member without an id_token: UserInfo when the site has one and it answers, else the
 * member API's viewer.
 */
async function identifyWithoutIdToken(
  metadata: ServerMetadata,
  accessToken: string,
  options: { fetch: FetchLike; signal: AbortSignal; logger?: Logger },
): Promise<UserProfile> {
  if (metadata.userinfoEndpoint !== null) {
    try {
      return await fetchUserInfo(metadata.userinfoEndpoint, accessToken, options);
    } catch (error) {
      if (!(isCoreError(error, 'sign-in-failed') && error.detail?.refused === true)) throw error;
    }
  }
  return fetchViewer(`${metadata.resource}/member/graphql`, accessToken, options);
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

/** A pair the sign-in will not keep is revoked (see revokeUnkept). */
async function discardPair(tokens: TokenSet, options: SignInOptions): Promise<void> {
  await revokeUnkept(
    tokens,
    {
      revocationEndpoint: options.metadata.revocationEndpoint,
      clientId: options.clientId,
      clientSecret: options.clientSecret,
    },
    options,
  );
}
