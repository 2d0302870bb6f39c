/**
 * Access tokens for API calls: read from the vault, refreshed single-flight per site, and an
 * authorized fetch that only ever sends a site's token to that site's own origin (RFC 6750 §5.3,
 * RFC 8707: the token is bound to that resource).
 *
 * Refresh ordering follows the spec's token-pair lifecycle: the new pair is written to the
 * vault BEFORE it is used, because the first use of the new access token revokes the old pair.
 * If the refresh answer is lost (network error, timeout, crash before storing), nothing was
 * stored and nothing new was presented, so the old refresh token is still live and is simply
 * retried next time.
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
  /**
   * RFC 7009: where a refreshed pair the manager does not keep is revoked; null when the
   * site has none.
   */
  readonly revocationEndpoint?: string | null;
}

export interface TokenManagerOptions {
  readonly vault: Vault;
  readonly fetch: FetchLike;
  readonly resolveSite: (siteId: string) => SiteEndpoints;
  readonly clock?: { now(): number };
  readonly logger?: Logger;
  /**
   * Refresh when less than this is left: at most this (default 60 s), and at most a tenth of
   * the token's lifetime, so a token that lives under a minute is not refreshed before
   * nearly every call.
   */
  readonly refreshMarginMs?: number;
  /**
   * The refresh token was refused, or a 401 survived one refresh: the site needs a new sign-in.
   * `unreadable`: the saved sign-in could not be decrypted (key replaced, file damaged).
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
  /**
   * A usable access token; refreshes (once, shared by all concurrent callers) when it is
   * about to expire.
   */
  getAccessToken(siteId: string): Promise<string>;
  /**
   * Refreshes now, single-flight. With `rejected`, skips the refresh if the vault already holds a
   * different (newer) access token than the one the server rejected.
   */
  refresh(siteId: string, rejected?: string): Promise<string>;
  /**
   * fetch with the bearer token, for the site's own origin only; relative URLs resolve against it.
   */
  fetchFor(siteId: string): AuthorizedFetch;
  /** The same rules for a request sent elsewhere (worker-contract.ts `stage:fetch`). */
  sendWith(siteId: string): AuthorizedSend;
  /** Resolves once no refresh is in flight for the site (sign-out waits for it). */
  whenIdle(siteId: string): Promise<void>;
  /**
   * Stores a new sign-in: cancels a refresh of the site that is still on the wire (its answer,
   * whatever it is, is about a pair the sign-in replaces) and runs `write` with every other change
   * of the site's record held back, so nothing that was read before can be written over the new
   * pair. Resolves with `write`'s value.
   */
  supersede<T>(siteId: string, write: () => Promise<T>): Promise<T>;
}

function signInNeeded(
  message = 'Your sign-in to this site has ended. Sign in again; your offline data is kept.',
): CoreError {
  return new CoreError('sign-in-needed', message);
}

/**
 * What the token manager is made with (its seams: the vault, the network, the site's endpoints,
 * the UI's hooks).
 */
export type TokenManagerDeps = TokenManagerOptions;

export function createTokenManager(deps: TokenManagerDeps): TokenManager {
  return new SiteTokens(deps);
}

type Refreshed = Awaited<ReturnType<typeof refreshTokens>>;

export class SiteTokens implements TokenManager {
  readonly #deps: TokenManagerDeps;
  readonly #vault: Vault;
  readonly #clock: { now(): number };
  readonly #log: Logger;
  readonly #maxMargin: number;
  readonly #inflight = new Map<string, Promise<string>>();
  readonly #aborts = new Map<string, AbortController>();
  // Per site, the read-compare-write steps on the record run one at a time, in call order: a
  // refresh's outcome and a sign-in's new pair can then never interleave between the read
  // and the write.
  readonly #exclusive = createKeyedQueue();
  readonly #requests: ReturnType<typeof createAuthorizedRequests>;

  constructor(deps: TokenManagerDeps) {
    this.#deps = deps;
    this.#vault = deps.vault;
    this.#clock = deps.clock ?? Date;
    this.#log = (deps.logger ?? silentLogger).child('tokens');
    this.#maxMargin = deps.refreshMarginMs ?? 60_000;
    this.#requests = createAuthorizedRequests({
      fetch: deps.fetch,
      log: this.#log,
      originOf: (siteId) => deps.resolveSite(siteId).origin,
      getAccessToken: (siteId) => this.getAccessToken(siteId),
      refresh: (siteId, rejected) => this.refresh(siteId, rejected),
      refused: (siteId, token) => this.#refused(siteId, token),
      ...(deps.onInsufficientScope ? { onInsufficientScope: deps.onInsufficientScope } : {}),
    });
  }

  async getAccessToken(siteId: string): Promise<string> {
    const running = this.#inflight.get(siteId);
    if (running) return running;
    const current = await this.#readRecord(siteId);
    if (current === null || (current.accessToken === null && current.refreshToken === null)) {
      throw signInNeeded('You are not signed in to this site.');
    }
    if (this.#fresh(current)) return current.accessToken as string;
    return this.refresh(siteId);
  }

  refresh(siteId: string, rejected?: string): Promise<string> {
    const running = this.#inflight.get(siteId);
    if (running) return running;
    const p = this.#doRefresh(siteId, rejected).finally(() => {
      if (this.#inflight.get(siteId) === p) this.#inflight.delete(siteId);
    });
    this.#inflight.set(siteId, p);
    return p;
  }

  fetchFor(siteId: string): AuthorizedFetch {
    return this.#requests.fetchFor(siteId);
  }

  sendWith(siteId: string): AuthorizedSend {
    return this.#requests.sendWith(siteId);
  }

  async whenIdle(siteId: string): Promise<void> {
    await this.#inflight.get(siteId)?.catch(() => undefined);
  }

  supersede<T>(siteId: string, write: () => Promise<T>): Promise<T> {
    // Queued first, then the refresh is cancelled: its outcome step queues behind this write, sees
    // the new record and hands its callers the new access token.
    const done = this.#exclusive(siteId, write);
    this.#aborts
      .get(siteId)
      ?.abort(new CoreError('site-unreachable', 'The refresh was replaced by a new sign-in.'));
    return done;
  }

  #fresh(s: SiteSecrets): boolean {
    return (
      s.accessToken !== null &&
      (s.expiresAt === null || s.expiresAt - this.#clock.now() > refreshMargin(s, this.#maxMargin))
    );
  }

  /**
   * A pair the manager received and does not keep is revoked at the site, not left live
   * there (RFC 7009).
   */
  async #discard(
    siteId: string,
    pair: UnkeptPair,
    client: { clientId: string; clientSecret: string | null },
  ): Promise<void> {
    let revocationEndpoint: string | null = null;
    try {
      revocationEndpoint = this.#deps.resolveSite(siteId).revocationEndpoint ?? null;
    } catch {
      // The site was removed meanwhile: its endpoints are gone with it.
    }
    await revokeUnkept(
      pair,
      { revocationEndpoint, clientId: client.clientId, clientSecret: client.clientSecret },
      { fetch: this.#deps.fetch, clock: this.#clock, logger: this.#deps.logger },
    );
  }

  async #markSignInNeeded(siteId: string, current: SiteSecrets | null): Promise<void> {
    // The pair is dead: drop it (offline data is the DB's and stays untouched), keep
    // the client credentials.
    if (current && (current.accessToken !== null || current.refreshToken !== null)) {
      await this.#vault.put(siteId, {
        ...current,
        accessToken: null,
        refreshToken: null,
        expiresAt: null,
      });
    }
    await this.#deps.onSignInNeeded?.(siteId);
  }

  /**
   * Reads the record; one that cannot be decrypted (key replaced, file damaged) means
   * a new sign-in.
   */
  async #readRecord(siteId: string): Promise<SiteSecrets | null> {
    try {
      return await this.#vault.get(siteId);
    } catch (error) {
      if (!isCoreError(error, 'storage-error')) throw error;
      this.#log.warn('saved sign-in unreadable; sign-in needed', { siteId, error });
      await this.#deps.onSignInNeeded?.(siteId, 'unreadable');
      throw new CoreError(
        'sign-in-needed',
        'Your saved sign-in for this site could not be read. Sign in again; your offline data is kept.',
        undefined,
        { cause: error },
      );
    }
  }

  /** A 401 survived one refresh: the bearer rules end the sign-in of the pair that was refused. */
  #refused(siteId: string, token: string): Promise<void> {
    return this.#exclusive(siteId, async () => {
      // Only the pair that was just refused is dropped, never one a sign-in stored meanwhile. Its
      // refresh token still works at the token endpoint (it just minted `token`): revoked, not left
      // live unseen (RFC 7009).
      const latest = await this.#vault.get(siteId);
      if (latest?.accessToken !== token) return;
      await this.#discard(
        siteId,
        { accessToken: token, refreshToken: latest.refreshToken },
        latest,
      );
      await this.#markSignInNeeded(siteId, latest);
    });
  }

  async #doRefresh(siteId: string, rejected: string | undefined): Promise<string> {
    const current = await this.#readRecord(siteId);
    if (current === null) throw signInNeeded('You are not signed in to this site.');
    // Someone else refreshed while this caller was waiting: use their result instead of
    // a second refresh.
    if (
      rejected !== undefined
        ? current.accessToken !== null && current.accessToken !== rejected && this.#fresh(current)
        : this.#fresh(current)
    ) {
      return current.accessToken as string;
    }
    if (current.refreshToken === null) {
      await this.#markSignInNeeded(siteId, current);
      throw signInNeeded();
    }
    const site = this.#deps.resolveSite(siteId);
    const usedRefreshToken = current.refreshToken;
    const abort = new AbortController();
    this.#aborts.set(siteId, abort);
    let tokens: Refreshed;
    try {
      tokens = await this.#requestRefresh(site, current, usedRefreshToken, abort.signal);
    } catch (error) {
      return this.#refreshFailed(siteId, usedRefreshToken, error, abort.signal.aborted);
    } finally {
      if (this.#aborts.get(siteId) === abort) this.#aborts.delete(siteId);
    }
    return this.#exclusive(siteId, () => this.#keep(siteId, current, usedRefreshToken, tokens));
  }

  #requestRefresh(
    site: SiteEndpoints,
    current: SiteSecrets,
    refreshToken: string,
    signal: AbortSignal,
  ): Promise<Refreshed> {
    return refreshTokens(
      {
        tokenEndpoint: site.tokenEndpoint,
        refreshToken,
        clientId: current.clientId,
        clientSecret: current.clientSecret,
        resource: current.resource,
        previousScopes: current.scopes,
        schoolId: current.schoolId,
        revocationEndpoint: site.revocationEndpoint ?? null,
      },
      {
        fetch: this.#deps.fetch,
        clock: this.#clock,
        logger: this.#deps.logger,
        timeoutMs: this.#deps.timeoutMs,
        signal,
      },
    );
  }

  async #refreshFailed(
    siteId: string,
    usedRefreshToken: string,
    error: unknown,
    superseded: boolean,
  ): Promise<string> {
    // A refresh answered for another organization (spec "Token response": school_id absent or
    // changed) will not get better by retrying, and each retry would mint another live pair: sign
    // in again instead.
    const refused =
      isCoreError(error, 'sign-in-needed') || isCoreError(error, 'wrong-organization');
    if (!superseded && !refused) {
      // Lost or failed answer: the vault still holds the old pair, which stays valid until the
      // new access token is first presented (spec, token pair lifecycle), so the next call
      // retries with it.
      this.#log.warn('refresh failed; keeping the stored pair for a retry', { siteId, error });
      throw error;
    }
    return this.#exclusive(siteId, async () => {
      // Read again: the refusal is about the refresh token this request carried. A sign-in that
      // finished while it was on the wire (and revoked that grant, which is WHY the answer is
      // invalid_grant) stored a new pair that must survive; only a record still holding the refused
      // token is cleared.
      const latest = await this.#vault.get(siteId);
      if (latest === null || latest.refreshToken !== usedRefreshToken) {
        this.#log.info('refresh outcome discarded; the site record changed meanwhile', { siteId });
        if (latest?.accessToken) return latest.accessToken;
        throw signInNeeded();
      }
      if (superseded) throw error;
      this.#log.warn('refresh refused; sign-in needed', {
        siteId,
        code: (error as CoreError).code,
      });
      // Tokens for another organization: refreshTokens revoked the new pair; the old one, live
      // until a new access token is presented (spec, token pair lifecycle), is dropped below and so
      // is revoked too.
      if (isCoreError(error, 'wrong-organization'))
        await this.#discard(siteId, { accessToken: null, refreshToken: usedRefreshToken }, latest);
      await this.#markSignInNeeded(siteId, latest);
      throw error;
    });
  }

  /** The refreshed pair, stored before it is used; or revoked when the record changed meanwhile. */
  async #keep(
    siteId: string,
    current: SiteSecrets,
    usedRefreshToken: string,
    tokens: Refreshed,
  ): Promise<string> {
    // The record changed while the request was out (sign-out, or a new sign-in): do not resurrect a
    // pair the user ended; the stored record wins.
    const latest = await this.#vault.get(siteId);
    if (latest === null || latest.refreshToken !== usedRefreshToken) {
      this.#log.warn('site record changed during refresh; discarding the refreshed pair', {
        siteId,
      });
      // The refreshed pair is live at the site and nobody will use it: revoke it (never
      // the stored one).
      const refreshToken =
        tokens.refreshToken !== null && tokens.refreshToken !== latest?.refreshToken
          ? tokens.refreshToken
          : null;
      if (refreshToken !== null || tokens.accessToken !== latest?.accessToken) {
        await this.#discard(siteId, { accessToken: tokens.accessToken, refreshToken }, current);
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
    await this.#vault.put(siteId, next);
    return tokens.accessToken;
  }
}

/**
 * How long before expiry a token is refreshed: `max` (60 s) for a long-lived token, a tenth of the
 * lifetime for a short one (a 30 s token is refreshed 3 s before it ends, not at once); `max` when
 * the lifetime is not known.
 */
export function refreshMargin(
  s: Pick<SiteSecrets, 'expiresAt' | 'obtainedAt'>,
  max: number,
): number {
  if (s.expiresAt === null || s.obtainedAt === undefined || s.obtainedAt === null) return max;
  const lifetime = s.expiresAt - s.obtainedAt;
  return lifetime > 0 ? Math.min(max, lifetime / 10) : max;
}
