/**
 * Sites: add (discovery validated first), sign in, sign out (revoking with the refresh token, queued durably
 * when the site cannot be reached), remove. Several sites at once, each with its own issuer, client and
 * token pair; a site's token is only ever sent to its own origin (see token-manager).
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { SignInAttemptRecord } from '../../common/doctor';
import type { SignInProgress, SignOutResult, SiteStatus, SiteSummary, AddSiteInput } from '../../common/view-models';
import type { ServerMetadata } from '../auth/discovery';
import { discover, normalizeBaseUrl } from '../auth/discovery';
import type { JwksCache } from '../auth/id-token';
import { createJwksCache } from '../auth/id-token';
import { runSignIn, MEMBER_SCOPES, DEFAULT_SIGN_IN_TIMEOUT_MS } from '../auth/sign-in';
import { OAuthResponseError, revokeToken } from '../auth/token-client';
import type { AuthorizedFetch, AuthorizedSend, TokenManager } from '../auth/token-manager';
import { createTokenManager, isScopeName } from '../auth/token-manager';
import { CoreError, isCoreError } from '../errors';
import type { Logger } from '../log';
import { silentLogger } from '../log';
import type { FetchLike } from '../net/http';
import type { Cipher } from '../vault/cipher';
import type { PendingRevocation, SiteSecrets, Vault } from '../vault/vault';
import { createVault } from '../vault/vault';
import type { SiteRecord } from './site-store';
import { createSiteStore } from './site-store';

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
  const store = createSiteStore(options.dataDir);
  const vault: Vault = createVault({ dir: join(options.dataDir, 'vault'), cipher: options.cipher, logger });
  const sites = new Map<string, SiteRecord>((await store.load()).map((s) => [s.id, s]));
  const signIns = new Map<string, { controller: AbortController; done: Promise<unknown> }>();
  const jwksCaches = new Map<string, { uri: string; cache: JwksCache }>();
  const changeListeners = new Set<(sites: SiteSummary[]) => void>();
  const progressListeners = new Set<(p: SignInProgress) => void>();
  const attempts = new Map<string, SignInAttemptRecord>();
  let closed = false;
  let retrying: Promise<void> | null = null;
  // Sites whose saved sign-in exists but cannot be decrypted (the UI says so, and offers a new sign-in).
  const unreadable = new Set<string>();

  // A non-persistent vault forgot every pair at restart: those sites need a sign-in. A queued revocation (it holds
  // the refresh token) was forgotten too: that sign-out can no longer be confirmed, and the user must be told
  // rather than shown "signed out" (RFC 7009: only the site can end the session).
  if (!vault.persistent) {
    for (const s of sites.values()) {
      if (s.status === 'ready') sites.set(s.id, { ...s, status: 'sign-in-needed' });
      else if (s.status === 'sign-out-pending') sites.set(s.id, { ...s, status: 'sign-out-unconfirmed' });
    }
  }

  // A saved sign-in that cannot be read (the key file was damaged and replaced, or the record is) makes the site
  // ask for a new sign-in at once, with the reason, instead of failing later or stopping the app (issue 11, item 5).
  if (vault.persistent) {
    for (const s of sites.values()) {
      if (s.status !== 'ready') continue;
      try {
        await vault.get(s.id);
      } catch (error) {
        if (!isCoreError(error, 'storage-error')) throw error;
        log.warn('saved sign-in unreadable at start; sign-in needed', { siteId: s.id, keyReplaced: options.cipher.keyReplaced === true });
        unreadable.add(s.id);
        sites.set(s.id, { ...s, status: 'sign-in-needed' });
      }
    }
  }

  function summary(s: SiteRecord): SiteSummary {
    const status: SiteStatus = signIns.has(s.id) ? 'signing-in' : s.status;
    return {
      id: s.id,
      label: s.label,
      baseUrl: s.baseUrl,
      clientId: s.clientId,
      isDemo: s.isDemo,
      status,
      schoolId: s.schoolId,
      subdomain: s.subdomain,
      profile: s.profile,
      grantedScopes: s.grantedScopes,
      missingScopes: s.missingScopes,
      lastSyncedAt: options.lastSyncedAt?.(s.id) ?? null,
      ...(status === 'sign-in-needed' && unreadable.has(s.id) ? { signInUnreadable: true } : {}),
    };
  }

  function list(): SiteSummary[] {
    return [...sites.values()].map(summary);
  }

  function emitChange(): void {
    const snapshot = list();
    for (const l of changeListeners) {
      try {
        l(snapshot);
      } catch (error) {
        log.warn('change listener failed', { error });
      }
    }
  }

  function emitProgress(p: SignInProgress): void {
    for (const l of progressListeners) {
      try {
        l(p);
      } catch (error) {
        log.warn('progress listener failed', { error });
      }
    }
  }

  async function update(siteId: string, patch: Partial<SiteRecord>): Promise<SiteRecord | null> {
    const current = sites.get(siteId);
    if (!current) return null;
    const next = { ...current, ...patch };
    sites.set(siteId, next);
    await store.save([...sites.values()]);
    emitChange();
    return next;
  }

  function requireSite(siteId: string): SiteRecord {
    const s = sites.get(siteId);
    if (!s) throw new CoreError('not-found', 'That site is not in your list.');
    return s;
  }

  const tokens: TokenManager = createTokenManager({
    vault,
    fetch: fetchImpl,
    clock,
    logger,
    resolveSite(siteId) {
      const s = requireSite(siteId);
      if (!s.metadata) throw new CoreError('sign-in-needed', 'Sign in to this site first.');
      return { origin: s.baseUrl, tokenEndpoint: s.metadata.tokenEndpoint, revocationEndpoint: s.metadata.revocationEndpoint };
    },
    async onSignInNeeded(siteId, reason) {
      const s = sites.get(siteId);
      if (reason === 'unreadable') unreadable.add(siteId);
      if (s && s.status === 'ready') await update(siteId, { status: 'sign-in-needed' });
      else if (reason === 'unreadable') emitChange();
    },
    async onInsufficientScope(siteId, scopes) {
      await saveMissingScopes(siteId, [...new Set([...(sites.get(siteId)?.missingScopes ?? []), ...scopes])]);
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
    const t = p.catch((error: unknown) => log.warn('background save failed', { error })).finally(() => background.delete(t));
    background.add(t);
  }

  function setMissingScopes(siteId: string, scopes: readonly string[]): void {
    track(saveMissingScopes(siteId, scopes));
  }

  async function add(input: AddSiteOptions): Promise<SiteSummary> {
    const baseUrl = normalizeBaseUrl(input.baseUrl);
    const clientId = input.clientId.trim();
    if (clientId === '') throw new CoreError('invalid-input', 'Enter the client id the school gave you.');
    const existing = [...sites.values()].find((s) => s.baseUrl === baseUrl && s.clientId === clientId);
    if (existing) {
      // Adding it again with a secret re-enters the secret (e.g. lost with memory-only token storage).
      const secret = input.clientSecret?.trim();
      if (secret) {
        const stored = await vault.get(existing.id);
        await vault.put(existing.id, stored ? { ...stored, clientSecret: secret } : emptySecrets(clientId, secret, existing.metadata?.issuer ?? null));
        if (!existing.confidential) await update(existing.id, { confidential: true });
      }
      return summary(sites.get(existing.id) ?? existing);
    }
    // Discovery is validated before anything is saved: a site that cannot be signed in to is never added.
    const metadata = await discover(baseUrl, { fetch: fetchImpl, logger });
    const clientSecret = input.clientSecret?.trim() || null;
    if (clientSecret !== null && metadata.tokenEndpointAuthMethods && !metadata.tokenEndpointAuthMethods.includes('client_secret_post')) {
      throw new CoreError('discovery-invalid', 'This site does not accept a client secret in the way this app sends it (client_secret_post).');
    }
    const id = randomBytes(6).toString('base64url').replace(/[^A-Za-z0-9]/g, 'x');
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
    await store.save([...sites.values()]);
    log.info('site added', { siteId: id, baseUrl, confidential: record.confidential });
    emitChange();
    return summary(record);
  }

  async function signIn(siteId: string, signInOptions: { signal?: AbortSignal } = {}): Promise<SiteSummary> {
    const site = requireSite(siteId);
    // A second attempt for the same site replaces the first: it is cancelled and its receiver closed first.
    // Loop: while this call waited, a third attempt may have started; the newest one wins, none is orphaned.
    for (let previous = signIns.get(siteId); previous; previous = signIns.get(siteId)) {
      previous.controller.abort(new CoreError('sign-in-cancelled', 'This sign-in was replaced by a newer attempt.'));
      await previous.done.catch(() => undefined);
    }
    const controller = new AbortController();
    const signal = signInOptions.signal ? AbortSignal.any([controller.signal, signInOptions.signal]) : controller.signal;
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
    let attempt: SignInAttemptRecord = { browser: 'not-reached', callbackReceived: false, errorCode: null, at: new Date(clock.now()).toISOString() };
    attempts.set(siteId, attempt);
    const note = (patch: Partial<SignInAttemptRecord>): void => {
      attempt = { ...attempt, ...patch };
      attempts.set(siteId, attempt);
    };
    const progress = (phase: SignInProgress['phase'], authorizationUrl?: string): void => {
      if (phase === 'exchanging-code') note({ callbackReceived: true });
      emitProgress(authorizationUrl === undefined ? { siteId, phase } : { siteId, phase, authorizationUrl });
    };
    try {
      progress('discovering');
      const metadata = await discover(site.baseUrl, { fetch: fetchImpl, logger, signal });
      const secrets = await readSecretsForSignIn(siteId);
      const clientSecret = secrets?.clientSecret ?? null;
      if (site.confidential && clientSecret === null) {
        throw new CoreError('invalid-input', "This site's client secret is no longer stored (sign-ins are kept in memory only). Add the site again with its secret.");
      }
      let jwks = jwksCaches.get(siteId);
      if (metadata.jwksUri && jwks?.uri !== metadata.jwksUri) {
        jwks = { uri: metadata.jwksUri, cache: createJwksCache(metadata.jwksUri, { fetch: fetchImpl, clock }) };
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
          if (protocol !== 'https:' && protocol !== 'http:') throw new CoreError('discovery-invalid', 'The sign-in page address is not a web address.');
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
      // other change of this record in between (issue 11, item 1). The pair replaced is the one stored NOW (a
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
      await update(siteId, {
        status: 'ready',
        metadata: storedMetadata(metadata),
        schoolId: t.schoolId,
        subdomain: t.schoolSubdomain,
        grantedScopes: [...t.scopes],
        missingScopes: [],
        profile: { userId: p.sub, name: p.name ?? p.email ?? p.sub, email: p.email ?? '', avatarUrl: p.picture },
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
    signIns.get(siteId)?.controller.abort(new CoreError('sign-in-cancelled', 'The sign-in was cancelled.'));
  }

  /** Sends one queued revocation; true when the entry is done (revoked, or refused for good). */
  async function sendRevocation(entry: Omit<PendingRevocation, 'id' | 'queuedAt'>): Promise<'revoked' | 'retry' | 'refused'> {
    try {
      await revokeToken(
        { revocationEndpoint: entry.revocationEndpoint, token: entry.token, tokenTypeHint: entry.tokenTypeHint, clientId: entry.clientId, clientSecret: entry.clientSecret },
        { fetch: fetchImpl, logger },
      );
      return 'revoked';
    } catch (error) {
      if (isCoreError(error, 'site-unreachable') || isCoreError(error, 'server-unavailable')) return 'retry';
      // RFC 7009 §2.2.1: a refusal (e.g. unauthorized_client) will not change by retrying.
      log.warn('revocation refused by the site', { siteId: entry.siteId, error: error instanceof OAuthResponseError ? error.oauthError : 'unknown' });
      return 'refused';
    }
  }

  async function signOut(siteId: string): Promise<SignOutResult> {
    const site = requireSite(siteId);
    cancelSignIn(siteId);
    await signIns.get(siteId)?.done.catch(() => undefined);
    // A refresh in flight would otherwise store a new pair after this sign-out cleared the old one.
    await tokens.whenIdle(siteId);
    const secrets = await readSecretsForSignIn(siteId);
    const clear = async (): Promise<void> => {
      if (secrets) await vault.put(siteId, { ...secrets, accessToken: null, refreshToken: null, expiresAt: null, scopes: [], schoolId: null, schoolSubdomain: null, resource: null });
    };
    const pendingForSite = async (): Promise<boolean> => (await vault.listPendingRevocations()).some((e) => e.siteId === siteId);
    // Spec: revoke with the REFRESH token (revoking an expired access token does nothing and leaves the pair live).
    const token = secrets?.refreshToken ?? null;
    const endpoint = site.metadata?.revocationEndpoint ?? null;
    if (token === null || endpoint === null) {
      await clear();
      const pending = await pendingForSite();
      await update(siteId, { status: pending ? 'sign-out-pending' : 'signed-out', missingScopes: [] });
      // A site without a revocation endpoint cannot be told: the pair is forgotten here and lives on there until
      // it expires. The student is told so (the sign-out notice), rather than shown a plain "signed out".
      if (token !== null) {
        log.info('signed out on this computer only (the site has no revocation endpoint)', { siteId });
        return { revoked: false, pending, localOnly: true };
      }
      return { revoked: false, pending };
    }
    const entry = { siteId, revocationEndpoint: endpoint, token, tokenTypeHint: 'refresh_token' as const, clientId: site.clientId, clientSecret: secrets?.clientSecret ?? null };
    const outcome = await sendRevocation(entry);
    if (outcome === 'retry') {
      // Durable first (encrypted in the vault), then the pair is dropped: the app never uses it again.
      await vault.addPendingRevocation({ ...entry, queuedAt: clock.now() });
      await clear();
      await update(siteId, { status: 'sign-out-pending', missingScopes: [] });
      log.info('sign-out queued until the site is reachable', { siteId });
      return { revoked: false, pending: true };
    }
    await clear();
    const pending = await pendingForSite();
    await update(siteId, { status: pending ? 'sign-out-pending' : 'signed-out', missingScopes: [] });
    log.info('signed out', { siteId, revoked: outcome === 'revoked' });
    return { revoked: outcome === 'revoked', pending };
  }

  async function retryPendingRevocations(): Promise<void> {
    retrying ??= (async () => {
      try {
        const entries = await vault.listPendingRevocations();
        for (const e of entries) {
          const outcome = await sendRevocation(e);
          if (outcome !== 'retry') await vault.removePendingRevocation(e.id);
        }
        const remaining = new Set((await vault.listPendingRevocations()).map((e) => e.siteId));
        for (const s of [...sites.values()]) {
          if (s.status === 'sign-out-pending' && !remaining.has(s.id)) await update(s.id, { status: 'signed-out' });
        }
      } finally {
        retrying = null;
      }
    })();
    return retrying;
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
    attempts.delete(siteId);
    jwksCaches.delete(siteId);
    await store.save([...sites.values()]);
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
    add,
    signIn: (siteId, o) => {
      if (closed) return Promise.reject(new CoreError('internal', 'The app is shutting down.'));
      return signIn(siteId, o);
    },
    cancelSignIn,
    lastSignInAttempt: (siteId) => attempts.get(siteId) ?? null,
    signOut,
    remove,
    fetchFor: (siteId) => tokens.fetchFor(siteId),
    sendWith: (siteId) => tokens.sendWith(siteId),
    getAccessToken: (siteId) => tokens.getAccessToken(siteId),
    retryPendingRevocations,
    setMissingScopes,
    onChange(listener) {
      changeListeners.add(listener);
      return () => changeListeners.delete(listener);
    },
    onSignInProgress(listener) {
      progressListeners.add(listener);
      return () => progressListeners.delete(listener);
    },
    async close() {
      closed = true;
      for (const id of [...signIns.keys()]) cancelSignIn(id);
      await Promise.all([...signIns.values()].map((s) => s.done.catch(() => undefined)));
      await retrying?.catch(() => undefined);
      await Promise.all([...background]);
      changeListeners.clear();
      progressListeners.clear();
    },
  };
}

function storedMetadata(m: ServerMetadata): NonNullable<SiteRecord['metadata']> {
  return {
    ...m,
    idTokenSigningAlgs: [...m.idTokenSigningAlgs],
    scopesSupported: m.scopesSupported ? [...m.scopesSupported] : null,
    tokenEndpointAuthMethods: m.tokenEndpointAuthMethods ? [...m.tokenEndpointAuthMethods] : null,
  };
}

function emptySecrets(clientId: string, clientSecret: string | null, issuer: string | null): SiteSecrets {
  return { clientId, clientSecret, accessToken: null, refreshToken: null, expiresAt: null, scopes: [], schoolId: null, schoolSubdomain: null, resource: null, issuer };
}
