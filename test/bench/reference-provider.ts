/**
 * node-oidc-provider (v9, a devDependency) configured with the grants our token endpoint serves,
 * for the token bench to run side by side with ours: authorization_code with PKCE S256 (required
 * for public clients), RFC 8707 resource indicators, refresh_token with rotation (the default for
 * public clients; a rotated token is consumed), ES256 id_tokens carrying the same claims as ours
 * (sub email name picture org_id roles). Configured as in test/core/auth/oidc-provider.test.ts.
 *
 * Storage: oidc-provider keeps its models behind an adapter. Two are offered so the comparison can
 * be read both ways:
 * - 'sqlite': better-sqlite3 on an in-memory database, one row per model instance (JSON payload)
 *   with prepared statements: the same engine and the same kind of database our server uses in the
 *   bench;
 * - 'memory': plain Maps (its bundled MemoryAdapter without the 1,000-entry LRU bound, which would
 *   evict grants mid-bench): no storage cost at all, the harder target.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import { exportJWK, generateKeyPair } from 'jose';

export type ReferenceStorage = 'sqlite' | 'memory';

export const REFERENCE_CLIENT = 'bench-desktop';
export const REFERENCE_REDIRECT = 'http://127.0.0.1/callback';
export const REFERENCE_SCOPE = 'openid profile email account:read';

type Payload = Record<string, unknown> & {
  grantId?: string;
  uid?: string;
  userCode?: string;
  consumed?: number;
};

interface Adapter {
  upsert(id: string, payload: Payload, expiresIn?: number): Promise<void>;
  find(id: string): Promise<Payload | undefined>;
  findByUid(uid: string): Promise<Payload | undefined>;
  findByUserCode(userCode: string): Promise<Payload | undefined>;
  consume(id: string): Promise<void>;
  destroy(id: string): Promise<void>;
  revokeByGrantId(grantId: string): Promise<void>;
}

const epoch = (): number => Math.floor(Date.now() / 1000);

function sqliteAdapterFactory(): { factory: (model: string) => Adapter; close: () => void } {
  const db = new Database(':memory:');
  db.exec(`CREATE TABLE oidc (model TEXT NOT NULL, id TEXT NOT NULL, payload TEXT NOT NULL, grant_id TEXT, uid TEXT, user_code TEXT,
             expires_at INTEGER, consumed_at INTEGER, PRIMARY KEY (model, id));
           CREATE INDEX oidc_grant ON oidc (grant_id); CREATE INDEX oidc_uid ON oidc (model, uid);`);
  const upsert = db.prepare(
    `INSERT INTO oidc (model, id, payload, grant_id, uid, user_code, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id, uid = excluded.uid,
       user_code = excluded.user_code, expires_at = excluded.expires_at`,
  );
  const find = db.prepare(
    'SELECT payload, expires_at, consumed_at FROM oidc WHERE model = ? AND id = ?',
  );
  const findBy = (col: 'uid' | 'user_code') =>
    db.prepare(`SELECT payload, expires_at, consumed_at FROM oidc WHERE model = ? AND ${col} = ?`);
  const byUid = findBy('uid');
  const byUserCode = findBy('user_code');
  const consume = db.prepare('UPDATE oidc SET consumed_at = ? WHERE model = ? AND id = ?');
  const destroy = db.prepare('DELETE FROM oidc WHERE model = ? AND id = ?');
  const revoke = db.prepare('DELETE FROM oidc WHERE grant_id = ?');
  type Row = { payload: string; expires_at: number | null; consumed_at: number | null } | undefined;
  const load = (row: Row): Payload | undefined => {
    if (!row || (row.expires_at !== null && row.expires_at <= epoch())) return undefined;
    const payload = JSON.parse(row.payload) as Payload;
    return row.consumed_at === null ? payload : { ...payload, consumed: row.consumed_at };
  };
  const factory = (model: string): Adapter => ({
    async upsert(id, payload, expiresIn) {
      upsert.run(
        model,
        id,
        JSON.stringify(payload),
        payload.grantId ?? null,
        payload.uid ?? null,
        payload.userCode ?? null,
        expiresIn ? epoch() + expiresIn : null,
      );
    },
    async find(id) {
      return load(find.get(model, id) as Row);
    },
    async findByUid(uid) {
      return load(byUid.get(model, uid) as Row);
    },
    async findByUserCode(userCode) {
      return load(byUserCode.get(model, userCode) as Row);
    },
    async consume(id) {
      consume.run(epoch(), model, id);
    },
    async destroy(id) {
      destroy.run(model, id);
    },
    async revokeByGrantId(grantId) {
      revoke.run(grantId);
    },
  });
  return { factory, close: () => db.close() };
}

function memoryAdapterFactory(): { factory: (model: string) => Adapter; close: () => void } {
  const store = new Map<string, { payload: Payload; expiresAt: number }>();
  const grants = new Map<string, Set<string>>();
  const secondary = new Map<string, string>();
  const get = (key: string | undefined): Payload | undefined => {
    const e = key === undefined ? undefined : store.get(key);
    return e && e.expiresAt > epoch() ? e.payload : undefined;
  };
  const factory = (model: string): Adapter => ({
    async upsert(id, payload, expiresIn) {
      const key = `${model}:${id}`;
      store.set(key, { payload, expiresAt: expiresIn ? epoch() + expiresIn : Infinity });
      if (payload.grantId)
        (
          grants.get(payload.grantId) ??
          grants.set(payload.grantId, new Set()).get(payload.grantId)!
        ).add(key);
      if (payload.uid) secondary.set(`uid:${payload.uid}`, key);
      if (payload.userCode) secondary.set(`userCode:${payload.userCode}`, key);
    },
    async find(id) {
      return get(`${model}:${id}`);
    },
    async findByUid(uid) {
      return get(secondary.get(`uid:${uid}`));
    },
    async findByUserCode(userCode) {
      return get(secondary.get(`userCode:${userCode}`));
    },
    async consume(id) {
      const p = get(`${model}:${id}`);
      if (p) p.consumed = epoch();
    },
    async destroy(id) {
      store.delete(`${model}:${id}`);
    },
    async revokeByGrantId(grantId) {
      for (const key of grants.get(grantId) ?? []) store.delete(key);
      grants.delete(grantId);
    },
  });
  return { factory, close: () => store.clear() };
}

interface ProviderModels {
  callback(): (req: unknown, res: unknown) => void;
  Client: { find(id: string): Promise<unknown> };
  Grant: new (init: { accountId: string; clientId: string }) => {
    addOIDCScope(s: string): void;
    addResourceScope(r: string, s: string): void;
    save(): Promise<string>;
  };
  AuthorizationCode: new (init: Record<string, unknown>) => { save(): Promise<string> };
}

export interface ReferenceProvider {
  readonly issuer: string;
  readonly storage: ReferenceStorage;
  /**
   * A code for REFERENCE_CLIENT as the authorization endpoint would store it (grant + code), and
   * its verifier.
   */
  mintCode(): Promise<{ code: string; verifier: string }>;
  close(): Promise<void>;
}

export async function startReferenceProvider(
  storage: ReferenceStorage,
): Promise<ReferenceProvider> {
  const http: Server = createServer();
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = {
    ...(await exportJWK(privateKey)),
    kid: randomBytes(4).toString('hex'),
    alg: 'ES256',
    use: 'sig',
  };
  const adapter = storage === 'sqlite' ? sqliteAdapterFactory() : memoryAdapterFactory();
  const moduleName = 'oidc-provider';
  const { default: Provider } = (await import(moduleName)) as {
    default: new (issuer: string, config: object) => ProviderModels;
  };
  const provider = new Provider(issuer, {
    adapter: adapter.factory,
    clients: [
      {
        client_id: REFERENCE_CLIENT,
        token_endpoint_auth_method: 'none',
        application_type: 'native',
        redirect_uris: [REFERENCE_REDIRECT],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        id_token_signed_response_alg: 'ES256',
      },
    ],
    jwks: { keys: [jwk] },
    scopes: ['openid', 'offline_access', 'profile', 'email', 'account:read', 'account:write'],
    // The claims our id_token carries (spec "id_token claims"), all in the id_token.
    claims: { openid: ['sub', 'org_id', 'roles'], email: ['email'], profile: ['name', 'picture'] },
    conformIdTokenClaims: false,
    findAccount: (_ctx: unknown, id: string) => ({
      accountId: id,
      claims: () => ({
        sub: id,
        email: 'student@example.com',
        name: 'Demo Student',
        picture: `${issuer}/avatars/${id}.svg`,
        org_id: 'sch_demo',
        roles: ['student'],
      }),
    }),
    // Like ours: every code exchange of a client allowed the refresh grant gets a refresh token.
    issueRefreshToken: (_ctx: unknown, client: { grantTypeAllowed(g: string): boolean }) =>
      client.grantTypeAllowed('refresh_token'),
    ttl: {
      AccessToken: 7200,
      IdToken: 600,
      RefreshToken: 30 * 86_400,
      Grant: 30 * 86_400,
      AuthorizationCode: 600,
      Session: 3600,
      Interaction: 600,
    },
    cookies: { keys: ['a-bench-cookie-signing-key'] },
    features: {
      devInteractions: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => issuer,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resource: string) => {
          if (resource !== issuer) throw new Error('unknown resource');
          return {
            scope: 'account:read account:write',
            audience: issuer,
            accessTokenFormat: 'opaque',
            accessTokenTTL: 7200,
          };
        },
      },
    },
  });
  const handler = provider.callback();
  http.on('request', (req, res) => handler(req, res));
  const client = await provider.Client.find(REFERENCE_CLIENT);

  return {
    issuer,
    storage,
    async mintCode() {
      const grant = new provider.Grant({ accountId: 'usr_student', clientId: REFERENCE_CLIENT });
      grant.addOIDCScope('openid profile email');
      grant.addResourceScope(issuer, 'account:read');
      const grantId = await grant.save();
      const verifier = randomBytes(32).toString('base64url');
      const code = await new provider.AuthorizationCode({
        accountId: 'usr_student',
        client,
        grantId,
        redirectUri: REFERENCE_REDIRECT,
        scope: REFERENCE_SCOPE,
        resource: issuer,
        codeChallenge: createHash('sha256').update(verifier).digest('base64url'),
        codeChallengeMethod: 'S256',
        nonce: 'bench',
        authTime: epoch(),
      }).save();
      return { code, verifier };
    },
    async close() {
      await new Promise<void>((r) => {
        http.close(() => r());
        http.closeAllConnections();
      });
      adapter.close();
    },
  };
}
