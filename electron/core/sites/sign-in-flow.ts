import type { SignInAttemptRecord } from '../../common/doctor';
import type { SignInProgress, SiteSummary } from '../../common/view-models';
import { discover, type ServerMetadata } from '../auth/discovery';
import type { JwksCache } from '../auth/id-token';
import { createJwksCache } from '../auth/id-token';
import {
  runSignIn,
  MEMBER_SCOPES,
  DEFAULT_SIGN_IN_TIMEOUT_MS,
  type SignInResult,
} from '../auth/sign-in';
import type { TokenManager } from '../auth/token-manager';
import { CoreError, isCoreError } from '../errors';
import type { Logger } from '../log';
import type { FetchLike } from '../net/http';
import type { SiteSecrets, Vault } from '../vault/vault';
import type { RevocationQueue } from './sign-out';
import type { SiteRecord } from './site-store';
import { storedMetadata, type SiteRegistry } from './site-registry';

/**
 * The sign-in flow of one site: discovery, the browser (RFC 8252), the code exchange and the
 * id_token, then the new pair in the vault. A second attempt for the same site replaces the first;
 * the pair it replaces is revoked.
 */

/**
 * The scopes of the member's data (spec "Scopes"): the ones a declined consent makes the app unable
 * to serve.
 */
const DATA_SCOPES: readonly string[] = ['account:read', 'account:write'];

export interface SignInFlow {
  signIn(siteId: string, signInOptions?: { signal?: AbortSignal }): Promise<SiteSummary>;
  cancelSignIn(siteId: string): void;
  /** A record that cannot be decrypted (key replaced, file damaged) reads as none. */
  readSecretsForSignIn(siteId: string): Promise<SiteSecrets | null>;
  lastSignInAttempt(siteId: string): SignInAttemptRecord | null;
  /** The site was removed: its attempt and its JWKS cache go too. */
  forget(siteId: string): void;
  onProgress(listener: (progress: SignInProgress) => void): () => void;
  close(): void;
}

export interface SignInFlowDeps {
  readonly registry: SiteRegistry;
  readonly vault: Vault;
  readonly tokens: TokenManager;
  readonly revocations: Pick<RevocationQueue, 'retryPendingRevocations'>;
  readonly options: {
    /**
     * Opens the system browser (Electron: shell.openExternal; browser host: a host:open-url event).
     */
    readonly openExternal: (url: string) => Promise<void> | void;
    readonly signInTimeoutMs?: number;
    /** Scopes asked for at sign-in (default: the member scopes of the spec). */
    readonly scopes?: readonly string[];
  };
  readonly fetchImpl: FetchLike;
  readonly clock: { now(): number };
  readonly logger: Logger;
  readonly log: Logger;
  /** Fire-and-forget work the site manager's close() waits for. */
  readonly track: (p: Promise<unknown>) => void;
}

/**
 * How far one attempt got, kept for the sign-in doctor (no URL, code or token: only what happened).
 */
class AttemptLog {
  readonly #siteId: string;
  readonly #attempts: Map<string, SignInAttemptRecord>;
  readonly #emit: (progress: SignInProgress) => void;
  #attempt: SignInAttemptRecord;

  constructor(deps: {
    readonly siteId: string;
    readonly at: string;
    readonly attempts: Map<string, SignInAttemptRecord>;
    readonly emit: (progress: SignInProgress) => void;
  }) {
    this.#siteId = deps.siteId;
    this.#attempts = deps.attempts;
    this.#emit = deps.emit;
    this.#attempt = {
      browser: 'not-reached',
      callbackReceived: false,
      errorCode: null,
      at: deps.at,
    };
    this.#attempts.set(this.#siteId, this.#attempt);
  }

  note(patch: Partial<SignInAttemptRecord>): void {
    this.#attempt = { ...this.#attempt, ...patch };
    this.#attempts.set(this.#siteId, this.#attempt);
  }

  progress(phase: SignInProgress['phase'], authorizationUrl?: string): void {
    const siteId = this.#siteId;
    if (phase === 'exchanging-code') this.note({ callbackReceived: true });
    this.#emit(
      authorizationUrl === undefined ? { siteId, phase } : { siteId, phase, authorizationUrl },
    );
  }
}

/** The sign-in flow of every site (see above), with each site's last attempt and JWKS cache. */
export class SiteSignIns implements SignInFlow {
  readonly #deps: SignInFlowDeps;
  readonly #jwksCaches = new Map<string, { uri: string; cache: JwksCache }>();
  readonly #progressListeners = new Set<(p: SignInProgress) => void>();
  readonly #attempts = new Map<string, SignInAttemptRecord>();

  constructor(deps: SignInFlowDeps) {
    this.#deps = deps;
  }

  async signIn(siteId: string, signInOptions: { signal?: AbortSignal } = {}): Promise<SiteSummary> {
    const { registry } = this.#deps;
    const site = registry.requireSite(siteId);
    // A second attempt for the same site replaces the first: it is cancelled and its receiver
    // closed first. Loop: while this call waited, a third attempt may have started; the newest one
    // wins, none is orphaned.
    for (let previous = registry.signInOf(siteId); previous; previous = registry.signInOf(siteId)) {
      previous.controller.abort(
        new CoreError('sign-in-cancelled', 'This sign-in was replaced by a newer attempt.'),
      );
      await previous.done.catch(() => undefined);
    }
    const controller = new AbortController();
    const signal = signInOptions.signal
      ? AbortSignal.any([controller.signal, signInOptions.signal])
      : controller.signal;
    const run = this.#doSignIn(site, signal);
    const entry = { controller, done: run };
    registry.startSignIn(siteId, entry);
    registry.emitChange();
    try {
      await run;
    } finally {
      registry.endSignIn(siteId, entry);
      registry.emitChange();
    }
    return registry.summary(registry.requireSite(siteId));
  }

  cancelSignIn(siteId: string): void {
    this.#deps.registry
      .signInOf(siteId)
      ?.controller.abort(new CoreError('sign-in-cancelled', 'The sign-in was cancelled.'));
  }

  /**
   * A record that cannot be decrypted (key replaced, file damaged) must not block a fresh sign-in.
   */
  async readSecretsForSignIn(siteId: string): Promise<SiteSecrets | null> {
    try {
      return await this.#deps.vault.get(siteId);
    } catch (error) {
      if (!isCoreError(error, 'storage-error')) throw error;
      this.#deps.log.warn('saved sign-in unreadable; starting over', { siteId, error });
      return null;
    }
  }

  lastSignInAttempt(siteId: string): SignInAttemptRecord | null {
    return this.#attempts.get(siteId) ?? null;
  }

  forget(siteId: string): void {
    this.#attempts.delete(siteId);
    this.#jwksCaches.delete(siteId);
  }

  onProgress(listener: (progress: SignInProgress) => void): () => void {
    this.#progressListeners.add(listener);
    return () => this.#progressListeners.delete(listener);
  }

  close(): void {
    this.#progressListeners.clear();
  }

  #emitProgress(p: SignInProgress): void {
    for (const l of this.#progressListeners) {
      try {
        l(p);
      } catch (error) {
        this.#deps.log.warn('progress listener failed', { error });
      }
    }
  }

  async #doSignIn(site: SiteRecord, signal: AbortSignal): Promise<void> {
    const { fetchImpl, clock, logger, log, track } = this.#deps;
    const siteId = site.id;
    const attempt = new AttemptLog({
      siteId,
      at: new Date(clock.now()).toISOString(),
      attempts: this.#attempts,
      emit: (p) => this.#emitProgress(p),
    });
    try {
      attempt.progress('discovering');
      const metadata = await discover(site.baseUrl, { fetch: fetchImpl, logger, signal });
      const secrets = await this.readSecretsForSignIn(siteId);
      const clientSecret = secrets?.clientSecret ?? null;
      if (site.confidential && clientSecret === null) {
        throw new CoreError(
          'invalid-input',
          "This site's client secret is no longer stored (sign-ins are kept in memory only). Add the site again with its secret.",
        );
      }
      const result = await this.#authorize(site, metadata, clientSecret, signal, attempt);
      const replaced = await this.#storePair(site, metadata, clientSecret, result);
      await this.#recordSignedIn(site, metadata, result);
      attempt.progress('done');
      // Revoke a replaced pair now rather than at the next scheduled retry.
      if (replaced && replaced !== result.tokens.refreshToken)
        track(this.#deps.revocations.retryPendingRevocations());
      log.info('signed in', { siteId, scopes: result.tokens.scopes });
    } catch (error) {
      attempt.note({ errorCode: isCoreError(error) ? error.code : 'internal' });
      attempt.progress('failed');
      log.warn('sign-in failed', { siteId, error });
      throw error;
    }
  }

  /** The site's JWKS cache, made again when its jwks_uri changed. */
  #jwksFor(siteId: string, metadata: ServerMetadata): JwksCache | undefined {
    let jwks = this.#jwksCaches.get(siteId);
    if (metadata.jwksUri && jwks?.uri !== metadata.jwksUri) {
      const { fetchImpl, clock } = this.#deps;
      jwks = {
        uri: metadata.jwksUri,
        cache: createJwksCache(metadata.jwksUri, { fetch: fetchImpl, clock }),
      };
      this.#jwksCaches.set(siteId, jwks);
    }
    return jwks?.cache;
  }

  /** The browser (RFC 8252), the code exchange and the id_token. */
  #authorize(
    site: SiteRecord,
    metadata: ServerMetadata,
    clientSecret: string | null,
    signal: AbortSignal,
    attempt: AttemptLog,
  ): Promise<SignInResult> {
    const { options, fetchImpl, clock, logger } = this.#deps;
    return runSignIn({
      metadata,
      clientId: site.clientId,
      clientSecret,
      scopes: options.scopes ?? MEMBER_SCOPES,
      openExternal: async (url) => {
        // Only web addresses ever reach the system browser (never file:, javascript: or custom
        // schemes).
        const protocol = new URL(url).protocol;
        if (protocol !== 'https:' && protocol !== 'http:')
          throw new CoreError(
            'discovery-invalid',
            'The sign-in page address is not a web address.',
          );
        try {
          await options.openExternal(url);
        } catch (error) {
          attempt.note({ browser: 'failed' });
          throw error;
        }
        attempt.note({ browser: 'opened' });
      },
      fetch: fetchImpl,
      clock,
      logger,
      signal,
      timeoutMs: options.signInTimeoutMs ?? DEFAULT_SIGN_IN_TIMEOUT_MS,
      onProgress: (phase, url) => attempt.progress(phase, url),
      jwks: this.#jwksFor(site.id, metadata),
    });
  }

  /** The new pair into the vault; the refresh token it replaced (queued for revocation), if any. */
  async #storePair(
    site: SiteRecord,
    metadata: ServerMetadata,
    clientSecret: string | null,
    result: SignInResult,
  ): Promise<string | null> {
    const { vault, tokens, clock } = this.#deps;
    const siteId = site.id;
    const t = result.tokens;
    const next: SiteSecrets = {
      clientId: site.clientId,
      clientSecret,
      accessToken: t.accessToken,
      refreshToken: t.refreshToken,
      expiresAt: t.expiresAt,
      obtainedAt: t.obtainedAt,
      scopes: t.scopes,
      schoolId: t.schoolId,
      schoolSubdomain: t.schoolSubdomain,
      resource: result.resource,
      issuer: metadata.issuer,
    };
    // A refresh of the old pair may still be on the wire: the new pair supersedes it and is written
    // with no other change of this record in between. The pair replaced is the one stored NOW (a
    // refresh since the sign-in started may have rotated it).
    const replaced = await tokens.supersede(siteId, async () => {
      const stored = await this.readSecretsForSignIn(siteId);
      await vault.put(siteId, next);
      return stored?.refreshToken ?? null;
    });
    // Authorizing again does not revoke the earlier pair (spec, Authentication 10): revoke it
    // ourselves.
    if (replaced && replaced !== t.refreshToken && metadata.revocationEndpoint) {
      await vault.addPendingRevocation({
        siteId,
        revocationEndpoint: metadata.revocationEndpoint,
        token: replaced,
        tokenTypeHint: 'refresh_token',
        clientId: site.clientId,
        clientSecret,
        queuedAt: clock.now(),
      });
    }
    return replaced;
  }

  /** The site as signed in: its status, school, scopes and profile. */
  async #recordSignedIn(
    site: SiteRecord,
    metadata: ServerMetadata,
    result: SignInResult,
  ): Promise<void> {
    const { registry, options } = this.#deps;
    const siteId = site.id;
    const t = result.tokens;
    const p = result.profile;
    registry.markReadable(siteId);
    // RFC 6749 §5.1: the token response's scope is what was granted. A data scope asked for and not
    // granted was declined at the site's consent page: said so now, not discovered as an error at
    // the first sync.
    const asked = options.scopes ?? MEMBER_SCOPES;
    const notGranted = DATA_SCOPES.filter(
      (scope) => asked.includes(scope) && !t.scopes.includes(scope),
    );
    registry.setDeclined(siteId, notGranted);
    await registry.update(siteId, {
      status: 'ready',
      metadata: storedMetadata(metadata),
      schoolId: t.schoolId,
      subdomain: t.schoolSubdomain,
      grantedScopes: [...t.scopes],
      missingScopes: notGranted,
      profile: {
        userId: p.sub,
        name: p.name ?? p.email ?? p.sub,
        email: p.email ?? '',
        avatarUrl: p.picture,
      },
    });
  }
}

export function createSignInFlow(deps: SignInFlowDeps): SignInFlow {
  return new SiteSignIns(deps);
}
