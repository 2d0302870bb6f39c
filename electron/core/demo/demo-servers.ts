/**
 * Demo mode: the two demo sites of the embedded server (`demo` and `demo2`), run in this process on
 * loopback, each with its own SQLite file under `<dataDir>/demo-server/`, so what the student does
 * in the demo (notices read, sign-ins, revocations) survives a restart exactly like on a real site.
 *
 * This folder and the composition root are the only app code allowed to import `embedded-server/`
 * (lint enforces it): everything else reaches the demo sites over HTTP, like any school's site.
 *
 * Ports: a site's origin is its OAuth issuer and RFC 8707 resource, and the app stores it with the
 * site. So the last ports are remembered in `<dataDir>/demo-server/ports.json` and tried first;
 * when one is taken the OS picks another and `reconcileDemoSites` moves the saved demo sites to the
 * new origin (their tokens were bound to the old issuer, so the student signs in again; the offline
 * data stays).
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DemoFaults } from '../../common/demo-faults';
import type {
  EmbeddedServer,
  EmbeddedServerOptions,
  SiteKey,
} from '../../../embedded-server/index';
import { applyFaultPatch } from '../../../embedded-server/http/faults';
import type { FaultSwitches } from '../../../embedded-server/http/types';
import type { Logger } from '../log';
import { silentLogger } from '../log';
import { createSiteStore, type SiteRecord } from '../sites/site-store';
import { writeFileAtomic } from '../fs/atomic-file';
import { privateDatabaseFile } from '../fs/private-files';

export const DEMO_SITE_KEYS: readonly SiteKey[] = ['demo', 'demo2'];
/** The public client the demo sites are seeded with (embedded-server/seed/identity.ts). */
export const DEMO_CLIENT_ID = 'demo-desktop';

export type DemoOrigins = Readonly<Record<SiteKey, string>>;

export interface DemoServers {
  /**
   * Starts both sites (no-op when running) and returns their origins. Concurrent calls share one
   * start.
   */
  start(): Promise<DemoOrigins>;
  /** Stops both sites; their databases stay. Also the test hook for "the site went away". */
  stop(): Promise<void>;
  readonly running: boolean;
  /** Origins of the running sites, else null. */
  origins(): DemoOrigins | null;
  /** The origins of the previous run, from ports.json (null before the first start). */
  previousOrigins(): Promise<DemoOrigins | null>;
  /**
   * Test hook: the running embedded servers (their databases can be read to check what the app
   * did).
   */
  servers(): Readonly<Record<SiteKey, EmbeddedServer>> | null;
  /** Display name of a running demo site (its key before it runs). */
  label(key: SiteKey): string;
  /**
   * The fault switches both demo sites share (Settings > Demo). They last for this run of the app
   * only.
   */
  faults(): DemoFaults;
  /**
   * Switches faults live on both sites (also before they start: a started site gets them). Turning
   * `refreshRefused` on also ends the sites' live access tokens, so the app's next call must
   * refresh and meets the refusal now rather than in two hours.
   */
  setFaults(patch: Partial<DemoFaults>): DemoFaults;
  /**
   * Rotates the signing key of both running sites (embedded-server decision 12); returns how many
   * were rotated.
   */
  rotateSigningKeys(): Promise<number>;
}

export interface DemoServersDeps {
  readonly dataDir: string;
  readonly logger?: Logger;
  /**
   * better-sqlite3's addon for this runtime, when not the default one
   * (AppCoreOptions.sqliteBinding).
   */
  readonly sqliteBinding?: string;
}

/**
 * The embedded server (its routes, GraphQL schema, OAuth provider, seeds: ~25 MiB and 140-160 ms to
 * load in the installed app) is loaded when a demo site starts, not with the app: a student who
 * never opens the demo, or whose window opens before the demo sites are up, does not pay for it.
 */
async function createEmbeddedServer(options: EmbeddedServerOptions): Promise<EmbeddedServer> {
  const { createEmbeddedServer: create } = await import('../../../embedded-server/index');
  return create(options);
}

export type DemoServersOptions = DemoServersDeps;

export function demoServerDir(dataDir: string): string {
  return join(dataDir, 'demo-server');
}

const originsOf = (running: Record<SiteKey, EmbeddedServer>): DemoOrigins => ({
  demo: running.demo.url,
  demo2: running.demo2.url,
});

/** The switches as Settings > Demo shows them. */
function faultsView(faults: FaultSwitches): DemoFaults {
  return {
    offline: faults.offline === true,
    latencyMs: faults.latencyMs ?? 0,
    memberApiUnavailable: faults.memberApiUnavailable === true,
    refreshRefused: faults.refreshRefused === true,
    clockSkewMinutes: Math.round((faults.clockSkewMs ?? 0) / 60_000),
    download: faults.downloadFault ?? 'none',
  };
}

/** The switches a patch of Settings > Demo changes, in the embedded server's words. */
function switchesOf(patch: Partial<DemoFaults>): Partial<FaultSwitches> {
  return {
    ...(patch.offline === undefined ? {} : { offline: patch.offline }),
    ...(patch.latencyMs === undefined ? {} : { latencyMs: patch.latencyMs }),
    ...(patch.memberApiUnavailable === undefined
      ? {}
      : { memberApiUnavailable: patch.memberApiUnavailable }),
    ...(patch.refreshRefused === undefined ? {} : { refreshRefused: patch.refreshRefused }),
    ...(patch.clockSkewMinutes === undefined
      ? {}
      : { clockSkewMs: patch.clockSkewMinutes * 60_000 }),
    ...(patch.download === undefined ? {} : { downloadFault: patch.download }),
  };
}

/** The ports of the last run (ports.json); a missing or damaged file reads as none. */
async function readPorts(portsFile: string): Promise<Partial<Record<SiteKey, number>>> {
  try {
    const parsed = JSON.parse(await readFile(portsFile, 'utf8')) as unknown;
    const out: Partial<Record<SiteKey, number>> = {};
    if (parsed && typeof parsed === 'object') {
      for (const key of DEMO_SITE_KEYS) {
        const port = (parsed as Record<string, unknown>)[key];
        if (typeof port === 'number' && Number.isInteger(port) && port > 0 && port < 65536)
          out[key] = port;
      }
    }
    return out;
  } catch {
    return {};
  }
}

/** The two demo sites of this app (see above). */
export class DemoSiteServers implements DemoServers {
  readonly #deps: DemoServersDeps;
  readonly #dir: string;
  readonly #portsFile: string;
  readonly #log: Logger;
  #running: Record<SiteKey, EmbeddedServer> | null = null;
  #starting: Promise<DemoOrigins> | null = null;
  /**
   * One object shared by both sites: the embedded server reads its switches live (README decision
   * 26).
   */
  readonly #faults: FaultSwitches = {};

  constructor(deps: DemoServersDeps) {
    this.#deps = deps;
    this.#dir = demoServerDir(deps.dataDir);
    this.#portsFile = join(this.#dir, 'ports.json');
    this.#log = (deps.logger ?? silentLogger).child('demo');
  }

  start(): Promise<DemoOrigins> {
    if (this.#running) return Promise.resolve(originsOf(this.#running));
    this.#starting ??= this.#doStart().finally(() => {
      this.#starting = null;
    });
    return this.#starting;
  }

  async stop(): Promise<void> {
    await this.#starting?.catch(() => undefined);
    const current = this.#running;
    this.#running = null;
    if (current) await Promise.all(DEMO_SITE_KEYS.map((k) => current[k].close()));
  }

  get running(): boolean {
    return this.#running !== null;
  }

  origins(): DemoOrigins | null {
    return this.#running ? originsOf(this.#running) : null;
  }

  async previousOrigins(): Promise<DemoOrigins | null> {
    const ports = await readPorts(this.#portsFile);
    if (ports.demo === undefined || ports.demo2 === undefined) return null;
    return { demo: `http://127.0.0.1:${ports.demo}`, demo2: `http://127.0.0.1:${ports.demo2}` };
  }

  servers(): Readonly<Record<SiteKey, EmbeddedServer>> | null {
    return this.#running;
  }

  /**
   * Asked once the sites run ('sites:add-demo'); the name is the running site's own
   * (seed/identity.ts).
   */
  label(key: SiteKey): string {
    return this.#running?.[key].site.name ?? key;
  }

  faults(): DemoFaults {
    return faultsView(this.#faults);
  }

  setFaults(patch: Partial<DemoFaults>): DemoFaults {
    const faults = this.#faults;
    const wasRefused = faults.refreshRefused === true;
    applyFaultPatch(faults, switchesOf(patch));
    const running = this.#running;
    if (!wasRefused && faults.refreshRefused && running) {
      const ended = DEMO_SITE_KEYS.reduce((n, k) => n + running[k].expireAccessTokens(), 0);
      this.#log.info('demo fault: refresh refused; live access tokens ended', { ended });
    }
    this.#log.info('demo faults changed', faultsView(faults));
    return faultsView(faults);
  }

  async rotateSigningKeys(): Promise<number> {
    const current = this.#running;
    if (!current) return 0;
    await Promise.all(DEMO_SITE_KEYS.map((k) => current[k].rotateSigningKey()));
    return DEMO_SITE_KEYS.length;
  }

  async #startOne(key: SiteKey, port: number | undefined): Promise<EmbeddedServer> {
    const database = join(this.#dir, `${key}.db`);
    // The demo school's data is the student's too (payment codes): 0600 before the embedded server
    // opens it.
    privateDatabaseFile(database);
    const { sqliteBinding } = this.#deps;
    const base = {
      seed: 'demo' as const,
      site: key,
      database,
      faults: this.#faults,
      ...(sqliteBinding === undefined ? {} : { sqliteBinding }),
    };
    if (port !== undefined) {
      try {
        return await createEmbeddedServer({ ...base, port });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'EADDRINUSE' && code !== 'EACCES') throw error;
        this.#log.warn('the demo site’s previous port is taken; using a new one', {
          site: key,
          port,
        });
      }
    }
    return createEmbeddedServer({ ...base, port: 0 });
  }

  async #doStart(): Promise<DemoOrigins> {
    await mkdir(this.#dir, { recursive: true, mode: 0o700 });
    const ports = await readPorts(this.#portsFile);
    const started: Partial<Record<SiteKey, EmbeddedServer>> = {};
    try {
      for (const key of DEMO_SITE_KEYS) started[key] = await this.#startOne(key, ports[key]);
    } catch (error) {
      await Promise.all(Object.values(started).map((s) => s.close()));
      throw error;
    }
    const running = started as Record<SiteKey, EmbeddedServer>;
    this.#running = running;
    await writeFileAtomic(
      this.#portsFile,
      JSON.stringify({ demo: running.demo.port, demo2: running.demo2.port }),
      0o600,
    );
    this.#log.info('demo sites running', { demo: running.demo.url, demo2: running.demo2.url });
    return originsOf(running);
  }
}

export function createDemoServers(deps: DemoServersDeps): DemoServers {
  return new DemoSiteServers(deps);
}

/** True when sites.json holds a demo site (so demo mode must be running before any sync). */
export async function hasDemoSites(dataDir: string): Promise<boolean> {
  try {
    return (await createSiteStore(dataDir).load()).some((s) => s.isDemo);
  } catch {
    return false;
  }
}

/**
 * Moves saved demo sites from the previous origins to the current ones (ports changed). Runs before
 * the site manager loads sites.json. The site keeps its id, so its offline data and outbox stay
 * with it; its token pair was issued by the old issuer and will be refused, so the site asks for a
 * sign-in.
 */
export async function reconcileDemoSites(
  dataDir: string,
  previous: DemoOrigins | null,
  current: DemoOrigins,
): Promise<number> {
  const store = createSiteStore(dataDir);
  const sites = await store.load();
  let moved = 0;
  const next = sites.map((site): SiteRecord => {
    if (!site.isDemo) return site;
    const key =
      DEMO_SITE_KEYS.find((k) => previous?.[k] === site.baseUrl) ??
      DEMO_SITE_KEYS.find((k) => current[k] === site.baseUrl);
    if (key === undefined || current[key] === site.baseUrl) return site;
    const from = site.baseUrl;
    const to = current[key];
    moved++;
    const swap = (value: string) =>
      value.startsWith(from) ? to + value.slice(from.length) : value;
    const m = site.metadata;
    return {
      ...site,
      baseUrl: to,
      label: site.label === new URL(from).host ? new URL(to).host : site.label,
      status: site.status === 'ready' ? 'sign-in-needed' : site.status,
      metadata: m
        ? {
            ...m,
            issuer: swap(m.issuer),
            resource: swap(m.resource),
            authorizationEndpoint: swap(m.authorizationEndpoint),
            tokenEndpoint: swap(m.tokenEndpoint),
            revocationEndpoint: m.revocationEndpoint === null ? null : swap(m.revocationEndpoint),
            userinfoEndpoint: m.userinfoEndpoint === null ? null : swap(m.userinfoEndpoint),
            jwksUri: m.jwksUri === null ? null : swap(m.jwksUri),
          }
        : null,
    };
  });
  if (moved > 0) await store.save(next);
  return moved;
}
