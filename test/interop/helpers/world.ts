/**
 * One school as a standards-conforming deployment would run it, for the interoperability suite:
 * - node-oidc-provider (OpenID certified) as the authorization server, configured per case (the
 *   matrix), on the site's origin or on a path of it (then named by the RFC 9728 document's
 *   `authorization_servers`);
 * - a resource server at `{origin}/member/graphql` that accepts that provider's tokens the way a
 *   school's API gateway would (a JWT access token verified against the provider's keys, an opaque
 *   one looked up at the provider; audience, expiry and scope checked; 401 invalid_token / 403
 *   insufficient_scope with RFC 6750 challenges) and hands the accepted request to the embedded
 *   server's member GraphQL API, so the sync really runs over real pages of real data;
 * - the app's real composition root (createAppCore: vault, site manager, SQLite, the sync's writer
 *   worker) whose "system browser" fills the provider's development login and consent pages
 *   (approve or cancel), and whose fetch records every token answer: the suite asks the provider
 *   whether any refresh token the app received still works.
 * The spec's own extension rides on the provider: `school_id` (and `school_subdomain`) on the first exchange only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalJWKSet, jwtVerify } from 'jose';
import type { Result } from '../../../electron/common/result';
import type { AppCore } from '../../../electron/core/app-core';
import { discover } from '../../../electron/core/auth/discovery';
import { runSignIn } from '../../../electron/core/auth/sign-in';
import { dispatch } from '../../../electron/core/ipc-dispatch';
import type { FetchLike } from '../../../electron/core/net/http';
import type { EmbeddedServer } from '../../../embedded-server/index';
import { runAuthorization } from '../../helpers/scripted-browser';
import { createTestCore } from '../../helpers/test-core';
import { providerBrowser, signingKeys } from './provider-browser';

export const CLIENT_ID = 'interop-desktop';
export const SCHOOL_ID = 'sch_demo';

export interface ProviderCase {
  /** The issuer's path on the site's origin ('' = the origin itself). */
  readonly path?: string;
  /** RFC 7009 revocation (oidc-provider: off by default). */
  readonly revocation?: boolean;
  /**
   * RFC 8707 resource indicators, with the access token format for the member API; false = off (the
   * default).
   */
  readonly resourceIndicators?: false | 'opaque' | 'jwt';
  /**
   * The client's id_token_signed_response_alg; the discovery document lists only this one. Default
   * RS256.
   */
  readonly idTokenAlg?: 'RS256' | 'PS256' | 'ES256' | 'EdDSA';
  /** A server without RFC 9207: no iss in the authorization response, none advertised. */
  readonly noIss?: boolean;
  /** A server that returns no id_token although openid was granted. */
  readonly noIdToken?: boolean;
  /** rotateRefreshToken; undefined keeps the provider's default policy. */
  readonly rotate?: boolean;
  /** Access token lifetime in seconds (default 3600). */
  readonly accessTokenTtl?: number;
  /**
   * oidc-provider's conformIdTokenClaims (default true: the id_token carries only sub when an
   * access token is issued).
   */
  readonly conformIdTokenClaims?: boolean;
}

interface KoaContext {
  path: string;
  method: string;
  status: number;
  body: unknown;
  oidc?: { params?: Record<string, unknown> };
  response: { get(name: string): string };
  set(name: string, value: string): void;
}
interface AccessTokenModel {
  aud?: string | string[];
  scope?: string;
  isExpired: boolean;
}
interface OidcProvider {
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  use(mw: (ctx: KoaContext, next: () => Promise<void>) => Promise<void>): void;
  AccessToken: { find(token: string): Promise<AccessTokenModel | undefined> };
}

/** What the app received from the token endpoint, and the answers' form (which grant). */
export interface TokenAnswer {
  readonly grant: string | null;
  readonly status: number;
  readonly body: Record<string, unknown>;
}

export interface World {
  readonly origin: string;
  readonly issuer: string;
  readonly tokenEndpoint: string;
  readonly core: AppCore;
  /**
   * Calls a channel of the contract like the renderer does; the Result is what the student's screen
   * gets.
   */
  call<T = unknown>(channel: string, input?: unknown): Promise<Result<T>>;
  /** Pages the browser tabs ended on (the loopback page the student reads). */
  readonly tabs: Promise<string>[];
  readonly tokenAnswers: TokenAnswer[];
  /** The refresh tokens the app was given, in order. */
  refreshTokens(): string[];
  /** Asks the provider whether a refresh token still works (200) or not (invalid_grant). */
  refreshTokenWorks(token: string): Promise<{ status: number; error: string | null }>;
  /** The member API calls and how the resource server answered them. */
  readonly memberCalls: { status: number }[];
  /** The student's decision on the provider's consent page for the next sign-ins. */
  decision: 'approve' | 'cancel';
  /**
   * The next code exchanges answer without school_id (a token for another organization, per the
   * spec).
   */
  omitSchoolId: boolean;
  close(): Promise<void>;
}

/** The embedded server's member API, for the resource server to hand accepted requests to. */
export interface Backend {
  readonly server: EmbeddedServer;
  readonly accessToken: string;
}

/** Signs the demo student in to the embedded server once (the data the resource server serves). */
export async function backendFor(server: EmbeddedServer): Promise<Backend> {
  const f: FetchLike = (i, init) => fetch(i, init);
  const metadata = await discover(server.url, { fetch: f });
  const result = await runSignIn({
    metadata,
    clientId: 'demo-desktop',
    clientSecret: null,
    fetch: f,
    openExternal: (url) => {
      const redirect = new URL(url).searchParams.get('redirect_uri') as string;
      void runAuthorization(url, { stopAt: redirect }).then((cb) =>
        fetch(cb).then((r) => r.text()),
      );
    },
  });
  return { server, accessToken: result.tokens.accessToken };
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export async function startWorld(config: ProviderCase, backend: Backend): Promise<World> {
  const httpServer: Server = createServer();
  await new Promise<void>((r) => httpServer.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
  const path = config.path ?? '';
  const issuer = `${origin}${path}`;
  const alg = config.idTokenAlg ?? 'RS256';
  const { privateJwks, publicJwks } = signingKeys();
  const moduleName = 'oidc-provider';
  const { default: Provider } = (await import(moduleName)) as {
    default: new (issuer: string, config: object) => OidcProvider;
  };
  const resourceChallenge = `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource"`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        application_type: 'native',
        // RFC 8252 §7.3: any port on the loopback redirect.
        redirect_uris: ['http://127.0.0.1/callback'],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
        id_token_signed_response_alg: alg,
      },
    ],
    jwks: { keys: privateJwks },
    enabledJWA: { idTokenSigningAlgValues: [alg] },
    scopes: ['openid', 'offline_access', 'profile', 'email', 'account:read', 'account:write'],
    claims: { openid: ['sub'], email: ['email'], profile: ['name', 'picture'] },
    ...(config.conformIdTokenClaims === false ? { conformIdTokenClaims: false } : {}),
    findAccount: (_ctx: unknown, id: string) => ({
      accountId: id,
      claims: () => ({ sub: id, email: 'student@interop.example', name: 'Interop Student' }),
    }),
    ttl: {
      AccessToken: config.accessTokenTtl ?? 3600,
      IdToken: 600,
      RefreshToken: 86_400,
      Grant: 86_400,
      Session: 3600,
      Interaction: 600,
      AuthorizationCode: 60,
    },
    ...(config.rotate === undefined ? {} : { rotateRefreshToken: config.rotate }),
    cookies: { keys: ['an-interop-cookie-signing-key'] },
    features: {
      devInteractions: { enabled: true },
      revocation: { enabled: config.revocation === true },
      ...(config.resourceIndicators
        ? {
            resourceIndicators: {
              enabled: true,
              defaultResource: () => origin,
              useGrantedResource: () => true,
              getResourceServerInfo: (_ctx: unknown, resource: string) => {
                if (resource !== origin) throw new Error('unknown resource');
                return {
                  scope: 'account:read account:write',
                  audience: origin,
                  accessTokenFormat: config.resourceIndicators,
                  accessTokenTTL: config.accessTokenTtl ?? 3600,
                  ...(config.resourceIndicators === 'jwt'
                    ? { jwt: { sign: { alg: 'RS256' } } }
                    : {}),
                };
              },
            },
          }
        : {}),
    },
  });
  provider.use(async (ctx, next) => {
    await next();
    const body = ctx.body as Record<string, unknown> | null;
    if (
      ctx.path === '/token' &&
      ctx.status === 200 &&
      body &&
      typeof body === 'object' &&
      'access_token' in body
    ) {
      // Spec "Token response": school_id on the code exchange; a refresh copies the value the pair
      // already has.
      if (ctx.oidc?.params?.grant_type === 'authorization_code' && !flags.omitSchoolId)
        Object.assign(body, { school_id: SCHOOL_ID, school_subdomain: 'demo' });
      if (config.noIdToken) delete body.id_token;
    }
    if (config.noIss) {
      if (ctx.path.startsWith('/.well-known/') && body && typeof body === 'object')
        delete body.authorization_response_iss_parameter_supported;
      const location = ctx.status >= 300 && ctx.status < 400 ? ctx.response.get('location') : '';
      if (location.startsWith('http://127.0.0.1') && !location.startsWith(issuer)) {
        const u = new URL(location);
        u.searchParams.delete('iss');
        ctx.set('location', u.href);
      }
    }
  });
  const flags = { omitSchoolId: false };
  const handler = provider.callback();
  const jwks = createLocalJWKSet(publicJwks);
  const memberCalls: { status: number }[] = [];

  /** The resource server's verdict on a bearer token (RFC 6750 §3.1). */
  async function accepts(token: string): Promise<'ok' | 'invalid' | 'scope'> {
    let scope = '';
    if (token.split('.').length === 3) {
      try {
        const { payload } = await jwtVerify(token, jwks, {
          issuer,
          audience: origin,
          typ: 'at+jwt',
        });
        scope = typeof payload.scope === 'string' ? payload.scope : '';
      } catch {
        return 'invalid';
      }
    } else {
      const found = await provider.AccessToken.find(token);
      if (!found || found.isExpired) return 'invalid';
      // RFC 8707: a token bound to another resource is not for this API (one without an audience is
      // the AS's only kind of token when it does not do resource indicators).
      const aud = found.aud === undefined ? [] : Array.isArray(found.aud) ? found.aud : [found.aud];
      if (config.resourceIndicators && !aud.includes(origin)) return 'invalid';
      scope = found.scope ?? '';
    }
    return scope.split(' ').includes('account:read') ? 'ok' : 'scope';
  }

  httpServer.on('request', (req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', origin);
      if (url.pathname === '/.well-known/oauth-protected-resource') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            resource: origin,
            authorization_servers: [issuer],
            resource_name: 'Interop School',
          }),
        );
        return;
      }
      if (url.pathname === '/member/graphql') {
        const body = await readBody(req);
        const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
        const verdict = token === '' ? 'invalid' : await accepts(token);
        if (verdict !== 'ok') {
          const status = verdict === 'scope' ? 403 : 401;
          memberCalls.push({ status });
          res.writeHead(status, {
            'content-type': 'application/json',
            'www-authenticate':
              verdict === 'scope'
                ? `${resourceChallenge}, error="insufficient_scope", scope="account:read"`
                : `${resourceChallenge}, error="invalid_token"`,
          });
          res.end(
            JSON.stringify({ error: verdict === 'scope' ? 'insufficient_scope' : 'invalid_token' }),
          );
          return;
        }
        const upstream = await fetch(`${backend.server.url}/member/graphql`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${backend.accessToken}`,
          },
          body,
        });
        const answer = Buffer.from(await upstream.arrayBuffer());
        memberCalls.push({ status: upstream.status });
        res.writeHead(upstream.status, {
          'content-type': upstream.headers.get('content-type') ?? 'application/json',
        });
        res.end(answer);
        return;
      }
      if (path !== '') {
        // The provider mounted on a path: it sees the path below it (its mount point from
        // originalUrl).
        if (!(url.pathname === path || url.pathname.startsWith(`${path}/`))) {
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end('{"error":"not_found"}');
          return;
        }
        (req as IncomingMessage & { originalUrl?: string }).originalUrl = req.url;
        req.url = (req.url ?? '/').slice(path.length) || '/';
      }
      handler(req, res);
    })().catch((error: unknown) => {
      res.writeHead(500);
      res.end(String(error));
    });
  });

  const tokenAnswers: TokenAnswer[] = [];
  const fetchImpl: FetchLike = async (input, init) => {
    const res = await fetch(input, init);
    const form = typeof init?.body === 'string' ? new URLSearchParams(init.body) : null;
    if (!form?.has('grant_type')) return res;
    const text = await res.text();
    try {
      tokenAnswers.push({
        grant: form.get('grant_type'),
        status: res.status,
        body: JSON.parse(text) as Record<string, unknown>,
      });
    } catch {
      // Not JSON: nothing the app could keep.
    }
    const headers = new Headers(res.headers);
    headers.delete('content-length');
    headers.delete('content-encoding');
    return new Response(text, { status: res.status, statusText: res.statusText, headers });
  };

  const dataDir = mkdtempSync(join(tmpdir(), 'ld-interop-'));
  const tabs: Promise<string>[] = [];
  const world: World = {
    origin,
    issuer,
    tokenEndpoint: `${issuer}/token`,
    core: null as unknown as AppCore,
    call: (channel, input) => dispatch(world.core.handlers, channel, input) as never,
    tabs,
    tokenAnswers,
    refreshTokens: () => [
      ...new Set(
        tokenAnswers
          .map((a) => a.body.refresh_token)
          .filter((t): t is string => typeof t === 'string'),
      ),
    ],
    async refreshTokenWorks(token) {
      const res = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: token,
          client_id: CLIENT_ID,
        }),
      });
      const json = (await res.json()) as { error?: string };
      return { status: res.status, error: json.error ?? null };
    },
    memberCalls,
    decision: 'approve',
    get omitSchoolId() {
      return flags.omitSchoolId;
    },
    set omitSchoolId(v: boolean) {
      flags.omitSchoolId = v;
    },
    async close() {
      await world.core?.close();
      await Promise.allSettled(tabs);
      await new Promise<void>((r) => {
        httpServer.close(() => r());
        httpServer.closeAllConnections();
      });
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  (world as { core: AppCore }).core = await createTestCore({
    dataDir,
    version: '0.0.0-interop',
    signInTimeoutMs: 20_000,
    fetch: fetchImpl,
    openExternal: async (url) => {
      const tab = providerBrowser(url, origin, world.decision);
      tab.catch(() => undefined);
      tabs.push(tab);
    },
  });
  return world;
}
