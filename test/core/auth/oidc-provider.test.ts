/**
 * The same client against a second, independent authorization server that follows the RFCs:
 * node-oidc-provider v9 (PKCE S256, RFC 8707 resource indicators, RFC 9207 iss, RFC 7009
 * revocation, native-app loopback redirects with any port). Proves the client does not depend on
 * our server's quirks. The spec's `school_id` token field is added with a provider middleware (the
 * spec's own extension); without it the client must refuse the tokens as issued for a different
 * organization.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCoreError } from '../../../electron/core/errors';
import { createVault } from '../../../electron/core/vault/vault';
import type { Harness } from './helpers/harness';
import { createHarness, refreshTokenWorks } from './helpers/harness';

interface KoaLikeContext {
  path: string;
  status: number;
  body: unknown;
}
interface OidcProvider {
  callback(): (req: unknown, res: unknown) => void;
  use(mw: (ctx: KoaLikeContext, next: () => Promise<void>) => Promise<void>): void;
}

let issuer = '';
let httpServer: Server;
let addSchoolId = true;

/**
 * A browser for the provider's development login and consent pages: fills any login, presses
 * Continue.
 */
async function oidcBrowser(start: string): Promise<void> {
  const jar = new Map<string, string>();
  const send = async (url: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (jar.size) headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const c of res.headers.getSetCookie()) {
      const pair = c.split(';')[0] as string;
      const eq = pair.indexOf('=');
      jar.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    return res;
  };
  let url = start;
  let res = await send(url);
  for (let i = 0; i < 20; i++) {
    if (res.status >= 300 && res.status < 400) {
      const next = new URL(res.headers.get('location') as string, url);
      await res.body?.cancel();
      if (next.origin !== issuer) {
        await (await fetch(next)).text();
        return;
      }
      url = next.href;
      res = await send(url);
      continue;
    }
    const html = await res.text();
    const form = /<form\b([^>]*)>([\s\S]*?)<\/form>/i.exec(html);
    const action = form ? /action="([^"]*)"/.exec(form[1] as string)?.[1] : undefined;
    if (!form || !action) throw new Error(`stuck at ${url} (${res.status}): ${html.slice(0, 200)}`);
    const body = new URLSearchParams();
    for (const input of (form[2] as string).matchAll(/<input\b[^>]*>/gi)) {
      const name = /name="([^"]*)"/.exec(input[0])?.[1];
      if (!name) continue;
      const value = /value="([^"]*)"/.exec(input[0])?.[1];
      body.set(name, value ?? (name === 'login' ? 'student-oidc' : 'any-password'));
    }
    url = new URL(action.replace(/&amp;/g, '&'), url).href;
    res = await send(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
    });
  }
  throw new Error('too many steps');
}

beforeAll(async () => {
  httpServer = createServer();
  await new Promise<void>((r) => httpServer.listen(0, '127.0.0.1', r));
  issuer = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = {
    ...(await exportJWK(privateKey)),
    kid: randomBytes(4).toString('hex'),
    alg: 'ES256',
    use: 'sig',
  };
  const moduleName = 'oidc-provider';
  const { default: Provider } = (await import(moduleName)) as {
    default: new (issuer: string, config: object) => OidcProvider;
  };
  const base = {
    application_type: 'native',
    redirect_uris: ['http://127.0.0.1/callback'],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    id_token_signed_response_alg: 'ES256',
  };
  const provider = new Provider(issuer, {
    clients: [
      { ...base, client_id: 'oidc-desktop', token_endpoint_auth_method: 'none' },
      {
        ...base,
        client_id: 'oidc-desktop-confidential',
        client_secret: 'oidc-confidential-secret-value',
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [jwk] },
    scopes: ['openid', 'offline_access', 'profile', 'email', 'account:read', 'account:write'],
    claims: { openid: ['sub'], email: ['email'], profile: ['name', 'picture'] },
    // Put the scope claims into the id_token so no UserInfo call is needed (spec: a verified
    // id_token suffices).
    conformIdTokenClaims: false,
    findAccount: (_ctx: unknown, id: string) => ({
      accountId: id,
      claims: () => ({ sub: id, email: 'student@oidc.example', name: 'OIDC Student' }),
    }),
    ttl: {
      AccessToken: 7200,
      IdToken: 600,
      RefreshToken: 86_400,
      Grant: 86_400,
      Session: 3600,
      Interaction: 600,
      AuthorizationCode: 60,
    },
    cookies: { keys: ['a-test-cookie-signing-key'] },
    features: {
      devInteractions: { enabled: true },
      // RFC 7009 §2.1: a client may only revoke its own tokens.
      revocation: {
        enabled: true,
        allowedPolicy: (_ctx: unknown, client: { clientId: string }, token: { clientId: string }) =>
          token.clientId === client.clientId,
      },
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
  provider.use(async (ctx, next) => {
    await next();
    // The spec's extra token fields (school_id, school_subdomain) on every successful token
    // response.
    if (
      addSchoolId &&
      ctx.path === '/token' &&
      ctx.status === 200 &&
      ctx.body &&
      typeof ctx.body === 'object' &&
      'access_token' in ctx.body
    ) {
      Object.assign(ctx.body as Record<string, unknown>, {
        school_id: 'sch_oidc',
        school_subdomain: 'oidc',
      });
    }
  });
  const handler = provider.callback();
  httpServer.on('request', (req, res) => {
    // RFC 9728 metadata of the protected resource living on the same origin.
    if (req.url === '/.well-known/oauth-protected-resource') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ resource: issuer, authorization_servers: [issuer] }));
      return;
    }
    handler(req, res);
  });
});

afterAll(async () => {
  await new Promise<void>((r) => {
    httpServer.close(() => r());
    httpServer.closeAllConnections();
  });
});

async function harnessFor(): Promise<Harness> {
  const h = await createHarness({
    extra: { openExternal: (u: string) => void oidcBrowser(u).catch(() => undefined) },
  });
  return h;
}

describe('independent authorization server (node-oidc-provider v9)', () => {
  it('public client: discovery (OIDC fallback), PKCE, resource, iss, ES256 id_token, refresh, revocation', async () => {
    const h = await harnessFor();
    try {
      const site = await h.manager.add({ baseUrl: issuer, clientId: 'oidc-desktop' });
      const done = await h.manager.signIn(site.id);
      expect(done).toMatchObject({
        status: 'ready',
        schoolId: 'sch_oidc',
        subdomain: 'oidc',
        profile: { email: 'student@oidc.example', name: 'OIDC Student' },
      });
      const metadata = h.manager.getMetadata(site.id);
      expect(metadata?.authorizationResponseIssParameterSupported).toBe(true);
      const exchange = h.sent.find((r) => r.form?.get('grant_type') === 'authorization_code');
      expect(exchange?.form?.get('resource')).toBe(issuer);
      // The id_token was verified, so UserInfo was not called.
      expect(h.sent.some((r) => r.url === metadata?.userinfoEndpoint)).toBe(false);

      // Refresh: make the stored access token look expired.
      const vault = createVault({ dir: join(h.dir, 'vault'), cipher: h.cipher });
      const first = await vault.get(site.id);
      await vault.put(site.id, {
        ...(first as NonNullable<typeof first>),
        expiresAt: Date.now() - 1000,
      });
      const refreshed = await h.manager.getAccessToken(site.id);
      expect(refreshed).not.toBe(first?.accessToken);
      expect(h.refreshRequests()).toHaveLength(1);
      expect(h.refreshRequests()[0]?.form?.get('resource')).toBe(issuer);

      // Sign-out revokes the (current) refresh token at the provider.
      const current = await vault.get(site.id);
      expect(await h.manager.signOut(site.id)).toEqual({ revoked: true, pending: false });
      expect(
        await refreshTokenWorks(
          metadata?.tokenEndpoint as string,
          current?.refreshToken as string,
          'oidc-desktop',
        ),
      ).toMatchObject({
        error: 'invalid_grant',
      });
    } finally {
      await h.close();
    }
  });

  it('confidential client with client_secret_post', async () => {
    const h = await harnessFor();
    try {
      const site = await h.manager.add({
        baseUrl: issuer,
        clientId: 'oidc-desktop-confidential',
        clientSecret: 'oidc-confidential-secret-value',
      });
      expect((await h.manager.signIn(site.id)).status).toBe('ready');
      expect(await h.manager.signOut(site.id)).toEqual({ revoked: true, pending: false });
    } finally {
      await h.close();
    }
  });

  it('without school_id in the token response the tokens are refused (wrong-organization)', async () => {
    const h = await harnessFor();
    addSchoolId = false;
    try {
      const site = await h.manager.add({ baseUrl: issuer, clientId: 'oidc-desktop' });
      await expect(h.manager.signIn(site.id)).rejects.toSatisfy((e) =>
        isCoreError(e, 'wrong-organization'),
      );
      expect(h.manager.getSite(site.id)?.status).toBe('signed-out');
    } finally {
      addSchoolId = true;
      await h.close();
    }
  });
});
