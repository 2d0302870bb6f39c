/**
 * Sites: add (discovery validated first), sign in, sign out (revoking with the refresh token,
 * queued durably when the site cannot be reached), remove. Several sites at once, each with its own
 * issuer, client and token pair; a site's token is only ever sent to its own origin (see
 * token-manager).
 *
 * This module composes the parts: the registry of sites (site-registry.ts), the sign-in flow
 * (sign-in-flow.ts), sign-out with its durable revocation queue (sign-out.ts), and the token
 * manager that all of them share.
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
import { SiteSignIns } from './sign-in-flow';
import { createRevocationQueue, createSignOut, type RevocationQueue } from './sign-out';
import type { SiteRecord } from './site-store';
import { SiteRegistry, storedMetadata } from './site-registry';

export interface SiteManagerDeps {
  readonly dataDir: string;
  readonly cipher: Cipher;
  /**
   * Opens the system browser (Electron: shell.openExternal; browser host: a host:open-url event).
   */
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

export type SiteManagerOptions = SiteManagerDeps;

export interface AddSiteOptions extends AddSiteInput {
  readonly isDemo?: boolean;
  readonly label?: string;
}

export interface SiteManager {
  list(): SiteSummary[];
  getSite(siteId: string): SiteSummary | null;
  /**
   * The validated discovery document of a site (non-secret), e.g. for the sync engine's GraphQL
   * URL.
   */
  getMetadata(siteId: string): ServerMetadata | null;
  add(input: AddSiteOptions): Promise<SiteSummary>;
  /**
   * A school's address read without adding it (discovery only): its normalised address and its own
   * name.
   */
  describe(baseUrl: string): Promise<{ readonly baseUrl: string; readonly label: string }>;
  signIn(siteId: string, options?: { signal?: AbortSignal }): Promise<SiteSummary>;
  cancelSignIn(siteId: string): void;
  /**
   * What the last sign-in attempt of a site did (browser opened, answer received, how it ended),
   * for the doctor.
   */
  lastSignInAttempt(siteId: string): SignInAttemptRecord | null;
  signOut(siteId: string): Promise<SignOutResult>;
  remove(siteId: string): Promise<void>;
  fetchFor(siteId: string): AuthorizedFetch;
  /**
   * fetchFor's rules for a request another thread sends (the sync's pages, from the writer worker).
   */
  sendWith(siteId: string): AuthorizedSend;
  getAccessToken(siteId: string): Promise<string>;
  retryPendingRevocations(): Promise<void>;
  setMissingScopes(siteId: string, scopes: readonly string[]): void;
  onChange(listener: (sites: SiteSummary[]) => void): () => void;
  onSignInProgress(listener: (progress: SignInProgress) => void): () => void;
  close(): Promise<void>;
}

/** What the parts of the site manager share, made once in SiteManagerService.open. */
interface SiteParts {
  readonly deps: SiteManagerDeps;
  readonly clock: { now(): number };
  readonly fetchImpl: FetchLike;
  readonly logger: Logger;
  readonly log: Logger;
  readonly vault: Vault;
  readonly registry: SiteRegistry;
}

/**
 * The site manager (see above) as a part: the registry, the token manager, the sign-in flow,
 * sign-out and its revocation queue, made from one set of dependencies; the writes it does in the
 * background are waited for at close().
 */
export class SiteManagerService implements SiteManager {
  readonly #parts: SiteParts;
  readonly #tokens: TokenManager;
  readonly #revocations: RevocationQueue;
  readonly #signIns: SiteSignIns;
  readonly #signOut: (siteId: string) => Promise<SignOutResult>;
  /** Fire-and-forget writes are tracked so close() can wait for them. */
  readonly #background = new Set<Promise<unknown>>();
  #closed = false;

  /** Use SiteManagerService.open: the registry is loaded from sites.json first. */
  constructor(parts: SiteParts) {
    this.#parts = parts;
    const { deps, clock, fetchImpl, logger, log, vault, registry } = parts;
    this.#tokens = this.#makeTokens();
    this.#revocations = createRevocationQueue({ registry, vault, fetchImpl, logger, log });
    this.#signIns = new SiteSignIns({
      registry,
      vault,
      tokens: this.#tokens,
      revocations: this.#revocations,
      options: deps,
      fetchImpl,
      clock,
      logger,
      log,
      track: (p) => this.#track(p),
    });
    this.#signOut = createSignOut({
      registry,
      vault,
      tokens: this.#tokens,
      revocations: this.#revocations,
      signInFlow: this.#signIns,
      clock,
      log,
    });
  }

  static async open(deps: SiteManagerDeps): Promise<SiteManagerService> {
    const logger = deps.logger ?? silentLogger;
    const log = logger.child('sites');
    const vault: Vault = createVault({
      dir: join(deps.dataDir, 'vault'),
      cipher: deps.cipher,
      logger,
    });
    const registry = await SiteRegistry.load({
      dataDir: deps.dataDir,
      cipher: deps.cipher,
      vault,
      log,
      ...(deps.lastSyncedAt ? { lastSyncedAt: deps.lastSyncedAt } : {}),
    });
    return new SiteManagerService({
      deps,
      clock: deps.clock ?? Date,
      fetchImpl: deps.fetch ?? ((input, init) => fetch(input, init)),
      logger,
      log,
      vault,
      registry,
    });
  }

  #makeTokens(): TokenManager {
    const { vault, fetchImpl, clock, logger, registry } = this.#parts;
    return createTokenManager({
      vault,
      fetch: fetchImpl,
      clock,
      logger,
      resolveSite(siteId) {
        const s = registry.requireSite(siteId);
        if (!s.metadata) throw new CoreError('sign-in-needed', 'Sign in to this site first.');
        return {
          origin: s.baseUrl,
          tokenEndpoint: s.metadata.tokenEndpoint,
          revocationEndpoint: s.metadata.revocationEndpoint,
        };
      },
      onSignInNeeded: async (siteId, reason) => {
        const s = registry.get(siteId);
        if (reason === 'unreadable') registry.markUnreadable(siteId);
        if (s && s.status === 'ready') await registry.update(siteId, { status: 'sign-in-needed' });
        else if (reason === 'unreadable') registry.emitChange();
      },
      onInsufficientScope: async (siteId, scopes) => {
        await this.#saveMissingScopes(siteId, [
          ...new Set([...(registry.get(siteId)?.missingScopes ?? []), ...scopes]),
        ]);
      },
    });
  }

  list(): SiteSummary[] {
    return this.#parts.registry.list();
  }

  getSite(siteId: string): SiteSummary | null {
    const { registry } = this.#parts;
    const s = registry.get(siteId);
    return s ? registry.summary(s) : null;
  }

  getMetadata(siteId: string): ServerMetadata | null {
    return this.#parts.registry.get(siteId)?.metadata ?? null;
  }

  async describe(input: string): Promise<{ baseUrl: string; label: string }> {
    const { fetchImpl, logger } = this.#parts;
    const baseUrl = normalizeBaseUrl(input);
    const metadata = await discover(baseUrl, { fetch: fetchImpl, logger });
    return { baseUrl, label: metadata.resourceName || new URL(baseUrl).host };
  }

  add(input: AddSiteOptions): Promise<SiteSummary> {
    return addSite(this.#parts, input);
  }

  signIn(siteId: string, options?: { signal?: AbortSignal }): Promise<SiteSummary> {
    if (this.#closed) return Promise.reject(new CoreError('internal', 'The app is shutting down.'));
    return this.#signIns.signIn(siteId, options);
  }

  cancelSignIn(siteId: string): void {
    this.#signIns.cancelSignIn(siteId);
  }

  lastSignInAttempt(siteId: string): SignInAttemptRecord | null {
    return this.#signIns.lastSignInAttempt(siteId);
  }

  signOut(siteId: string): Promise<SignOutResult> {
    return this.#signOut(siteId);
  }

  async remove(siteId: string): Promise<void> {
    const { registry, vault, log } = this.#parts;
    registry.requireSite(siteId);
    const secrets = await this.#signIns.readSecretsForSignIn(siteId);
    if (secrets?.refreshToken) await this.#signOut(siteId);
    else this.cancelSignIn(siteId);
    await registry.signInOf(siteId)?.done.catch(() => undefined);
    // A queued revocation outlives the site: it carries its own endpoint and client credentials.
    await vault.delete(siteId);
    this.#signIns.forget(siteId);
    await registry.delete(siteId);
    log.info('site removed', { siteId });
    registry.emitChange();
  }

  fetchFor(siteId: string): AuthorizedFetch {
    return this.#tokens.fetchFor(siteId);
  }

  sendWith(siteId: string): AuthorizedSend {
    return this.#tokens.sendWith(siteId);
  }

  getAccessToken(siteId: string): Promise<string> {
    return this.#tokens.getAccessToken(siteId);
  }

  retryPendingRevocations(): Promise<void> {
    return this.#revocations.retryPendingRevocations();
  }

  setMissingScopes(siteId: string, scopes: readonly string[]): void {
    this.#track(this.#saveMissingScopes(siteId, scopes));
  }

  onChange(listener: (sites: SiteSummary[]) => void): () => void {
    return this.#parts.registry.onChange(listener);
  }

  onSignInProgress(listener: (progress: SignInProgress) => void): () => void {
    return this.#signIns.onProgress(listener);
  }

  async close(): Promise<void> {
    const { registry } = this.#parts;
    this.#closed = true;
    const underWay = registry.signInsUnderWay();
    for (const [id] of underWay) this.cancelSignIn(id);
    await Promise.all(underWay.map(([, s]) => s.done.catch(() => undefined)));
    await this.#revocations.settled();
    await Promise.all([...this.#background]);
    registry.close();
    this.#signIns.close();
  }

  async #saveMissingScopes(siteId: string, scopes: readonly string[]): Promise<void> {
    const { registry } = this.#parts;
    if (!registry.has(siteId)) return;
    // The names come from the site's answers (GraphQL errors, challenges) and are saved and shown:
    // scope names only.
    await registry.update(siteId, { missingScopes: scopes.filter(isScopeName) });
  }

  #track(p: Promise<unknown>): void {
    const t = p
      .catch((error: unknown) => this.#parts.log.warn('background save failed', { error }))
      .finally(() => this.#background.delete(t));
    this.#background.add(t);
  }
}

export function createSiteManager(deps: SiteManagerDeps): Promise<SiteManager> {
  return SiteManagerService.open(deps);
}

/**
 * Adds a site once its discovery is validated; the same address and client again re-enters its
 * secret.
 */
async function addSite(parts: SiteParts, input: AddSiteOptions): Promise<SiteSummary> {
  const { registry, vault, fetchImpl, logger, log, clock } = parts;
  const baseUrl = normalizeBaseUrl(input.baseUrl);
  const clientId = input.clientId.trim();
  if (clientId === '')
    throw new CoreError('invalid-input', 'Enter the client id the school gave you.');
  const existing = registry.records().find((s) => s.baseUrl === baseUrl && s.clientId === clientId);
  if (existing) return addedAgain(parts, existing, input.clientSecret);
  // Discovery is validated before anything is saved: a site that cannot be signed in to is never
  // added.
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
  await registry.insert(record);
  log.info('site added', { siteId: id, baseUrl, confidential: record.confidential });
  registry.emitChange();
  return registry.summary(record);
}

/**
 * Adding a site again with a secret re-enters the secret (e.g. lost with memory-only token
 * storage).
 */
async function addedAgain(
  { registry, vault }: SiteParts,
  existing: SiteRecord,
  givenSecret: string | undefined,
): Promise<SiteSummary> {
  const secret = givenSecret?.trim();
  if (secret) {
    const stored = await vault.get(existing.id);
    await vault.put(
      existing.id,
      stored
        ? { ...stored, clientSecret: secret }
        : emptySecrets(existing.clientId, secret, existing.metadata?.issuer ?? null),
    );
    if (!existing.confidential) await registry.update(existing.id, { confidential: true });
  }
  return registry.summary(registry.get(existing.id) ?? existing);
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
