/**
 * Token endpoint, ours beside node-oidc-provider (test/bench/reference-provider.ts) in one run,
 * both serving the same grants: authorization_code + PKCE S256 + resource with an ES256 id_token,
 * and refresh_token with rotation. Both servers run in this process; the requests come from a load
 * generator in ANOTHER process (test/bench/load), which checks every answer. Codes are minted
 * straight into each server's store (ours: the codes table; theirs:
 * Grant + AuthorizationCode models), so only the token endpoint is measured, not the browser part.
 *
 * Refresh runs as chains: each of CONCURRENCY clients refreshes with the refresh token of its own
 * previous answer, as a real client does under rotation (oidc-provider consumes a rotated token, so
 * reusing one would be refused). Both get the same form, with `scope` narrowed to the non-openid
 * scopes so that neither signs an id_token on refresh (ours never does, spec "Token response";
 * oidc-provider does whenever openid is in the scope); its default, with an id_token, is reported
 * on its own line.
 *
 * Measurements alternate between the servers, ROUNDS times, and the median run of each is reported,
 * so a change in the machine's load (it is shared) falls on both. Numbers and ratios only; nothing
 * here asserts a timing. Run alone: `npm run bench token`.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createEmbeddedServer, type EmbeddedServer } from '../../embedded-server/index';
import { insertCode } from '../../embedded-server/store/codes';
import { randomId, randomSecret, sha256Hex } from '../../embedded-server/store/secrets';
import { runLoad, summarize, throughput, formatLoad, type LoadResult } from './load/client';
import type { GeneratorJob, ListJob, RefreshChainJob, RequestSpec } from './load/protocol';
import {
  REFERENCE_CLIENT,
  REFERENCE_REDIRECT,
  startReferenceProvider,
  type ReferenceProvider,
  type ReferenceStorage,
} from './reference-provider';
import type { BenchResult } from './types';

const REQUESTS = 600;
const CONCURRENCY = 8;
const ROUNDS = 3;
const OUR_CLIENT = 'demo-desktop';
const OUR_REDIRECT = 'http://127.0.0.1:54321/callback';
const OUR_PATH = '/api/oauth/token';
/** Same scope on both servers; refresh narrows to the non-openid part (see the file comment). */
const SCOPE = 'openid profile email account:read';
const REFRESH_SCOPE = 'profile email account:read';

const form = (fields: Record<string, string>): RequestSpec['body'] =>
  new URLSearchParams(fields).toString();
const spec = (path: string, fields: Record<string, string>): RequestSpec => ({
  path,
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: form(fields),
});

function mintOurCode(server: EmbeddedServer): { code: string; verifier: string } {
  const verifier = randomBytes(32).toString('base64url');
  const code = randomSecret('ac_');
  const now = server.clock.now();
  insertCode(server.db, {
    id: randomId('grt_'),
    codeHash: sha256Hex(code),
    clientId: OUR_CLIENT,
    userId: 'usr_student',
    schoolId: server.site.schoolId,
    redirectUri: OUR_REDIRECT,
    scope: SCOPE,
    resource: server.url,
    codeChallenge: createHash('sha256').update(verifier).digest('base64url'),
    nonce: 'bench',
    audience: 'member',
    authTime: now,
    createdAt: now,
    expiresAt: now + 600_000, // generous: the bench must not race the 60 s code lifetime
  });
  return { code, verifier };
}

const ourExchange = (server: EmbeddedServer, c: { code: string; verifier: string }): RequestSpec =>
  spec(OUR_PATH, {
    grant_type: 'authorization_code',
    code: c.code,
    redirect_uri: OUR_REDIRECT,
    client_id: OUR_CLIENT,
    code_verifier: c.verifier,
    resource: server.url,
  });

const theirExchange = (p: ReferenceProvider, c: { code: string; verifier: string }): RequestSpec =>
  spec('/token', {
    grant_type: 'authorization_code',
    code: c.code,
    redirect_uri: REFERENCE_REDIRECT,
    client_id: REFERENCE_CLIENT,
    code_verifier: c.verifier,
    resource: p.issuer,
  });

/** `count` fresh codes exchanged at our endpoint, CONCURRENCY at a time. */
export function codeExchangeJob(server: EmbeddedServer, count: number): ListJob {
  return {
    kind: 'list',
    origin: server.url,
    expect: 'tokens+id_token',
    concurrency: CONCURRENCY,
    warmup: Array.from({ length: 20 }, () => ourExchange(server, mintOurCode(server))),
    requests: Array.from({ length: count }, () => ourExchange(server, mintOurCode(server))),
  };
}

async function exchangeOnce(origin: string, request: RequestSpec): Promise<string> {
  const res = await fetch(`${origin}${request.path}`, {
    method: 'POST',
    headers: request.headers,
    body: request.body,
  });
  const body = (await res.json()) as { refresh_token?: string };
  if (res.status !== 200 || !body.refresh_token)
    throw new Error(`code exchange for a refresh chain answered ${res.status}`);
  return body.refresh_token;
}

/**
 * The first refresh token of each of `count` chains (one code exchange each, outside the
 * measurement).
 */
export function ourRefreshChains(server: EmbeddedServer, count = CONCURRENCY): Promise<string[]> {
  return Promise.all(
    Array.from({ length: count }, () =>
      exchangeOnce(server.url, ourExchange(server, mintOurCode(server))),
    ),
  );
}

export function refreshJob(
  server: EmbeddedServer,
  chains: readonly string[],
  total: number,
): RefreshChainJob {
  return {
    kind: 'refresh-chains',
    origin: server.url,
    expect: 'tokens',
    concurrency: chains.length,
    path: OUR_PATH,
    chains,
    form: { client_id: OUR_CLIENT, scope: REFRESH_SCOPE },
    total,
  };
}

async function theirExchangeJob(p: ReferenceProvider): Promise<ListJob> {
  const codes = (n: number) =>
    Promise.all(Array.from({ length: n }, async () => theirExchange(p, await p.mintCode())));
  return {
    kind: 'list',
    origin: p.issuer,
    expect: 'tokens+id_token',
    concurrency: CONCURRENCY,
    warmup: await codes(20),
    requests: await codes(REQUESTS),
  };
}

/**
 * `narrowed`: the same form as ours (no id_token); otherwise its default, which signs an id_token
 * on every refresh.
 */
async function theirRefreshJob(p: ReferenceProvider, narrowed: boolean): Promise<RefreshChainJob> {
  const chains = await Promise.all(
    Array.from({ length: CONCURRENCY }, async () =>
      exchangeOnce(p.issuer, theirExchange(p, await p.mintCode())),
    ),
  );
  return {
    kind: 'refresh-chains',
    origin: p.issuer,
    expect: 'tokens',
    concurrency: CONCURRENCY,
    path: '/token',
    chains,
    form: narrowed
      ? { client_id: REFERENCE_CLIENT, scope: REFRESH_SCOPE }
      : { client_id: REFERENCE_CLIENT },
    total: REQUESTS,
  };
}

/** The run with the median throughput of several. */
function median(runs: LoadResult[]): LoadResult {
  return [...runs].sort((a, b) => throughput(a) - throughput(b))[Math.floor(runs.length / 2)]!;
}

/**
 * Runs ours and theirs alternately (ours first on even rounds) and returns the median run of each.
 */
async function sideBySide(
  ours: () => Promise<GeneratorJob>,
  theirs: () => Promise<GeneratorJob>,
): Promise<[LoadResult, LoadResult]> {
  const a: LoadResult[] = [];
  const b: LoadResult[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const [jobA, jobB] = [await ours(), await theirs()];
    if (round % 2 === 0) {
      a.push(await runLoad(jobA));
      b.push(await runLoad(jobB));
    } else {
      b.push(await runLoad(jobB));
      a.push(await runLoad(jobA));
    }
  }
  return [median(a), median(b)];
}

function ratio(
  name: string,
  ours: LoadResult,
  theirs: LoadResult,
  storage: ReferenceStorage,
): BenchResult {
  return {
    name: `${name}: ratio ours / oidc-provider (${storage})`,
    value: throughput(ours) / throughput(theirs),
    unit: 'x',
    note: `req/s ${throughput(ours).toFixed(0)} vs ${throughput(theirs).toFixed(0)}; server CPU a request ${ours.cpuMsPerRequest.toFixed(2)} vs ${theirs.cpuMsPerRequest.toFixed(2)} ms; ${formatLoad(theirs.load)}`,
  };
}

export async function run(): Promise<BenchResult[]> {
  const server = await createEmbeddedServer({ port: 0, seed: 'demo' });
  const results: BenchResult[] = [];
  try {
    for (const storage of ['sqlite', 'memory'] as const) {
      const provider = await startReferenceProvider(storage);
      try {
        const [ourX, theirX] = await sideBySide(
          async () => codeExchangeJob(server, REQUESTS),
          () => theirExchangeJob(provider),
        );
        const [ourR, theirR] = await sideBySide(
          async () => refreshJob(server, await ourRefreshChains(server), REQUESTS),
          () => theirRefreshJob(provider, true),
        );
        const theirRid = await runLoad(await theirRefreshJob(provider, false));
        if (storage === 'sqlite') {
          results.push(...summarize('ours: code exchange + ES256 id_token', ourX, CONCURRENCY));
          results.push(...summarize('ours: refresh (rotation)', ourR, CONCURRENCY));
        }
        results.push(
          ...summarize(
            `oidc-provider (${storage}): code exchange + ES256 id_token`,
            theirX,
            CONCURRENCY,
          ),
        );
        results.push(
          ...summarize(`oidc-provider (${storage}): refresh (rotation)`, theirR, CONCURRENCY),
        );
        results.push(
          ...summarize(
            `oidc-provider (${storage}): refresh with its default id_token`,
            theirRid,
            CONCURRENCY,
          ),
        );
        results.push(
          ratio('code exchange', ourX, theirX, storage),
          ratio('refresh', ourR, theirR, storage),
        );
      } finally {
        await provider.close();
      }
    }
  } finally {
    await server.close();
  }
  return results;
}
