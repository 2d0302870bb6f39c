import type { OAuthSettings, RegistrationPolicy, ServerContext } from '../http/types';

/**
 * Lifetimes. Spec "Limits": member access token 2 h, id_token 10 min; the rest are decisions
 * (README).
 */
export const ACCESS_TOKEN_TTL_S = 2 * 60 * 60;
export const ID_TOKEN_TTL_S = 10 * 60;
/** Decision: authorization codes live 60 s (RFC 6749 §4.1.2 recommends at most 10 minutes). */
export const CODE_TTL_S = 60;
/** Decision: refresh tokens live 30 days from the refresh that issued them. */
export const REFRESH_TOKEN_TTL_S = 30 * 24 * 60 * 60;
/** Decision: browser sessions on the sign-in and admin pages live 12 hours. */
export const SESSION_TTL_S = 12 * 60 * 60;
/** Decision: an authorization request waits at most 10 minutes for consent. */
export const PENDING_AUTHORIZATION_TTL_S = 10 * 60;

/**
 * Decision: loopback registration is open to any name (decision 8), so it is bounded: at most this
 * many new registrations per hour for the site, and a registration that never got a code or a token
 * is forgotten a day later.
 */
export const LOOPBACK_REGISTRATIONS_PER_HOUR = 20;
export const UNUSED_REGISTRATION_TTL_S = 24 * 60 * 60;

export const DEFAULT_OAUTH_SETTINGS: OAuthSettings = {
  idTokens: 'sign',
  clientMetadata: { allowedHosts: [], open: false, allowPrivateHosts: false },
};

export function oauthSettings(server: ServerContext): OAuthSettings {
  return server.oauth ?? DEFAULT_OAUTH_SETTINGS;
}

/**
 * The metadata member that says what registration accepts (RFC 8414 §2 allows additional members).
 */
export const REGISTRATION_POLICY_KEY = 'registration_policy';

export function registrationPolicy(server: ServerContext): RegistrationPolicy {
  return oauthSettings(server).registration ?? 'allowlist_or_loopback';
}

/** Discovery lists both id_token_signing_alg_values_supported and jwks_uri only in 'sign' mode. */
export function signsIdTokens(server: ServerContext): boolean {
  return oauthSettings(server).idTokens === 'sign';
}

export function publishesJwks(server: ServerContext): boolean {
  return oauthSettings(server).idTokens !== 'off';
}

/** Endpoint paths: the one place they are spelled (discovery documents read them from here). */
export const PATHS = {
  authorize: '/oauth/authorize',
  authorizeDecision: '/oauth/authorize/decision',
  signIn: '/sign-in',
  signOut: '/sign-out',
  token: '/api/oauth/token',
  userinfo: '/api/oauth/userinfo',
  revoke: '/api/oauth/revoke',
  register: '/api/oauth/register',
  jwks: '/oauth/jwks',
  protectedResourceMetadata: '/.well-known/oauth-protected-resource',
  /**
   * RFC 9728 §3.1: the metadata of the resource at /mcp, found by inserting the well-known path
   * before it.
   */
  mcpProtectedResourceMetadata: '/.well-known/oauth-protected-resource/mcp',
  authorizationServerMetadata: '/.well-known/oauth-authorization-server',
  openidConfiguration: '/.well-known/openid-configuration',
} as const;
