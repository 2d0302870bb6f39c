/**
 * Sites: add (discovery validated first), sign in, sign out (revoking with the refresh token, queued durably
 * when the site cannot be reached), remove. Several sites at once, each with its own issuer, client and
 * token pair; a site's token is only ever sent to its own origin (see token-manager).
 *
 * This module composes the parts: the registry of sites (site-registry.ts), the sign-in flow (sign-in-flow.ts),
 * sign-out with its durable revocation queue (sign-out.ts), and the token manager that all of them share.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { SignInAttemptRecord } from '../../common/doctor';
import type {
  SignInProgress,
  SignOutResult,
  SiteSummary,
  AddSiteInput,
} from '../../common/view-models';
import type { ServerMetadata } from '../auth/discovery';
import { discover, normalizeBaseUrl } from '../auth/discovery';
import type { AuthorizedFetch, AuthorizedSend, TokenManager } from '../auth/token-manager';
import { createTokenManager, isScopeName } from '../auth/token-manager';
import { CoreError } from '../errors';
import type { Logger } from '../log';
import { silentLogger } from '../log';
import type { FetchLike } from '../net/http';
import type { Cipher } from '../vault/cipher';
import type { SiteSecrets, Vault } from '../vault/vault';
import { createVault } from '../vault/vault';
import { createSignInFlow } from './sign-in-flow';
import { createRevocationQueue, createSignOut } from './sign-out';
import type { SiteRecord } from './site-store';
import { loadSiteRegistry, storedMetadata } from './site-registry';

export interface SiteManagerOptions {
  readonly dataDir: string;
  readonly cipher: Cipher;
  /** Opens the system browser (Electron: shell.openExternal; browser host: a host:open-url event). */
  readonly openExternal: (url: string) => Promise<void> | void;
  readonly clock?: { now(): number };
  readonly fetch?: FetchLike;
  readonly logger?: Logger;
  readonly signInTimeoutMs?: number;
  /** The sync engine's last successful sync per site (wired by the composition root). */
  readonly lastSyncedAt?: (siteId: string) => string | null;
  /** Scopes asked for at sign-in (default: the member scopes of the spec). */
  readonly scopes?: readonly string[];
}

export interface AddSiteOptions extends AddSiteInput {
  readonly isDemo?: boolean;
  readonly label?: string;
}

export interface SiteManager {
  list(): SiteSummary[];
  getSite(siteId: string): SiteSummary | null;
  /** The validated discovery document of a site (non-secret), e.g. for the sync engine's GraphQL URL. */
  getMetadata(siteId: string): ServerMetadata | null;
  add(input: AddSiteOptions): Promise<SiteSummary>;
  /** A school's address read without adding it (discovery only): its normalised address and its own name. */
  describe(baseUrl: string): Promise<{ readonly baseUrl: string; readonly label: string }>;
  signIn(siteId: string, options?: { signal?: AbortSignal }): Promise<SiteSummary>;
  cancelSignIn(siteId: string): void;
  /** What the last sign-in attempt of a site did (browser opened, answer received, how it ended), for the doctor. */
  lastSignInAttempt(siteId: string): SignInAttemptRecord | null;
  signOut(siteId: string): Promise<SignOutResult>;
  remove(siteId: string): Promise<void>;
  fetchFor(siteId: string): AuthorizedFetch;
  /** fetchFor's rules for a request another thread sends (the sync's pages, from the writer worker). */
  sendWith(siteId: string): AuthorizedSend;
  getAccessToken(siteId: string): Promise<string>;
  retryPendingRevocations(): Promise<void>;
  setMissingScopes(siteId: string, scopes: readonly string[]): void;
  onChange(listener: (sites: SiteSummary[]) => void): () => void;
  onSignInProgress(listener: (progress: SignInProgress) => void): () => void;
  close(): Promise<void>;
}

export async function createSiteManager(options: SiteManagerOptions): Promise<SiteManager> {
  const clock = options.clock ?? Date;
  const fetchImpl: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const logger = options.logger ?? silentLogger;
  const log = logger.child('sites');
  const vault: Vault = createVault({
    dir: join(options.dataDir, 'vault'),
    cipher: options.cipher,
    logger,
  });
  const registry = await loadSiteRegistry({
    dataDir: options.dataDir,
    cipher: options.cipher,
    vault,
    log,
    ...(options.lastSyncedAt ? { lastSyncedAt: options.lastSyncedAt } : {}),
  });
  const { sites, signIns, unreadable, summary, list, emitChange, update, requireSite } = registry;
  let closed = false;

  const tokens: TokenManager = createTokenManager({
    vault,
    fetch: fetchImpl,
    clock,
    logger,
    resolveSite(siteId) {
      const s = requireSite(siteId);
      if (!s.metadata) throw new CoreError('sign-in-needed', 'Sign in to this site first.');
      return {
        origin: s.baseUrl,
        tokenEndpoint: s.metadata.tokenEndpoint,
        revocationEndpoint: s.metadata.revocationEndpoint,
      };
    },
    async onSignInNeeded(siteId, reason) {
      const s = sites.get(siteId);
      if (reason === 'unreadable') unreadable.add(siteId);
      if (s && s.status === 'ready') await update(siteId, { status: 'sign-in-needed' });
      else if (reason === 'unreadable') emitChange();
    },
    async onInsufficientScope(siteId, scopes) {
      await saveMissingScopes(siteId, [
        ...new Set([...(sites.get(siteId)?.missingScopes ?? []), ...scopes]),
      ]);
    },
  });

  async function saveMissingScopes(siteId: string, scopes: readonly string[]): Promise<void> {
    if (!sites.has(siteId)) return;
    // The names come from the site's answers (GraphQL errors, challenges) and are saved and shown: scope names only.
    await update(siteId, { missingScopes: scopes.filter(isScopeName) });
  }

  /** Fire-and-forget writes are tracked so close() can wait for them. */
  const background = new Set<Promise<unknown>>();
  function track(p: Promise<unknown>): void {
    const t = p
      .catch((error: unknown) => log.warn('background save failed', { error }))
      .finally(() => background.delete(t));
    background.add(t);
  }

  function setMissingScopes(siteId: string, scopes: readonly string[]): void {
    track(saveMissingScopes(siteId, scopes));
  }

  const revocations = createRevocationQueue({ registry, vault, fetchImpl, logger, log });
  const { retryPendingRevocations } = revocations;
  const signInFlow = createSignInFlow({
    registry,
    vault,
    tokens,
    revocations,
    options,
    fetchImpl,
    clock,
    logger,
    log,
    track,
  });
  const { signIn, cancelSignIn, readSecretsForSignIn } = signInFlow;
  const signOut = createSignOut({ registry, vault, tokens, revocations, signInFlow, clock, log });

  async function describe(input: string): Promise<{ baseUrl: string; label: string }> {
    const baseUrl = normalizeBaseUrl(input);
    const metadata = await discover(baseUrl, { fetch: fetchImpl, logger });
    return { baseUrl, label: metadata.resourceName || new URL(baseUrl).host };
  }

  async function add(input: AddSiteOptions): Promise<SiteSummary> {
    const baseUrl = normalizeBaseUrl(input.baseUrl);
    const clientId = input.clientId.trim();
    if (clientId === '')
      throw new CoreError('invalid-input', 'Enter the client id the school gave you.');
    const existing = [...sites.values()].find(
      (s) => s.baseUrl === baseUrl && s.clientId === clientId,
    );
    if (existing) {
      // Adding it again with a secret re-enters the secret (e.g. lost with memory-only token storage).
      const secret = input.clientSecret?.trim();
      if (secret) {
        const stored = await vault.get(existing.id);
        await vault.put(
          existing.id,
          stored
            ? { ...stored, clientSecret: secret }
            : emptySecrets(clientId, secret, existing.metadata?.issuer ?? null),
        );
        if (!existing.confidential) await update(existing.id, { confidential: true });
      }
      return summary(sites.get(existing.id) ?? existing);
    }
    // Discovery is validated before anything is saved: a site that cannot be signed in to is never added.
    const metadata = await discover(baseUrl, { fetch: fetchImpl, logger });
    const clientSecret = input.clientSecret?.trim() || null;
    if (
      clientSecret !== null &&
      metadata.tokenEndpointAuthMethods &&
      !metadata.tokenEndpointAuthMethods.includes('client_secret_post')
    ) {
      throw new CoreError(
        'discovery-invalid',
        'This site does not accept a client secret in the way this app sends it (client_secret_post).',
      );
    }
    const id = randomBytes(6)
      .toString('base64url')
      .replace(/[^A-Za-z0-9]/g, 'x');
    await vault.put(id, emptySecrets(clientId, clientSecret, metadata.issuer));
    const record: SiteRecord = {
      id,
      // RFC 9728 resource_name is the school's own name for itself; else the host.
      label: input.label?.trim() || metadata.resourceName || new URL(baseUrl).host,
      baseUrl,
      clientId,
      confidential: clientSecret !== null,
      isDemo: input.isDemo ?? false,
      status: 'signed-out',
      schoolId: null,
      subdomain: null,
      profile: null,
      grantedScopes: [],
      missingScopes: [],
      metadata: storedMetadata(metadata),
      addedAt: new Date(clock.now()).toISOString(),
    };
    sites.set(id, record);
    await registry.save();
    log.info('site added', { siteId: id, baseUrl, confidential: record.confidential });
    emitChange();
    return summary(record);
  }

  async function remove(siteId: string): Promise<void> {
    requireSite(siteId);
    const secrets = await readSecretsForSignIn(siteId);
    if (secrets?.refreshToken) await signOut(siteId);
    else cancelSignIn(siteId);
    await signIns.get(siteId)?.done.catch(() => undefined);
    // A queued revocation outlives the site: it carries its own endpoint and client credentials.
    await vault.delete(siteId);
    sites.delete(siteId);
    signInFlow.forget(siteId);
    await registry.save();
    log.info('site removed', { siteId });
    emitChange();
  }

  return {
    list,
    getSite: (siteId) => {
      const s = sites.get(siteId);
      return s ? summary(s) : null;
    },
    getMetadata: (siteId) => sites.get(siteId)?.metadata ?? null,
    describe,
    add,
    signIn: (siteId, o) => {
      if (closed) return Promise.reject(new CoreError('internal', 'The app is shutting down.'));
      return signIn(siteId, o);
    },
    cancelSignIn,
    lastSignInAttempt: (siteId) => signInFlow.lastSignInAttempt(siteId),
    signOut,
    remove,
    fetchFor: (siteId) => tokens.fetchFor(siteId),
    sendWith: (siteId) => tokens.sendWith(siteId),
    getAccessToken: (siteId) => tokens.getAccessToken(siteId),
    retryPendingRevocations,
    setMissingScopes,
    onChange: (listener) => registry.onChange(listener),
    onSignInProgress: (listener) => signInFlow.onProgress(listener),
    async close() {
      closed = true;
      for (const id of [...signIns.keys()]) cancelSignIn(id);
      await Promise.all([...signIns.values()].map((s) => s.done.catch(() => undefined)));
      await revocations.settled();
      await Promise.all([...background]);
      registry.close();
      signInFlow.close();
    },
  };
}

function emptySecrets(
  clientId: string,
  clientSecret: string | null,
  issuer: string | null,
): SiteSecrets {
  return {
    clientId,
    clientSecret,
    accessToken: null,
    refreshToken: null,
    expiresAt: null,
    scopes: [],
    schoolId: null,
    schoolSubdomain: null,
    resource: null,
    issuer,
  };
}
