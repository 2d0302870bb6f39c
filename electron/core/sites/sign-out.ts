import type { SignOutResult } from '../../common/view-models';
import { OAuthResponseError, revokeToken } from '../auth/token-client';
import type { TokenManager } from '../auth/token-manager';
import { isCoreError, isTransient } from '../errors';
import type { Logger } from '../log';
import type { FetchLike } from '../net/http';
import type { PendingRevocation, SiteSecrets, Vault } from '../vault/vault';
import type { SiteRegistry } from './site-registry';

/**
 * Sign-out (RFC 7009): revoke with the refresh token, and when the site cannot be reached, queue
 * the revocation durably (encrypted in the vault) and send it as soon as the site answers. The
 * queue also carries the pairs the app received and does not keep.
 */

export interface RevocationQueue {
  /** Sends one queued revocation: revoked, refused for good, or to retry later. */
  sendRevocation(
    entry: Omit<PendingRevocation, 'id' | 'queuedAt'>,
  ): Promise<'revoked' | 'retry' | 'refused'>;
  /**
   * Sends every queued revocation once (one run at a time); a site whose queue empties is signed
   * out.
   */
  retryPendingRevocations(): Promise<void>;
  /** Waits for a run under way. */
  settled(): Promise<void>;
}

export interface RevocationQueueDeps {
  readonly registry: SiteRegistry;
  readonly vault: Vault;
  readonly fetchImpl: FetchLike;
  readonly logger: Logger;
  readonly log: Logger;
}

/** The durable revocation queue (see above): one run at a time. */
export class SiteRevocations implements RevocationQueue {
  readonly #deps: RevocationQueueDeps;
  #retrying: Promise<void> | null = null;

  constructor(deps: RevocationQueueDeps) {
    this.#deps = deps;
  }

  /** Sends one queued revocation; true when the entry is done (revoked, or refused for good). */
  async sendRevocation(
    entry: Omit<PendingRevocation, 'id' | 'queuedAt'>,
  ): Promise<'revoked' | 'retry' | 'refused'> {
    try {
      await revokeToken(
        {
          revocationEndpoint: entry.revocationEndpoint,
          token: entry.token,
          tokenTypeHint: entry.tokenTypeHint,
          clientId: entry.clientId,
          clientSecret: entry.clientSecret,
        },
        { fetch: this.#deps.fetchImpl, logger: this.#deps.logger },
      );
      return 'revoked';
    } catch (error) {
      if (isCoreError(error) && isTransient(error)) return 'retry';
      // RFC 7009 §2.2.1: a refusal (e.g. unauthorized_client) will not change by retrying.
      this.#deps.log.warn('revocation refused by the site', {
        siteId: entry.siteId,
        error: error instanceof OAuthResponseError ? error.oauthError : 'unknown',
      });
      return 'refused';
    }
  }

  retryPendingRevocations(): Promise<void> {
    const { vault, registry } = this.#deps;
    this.#retrying ??= (async () => {
      try {
        const entries = await vault.listPendingRevocations();
        for (const e of entries) {
          const outcome = await this.sendRevocation(e);
          if (outcome !== 'retry') await vault.removePendingRevocation(e.id);
        }
        const remaining = new Set((await vault.listPendingRevocations()).map((e) => e.siteId));
        for (const s of registry.records()) {
          if (s.status === 'sign-out-pending' && !remaining.has(s.id))
            await registry.update(s.id, { status: 'signed-out' });
        }
      } finally {
        this.#retrying = null;
      }
    })();
    return this.#retrying;
  }

  async settled(): Promise<void> {
    await this.#retrying?.catch(() => undefined);
  }
}

export function createRevocationQueue(deps: RevocationQueueDeps): RevocationQueue {
  return new SiteRevocations(deps);
}

export interface SignOutDeps {
  readonly registry: SiteRegistry;
  readonly vault: Vault;
  readonly tokens: TokenManager;
  readonly revocations: RevocationQueue;
  /**
   * The sign-in flow (sign-in-flow.ts): a sign-out cancels an attempt under way and reads the
   * stored pair.
   */
  readonly signInFlow: {
    cancelSignIn(siteId: string): void;
    readSecretsForSignIn(siteId: string): Promise<SiteSecrets | null>;
  };
  readonly clock: { now(): number };
  readonly log: Logger;
}

/**
 * Signs the site out (see above): revoked now, queued until the site answers, or on this computer
 * only.
 */
export async function signOutSite(deps: SignOutDeps, siteId: string): Promise<SignOutResult> {
  const { vault, tokens, clock, log, registry, signInFlow, revocations } = deps;
  const site = registry.requireSite(siteId);
  signInFlow.cancelSignIn(siteId);
  await registry.signInOf(siteId)?.done.catch(() => undefined);
  // A refresh in flight would otherwise store a new pair after this sign-out cleared the old one.
  await tokens.whenIdle(siteId);
  const secrets = await signInFlow.readSecretsForSignIn(siteId);
  const clear = async (): Promise<void> => {
    if (secrets)
      await vault.put(siteId, {
        ...secrets,
        accessToken: null,
        refreshToken: null,
        expiresAt: null,
        scopes: [],
        schoolId: null,
        schoolSubdomain: null,
        resource: null,
      });
  };
  const pendingForSite = async (): Promise<boolean> =>
    (await vault.listPendingRevocations()).some((e) => e.siteId === siteId);
  // Spec: revoke with the REFRESH token (revoking an expired access token does nothing and leaves
  // the pair live).
  const token = secrets?.refreshToken ?? null;
  const endpoint = site.metadata?.revocationEndpoint ?? null;
  if (token === null || endpoint === null) {
    await clear();
    const pending = await pendingForSite();
    await registry.update(siteId, {
      status: pending ? 'sign-out-pending' : 'signed-out',
      missingScopes: [],
    });
    // A site without a revocation endpoint cannot be told: the pair is forgotten here and lives on
    // there until it expires. The student is told so (the sign-out notice), rather than shown a
    // plain "signed out".
    if (token !== null) {
      log.info('signed out on this computer only (the site has no revocation endpoint)', {
        siteId,
      });
      return { revoked: false, pending, localOnly: true };
    }
    return { revoked: false, pending };
  }
  const entry = {
    siteId,
    revocationEndpoint: endpoint,
    token,
    tokenTypeHint: 'refresh_token' as const,
    clientId: site.clientId,
    clientSecret: secrets?.clientSecret ?? null,
  };
  const outcome = await revocations.sendRevocation(entry);
  if (outcome === 'retry') {
    // Durable first (encrypted in the vault), then the pair is dropped: the app never uses it
    // again.
    await vault.addPendingRevocation({ ...entry, queuedAt: clock.now() });
    await clear();
    await registry.update(siteId, { status: 'sign-out-pending', missingScopes: [] });
    log.info('sign-out queued until the site is reachable', { siteId });
    return { revoked: false, pending: true };
  }
  await clear();
  const pending = await pendingForSite();
  await registry.update(siteId, {
    status: pending ? 'sign-out-pending' : 'signed-out',
    missingScopes: [],
  });
  log.info('signed out', { siteId, revoked: outcome === 'revoked' });
  return { revoked: outcome === 'revoked', pending };
}

export function createSignOut(deps: SignOutDeps): (siteId: string) => Promise<SignOutResult> {
  return (siteId) => signOutSite(deps, siteId);
}
