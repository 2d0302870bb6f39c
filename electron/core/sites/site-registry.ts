import { siteText } from '../../common/site-values';
import type { SiteStatus, SiteSummary } from '../../common/view-models';
import type { ServerMetadata } from '../auth/discovery';
import { CoreError, isCoreError } from '../errors';
import type { Logger } from '../log';
import type { Cipher } from '../vault/cipher';
import type { Vault } from '../vault/vault';
import type { SiteRecord } from './site-store';
import { createSiteStore } from './site-store';

/**
 * The sites the app knows: the records of sites.json in memory, the summaries the screens see, and the listeners
 * told of each change. The sign-in flow, sign-out and the site manager change records only through `update`.
 */
export interface SiteRegistry {
  readonly sites: Map<string, SiteRecord>;
  /** Sign-ins under way: their sites show as 'signing-in'. */
  readonly signIns: Map<string, InFlightSignIn>;
  /** Sites whose saved sign-in exists but cannot be decrypted (the UI says so, and offers a new sign-in). */
  readonly unreadable: Set<string>;
  /**
   * Data scopes the last sign-in asked for and was not granted, per site (kept while the app runs; the site record
   * keeps them as missing scopes).
   */
  readonly declined: Map<string, readonly string[]>;
  summary(s: SiteRecord): SiteSummary;
  list(): SiteSummary[];
  emitChange(): void;
  /** Changes one record, saves sites.json and tells the listeners; null when the site is gone. */
  update(siteId: string, patch: Partial<SiteRecord>): Promise<SiteRecord | null>;
  requireSite(siteId: string): SiteRecord;
  /** Saves sites.json as the records are now. */
  save(): Promise<void>;
  onChange(listener: (sites: SiteSummary[]) => void): () => void;
  close(): void;
}

export interface InFlightSignIn {
  readonly controller: AbortController;
  readonly done: Promise<unknown>;
}

export interface SiteRegistryOptions {
  readonly dataDir: string;
  readonly cipher: Pick<Cipher, 'keyReplaced'>;
  readonly vault: Vault;
  /** The sync engine's last successful sync per site (wired by the composition root). */
  readonly lastSyncedAt?: (siteId: string) => string | null;
  readonly log: Logger;
}

export async function loadSiteRegistry(options: SiteRegistryOptions): Promise<SiteRegistry> {
  const { vault, log } = options;
  const store = createSiteStore(options.dataDir);
  const sites = new Map<string, SiteRecord>((await store.load()).map((s) => [s.id, s]));
  const signIns = new Map<string, InFlightSignIn>();
  const changeListeners = new Set<(sites: SiteSummary[]) => void>();
  // Sites whose saved sign-in exists but cannot be decrypted (the UI says so, and offers a new sign-in).
  const unreadable = new Set<string>();
  const declined = new Map<string, readonly string[]>();

  // A non-persistent vault forgot every pair at restart: those sites need a sign-in. A queued revocation (it holds
  // the refresh token) was forgotten too: that sign-out can no longer be confirmed, and the user must be told
  // rather than shown "signed out" (RFC 7009: only the site can end the session).
  if (!vault.persistent) {
    for (const s of sites.values()) {
      if (s.status === 'ready') sites.set(s.id, { ...s, status: 'sign-in-needed' });
      else if (s.status === 'sign-out-pending')
        sites.set(s.id, { ...s, status: 'sign-out-unconfirmed' });
    }
  }

  // A saved sign-in that cannot be read (the key file was damaged and replaced, or the record is) makes the site
  // ask for a new sign-in at once, with the reason, instead of failing later or stopping the app.
  if (vault.persistent) {
    for (const s of sites.values()) {
      if (s.status !== 'ready') continue;
      try {
        await vault.get(s.id);
      } catch (error) {
        if (!isCoreError(error, 'storage-error')) throw error;
        log.warn('saved sign-in unreadable at start; sign-in needed', {
          siteId: s.id,
          keyReplaced: options.cipher.keyReplaced === true,
        });
        unreadable.add(s.id);
        sites.set(s.id, { ...s, status: 'sign-in-needed' });
      }
    }
  }

  function summary(s: SiteRecord): SiteSummary {
    const status: SiteStatus = signIns.has(s.id) ? 'signing-in' : s.status;
    return {
      id: s.id,
      // The label is the site's own words (its resource_name, RFC 9728 §2): shown cleaned (site-values.ts), and the
      // host when nothing is left.
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
      lastSyncedAt: options.lastSyncedAt?.(s.id) ?? null,
      ...(status === 'sign-in-needed' && unreadable.has(s.id) ? { signInUnreadable: true } : {}),
      ...(declined.has(s.id) ? { declinedScopes: declined.get(s.id) } : {}),
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

  return {
    sites,
    signIns,
    unreadable,
    declined,
    summary,
    list,
    emitChange,
    update,
    requireSite,
    save: () => store.save([...sites.values()]),
    onChange(listener) {
      changeListeners.add(listener);
      return () => changeListeners.delete(listener);
    },
    close: () => changeListeners.clear(),
  };
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
