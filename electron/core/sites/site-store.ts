/**
 * Non-secret site configuration in `dataDir/sites.json` (atomic replace on every change). Tokens
 * and client secrets never come here: they live only in the vault.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { CoreError } from '../errors';
import { writeFileAtomic } from '../fs/atomic-file';
import { createKeyedQueue } from '../fs/keyed-queue';

const metadataSchema = z.object({
  issuer: z.string(),
  resource: z.string(),
  authorizationEndpoint: z.string(),
  tokenEndpoint: z.string(),
  revocationEndpoint: z.string().nullable(),
  userinfoEndpoint: z.string().nullable(),
  jwksUri: z.string().nullable(),
  idTokenSigningAlgs: z.array(z.string()),
  authorizationResponseIssParameterSupported: z.boolean(),
  scopesSupported: z.array(z.string()).nullable(),
  tokenEndpointAuthMethods: z.array(z.string()).nullable(),
  resourceName: z.string().nullable().default(null),
});

export const siteRecordSchema = z.object({
  id: z.string(),
  label: z.string(),
  baseUrl: z.string(),
  clientId: z.string(),
  confidential: z.boolean(),
  isDemo: z.boolean(),
  status: z.enum([
    'signed-out',
    'ready',
    'sign-in-needed',
    'sign-out-pending',
    'sign-out-unconfirmed',
  ]),
  schoolId: z.string().nullable(),
  subdomain: z.string().nullable(),
  profile: z
    .object({
      userId: z.string(),
      name: z.string(),
      email: z.string(),
      avatarUrl: z.string().nullable(),
    })
    .nullable(),
  grantedScopes: z.array(z.string()),
  missingScopes: z.array(z.string()),
  metadata: metadataSchema.nullable(),
  addedAt: z.string(),
});

export type SiteRecord = z.infer<typeof siteRecordSchema>;

const fileSchema = z.object({ version: z.literal(1), sites: z.array(siteRecordSchema) });

export interface SiteStore {
  load(): Promise<SiteRecord[]>;
  save(sites: readonly SiteRecord[]): Promise<void>;
}

export function createSiteStore(dataDir: string): SiteStore {
  const file = join(dataDir, 'sites.json');
  const queue = createKeyedQueue();
  return {
    async load() {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw new CoreError('storage-error', 'The list of sites could not be read.', undefined, {
          cause: error,
        });
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (cause) {
        throw new CoreError('storage-error', 'The list of sites is damaged.', undefined, { cause });
      }
      const parsed = fileSchema.safeParse(json);
      if (!parsed.success) throw new CoreError('storage-error', 'The list of sites is damaged.');
      return parsed.data.sites;
    },
    save(sites) {
      const body = JSON.stringify({ version: 1, sites }, null, 2);
      return queue('sites', () => writeFileAtomic(file, body, 0o600));
    },
  };
}
