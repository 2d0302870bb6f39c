/**
 * Access tokens for API calls: read from the vault, refreshed single-flight per site, and an authorized fetch
 * that only ever sends a site's token to that site's own origin (RFC 6750 §5.3, RFC 8707: the token is bound
 * to that resource).
 *
 * Refresh ordering follows the spec's token-pair lifecycle: the new pair is written to the vault BEFORE it is
 * used, because the first use of the new access token revokes the old pair. If the refresh answer is lost
 * (network error, timeout, crash before storing), nothing was stored and nothing new was presented, so the
 * old refresh token is still live and is simply retried next time.
 */
import { CoreError, isCoreError } from '../errors';
import type { Logger } from '../log';
import { silentLogger } from '../log';
import type { FetchLike } from '../net/http';
import { createKeyedQueue } from '../fs/keyed-queue';
import type { SiteSecrets, Vault } from '../vault/vault';
import { createAuthorizedRequests, type AuthorizedFetch, type AuthorizedSend } from './bearer';
import type { UnkeptPair } from './token-client';
import { refreshTokens, revokeUnkept } from './token-client';

export interface SiteEndpoints {
  /** The site origin: the only origin its tokens are ever sent to. */
  readonly origin: string;
  readonly tokenEndpoint: string;
  /** RFC 7009: where a refreshed pair the manager does not keep is revoked; null when the site has none. */
  readonly revocationEndpoint?: string | null;
}

export interface TokenManagerOptions {
  readonly vault: Vault;
  readonly fetch: FetchLike;
  readonly resolveSite: (siteId: string) => SiteEndpoints;
  readonly clock?: { now(): number };
  readonly logger?: Logger;
  /**
   * Refresh when less than this is left: at most this (default 60 s), and at most a tenth of the token's lifetime,
   * so a token that lives under a minute is not refreshed before nearly every call.
   */
  readonly refreshMarginMs?: number;
  /**
   * The refresh token was refused, or a 401 survived one refresh: the site needs a new sign-in. `unreadable`:
   * the saved sign-in could not be decrypted (key replaced, file damaged).
   */
  readonly onSignInNeeded?: (siteId: string, reason?: 'unreadable') => Promise<void> | void;
  /** A 403 insufficient_scope named these scopes (RFC 6750 §3.1). */
  readonly onInsufficientScope?: (
    siteId: string,
    scopes: readonly string[],
  ) => Promise<void> | void;
  readonly timeoutMs?: number;
}

export type { AuthorizedFetch, AuthorizedSend, SentAnswer } from './bearer';
export { isScopeName, parseBearerChallenge } from './bearer';

export interface TokenManager {
  /** A usable access token; refreshes (once, shared by all concurrent callers) when it is about to expire. */
  getAccessToken(siteId: string): Promise<string>;
  /**
   * Refreshes now, single-flight. With `rejected`, skips the refresh if the vault already holds a different
   * (newer) access token than the one the server rejected.
   */
  refresh(siteId: string, rejected?: string): Promise<string>;
  /** fetch with the bearer token, for the site's own origin only; relative URLs resolve against it. */
  fetchFor(siteId: string): AuthorizedFetch;
  /** The same rules for a request sent elsewhere (worker-contract.ts `stage:fetch`). */
  sendWith(siteId: string): AuthorizedSend;
  /** Resolves once no refresh is in flight for the site (sign-out waits for it). */
  whenIdle(siteId: string): Promise<void>;
  /**
   * Stores a new sign-in: cancels a refresh of the site that is still on the wire (its answer, whatever it
   * is, is about a pair the sign-in replaces) and runs `write` with every other change of the site's record
   * held back, so nothing that was read before can be written over the new pair. Resolves with `write`'s value.
   */
  supersede<T>(siteId: string, write: () => Promise<T>): Promise<T>;
}

function signInNeeded(
  message = 'Your sign-in to this site has ended. Sign in again; your offline data is kept.',
): CoreError {
  return new CoreError('sign-in-needed', message);
}

export function createTokenManager(options: TokenManagerOptions): TokenManager {
  const { vault } = options;
  const clock = options.clock ?? Date;
  const log = (options.logger ?? silentLogger).child('tokens');
  const maxMargin = options.refreshMarginMs ?? 60_000;
  const inflight = new Map<string, Promise<string>>();
  const aborts = new Map<string, AbortController>();
  // Per site, the read-compare-write steps on the record run one at a time, in call order: a refresh's
  // outcome and a sign-in's new pair can then never interleave between the read and the write.
  const exclusive = createKeyedQueue();

  const fresh = (s: SiteSecrets): boolean =>
    s.accessToken !== null &&
    (s.expiresAt === null || s.expiresAt - clock.now() > refreshMargin(s, maxMargin));

  /** A pair the manager received and does not keep is revoked at the site, not left live there (RFC 7009). */
  async function discard(
    siteId: string,
    pair: UnkeptPair,
    client: { clientId: string; clientSecret: string | null },
  ): Promise<void> {
    let revocationEndpoint: string | null = null;
    try {
      revocationEndpoint = options.resolveSite(siteId).revocationEndpoint ?? null;
    } catch {
      // The site was removed meanwhile: its endpoints are gone with it.
    }
    await revokeUnkept(
      pair,
      { revocationEndpoint, clientId: client.clientId, clientSecret: client.clientSecret },
      { fetch: options.fetch, clock, logger: options.logger },
    );
  }

  async function markSignInNeeded(siteId: string, current: SiteSecrets | null): Promise<void> {
    // The pair is dead: drop it (offline data is the DB's and stays untouched), keep the client credentials.
    if (current && (current.accessToken !== null || current.refreshToken !== null)) {
      await vault.put(siteId, {
        ...current,
        accessToken: null,
        refreshToken: null,
        expiresAt: null,
      });
    }
    await options.onSignInNeeded?.(siteId);
  }

  /** Reads the record; one that cannot be decrypted (key replaced, file damaged) means a new sign-in. */
  async function readRecord(siteId: string): Promise<SiteSecrets | null> {
    try {
      return await vault.get(siteId);
    } catch (error) {
      if (!isCoreError(error, 'storage-error')) throw error;
      log.warn('saved sign-in unreadable; sign-in needed', { siteId, error });
      await options.onSignInNeeded?.(siteId, 'unreadable');
      throw new CoreError(
        'sign-in-needed',
        'Your saved sign-in for this site could not be read. Sign in again; your offline data is kept.',
        undefined,
        { cause: error },
      );
    }
  }

  async function doRefresh(siteId: string, rejected: string | undefined): Promise<string> {
    const current = await readRecord(siteId);
    if (current === null) throw signInNeeded('You are not signed in to this site.');
    // Someone else refreshed while this caller was waiting: use their result instead of a second refresh.
    if (
      rejected !== undefined
        ? current.accessToken !== null && current.accessToken !== rejected && fresh(current)
        : fresh(current)
    ) {
      return current.accessToken as string;
    }
    if (current.refreshToken === null) {
      await markSignInNeeded(siteId, current);
      throw signInNeeded();
    }
    const site = options.resolveSite(siteId);
    const usedRefreshToken = current.refreshToken;
    const abort = new AbortController();
    aborts.set(siteId, abort);
    let tokens;
    try {
      tokens = await refreshTokens(
        {
          tokenEndpoint: site.tokenEndpoint,
          refreshToken: usedRefreshToken,
          clientId: current.clientId,
          clientSecret: current.clientSecret,
          resource: current.resource,
          previousScopes: current.scopes,
          schoolId: current.schoolId,
          revocationEndpoint: site.revocationEndpoint ?? null,
        },
        {
          fetch: options.fetch,
          clock,
          logger: options.logger,
          timeoutMs: options.timeoutMs,
          signal: abort.signal,
        },
      );
    } catch (error) {
      const superseded = abort.signal.aborted;
      // A refresh answered for another organization (spec "Token response": school_id absent or changed) will
      // not get better by retrying, and each retry would mint another live pair: sign in again instead.
      const refused =
        isCoreError(error, 'sign-in-needed') || isCoreError(error, 'wrong-organization');
      if (!superseded && !refused) {
        // Lost or failed answer: the vault still holds the old pair, which stays valid until the new access
        // token is first presented (spec, token pair lifecycle), so the next call retries with it.
        log.warn('refresh failed; keeping the stored pair for a retry', { siteId, error });
        throw error;
      }
      return exclusive(siteId, async () => {
        // Read again: the refusal is about the refresh token this request carried. A sign-in that finished
        // while it was on the wire (and revoked that grant, which is WHY the answer is invalid_grant) stored a
        // new pair that must survive; only a record still holding the refused token is cleared.
        const latest = await vault.get(siteId);
        if (latest === null || latest.refreshToken !== usedRefreshToken) {
          log.info('refresh outcome discarded; the site record changed meanwhile', { siteId });
          if (latest?.accessToken) return latest.accessToken;
          throw signInNeeded();
        }
        if (superseded) throw error;
        log.warn('refresh refused; sign-in needed', { siteId, code: (error as CoreError).code });
        // Tokens for another organization: refreshTokens revoked the new pair; the old one, live until a new access
        // token is presented (spec, token pair lifecycle), is dropped below and so is revoked too.
        if (isCoreError(error, 'wrong-organization'))
          await discard(siteId, { accessToken: null, refreshToken: usedRefreshToken }, latest);
        await markSignInNeeded(siteId, latest);
        throw error;
      });
    } finally {
      if (aborts.get(siteId) === abort) aborts.delete(siteId);
    }
    return exclusive(siteId, async () => {
      // The record changed while the request was out (sign-out, or a new sign-in): do not resurrect a pair
      // the user ended; the stored record wins.
      const latest = await vault.get(siteId);
      if (latest === null || latest.refreshToken !== usedRefreshToken) {
        log.warn('site record changed during refresh; discarding the refreshed pair', { siteId });
        // The refreshed pair is live at the site and nobody will use it: revoke it (never the stored one).
        const refreshToken =
          tokens.refreshToken !== null && tokens.refreshToken !== latest?.refreshToken
            ? tokens.refreshToken
            : null;
        if (refreshToken !== null || tokens.accessToken !== latest?.accessToken) {
          await discard(siteId, { accessToken: tokens.accessToken, refreshToken }, current);
        }
        if (latest?.accessToken) return latest.accessToken;
        throw signInNeeded();
      }
      const next: SiteSecrets = {
        ...latest,
        accessToken: tokens.accessToken,
        // RFC 6749 §6: the server may keep the same refresh token (then it omits it).
        refreshToken: tokens.refreshToken ?? usedRefreshToken,
        expiresAt: tokens.expiresAt,
        obtainedAt: tokens.obtainedAt,
        scopes: tokens.scopes,
        schoolId: tokens.schoolId,
        schoolSubdomain: tokens.schoolSubdomain ?? latest.schoolSubdomain,
      };
      // Durable BEFORE first use (see the file comment).
      await vault.put(siteId, next);
      return tokens.accessToken;
    });
  }

  function refresh(siteId: string, rejected?: string): Promise<string> {
    const running = inflight.get(siteId);
    if (running) return running;
    const p = doRefresh(siteId, rejected).finally(() => {
      if (inflight.get(siteId) === p) inflight.delete(siteId);
    });
    inflight.set(siteId, p);
    return p;
  }

  async function getAccessToken(siteId: string): Promise<string> {
    const running = inflight.get(siteId);
    if (running) return running;
    const current = await readRecord(siteId);
    if (current === null || (current.accessToken === null && current.refreshToken === null)) {
      throw signInNeeded('You are not signed in to this site.');
    }
    if (fresh(current)) return current.accessToken as string;
    return refresh(siteId);
  }

  const { fetchFor, sendWith } = createAuthorizedRequests({
    fetch: options.fetch,
    log,
    originOf: (siteId) => options.resolveSite(siteId).origin,
    getAccessToken,
    refresh,
    refused: (siteId, token) =>
      exclusive(siteId, async () => {
        // Only the pair that was just refused is dropped, never one a sign-in stored meanwhile. Its refresh token
        // still works at the token endpoint (it just minted `token`): revoked, not left live unseen (RFC 7009).
        const latest = await vault.get(siteId);
        if (latest?.accessToken !== token) return;
        await discard(siteId, { accessToken: token, refreshToken: latest.refreshToken }, latest);
        await markSignInNeeded(siteId, latest);
      }),
    ...(options.onInsufficientScope ? { onInsufficientScope: options.onInsufficientScope } : {}),
  });

  async function whenIdle(siteId: string): Promise<void> {
    await inflight.get(siteId)?.catch(() => undefined);
  }

  function supersede<T>(siteId: string, write: () => Promise<T>): Promise<T> {
    // Queued first, then the refresh is cancelled: its outcome step queues behind this write, sees the new
    // record and hands its callers the new access token.
    const done = exclusive(siteId, write);
    aborts
      .get(siteId)
      ?.abort(new CoreError('site-unreachable', 'The refresh was replaced by a new sign-in.'));
    return done;
  }

  return { getAccessToken, refresh, fetchFor, sendWith, whenIdle, supersede };
}

/**
 * How long before expiry a token is refreshed: `max` (60 s) for a long-lived token, a tenth of the lifetime for a
 * short one (a 30 s token is refreshed 3 s before it ends, not at once); `max` when the lifetime is not known.
 */
export function refreshMargin(
  s: Pick<SiteSecrets, 'expiresAt' | 'obtainedAt'>,
  max: number,
): number {
  if (s.expiresAt === null || s.obtainedAt === undefined || s.obtainedAt === null) return max;
  const lifetime = s.expiresAt - s.obtainedAt;
  return lifetime > 0 ? Math.min(max, lifetime / 10) : max;
}
