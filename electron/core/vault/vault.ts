/**
 * The vault: one encrypted record per site (its token pair, what the pair is bound to, and the
 * client's credentials) plus a durable queue of revocations still owed to a site. Records go
 * through a `Cipher`; nothing secret is ever written in plain text. With a non-persistent cipher
 * everything stays in memory.
 */
import { randomBytes } from 'node:crypto';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { CoreError } from '../errors';
import type { Logger } from '../log';
import { rememberSecrets, silentLogger } from '../log';
import { removeStaleTempFiles, writeFileAtomic } from '../fs/atomic-file';
import { createKeyedQueue } from '../fs/keyed-queue';
import type { Cipher } from './cipher';

export interface SiteSecrets {
  readonly clientId: string;
  /** Confidential clients only (client_secret_post). */
  readonly clientSecret: string | null;
  readonly accessToken: string | null;
  readonly refreshToken: string | null;
  /** Milliseconds since the epoch; null when the server gave no expires_in. */
  readonly expiresAt: number | null;
  /**
   * When the access token was received (ms since the epoch): with expiresAt, its lifetime. Absent
   * in older records.
   */
  readonly obtainedAt?: number | null;
  readonly scopes: readonly string[];
  readonly schoolId: string | null;
  readonly schoolSubdomain: string | null;
  /**
   * The RFC 8707 resource sent at authorization: the server cannot tell it back
   * (spec, Authentication 4).
   */
  readonly resource: string | null;
  /** The token endpoint's issuer the pair came from (RFC 8414 issuer). */
  readonly issuer: string | null;
}

export interface PendingRevocation {
  readonly id: string;
  readonly siteId: string;
  readonly revocationEndpoint: string;
  readonly token: string;
  readonly tokenTypeHint: 'refresh_token';
  readonly clientId: string;
  readonly clientSecret: string | null;
  readonly queuedAt: number;
}

export interface Vault {
  get(siteId: string): Promise<SiteSecrets | null>;
  /** Replaces the site's record; resolves once it is durably stored. */
  put(siteId: string, secrets: SiteSecrets): Promise<void>;
  delete(siteId: string): Promise<void>;
  listPendingRevocations(): Promise<PendingRevocation[]>;
  addPendingRevocation(entry: Omit<PendingRevocation, 'id'>): Promise<PendingRevocation>;
  removePendingRevocation(id: string): Promise<void>;
  readonly persistent: boolean;
}

const secretsSchema = z.object({
  clientId: z.string(),
  clientSecret: z.string().nullable(),
  accessToken: z.string().nullable(),
  refreshToken: z.string().nullable(),
  expiresAt: z.number().nullable(),
  obtainedAt: z.number().nullable().optional(),
  scopes: z.array(z.string()),
  schoolId: z.string().nullable(),
  schoolSubdomain: z.string().nullable(),
  resource: z.string().nullable(),
  issuer: z.string().nullable(),
});

const revocationSchema = z.object({
  id: z.string(),
  siteId: z.string(),
  revocationEndpoint: z.string(),
  token: z.string(),
  tokenTypeHint: z.literal('refresh_token'),
  clientId: z.string(),
  clientSecret: z.string().nullable(),
  queuedAt: z.number(),
});

const SITE_ID_RE = /^[A-Za-z0-9_-]{1,64}$/;
const REVOCATIONS = 'revocations';

export interface VaultOptions {
  /** Directory for the encrypted files (created 0700). */
  readonly dir: string;
  readonly cipher: Cipher;
  readonly logger?: Logger;
}

/** What a vault is made with (its folder and the cipher that seals its records). */
export type VaultDeps = VaultOptions;

export function createVault(options: VaultDeps): Vault {
  return new EncryptedVault(options);
}

/** Sealed blobs by name: files in the vault's folder, or memory with a non-persistent cipher. */
class SealedBlobs {
  readonly #dir: string;
  readonly #cipher: Cipher;
  readonly #memory = new Map<string, Uint8Array>();

  constructor(deps: { readonly dir: string; readonly cipher: Cipher }) {
    this.#dir = deps.dir;
    this.#cipher = deps.cipher;
  }

  #fileFor(name: string): string {
    return join(this.#dir, `${name}.vault`);
  }

  async read(name: string): Promise<unknown> {
    const data = await this.#load(name);
    if (data === undefined) return undefined;
    const plain = await this.#cipher.decrypt(data);
    try {
      return JSON.parse(Buffer.from(plain).toString('utf8')) as unknown;
    } catch (cause) {
      throw new CoreError(
        'storage-error',
        'Saved sign-in data is damaged. Sign in again.',
        undefined,
        { cause },
      );
    }
  }

  async #load(name: string): Promise<Uint8Array | undefined> {
    if (!this.#cipher.persistent) return this.#memory.get(name);
    try {
      return await readFile(this.#fileFor(name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new CoreError('storage-error', 'Saved sign-in data could not be read.', undefined, {
        cause: error,
      });
    }
  }

  async write(name: string, value: unknown): Promise<void> {
    const sealed = await this.#cipher.encrypt(Buffer.from(JSON.stringify(value), 'utf8'));
    if (!this.#cipher.persistent) {
      this.#memory.set(name, sealed);
      return;
    }
    try {
      await writeFileAtomic(this.#fileFor(name), sealed, 0o600);
    } catch (cause) {
      throw new CoreError('storage-error', 'Sign-in data could not be saved.', undefined, {
        cause,
      });
    }
  }

  async remove(name: string): Promise<void> {
    if (!this.#cipher.persistent) {
      this.#memory.delete(name);
      return;
    }
    await rm(this.#fileFor(name), { force: true });
  }
}

function checkId(siteId: string): void {
  // Site ids become file names: only a safe alphabet, never a path.
  if (!SITE_ID_RE.test(siteId)) throw new CoreError('invalid-input', 'That site id is not valid.');
}

class EncryptedVault implements Vault {
  readonly persistent: boolean;
  readonly #log: Logger;
  readonly #blobs: SealedBlobs;
  /** One step at a time per record (per site, and the revocations). */
  readonly #queue = createKeyedQueue();

  constructor(deps: VaultDeps) {
    this.persistent = deps.cipher.persistent;
    this.#log = (deps.logger ?? silentLogger).child('vault');
    this.#blobs = new SealedBlobs(deps);
    // A process killed between writing a record's temp file and renaming it leaves a full encrypted
    // copy of the record behind (`.site-<id>.vault.<random>.tmp`): removed when the vault opens.
    if (deps.cipher.persistent) {
      const removed = removeStaleTempFiles(deps.dir);
      if (removed > 0)
        this.#log.info('removed temp files left by an interrupted write', { count: removed });
    }
  }

  async get(siteId: string): Promise<SiteSecrets | null> {
    checkId(siteId);
    return this.#queue(siteId, async () => {
      const raw = await this.#blobs.read(`site-${siteId}`);
      if (raw === undefined) return null;
      const parsed = secretsSchema.safeParse(raw);
      if (!parsed.success)
        throw new CoreError('storage-error', 'Saved sign-in data is damaged. Sign in again.');
      // Read back after a restart: masked in logs and Results from here on (see log.ts).
      rememberSecrets(parsed.data.accessToken, parsed.data.refreshToken, parsed.data.clientSecret);
      return parsed.data;
    });
  }

  async put(siteId: string, secrets: SiteSecrets): Promise<void> {
    checkId(siteId);
    const value = secretsSchema.parse(secrets);
    rememberSecrets(value.accessToken, value.refreshToken, value.clientSecret);
    await this.#queue(siteId, () => this.#blobs.write(`site-${siteId}`, value));
    this.#log.debug('site record stored', {
      siteId,
      hasAccessToken: secrets.accessToken !== null,
      hasRefreshToken: secrets.refreshToken !== null,
    });
  }

  async delete(siteId: string): Promise<void> {
    checkId(siteId);
    await this.#queue(siteId, () => this.#blobs.remove(`site-${siteId}`));
  }

  listPendingRevocations(): Promise<PendingRevocation[]> {
    return this.#queue(REVOCATIONS, () => this.#readRevocations());
  }

  addPendingRevocation(entry: Omit<PendingRevocation, 'id'>): Promise<PendingRevocation> {
    return this.#queue(REVOCATIONS, async () => {
      const list = await this.#readRevocations();
      const full: PendingRevocation = { ...entry, id: randomBytes(9).toString('base64url') };
      await this.#blobs.write(REVOCATIONS, [...list, full]);
      return full;
    });
  }

  removePendingRevocation(id: string): Promise<void> {
    return this.#queue(REVOCATIONS, async () => {
      const list = await this.#readRevocations();
      const next = list.filter((e) => e.id !== id);
      if (next.length === list.length) return;
      if (next.length === 0) await this.#blobs.remove(REVOCATIONS);
      else await this.#blobs.write(REVOCATIONS, next);
    });
  }

  async #readRevocations(): Promise<PendingRevocation[]> {
    const raw = await this.#blobs.read(REVOCATIONS);
    if (raw === undefined) return [];
    const parsed = z.array(revocationSchema).safeParse(raw);
    if (!parsed.success) {
      this.#log.warn('pending revocations record is malformed; ignoring it');
      return [];
    }
    for (const e of parsed.data) rememberSecrets(e.token, e.clientSecret);
    return parsed.data;
  }
}

/**
 * Lists every file the vault wrote (tests read them raw to prove no secret is stored
 * in plain text).
 */
export async function listVaultFiles(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((f) => f.endsWith('.vault')).map((f) => join(dir, f));
  } catch {
    return [];
  }
}
