/**
 * A deliberately small authorization server for the failure paths the real one never takes (an
 * id_token signed with the wrong alg, a token response without school_id, a rotated signing
 * key...). Real HTTP on 127.0.0.1 port 0, real ES256 keys from jose. The authorization endpoint
 * approves at once (no pages).
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CryptoKey, JWK } from 'jose';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

export interface MiniAsKey {
  kid: string;
  alg: string;
  privateKey: CryptoKey | Uint8Array;
  publicJwk: JWK | null;
}

export interface MiniAs {
  readonly url: string;
  /** Keys published at /jwks (public parts). */
  published: MiniAsKey[];
  /** The key used to sign id_tokens. */
  signingKey: MiniAsKey;
  /** Overrides merged into the RFC 8414 document (null deletes a member). */
  metadata: Record<string, unknown>;
  /** The RFC 9728 document at /.well-known/oauth-protected-resource; null answers 404. */
  protectedResource: Record<string, unknown> | null;
  /** Members of /.well-known/openid-configuration over issuer and jwks_uri; null answers 404. */
  openidConfiguration: Record<string, unknown> | null;
  /** Changes the token response (e.g. delete school_id). */
  tokenResponse: (body: Record<string, unknown>) => Record<string, unknown>;
  /** The next token response is produced, then the connection is cut before it is sent. */
  dropNextTokenResponse: boolean;
  /** Changes the id_token claims before signing. */
  idTokenClaims: (claims: Record<string, unknown>) => Record<string, unknown>;
  /** Changes the authorization redirect parameters. */
  authorizeResponse: (params: URLSearchParams) => URLSearchParams;
  /**
   * RFC 8707 §2: an authorization request naming a resource is answered with invalid_target (a
   * stock provider's default).
   */
  refuseResource: boolean;
  /**
   * Whether /member/graphql takes an access token; `resource` is what its grant was asked for. By
   * default only a token bound to a resource opens it (the site's member API is the resource).
   */
  memberApiAccepts: (grant: { readonly resource: string | null }) => boolean;
  /**
   * Tokens revoked at /revoke (RFC 7009); a revoked refresh token is refused with invalid_grant.
   */
  readonly revoked: Set<string>;
  /** Every request: method, path and form (tests assert what the client sent). */
  readonly requests: {
    method: string;
    path: string;
    query: URLSearchParams;
    form: URLSearchParams;
    headers: Record<string, string | string[] | undefined>;
  }[];
  newKey(alg?: 'ES256'): Promise<MiniAsKey>;
  close(): Promise<void>;
}

export async function es256Key(): Promise<MiniAsKey> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const kid = randomBytes(6).toString('hex');
  return {
    kid,
    alg: 'ES256',
    privateKey,
    publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' },
  };
}

export async function startMiniAs(): Promise<MiniAs> {
  const codes = new Map<
    string,
    { nonce: string | null; clientId: string; resource: string | null }
  >();
  /** The resource each issued token's grant was asked for (access and refresh tokens). */
  const grants = new Map<string, { resource: string | null }>();
  let url = '';
  const first = await es256Key();
  const as: MiniAs = {
    url: '',
    published: [first],
    signingKey: first,
    metadata: {},
    openidConfiguration: null,
    protectedResource: null,
    dropNextTokenResponse: false,
    tokenResponse: (b) => b,
    idTokenClaims: (c) => c,
    authorizeResponse: (p) => p,
    refuseResource: false,
    memberApiAccepts: (grant) => grant.resource !== null,
    revoked: new Set<string>(),
    requests: [],
    newKey: () => es256Key(),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const u = new URL(req.url ?? '/', url);
        const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
        as.requests.push({
          method: req.method ?? 'GET',
          path: u.pathname,
          query: u.searchParams,
          form,
          headers: req.headers,
        });
        const json = (status: number, body: unknown): void => {
          res.writeHead(status, {
            'content-type': 'application/json',
            'cache-control': 'no-store',
          });
          res.end(JSON.stringify(body));
        };
        switch (u.pathname) {
          case '/.well-known/oauth-protected-resource':
            return as.protectedResource === null
              ? json(404, { error: 'not_found' })
              : json(200, as.protectedResource);
          case '/.well-known/openid-configuration':
            if (as.openidConfiguration === null) return json(404, { error: 'not_found' });
            return json(200, { issuer: url, jwks_uri: `${url}/jwks`, ...as.openidConfiguration });
          case '/.well-known/oauth-authorization-server': {
            const doc: Record<string, unknown> = {
              issuer: url,
              authorization_endpoint: `${url}/authorize`,
              token_endpoint: `${url}/token`,
              revocation_endpoint: `${url}/revoke`,
              userinfo_endpoint: `${url}/userinfo`,
              jwks_uri: `${url}/jwks`,
              id_token_signing_alg_values_supported: ['ES256'],
              code_challenge_methods_supported: ['S256'],
              response_types_supported: ['code'],
              authorization_response_iss_parameter_supported: true,
            };
            for (const [k, v] of Object.entries(as.metadata)) {
              if (v === null) delete doc[k];
              else doc[k] = v;
            }
            return json(200, doc);
          }
          case '/authorize': {
            const code = randomBytes(16).toString('base64url');
            const resource = u.searchParams.get('resource');
            codes.set(code, {
              nonce: u.searchParams.get('nonce'),
              clientId: u.searchParams.get('client_id') ?? '',
              resource,
            });
            const state = u.searchParams.get('state') ?? '';
            const params =
              as.refuseResource && resource !== null
                ? new URLSearchParams({
                    error: 'invalid_target',
                    error_description: 'resource indicator not allowed',
                    state,
                    iss: url,
                  })
                : as.authorizeResponse(new URLSearchParams({ code, state, iss: url }));
            const target = new URL(u.searchParams.get('redirect_uri') ?? '');
            params.forEach((v, k) => target.searchParams.set(k, v));
            res.writeHead(302, { location: target.href });
            res.end();
            return;
          }
          case '/token': {
            const grant = form.get('grant_type');
            let nonce: string | null = null;
            let clientId = form.get('client_id') ?? '';
            let resource = form.get('resource');
            if (grant === 'authorization_code') {
              const entry = codes.get(form.get('code') ?? '');
              if (!entry)
                return json(400, { error: 'invalid_grant', error_description: 'unknown code' });
              codes.delete(form.get('code') ?? '');
              nonce = entry.nonce;
              clientId = entry.clientId;
              resource = entry.resource;
            }
            if (grant === 'refresh_token') {
              const used = form.get('refresh_token') ?? '';
              if (as.revoked.has(used))
                return json(400, { error: 'invalid_grant', error_description: 'revoked' });
              resource = grants.get(used)?.resource ?? resource;
            }
            const now = Math.floor(Date.now() / 1000);
            const body: Record<string, unknown> = {
              access_token: `at_${randomBytes(16).toString('base64url')}`,
              token_type: 'Bearer',
              expires_in: 7200,
              refresh_token: `rt_${randomBytes(16).toString('base64url')}`,
              scope: 'openid profile email account:read account:write',
              school_id: 'sch_mini',
              school_subdomain: 'mini',
              created_at: now,
            };
            if (grant === 'authorization_code') {
              const claims = as.idTokenClaims({
                iss: url,
                aud: clientId,
                sub: 'usr_mini',
                email: 'mini@example.com',
                name: 'Mini Student',
                nonce,
                iat: now,
                exp: now + 600,
                org_id: 'sch_mini',
                roles: ['student'],
              });
              const k = as.signingKey;
              body.id_token = await new SignJWT(claims)
                .setProtectedHeader({ alg: k.alg, kid: k.kid, typ: 'JWT' })
                .sign(k.privateKey);
            }
            grants.set(body.access_token as string, { resource });
            grants.set(body.refresh_token as string, { resource });
            const answer = as.tokenResponse(body);
            if (as.dropNextTokenResponse) {
              // The server did its work (a new pair exists) but the answer never reaches the
              // client.
              as.dropNextTokenResponse = false;
              req.socket.destroy();
              return;
            }
            return json(200, answer);
          }
          case '/jwks':
            return json(200, {
              keys: as.published.filter((k) => k.publicJwk).map((k) => k.publicJwk),
            });
          case '/userinfo':
            return json(200, {
              sub: 'usr_mini',
              email: 'mini@example.com',
              name: 'Mini Student',
              picture: null,
              org_id: 'sch_mini',
              roles: ['student'],
            });
          case '/revoke':
            as.revoked.add(form.get('token') ?? '');
            return json(200, {});
          case '/member/graphql': {
            // RFC 6750 §3.1: a token the member API does not take is answered 401 invalid_token.
            const token = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1] ?? '';
            const grant = grants.get(token);
            if (grant === undefined || as.revoked.has(token) || !as.memberApiAccepts(grant)) {
              res.writeHead(401, {
                'content-type': 'application/json',
                'www-authenticate': 'Bearer error="invalid_token"',
              });
              res.end(JSON.stringify({ errors: [{ message: 'invalid token' }] }));
              return;
            }
            return json(200, {
              data: {
                viewer: {
                  id: 'usr_mini',
                  name: 'Mini Student',
                  email: 'mini@example.com',
                  avatar: null,
                },
              },
            });
          }
          default:
            return json(404, { error: 'not_found' });
        }
      })().catch((error: unknown) => {
        res.writeHead(500);
        res.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  (as as { url: string }).url = url;
  return as;
}

/**
 * Opens the authorization URL like a browser that is already signed in and consents: follows one
 * redirect.
 */
export async function autoApproveBrowser(authorizationUrl: string): Promise<void> {
  const res = await fetch(authorizationUrl, { redirect: 'manual' });
  const location = res.headers.get('location');
  await res.body?.cancel();
  if (!location) throw new Error(`no redirect from ${authorizationUrl}`);
  const cb = await fetch(location);
  await cb.text();
}
