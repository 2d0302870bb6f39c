import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Database } from 'better-sqlite3';
import type { ZodType } from 'zod';

/**
 * Shared shapes of the embedded server. Every area (oauth, oidc, member-api, mcp, admin-api)
 * exports a `Route[]`; `http/router.ts` joins them into the one route table, and admin routes also
 * feed /openapi.json.
 */

/** HEAD is served only where a route for it is registered (the router matches methods exactly). */
export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

export interface Clock {
  /** Milliseconds since the epoch. Tests pass a controllable clock for expiry rules. */
  now(): number;
}

/**
 * Faults tests (and the app's demo fault panel) switch on to exercise error paths a healthy server
 * never takes. Set them through `EmbeddedServer.setFaults` (checked) or by mutating
 * `EmbeddedServer.faults`; no HTTP route reads or changes them (README, decision "Fault
 * injection").
 */
export interface FaultSwitches {
  /**
   * The bearer-token check cannot reach a verdict (spec: /mcp answers 503 temporarily_unavailable).
   */
  tokenStoreUnavailable?: boolean;
  /**
   * The site is offline: every connection is dropped before an answer (the client sees a network
   * error).
   */
  offline?: boolean;
  /** A slow network: every answer waits this many milliseconds first. */
  latencyMs?: number;
  /** The member API (`/member/graphql`) answers 503 temporarily_unavailable with Retry-After. */
  memberApiUnavailable?: boolean;
  /** The token endpoint refuses every refresh_token grant with invalid_grant (RFC 6749 §5.2). */
  refreshRefused?: boolean;
  /**
   * The site's clock runs this many milliseconds off: token times, id_token iat/exp and the `Date`
   * header.
   */
  clockSkewMs?: number;
  /** Product file downloads (files/routes.ts) are slowed, cut halfway, or answered 404 / 410. */
  downloadFault?: 'none' | 'slow' | 'cut' | 'not-found' | 'gone';
}

export interface SiteConfig {
  /** School identifier, e.g. "sch_demo". Goes into tokens as school_id. */
  schoolId: string;
  name: string;
  subdomain: string;
}

export interface ServerContext {
  readonly db: Database;
  /**
   * The origin, e.g. http://127.0.0.1:41234 (no trailing slash). It is the issuer and the RFC 8707
   * resource.
   */
  readonly baseUrl: string;
  readonly site: SiteConfig;
  readonly clock: Clock;
  readonly faults: FaultSwitches;
  /**
   * Authorization-server settings. Optional so hand-built contexts (in-process tests) stay valid.
   */
  readonly oauth?: OAuthSettings;
  /** Request log sink. Lines never carry query strings, bodies or headers (no secrets). */
  readonly log?: (line: string) => void;
  /** Largest member API answer in bytes (default MAX_RESPONSE_BYTES in member-api/limits.ts). */
  readonly memberResponseLimitBytes?: number;
}

/** How id_tokens are handled (spec: the JWKS can be published before signing starts). */
export type IdTokenMode = 'sign' | 'publish-jwks-only' | 'off';

/**
 * What /api/oauth/register accepts (spec Authentication 6, where two statements conflict): an
 * allowlisted client_name only, or also any client whose redirect URIs are all loopback. Published
 * in the metadata as `registration_policy` (REGISTRATION_POLICY_KEY), the source of truth.
 */
export type RegistrationPolicy = 'allowlist_only' | 'allowlist_or_loopback';

export interface OAuthSettings {
  idTokens: IdTokenMode;
  /** Default 'allowlist_or_loopback' (decision 8, README). */
  registration?: RegistrationPolicy;
  /** Client ID Metadata Documents policy (spec Authentication 6). */
  clientMetadata: {
    /** Hosts (hostnames) whose documents are accepted. */
    allowedHosts: readonly string[];
    /** Accept documents from any host ("open registration"). */
    open: boolean;
    /** Tests only: allow http:// and private/loopback addresses for document URLs. */
    allowPrivateHosts: boolean;
  };
}

export interface RequestContext {
  readonly server: ServerContext;
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly url: URL;
  /** Path parameters from the route pattern, e.g. /api/admin/v1/courses/:id -> { id }. */
  readonly params: Readonly<Record<string, string>>;
}

export interface Route {
  method: HttpMethod;
  /** Express-style pattern: literal segments and `:name` parameters. */
  path: string;
  handler(ctx: RequestContext): Promise<void> | void;
  /** Admin REST routes only: the OpenAPI description is generated from these. */
  openapi?: {
    operationId: string;
    summary: string;
    tags: string[];
    /** Operator scopes required (oauth2 security requirement). */
    scopes: string[];
    query?: ZodType;
    body?: ZodType;
    response?: ZodType;
  };
}

/**
 * What a protected resource learns from `Authorization: Bearer ...` (one shared check,
 * http/bearer.ts).
 */
export interface AccessTokenInfo {
  tokenId: string;
  clientId: string;
  userId: string;
  schoolId: string | null;
  scopes: readonly string[];
  /** The RFC 8707 resource the token was issued for. */
  resource: string | null;
  audience: 'member' | 'operator';
  expiresAt: number;
}

export type BearerVerdict =
  | { kind: 'ok'; token: AccessTokenInfo }
  | { kind: 'missing' }
  | { kind: 'invalid'; description: string }
  | { kind: 'wrong-resource'; description: string }
  /** The server could not reach a verdict (store fault). Never a reason to accept the token. */
  | { kind: 'unavailable' };
