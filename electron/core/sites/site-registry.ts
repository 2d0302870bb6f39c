import { siteText } from '../../common/site-values';
import type { SiteStatus, SiteSummary } from '../../common/view-models';
import type { ServerMetadata } from '../auth/discovery';
import { CoreError, isCoreError } from '../errors';
import type { Logger } from '../log';
import type { Cipher } from '../vault/cipher';
import type { Vault } from '../vault/vault';
import { createSiteStore, type SiteRecord, type SiteStore } from './site-store';

export interface InFlightSignIn {
  readonly controller: AbortController;
  readonly done: Promise<unknown>;
}

export interface SiteRegistryDeps {
  readonly dataDir: string;
  readonly cipher: Pick<Cipher, 'keyReplaced'>;
  readonly vault: Vault;
  /** The sync engine's last successful sync per site (wired by the composition root). */
  readonly lastSyncedAt?: (siteId: string) => string | null;
  readonly log: Logger;
}

export type SiteRegistryOptions = SiteRegistryDeps;

/**
 * The sites the app knows: the records of sites.json in memory, the summaries the screens see, and
 * the listeners told of each change. The sign-in flow, sign-out and the site manager change records
 * only through its methods.
 */
export class SiteRegistry {
  readonly #deps: SiteRegistryDeps;
  readonly #store: SiteStore;
  readonly #sites = new Map<string, SiteRecord>();
  /** Sign-ins under way: their sites show as 'signing-in'. */
  readonly #signIns = new Map<string, InFlightSignIn>();
  readonly #listeners = new Set<(sites: SiteSummary[]) => void>();
  /**
   * Sites whose saved sign-in exists but cannot be decrypted (the UI says so, and offers a new
   * sign-in).
   */
  readonly #unreadable = new Set<string>();
  /**
   * Data scopes the last sign-in asked for and was not granted, per site (kept while the app runs;
   * the site record keeps them as missing scopes).
   */
  readonly #declined = new Map<string, readonly string[]>();

  /** Use SiteRegistry.load: a registry is made with the records of sites.json. */
  constructor(deps: SiteRegistryDeps) {
    this.#deps = deps;
    this.#store = createSiteStore(deps.dataDir);
  }

  static async load(deps: SiteRegistryDeps): Promise<SiteRegistry> {
    const registry = new SiteRegistry(deps);
    await registry.#load();
    return registry;
  }

  async #load(): Promise<void> {
    for (const s of await this.#store.load()) this.#sites.set(s.id, s);
    const { vault } = this.#deps;
    // A non-persistent vault forgot every pair at restart: those sites need a sign-in. A queued
    // revocation (it holds the refresh token) was forgotten too: that sign-out can no longer be
    // confirmed, and the user must be told rather than shown "signed out" (RFC 7009: only the site
    // can end the session).
    if (!vault.persistent) {
      for (const s of this.#sites.values()) {
        if (s.status === 'ready') this.#sites.set(s.id, { ...s, status: 'sign-in-needed' });
        else if (s.status === 'sign-out-pending')
          this.#sites.set(s.id, { ...s, status: 'sign-out-unconfirmed' });
      }
    } else {
      await this.#checkSavedSignIns();
    }
  }

  /**
   * A saved sign-in that cannot be read (the key file was damaged and replaced, or the record is)
   * makes the site ask for a new sign-in at once, with the reason, instead of failing later or
   * stopping the app.
   */
  async #checkSavedSignIns(): Promise<void> {
    const { vault, log, cipher } = this.#deps;
    for (const s of this.#sites.values()) {
      if (s.status !== 'ready') continue;
      try {
        await vault.get(s.id);
      } catch (error) {
        if (!isCoreError(error, 'storage-error')) throw error;
        log.warn('saved sign-in unreadable at start; sign-in needed', {
          siteId: s.id,
          keyReplaced: cipher.keyReplaced === true,
        });
        this.#unreadable.add(s.id);
        this.#sites.set(s.id, { ...s, status: 'sign-in-needed' });
      }
    }
  }

  get(siteId: string): SiteRecord | null {
    return this.#sites.get(siteId) ?? null;
  }

  has(siteId: string): boolean {
    return this.#sites.has(siteId);
  }

  /** Every record, in the order they were added (a copy). */
  records(): SiteRecord[] {
    return [...this.#sites.values()];
  }

  requireSite(siteId: string): SiteRecord {
    const s = this.#sites.get(siteId);
    if (!s) throw new CoreError('not-found', 'That site is not in your list.');
    return s;
  }

  /** Adds a record and saves sites.json (the caller tells the listeners). */
  async insert(record: SiteRecord): Promise<void> {
    this.#sites.set(record.id, record);
    await this.save();
  }

  /** Removes a record and saves sites.json (the caller tells the listeners). */
  async delete(siteId: string): Promise<void> {
    this.#sites.delete(siteId);
    await this.save();
  }

  /** Changes one record, saves sites.json and tells the listeners; null when the site is gone. */
  async update(siteId: string, patch: Partial<SiteRecord>): Promise<SiteRecord | null> {
    const current = this.#sites.get(siteId);
    if (!current) return null;
    const next = { ...current, ...patch };
    this.#sites.set(siteId, next);
    await this.save();
    this.emitChange();
    return next;
  }

  /** Saves sites.json as the records are now. */
  save(): Promise<void> {
    return this.#store.save([...this.#sites.values()]);
  }

  /** The sign-in under way for the site, if any. */
  signInOf(siteId: string): InFlightSignIn | null {
    return this.#signIns.get(siteId) ?? null;
  }

  startSignIn(siteId: string, signIn: InFlightSignIn): void {
    this.#signIns.set(siteId, signIn);
  }

  /** Ends the site's sign-in, unless a newer attempt replaced it meanwhile. */
  endSignIn(siteId: string, signIn: InFlightSignIn): void {
    if (this.#signIns.get(siteId) === signIn) this.#signIns.delete(siteId);
  }

  /** The sign-ins under way now (a copy). */
  signInsUnderWay(): [string, InFlightSignIn][] {
    return [...this.#signIns];
  }

  markUnreadable(siteId: string): void {
    this.#unreadable.add(siteId);
  }

  /** The site's saved sign-in was read, or replaced by a new one. */
  markReadable(siteId: string): void {
    this.#unreadable.delete(siteId);
  }

  /** The data scopes the last sign-in was not granted (none: forgotten). */
  setDeclined(siteId: string, scopes: readonly string[]): void {
    if (scopes.length > 0) this.#declined.set(siteId, scopes);
    else this.#declined.delete(siteId);
  }

  summary(s: SiteRecord): SiteSummary {
    const status: SiteStatus = this.#signIns.has(s.id) ? 'signing-in' : s.status;
    const declined = this.#declined.get(s.id);
    return {
      id: s.id,
      // The label is the site's own words (its resource_name, RFC 9728 §2): shown cleaned
      // (site-values.ts), and the host when nothing is left.
      label: siteText(s.label, 200).trim() || hostOf(s.baseUrl),
      baseUrl: s.baseUrl,
      clientId: s.clientId,
      isDemo: s.isDemo,
      status,
      schoolId: s.schoolId,
      subdomain: s.subdomain,
      profile: s.profile && {
        ...s.profile,
        name: siteText(s.profile.name, 200),
        email: siteText(s.profile.email, 320),
      },
      grantedScopes: s.grantedScopes,
      missingScopes: s.missingScopes,
      lastSyncedAt: this.#deps.lastSyncedAt?.(s.id) ?? null,
      ...(status === 'sign-in-needed' && this.#unreadable.has(s.id)
        ? { signInUnreadable: true }
        : {}),
      ...(declined !== undefined ? { declinedScopes: declined } : {}),
    };
  }

  list(): SiteSummary[] {
    return [...this.#sites.values()].map((s) => this.summary(s));
  }

  emitChange(): void {
    const snapshot = this.list();
    for (const l of this.#listeners) {
      try {
        l(snapshot);
      } catch (error) {
        this.#deps.log.warn('change listener failed', { error });
      }
    }
  }

  onChange(listener: (sites: SiteSummary[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  close(): void {
    this.#listeners.clear();
  }
}

export function loadSiteRegistry(deps: SiteRegistryDeps): Promise<SiteRegistry> {
  return SiteRegistry.load(deps);
}

export function storedMetadata(m: ServerMetadata): NonNullable<SiteRecord['metadata']> {
  return {
    ...m,
    idTokenSigningAlgs: [...m.idTokenSigningAlgs],
    scopesSupported: m.scopesSupported ? [...m.scopesSupported] : null,
    tokenEndpointAuthMethods: m.tokenEndpointAuthMethods ? [...m.tokenEndpointAuthMethods] : null,
  };
}

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}
