import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createJwksCache, verifyIdToken } from '../../../electron/core/auth/id-token';
import { isCoreError } from '../../../electron/core/errors';
import type { MiniAs, MiniAsKey } from './helpers/mini-as';
import { startMiniAs } from './helpers/mini-as';

const CLIENT = 'demo-desktop';
const NONCE = 'nonce-123';
const f = (i: string | URL | Request, init?: RequestInit) => fetch(i, init);

let as: MiniAs;
let key: MiniAsKey;
beforeAll(async () => {
  as = await startMiniAs();
});
afterAll(async () => {
  await as.close();
});
beforeEach(() => {
  key = as.published[0] as MiniAsKey;
});

async function sign(
  claims: Record<string, unknown>,
  k: MiniAsKey = key,
  alg = 'ES256',
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    iss: as.url,
    aud: CLIENT,
    sub: 'usr_1',
    nonce: NONCE,
    iat: now,
    exp: now + 600,
    email: 'a@example.com',
    name: 'A',
    ...claims,
  })
    .setProtectedHeader({ alg, kid: k.kid })
    .sign(k.privateKey);
}

function verify(
  idToken: string,
  opts: { now?: number; jwks?: ReturnType<typeof createJwksCache>; algorithms?: string[] } = {},
) {
  const clock = { now: () => opts.now ?? Date.now() };
  return verifyIdToken({
    idToken,
    issuer: as.url,
    clientId: CLIENT,
    nonce: NONCE,
    jwks: opts.jwks ?? createJwksCache(`${as.url}/jwks`, { fetch: f, clock }),
    clock,
    ...(opts.algorithms ? { algorithms: opts.algorithms } : {}),
  });
}

async function publishedKey(alg: 'RS256' | 'PS256' | 'EdDSA'): Promise<MiniAsKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const kid = randomBytes(6).toString('hex');
  const k = {
    kid,
    alg,
    privateKey,
    publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' },
  };
  as.published = [...as.published, k];
  return k;
}

const rejectsWith = (p: Promise<unknown>, text: RegExp) =>
  expect(p).rejects.toSatisfy(
    (e) => isCoreError(e, 'id-token-invalid') && text.test((e as Error).message),
  );

describe('id_token verification (OIDC Core §3.1.3.7, spec "id_token claims")', () => {
  it('accepts a valid ES256 token and returns the profile claims', async () => {
    const profile = await verify(
      await sign({ picture: 'https://x/p.png', org_id: 'sch_demo', roles: ['student'] }),
    );
    expect(profile).toEqual({
      sub: 'usr_1',
      email: 'a@example.com',
      name: 'A',
      picture: 'https://x/p.png',
      orgId: 'sch_demo',
      roles: ['student'],
    });
  });

  it('refuses a wrong audience', async () => {
    await rejectsWith(verify(await sign({ aud: 'other-client' })), /different application/);
  });

  it('refuses a wrong issuer', async () => {
    await rejectsWith(verify(await sign({ iss: 'http://127.0.0.1:1' })), /different site/);
  });

  it('refuses a nonce that does not echo the one sent', async () => {
    await rejectsWith(verify(await sign({ nonce: 'other' })), /nonce/);
    await rejectsWith(verify(await sign({ nonce: undefined })), /nonce/);
  });

  it('refuses an expired token, with a 60 s clock tolerance', async () => {
    const now = Date.now();
    const token = await sign({
      iat: Math.floor(now / 1000) - 700,
      exp: Math.floor(now / 1000) - 100,
    });
    await rejectsWith(verify(token, { now }), /expired/);
    const justExpired = await sign({
      iat: Math.floor(now / 1000) - 620,
      exp: Math.floor(now / 1000) - 20,
    });
    await expect(verify(justExpired, { now })).resolves.toMatchObject({ sub: 'usr_1' });
  });

  it('refuses any algorithm but ES256: HS256 (alg confusion, RFC 8725 §3.1) and RS256', async () => {
    const hs = await new SignJWT({ iss: as.url, aud: CLIENT, sub: 'u', nonce: NONCE })
      .setProtectedHeader({ alg: 'HS256', kid: key.kid })
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode('a-shared-secret-of-at-least-32-bytes!'));
    await rejectsWith(verify(hs), /algorithm/);
    const rsa = await generateKeyPair('RS256');
    const rs = await new SignJWT({ iss: as.url, aud: CLIENT, sub: 'u', nonce: NONCE })
      .setProtectedHeader({ alg: 'RS256', kid: key.kid })
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(rsa.privateKey);
    await rejectsWith(verify(rs), /algorithm/);
  });

  it('refuses a token signed by a key that is not published', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await sign({}, { kid: key.kid, alg: 'ES256', privateKey, publicJwk: null });
    await rejectsWith(verify(forged), /signature/);
  });

  it('an unknown kid refetches the JWKS once: key rotation succeeds, even right after an earlier fetch', async () => {
    const jwks = createJwksCache(`${as.url}/jwks`, { fetch: f });
    await verify(await sign({}), { jwks });
    expect(jwks.fetchCount()).toBe(1);
    const rotated = await as.newKey();
    as.published = [...as.published, rotated];
    try {
      await expect(verify(await sign({}, rotated), { jwks })).resolves.toMatchObject({
        sub: 'usr_1',
      });
      expect(jwks.fetchCount()).toBe(2);
      // Known kid: no more fetches.
      await verify(await sign({}, rotated), { jwks });
      expect(jwks.fetchCount()).toBe(2);
    } finally {
      as.published = as.published.filter((k) => k !== rotated);
    }
  });

  it('an unknown kid that is still unknown after the refetch is refused, and not refetched again at once', async () => {
    const jwks = createJwksCache(`${as.url}/jwks`, { fetch: f });
    const stranger = await as.newKey();
    await rejectsWith(verify(await sign({}, stranger), { jwks }), /key the site does not publish/);
    expect(jwks.fetchCount()).toBe(2);
    await rejectsWith(verify(await sign({}, stranger), { jwks }), /key the site does not publish/);
    expect(jwks.fetchCount()).toBe(2);
  });

  it.each(['RS256', 'PS256', 'EdDSA'] as const)(
    'accepts %s when the site lists it in id_token_signing_alg_values_supported',
    async (alg) => {
      const k = await publishedKey(alg);
      try {
        await expect(
          verify(await sign({}, k, alg), { algorithms: [alg, 'ES256'] }),
        ).resolves.toMatchObject({ sub: 'usr_1' });
        // Not listed: refused, with a hint that names the algorithm, not the clock.
        await expect(verify(await sign({}, k, alg), { algorithms: ['ES256'] })).rejects.toSatisfy(
          (e) =>
            isCoreError(e, 'id-token-invalid') &&
            /algorithm/.test((e as Error).message) &&
            e.detail?.hint === 'algorithm',
        );
      } finally {
        as.published = as.published.filter((x) => x !== k);
      }
    },
  );

  it('never accepts HS256 or none, even when the site lists them', async () => {
    const hs = await new SignJWT({ iss: as.url, aud: CLIENT, sub: 'u', nonce: NONCE })
      .setProtectedHeader({ alg: 'HS256', kid: key.kid })
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode('a-shared-secret-of-at-least-32-bytes!'));
    await rejectsWith(verify(hs, { algorithms: ['HS256', 'none', 'ES256'] }), /algorithm/);
    const header = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    const body = Buffer.from(
      JSON.stringify({
        iss: as.url,
        aud: CLIENT,
        sub: 'u',
        nonce: NONCE,
        iat: now,
        exp: now + 600,
      }),
    ).toString('base64url');
    await expect(verify(`${header}.${body}.`, { algorithms: ['none'] })).rejects.toSatisfy((e) =>
      isCoreError(e, 'id-token-invalid'),
    );
  });

  it('bounds iat: a token issued a day in the future, or in 2001 with a ten-year exp, is refused (clock hint)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const future = await sign({ iat: now + 86_400, exp: now + 86_400 + 600 });
    await expect(verify(future)).rejects.toSatisfy(
      (e) => isCoreError(e, 'id-token-invalid') && e.detail?.hint === 'clock',
    );
    const ancient = await sign({ iat: 978_307_200, exp: now + 10 * 365 * 86_400 });
    await expect(verify(ancient)).rejects.toSatisfy(
      (e) => isCoreError(e, 'id-token-invalid') && e.detail?.hint === 'clock',
    );
    // Within the 60 s tolerance it passes.
    await expect(verify(await sign({ iat: now + 30 }))).resolves.toMatchObject({ sub: 'usr_1' });
  });
});
