import { describe, expect, it } from 'vitest';
import {
  codeChallengeS256,
  createCodeVerifier,
  randomToken,
} from '../../../electron/core/auth/pkce';
import { buildAuthorizationRequest } from '../../../electron/core/auth/sign-in';

describe('PKCE (RFC 7636)', () => {
  it('computes the S256 challenge of the RFC 7636 Appendix B example', () => {
    expect(codeChallengeS256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('creates 43-character verifiers from the unreserved alphabet, different every time (§4.1)', () => {
    const a = createCodeVerifier();
    const b = createCodeVerifier();
    expect(a).toMatch(/^[A-Za-z0-9\-._~]{43}$/);
    expect(a).not.toBe(b);
  });

  it('refuses verifiers outside 43..128 unreserved characters', () => {
    expect(() => codeChallengeS256('short')).toThrow();
    expect(() => codeChallengeS256('a'.repeat(129))).toThrow();
  });

  it('state and nonce carry at least 128 bits', () => {
    expect(Buffer.from(randomToken(), 'base64url').length).toBeGreaterThanOrEqual(16);
  });
});

describe('authorization request (RFC 6749 §4.1.1, RFC 8707 §2.1, OIDC Core §3.1.2.1)', () => {
  it('carries every parameter the spec requires, S256 only, and resource = the site origin', () => {
    const r = buildAuthorizationRequest({
      authorizationEndpoint: 'https://school.example.com/oauth/authorize',
      clientId: 'demo-desktop',
      redirectUri: 'http://127.0.0.1:5555/callback',
      scopes: ['openid', 'profile', 'email', 'account:read', 'account:write'],
      resource: 'https://school.example.com',
    });
    const u = new URL(r.url);
    expect(u.origin + u.pathname).toBe('https://school.example.com/oauth/authorize');
    expect(Object.fromEntries(u.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'demo-desktop',
      redirect_uri: 'http://127.0.0.1:5555/callback',
      scope: 'openid profile email account:read account:write',
      state: r.state,
      nonce: r.nonce,
      code_challenge: codeChallengeS256(r.codeVerifier),
      code_challenge_method: 'S256',
      resource: 'https://school.example.com',
    });
    // The verifier itself never leaves the app in the front channel.
    expect(r.url).not.toContain(r.codeVerifier);
  });
});
