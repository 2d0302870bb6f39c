import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Database } from 'better-sqlite3';
import type {
  Clock,
  FaultSwitches,
  IdTokenMode,
  OAuthSettings,
  RegistrationPolicy,
  Route,
  ServerContext,
  SiteConfig,
} from './http/types';
import { createRouter, type Router } from './http/router';
import { openDatabase } from './store/db';
import { seedDatabase, SITES, type SeedKind, type SiteKey } from './seed/index';
import { oauthRoutes } from './oauth/routes';
import { oidcRoutes } from './oidc/routes';
import { rotateSigningKey } from './oidc/keys';
import { expireLiveAccessTokens } from './store/tokens';
import { adminPageRoutes } from './admin-pages/routes';
import { memberApiRoutes } from './member-api/routes';
import { mcpRoutes } from './mcp/routes';
import { adminRoutes, docsRoutes } from './admin-api/routes';
import { coverRoutes } from './covers/routes';
import { productFileRoutes } from './files/routes';
import { studentPageRoutes } from './student-pages/routes';
import { applyFaultPatch, beforeRouting, skewedClock } from './http/faults';
import { allowedHosts, hostAllowed } from './http/host-check';
import { observeResponse, type ObservedResponse } from './http/observe';
import { sendJson } from './http/respond';

export type { SiteKey, SeedKind } from './seed/index';
export type { ObservedResponse } from './http/observe';

export interface EmbeddedServerOptions {
  /** 0 (default) = any free port. */
  port?: number;
  host?: '127.0.0.1';
  /**
   * SQLite file path; default ':memory:'. A file keeps tokens, clients and the signing key across
   * restarts.
   */
  database?: string;
  seed?: SeedKind;
  site?: SiteKey;
  clock?: Clock;
  faults?: FaultSwitches;
  idTokens?: IdTokenMode;
  logger?: (line: string) => void;
  extraRoutes?: Route[];
  seedOptions?: Readonly<Record<string, unknown>>;
  /**
   * Client ID Metadata Documents: hosts accepted, or any host when open (spec Authentication 6).
   */
  clientMetadataDocuments?: { allowedHosts?: string[]; open?: boolean };
  /**
   * What /api/oauth/register accepts besides an allowlisted client_name: 'allowlist_or_loopback'
   * (default) also registers any client whose redirect URIs are all loopback; 'allowlist_only' does
   * not. Published in the authorization-server metadata as `registration_policy`.
   */
  registration?: RegistrationPolicy;
  /** Tests only: metadata documents may be fetched over http from private/loopback addresses. */
  allowPrivateMetadataHosts?: boolean;
  /**
   * better-sqlite3's compiled addon (a .node file) when the default one does not fit this runtime:
   * the app run by Electron from a checkout whose node_modules were built for Node (see
   * scripts/electron-native.mjs).
   */
  sqliteBinding?: string;
  /**
   * Largest member API answer in bytes; larger ones become a RESPONSE_TOO_LARGE error (default 4
   * MiB).
   */
  memberResponseLimitBytes?: number;
  /**
   * Tests only: every finished answer, body included (test/helpers/server.ts checks each against
   * /openapi.json).
   */
  onResponse?: (response: ObservedResponse) => void;
}

export interface EmbeddedServer {
  /** Base URL = issuer = RFC 8707 resource, e.g. http://127.0.0.1:41234 (no trailing slash). */
  readonly url: string;
  readonly port: number;
  readonly site: SiteConfig;
  readonly db: Database;
  readonly context: ServerContext;
  /** Mutable: flip switches at run time (e.g. faults.tokenStoreUnavailable = true). */
  readonly faults: FaultSwitches;
  /**
   * Checks and applies a patch of fault switches at run time (README, decision "Fault injection");
   * throws a TypeError/RangeError for an unknown switch or a value out of range, changing nothing.
   * Returns the switches.
   */
  setFaults(patch: Readonly<FaultSwitches>): FaultSwitches;
  /**
   * Ends the life of every live access token now, as if their two hours had passed (refresh tokens
   * untouched):
   * the next call of a client refreshes. Returns how many tokens it expired. Demo fault panel and
   * tests only.
   */
  expireAccessTokens(): number;
  /** The site's clock: the `clock` option moved by `faults.clockSkewMs`. */
  readonly clock: Clock;
  readonly router: Router;
  /**
   * Starts signing id_tokens with a new key; the old key stays in the JWKS for a day. Returns the
   * new kid.
   */
  rotateSigningKey(): Promise<string>;
  close(): Promise<void>;
}

const systemClock: Clock = { now: () => Date.now() };

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Opens the site's database and seeds it; a failure closes it again. */
function openSiteDatabase(
  options: EmbeddedServerOptions,
  siteKey: SiteKey,
  site: SiteConfig,
  clock: Clock,
): Database {
  const db = openDatabase(options.database ?? ':memory:', undefined, options.sqliteBinding);
  try {
    seedDatabase(db, {
      seed: options.seed ?? 'demo',
      site: siteKey,
      now: clock.now(),
      options: options.seedOptions ?? {},
    });
    // Even unseeded, the served school must exist: codes and tokens reference it.
    db.prepare(
      'INSERT OR IGNORE INTO schools (id, name, subdomain, created_at) VALUES (?, ?, ?, ?)',
    ).run(site.schoolId, site.name, site.subdomain, clock.now());
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

function oauthSettings(options: EmbeddedServerOptions): OAuthSettings {
  return {
    idTokens: options.idTokens ?? 'sign',
    registration: options.registration ?? 'allowlist_or_loopback',
    clientMetadata: {
      allowedHosts: options.clientMetadataDocuments?.allowedHosts ?? [],
      open: options.clientMetadataDocuments?.open ?? false,
      allowPrivateHosts: options.allowPrivateMetadataHosts ?? false,
    },
  };
}

/** What the request listener reads; `context` and `hosts` are set once the port is known. */
interface ListenerState {
  context: ServerContext | null;
  hosts: ReadonlySet<string>;
}

function requestListener(
  options: EmbeddedServerOptions,
  router: Router,
  faults: FaultSwitches,
  clock: Clock,
  state: ListenerState,
): RequestListener {
  const log = options.logger;
  return (req, res) => {
    const started = performance.now();
    if (options.onResponse) observeResponse(req, res, options.onResponse);
    if (log) {
      // Method, path and status only: query strings and bodies may carry codes or tokens (never
      // logged).
      res.on('finish', () =>
        log(
          `${req.method ?? '?'} ${(req.url ?? '').split('?')[0]} ${res.statusCode} ${(performance.now() - started).toFixed(1)}ms`,
        ),
      );
    }
    // Before anything else (faults included): a request for another host name is no request to this
    // site.
    if (!hostAllowed(req, state.hosts)) {
      sendJson(res, 421, {
        error: 'misdirected_request',
        error_description: 'this site does not answer to that host name',
      });
      return;
    }
    void beforeRouting(faults, clock, req, res).then((go) =>
      go ? router.handle(state.context!, req, res) : undefined,
    );
  };
}

/**
 * Starts one site of the service on its own origin. Every route table is joined here (the one table
 * of paths); state lives in SQLite.
 */
export async function createEmbeddedServer(
  options: EmbeddedServerOptions = {},
): Promise<EmbeddedServer> {
  const host = options.host ?? '127.0.0.1';
  const siteKey = options.site ?? 'demo';
  const site = SITES[siteKey];
  const faults = options.faults ?? {};
  // Everything the site dates (tokens, codes, sessions, the Date header) reads the site's clock,
  // skewed on demand.
  const clock = skewedClock(options.clock ?? systemClock, faults);
  const log = options.logger;
  // The route table first: a duplicate route is a start-up error that must not leave a database
  // open.
  const router = createRouter(
    oidcRoutes,
    oauthRoutes,
    adminPageRoutes,
    memberApiRoutes,
    mcpRoutes,
    adminRoutes,
    docsRoutes,
    coverRoutes,
    productFileRoutes,
    studentPageRoutes,
    options.extraRoutes ?? [],
  );
  const db = openSiteDatabase(options, siteKey, site, clock);
  const oauth = oauthSettings(options);

  // No request is served before listen() resolves, and so before the state is complete.
  const state: ListenerState = { context: null, hosts: new Set() };
  const http = createServer(requestListener(options, router, faults, clock, state));
  // Slow-loris guard; the requests this server serves are small.
  http.requestTimeout = 30_000;
  http.headersTimeout = 10_000;

  let port: number;
  try {
    port = await listen(http, options.port ?? 0, host);
  } catch (err) {
    db.close();
    throw err;
  }
  const url = `http://${host}:${port}`;
  state.hosts = allowedHosts(url);
  const context: ServerContext = {
    db,
    baseUrl: url,
    site,
    clock,
    faults,
    oauth,
    ...(log ? { log } : {}),
    ...(options.memberResponseLimitBytes === undefined
      ? {}
      : { memberResponseLimitBytes: options.memberResponseLimitBytes }),
  };
  state.context = context;
  log?.(`listening at ${url} (${site.name})`);

  let closed = false;
  return {
    url,
    port,
    site,
    db,
    context,
    faults,
    clock,
    router,
    setFaults: (patch) => applyFaultPatch(faults, patch),
    expireAccessTokens: () => expireLiveAccessTokens(db, clock.now()),
    rotateSigningKey: () => rotateSigningKey(db, clock.now()),
    async close() {
      if (closed) return;
      closed = true;
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
      db.close();
    },
  };
}
