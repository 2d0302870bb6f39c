import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddedServer } from '../../../embedded-server/index';
import type { EmbeddedServer } from '../../../embedded-server/index';
import { discover, normalizeBaseUrl } from '../../../electron/core/auth/discovery';
import { isCoreError } from '../../../electron/core/errors';
import type { MiniAs } from './helpers/mini-as';
import { startMiniAs } from './helpers/mini-as';

const f = { fetch: (i: string | URL | Request, init?: RequestInit) => fetch(i, init) };

describe('base URL normalisation (RFC 8252 §8.3: http only on loopback)', () => {
  it.each([
    ['https://school.example.com', 'https://school.example.com'],
    ['https://School.Example.com/', 'https://school.example.com'],
    ['  school.example.com  ', 'https://school.example.com'],
    ['http://127.0.0.1:4000', 'http://127.0.0.1:4000'],
    ['http://localhost:4000/', 'http://localhost:4000'],
  ])('%s -> %s', (input, expected) => {
    expect(normalizeBaseUrl(input)).toBe(expected);
  });

  it.each([
    ['http://school.example.com', /https/],
    ['https://school.example.com/path', /without a path/],
    ['https://school.example.com/?q=1', /without a path/],
    ['https://school.example.com/#x', /without a path/],
    ['https://user:pw@school.example.com', /user name/],
    ['ftp://school.example.com', /https/],
    ['', /Enter/],
  ])('refuses %s', (input, message) => {
    expect(() => normalizeBaseUrl(input)).toThrow(message);
  });
});

describe('discovery (RFC 8414, RFC 9728) against the embedded server', () => {
  let server: EmbeddedServer;
  beforeAll(async () => {
    server = await createEmbeddedServer({ port: 0, seed: 'demo', site: 'demo' });
  });
  afterAll(async () => {
    await server.close();
  });

  it('reads and validates the metadata: issuer = origin, S256, every endpoint, iss parameter', async () => {
    const m = await discover(`${server.url}/`, f);
    expect(m).toMatchObject({
      issuer: server.url,
      resource: server.url,
      authorizationEndpoint: `${server.url}/oauth/authorize`,
      tokenEndpoint: `${server.url}/api/oauth/token`,
      revocationEndpoint: `${server.url}/api/oauth/revoke`,
      userinfoEndpoint: `${server.url}/api/oauth/userinfo`,
      jwksUri: `${server.url}/oauth/jwks`,
      authorizationResponseIssParameterSupported: true,
    });
    expect(m.idTokenSigningAlgs).toContain('ES256');
  });
});

describe('discovery failures', () => {
  let as: MiniAs;
  beforeAll(async () => {
    as = await startMiniAs();
  });
  afterAll(async () => {
    await as.close();
  });
  const withMetadata = async (overrides: Record<string, unknown>) => {
    as.metadata = overrides;
    try {
      return await discover(as.url, f);
    } finally {
      as.metadata = {};
    }
  };

  it('accepts the mini server as is (no RFC 9728 document: the origin is the resource)', async () => {
    expect((await withMetadata({})).resource).toBe(as.url);
  });

  it('an issuer different from the origin -> discovery-invalid (RFC 8414 §3.3)', async () => {
    await expect(withMetadata({ issuer: `${as.url}/other` })).rejects.toSatisfy((e) =>
      isCoreError(e, 'discovery-invalid'),
    );
  });

  it('no S256 in code_challenge_methods_supported -> pkce-unsupported', async () => {
    await expect(withMetadata({ code_challenge_methods_supported: ['plain'] })).rejects.toSatisfy(
      (e) => isCoreError(e, 'pkce-unsupported'),
    );
    await expect(withMetadata({ code_challenge_methods_supported: null })).rejects.toSatisfy((e) =>
      isCoreError(e, 'pkce-unsupported'),
    );
  });

  it('a missing required endpoint -> discovery-invalid', async () => {
    await expect(withMetadata({ token_endpoint: null })).rejects.toSatisfy((e) =>
      isCoreError(e, 'discovery-invalid'),
    );
    await expect(withMetadata({ authorization_endpoint: null })).rejects.toSatisfy((e) =>
      isCoreError(e, 'discovery-invalid'),
    );
  });

  it('signed id tokens without jwks_uri -> discovery-invalid', async () => {
    await expect(withMetadata({ jwks_uri: null })).rejects.toSatisfy((e) =>
      isCoreError(e, 'discovery-invalid'),
    );
  });

  it('no UserInfo endpoint, or no revocation endpoint (both optional in RFC 8414 §2) is accepted', async () => {
    await expect(withMetadata({ userinfo_endpoint: null })).resolves.toMatchObject({
      userinfoEndpoint: null,
      revocationEndpoint: `${as.url}/revoke`,
    });
    await expect(withMetadata({ revocation_endpoint: null })).resolves.toMatchObject({
      revocationEndpoint: null,
      userinfoEndpoint: `${as.url}/userinfo`,
    });
  });

  it('publishing keys without signing algs is fine: no id_token expected, UserInfo is the fallback', async () => {
    const m = await withMetadata({ id_token_signing_alg_values_supported: null });
    expect(m.idTokenSigningAlgs).toEqual([]);
    expect(m.jwksUri).toBe(`${as.url}/jwks`);
  });

  it('an endpoint over plain http off loopback -> discovery-invalid', async () => {
    await expect(
      withMetadata({ token_endpoint: 'http://evil.example.com/token' }),
    ).rejects.toSatisfy((e) => isCoreError(e, 'discovery-invalid'));
  });

  it('an OpenID configuration naming another issuer or other keys -> discovery-invalid (OIDC Discovery §4.3)', async () => {
    as.openidConfiguration = {};
    try {
      await expect(withMetadata({})).resolves.toMatchObject({ issuer: as.url });
      as.openidConfiguration = { issuer: 'https://other.example.com' };
      await expect(withMetadata({})).rejects.toSatisfy((e) => isCoreError(e, 'discovery-invalid'));
      as.openidConfiguration = { jwks_uri: `${as.url}/other-jwks` };
      await expect(withMetadata({})).rejects.toSatisfy((e) => isCoreError(e, 'discovery-invalid'));
    } finally {
      as.openidConfiguration = null;
    }
  });

  describe('endpoints from a site on the Internet (the site is untrusted input)', () => {
    // The mini server answers for a public https name, as DNS would send the app there.
    const publicSite = 'https://school.example.com';
    const remapped = {
      fetch: (i: string | URL | Request, init?: RequestInit) => {
        const url = typeof i === 'string' ? i : i instanceof URL ? i.href : i.url;
        return fetch(
          url.startsWith(publicSite) ? `${as.url}${url.slice(publicSite.length)}` : url,
          init,
        );
      },
    };
    const publicMetadata = (): Record<string, unknown> => ({
      issuer: publicSite,
      authorization_endpoint: `${publicSite}/authorize`,
      token_endpoint: `${publicSite}/token`,
      revocation_endpoint: `${publicSite}/revoke`,
      userinfo_endpoint: `${publicSite}/userinfo`,
      jwks_uri: `${publicSite}/jwks`,
    });
    const discoverPublic = async (overrides: Record<string, unknown>) => {
      as.metadata = { ...publicMetadata(), ...overrides };
      try {
        return await discover(publicSite, remapped);
      } finally {
        as.metadata = {};
      }
    };

    it('a public site with its endpoints on itself is accepted', async () => {
      await expect(discoverPublic({})).resolves.toMatchObject({
        issuer: publicSite,
        tokenEndpoint: `${publicSite}/token`,
      });
    });

    it.each([
      ['token_endpoint', 'http://127.0.0.1:8080/token'],
      ['token_endpoint', 'https://127.0.0.1/token'],
      ['userinfo_endpoint', 'https://[::1]:9000/userinfo'],
      ['revocation_endpoint', 'https://10.0.0.5/revoke'],
      ['revocation_endpoint', 'https://192.168.1.1/revoke'],
      ['jwks_uri', 'https://169.254.169.254/latest/meta-data'],
      ['authorization_endpoint', 'https://localhost/authorize'],
      ['token_endpoint', 'https://[::ffff:127.0.0.1]/token'],
      ['userinfo_endpoint', 'https://[fd00::1]/userinfo'],
    ])(
      '%s on this computer or a private network (%s) -> discovery-invalid',
      async (name, value) => {
        await expect(discoverPublic({ [name]: value })).rejects.toSatisfy(
          (e) =>
            isCoreError(e, 'discovery-invalid') &&
            /this computer or its local network|not https/.test((e as Error).message),
        );
      },
    );

    it.each([
      ['token_endpoint', 'https://school@evil.example.com/token'],
      ['revocation_endpoint', 'https://user:pw@school.example.com/revoke'],
      ['authorization_endpoint', 'https://:secret@school.example.com/authorize'],
    ])('%s with credentials (%s) -> discovery-invalid', async (name, value) => {
      await expect(discoverPublic({ [name]: value })).rejects.toSatisfy(
        (e) =>
          isCoreError(e, 'discovery-invalid') && /user name or password/.test((e as Error).message),
      );
    });

    it('a site on this computer may name endpoints on this computer, but never with credentials', async () => {
      await expect(
        withMetadata({ token_endpoint: 'http://127.0.0.1:9/token' }),
      ).resolves.toMatchObject({
        tokenEndpoint: 'http://127.0.0.1:9/token',
      });
      await expect(
        withMetadata({ token_endpoint: `http://u:p@${new URL(as.url).host}/token` }),
      ).rejects.toSatisfy((e) => isCoreError(e, 'discovery-invalid'));
    });
  });

  it('a site that cannot be reached -> site-unreachable', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    await expect(discover(`http://127.0.0.1:${port}`, f)).rejects.toSatisfy((e) =>
      isCoreError(e, 'site-unreachable'),
    );
  });
});
