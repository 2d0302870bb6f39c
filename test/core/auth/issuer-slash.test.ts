import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discover } from '../../../electron/core/auth/discovery';
import { runSignIn } from '../../../electron/core/auth/sign-in';
import { runDoctor } from '../../../electron/core/doctor/run-doctor';
import { isCoreError } from '../../../electron/core/errors';
import type { MiniAs } from './helpers/mini-as';
import { autoApproveBrowser, startMiniAs } from './helpers/mini-as';

/**
 * An issuer written as the origin with its "/" path (`https://tenant.example/`), as some providers
 * publish it for an origin-only address. RFC 8414 §3.3 wants the document's issuer identical to the
 * one it was fetched for; for the origin the student typed the app takes `origin` and
 * `origin + "/"`, and from then on compares the callback's iss (RFC 9207) and the id_token's iss
 * (OIDC Core §3.1.3.7) byte for byte with the one the metadata named.
 */
describe('an issuer ending in "/" for an origin-only address', () => {
  let as: MiniAs;
  beforeEach(async () => {
    as = await startMiniAs();
  });
  afterEach(async () => {
    await as.close();
  });

  /**
   * The site names `${url}/` everywhere: metadata, OpenID configuration, callback iss and id_token
   * iss.
   */
  function slashEverywhere(): string {
    const issuer = `${as.url}/`;
    as.metadata = { issuer };
    as.openidConfiguration = { issuer };
    as.authorizeResponse = (p) => (p.set('iss', issuer), p);
    as.idTokenClaims = (c) => ({ ...c, iss: issuer });
    return issuer;
  }

  const signIn = async () => {
    const metadata = await discover(as.url, { fetch });
    return runSignIn({
      metadata,
      clientId: 'mini-client',
      clientSecret: null,
      fetch,
      openExternal: (u) => void autoApproveBrowser(u),
      timeoutMs: 20_000,
    });
  };

  it('is accepted when the student typed the origin, and the whole sign-in completes with a verified id_token', async () => {
    const issuer = slashEverywhere();
    const metadata = await discover(as.url, { fetch });
    expect(metadata.issuer).toBe(issuer);
    expect(metadata.resource).toBe(as.url);
    const result = await signIn();
    expect(result.idTokenVerified).toBe(true);
    expect(result.profile.sub).toBe('usr_mini');
  });

  it('the sign-in check finds nothing wrong with it either', async () => {
    slashEverywhere();
    const report = await runDoctor(
      { site: { label: 'Mini', baseUrl: as.url, clientId: 'mini-client' }, attempt: null },
      {
        fetch,
        clock: Date,
        env: {},
        app: { version: '0.0.0-test', host: 'browser', platform: process.platform },
      },
    );
    expect(report.checks.find((c) => c.id === 'discovery')).toMatchObject({
      status: 'ok',
      finding: 'discoveryOk',
    });
  });

  it('the callback iss is then compared byte for byte: the origin without "/" is another issuer', async () => {
    slashEverywhere();
    as.authorizeResponse = (p) => (p.set('iss', as.url), p);
    await expect(signIn()).rejects.toSatisfy((e) => isCoreError(e, 'issuer-mismatch'));
  });

  it('the id_token iss is compared byte for byte too', async () => {
    slashEverywhere();
    as.idTokenClaims = (c) => ({ ...c, iss: as.url });
    await expect(signIn()).rejects.toSatisfy((e) => isCoreError(e, 'id-token-invalid'));
  });

  it.each([
    ['two slashes', (u: string) => `${u}//`],
    ['a path', (u: string) => `${u}/tenant`],
    ['upper case', (u: string) => u.toUpperCase()],
    ['a query', (u: string) => `${u}/?x=1`],
  ])(
    'only "/" is added: an issuer with %s is still refused (RFC 8414 §3.3)',
    async (_name, issuerOf) => {
      as.metadata = { issuer: issuerOf(as.url) };
      await expect(discover(as.url, { fetch })).rejects.toSatisfy((e) =>
        isCoreError(e, 'discovery-invalid'),
      );
    },
  );

  it('the resource metadata may name the server in either spelling of the origin, and no other (RFC 9728 §7.6)', async () => {
    const issuer = slashEverywhere();
    as.protectedResource = { resource: as.url, authorization_servers: [as.url] };
    await expect(discover(as.url, { fetch })).resolves.toMatchObject({ issuer });
    as.protectedResource = { resource: as.url, authorization_servers: [issuer] };
    await expect(discover(as.url, { fetch })).resolves.toMatchObject({ issuer });
    as.protectedResource = { resource: as.url, authorization_servers: [`${as.url}//`] };
    await expect(discover(as.url, { fetch })).rejects.toSatisfy((e) =>
      isCoreError(e, 'discovery-invalid'),
    );
  });

  it('the OpenID configuration must name the same form of the issuer as the RFC 8414 document', async () => {
    as.metadata = { issuer: `${as.url}/` };
    as.openidConfiguration = { issuer: as.url };
    await expect(discover(as.url, { fetch })).rejects.toSatisfy((e) =>
      isCoreError(e, 'discovery-invalid'),
    );
  });
});
