import type { SignInAttemptRecord } from '../../common/doctor';
import type { SignInProgress, SiteSummary } from '../../common/view-models';
import { discover } from '../auth/discovery';
import type { JwksCache } from '../auth/id-token';
import { createJwksCache } from '../auth/id-token';
import { runSignIn, MEMBER_SCOPES, DEFAULT_SIGN_IN_TIMEOUT_MS } from '../auth/sign-in';
import type { TokenManager } from '../auth/token-manager';
import { CoreError, isCoreError } from '../errors';
import type { Logger } from '../log';
import type { FetchLike } from '../net/http';
import type { SiteSecrets, Vault } from '../vault/vault';
import type { RevocationQueue } from './sign-out';
import type { SiteRecord } from './site-store';
import { storedMetadata, type SiteRegistry } from './site-registry';

/**
 * The sign-in flow of one site: discovery, the browser (RFC 8252), the code exchange and the id_token, then the
 * new pair in the vault. A second attempt for the same site replaces the first; the pair it replaces is revoked.
 */

/** The scopes of the member's data (spec "Scopes"): the ones a declined consent makes the app unable to serve. */
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
    /** Opens the system browser (Electron: shell.openExternal; browser host: a host:open-url event). */
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

export function createSignInFlow(deps: SignInFlowDeps): SignInFlow {
  const { vault, tokens, options, fetchImpl, clock, logger, log, track } = deps;
  const { signIns, unreadable, declined, update, requireSite, emitChange, summary } = deps.registry;
  const { retryPendingRevocations } = deps.revocations;
  const jwksCaches = new Map<string, { uri: string; cache: JwksCache }>();
  const progressListeners = new Set<(p: SignInProgress) => void>();
  const attempts = new Map<string, SignInAttemptRecord>();

  function emitProgress(p: SignInProgress): void {
    for (const l of progressListeners) {
      try {
        l(p);
      } catch (error) {
        log.warn('progress listener failed', { error });
      }
    }
  }

  async function signIn(
    siteId: string,
    signInOptions: { signal?: AbortSignal } = {},
  ): Promise<SiteSummary> {
    const site = requireSite(siteId);
    // A second attempt for the same site replaces the first: it is cancelled and its receiver closed first.
    // Loop: while this call waited, a third attempt may have started; the newest one wins, none is orphaned.
    for (let previous = signIns.get(siteId); previous; previous = signIns.get(siteId)) {
      previous.controller.abort(
        new CoreError('sign-in-cancelled', 'This sign-in was replaced by a newer attempt.'),
      );
      await previous.done.catch(() => undefined);
    }
    const controller = new AbortController();
    const signal = signInOptions.signal
      ? AbortSignal.any([controller.signal, signInOptions.signal])
      : controller.signal;
    const run = doSignIn(site, signal);
    const entry = { controller, done: run };
    signIns.set(siteId, entry);
    emitChange();
    try {
      await run;
    } finally {
      if (signIns.get(siteId) === entry) signIns.delete(siteId);
      emitChange();
    }
    return summary(requireSite(siteId));
  }

  async function doSignIn(site: SiteRecord, signal: AbortSignal): Promise<void> {
    const siteId = site.id;
    // Kept for the sign-in doctor: how far this attempt got (no URL, code or token: only what happened).
    let attempt: SignInAttemptRecord = {
      browser: 'not-reached',
      callbackReceived: false,
      errorCode: null,
      at: new Date(clock.now()).toISOString(),
    };
    attempts.set(siteId, attempt);
    const note = (patch: Partial<SignInAttemptRecord>): void => {
      attempt = { ...attempt, ...patch };
      attempts.set(siteId, attempt);
    };
    const progress = (phase: SignInProgress['phase'], authorizationUrl?: string): void => {
      if (phase === 'exchanging-code') note({ callbackReceived: true });
      emitProgress(
        authorizationUrl === undefined ? { siteId, phase } : { siteId, phase, authorizationUrl },
      );
    };
    try {
      progress('discovering');
      const metadata = await discover(site.baseUrl, { fetch: fetchImpl, logger, signal });
      const secrets = await readSecretsForSignIn(siteId);
      const clientSecret = secrets?.clientSecret ?? null;
      if (site.confidential && clientSecret === null) {
        throw new CoreError(
          'invalid-input',
          "This site's client secret is no longer stored (sign-ins are kept in memory only). Add the site again with its secret.",
        );
      }
      let jwks = jwksCaches.get(siteId);
      if (metadata.jwksUri && jwks?.uri !== metadata.jwksUri) {
        jwks = {
          uri: metadata.jwksUri,
          cache: createJwksCache(metadata.jwksUri, { fetch: fetchImpl, clock }),
        };
        jwksCaches.set(siteId, jwks);
      }
      const result = await runSignIn({
        metadata,
        clientId: site.clientId,
        clientSecret,
        scopes: options.scopes ?? MEMBER_SCOPES,
        openExternal: async (url) => {
          // Only web addresses ever reach the system browser (never file:, javascript: or custom schemes).
          const protocol = new URL(url).protocol;
          if (protocol !== 'https:' && protocol !== 'http:')
            throw new CoreError(
              'discovery-invalid',
              'The sign-in page address is not a web address.',
            );
          try {
            await options.openExternal(url);
          } catch (error) {
            note({ browser: 'failed' });
            throw error;
          }
          note({ browser: 'opened' });
        },
        fetch: fetchImpl,
        clock,
        logger,
        signal,
        timeoutMs: options.signInTimeoutMs ?? DEFAULT_SIGN_IN_TIMEOUT_MS,
        onProgress: progress,
        jwks: jwks?.cache,
      });
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
      // A refresh of the old pair may still be on the wire: the new pair supersedes it and is written with no
      // other change of this record in between. The pair replaced is the one stored NOW (a
      // refresh since the sign-in started may have rotated it).
      const replaced = await tokens.supersede(siteId, async () => {
        const stored = await readSecretsForSignIn(siteId);
        await vault.put(siteId, next);
        return stored?.refreshToken ?? null;
      });
      // Authorizing again does not revoke the earlier pair (spec, Authentication 10): revoke it ourselves.
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
      const p = result.profile;
      unreadable.delete(siteId);
      // RFC 6749 §5.1: the token response's scope is what was granted. A data scope asked for and not granted was
      // declined at the site's consent page: said so now, not discovered as an error at the first sync.
      const asked = options.scopes ?? MEMBER_SCOPES;
      const notGranted = DATA_SCOPES.filter(
        (scope) => asked.includes(scope) && !t.scopes.includes(scope),
      );
      if (notGranted.length > 0) declined.set(siteId, notGranted);
      else declined.delete(siteId);
      await update(siteId, {
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
      progress('done');
      // Revoke a replaced pair now rather than at the next scheduled retry.
      if (replaced && replaced !== t.refreshToken) track(retryPendingRevocations());
      log.info('signed in', { siteId, scopes: t.scopes });
    } catch (error) {
      note({ errorCode: isCoreError(error) ? error.code : 'internal' });
      progress('failed');
      log.warn('sign-in failed', { siteId, error });
      throw error;
    }
  }

  /** A record that cannot be decrypted (key replaced, file damaged) must not block a fresh sign-in. */
  async function readSecretsForSignIn(siteId: string): Promise<SiteSecrets | null> {
    try {
      return await vault.get(siteId);
    } catch (error) {
      if (!isCoreError(error, 'storage-error')) throw error;
      log.warn('saved sign-in unreadable; starting over', { siteId, error });
      return null;
    }
  }

  function cancelSignIn(siteId: string): void {
    signIns
      .get(siteId)
      ?.controller.abort(new CoreError('sign-in-cancelled', 'The sign-in was cancelled.'));
  }

  return {
    signIn,
    cancelSignIn,
    readSecretsForSignIn,
    lastSignInAttempt: (siteId) => attempts.get(siteId) ?? null,
    forget(siteId) {
      attempts.delete(siteId);
      jwksCaches.delete(siteId);
    },
    onProgress(listener) {
      progressListeners.add(listener);
      return () => progressListeners.delete(listener);
    },
    close: () => progressListeners.clear(),
  };
}
