/**
 * Token endpoint throughput and latency over loopback HTTP (real server, real SQLite, real ES256 signing).
 * Run: `npx tsx test/bench/token-endpoint.bench.ts` (or `npm run bench`, which calls run()).
 * Codes are minted straight into the store so that only the token endpoint is measured, not the browser part.
 */
import { createHash, randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { createEmbeddedServer, type EmbeddedServer } from '../../embedded-server/index';
import { insertCode } from '../../embedded-server/store/codes';
import { randomId, randomSecret, sha256Hex } from '../../embedded-server/store/secrets';
import { percentile, type BenchResult } from './types';


const REQUESTS = 400;
const CONCURRENCY = 8;
const REDIRECT = 'http://127.0.0.1:54321/callback';

function mintCode(server: EmbeddedServer): { code: string; verifier: string } {
  const verifier = randomBytes(32).toString('base64url');
  const code = randomSecret('ac_');
  const now = server.clock.now();
  insertCode(server.db, {
    id: randomId('grt_'),
    codeHash: sha256Hex(code),
    clientId: 'demo-desktop',
    userId: 'usr_student',
    schoolId: server.site.schoolId,
    redirectUri: REDIRECT,
    scope: 'openid profile email account:read',
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

async function post(url: string, form: Record<string, string>): Promise<number> {
  const started = performance.now();
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() });
  const body = (await res.json()) as { access_token?: string; error?: string };
  if (res.status !== 200 || !body.access_token) throw new Error(`token endpoint answered ${res.status} ${body.error ?? ''}`);
  return performance.now() - started;
}

/** Runs `count` requests with fixed concurrency; returns per-request latencies and the wall time. */
async function load(count: number, next: (i: number) => Promise<number>): Promise<{ latencies: number[]; wallMs: number }> {
  const latencies: number[] = [];
  let i = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (i < count) latencies.push(await next(i++));
    }),
  );
  return { latencies, wallMs: performance.now() - started };
}

function summarize(name: string, r: { latencies: number[]; wallMs: number }): BenchResult[] {
  const note = `${r.latencies.length} requests, concurrency ${CONCURRENCY}, loopback`;
  return [
    { name: `${name} throughput`, value: Math.round((r.latencies.length / r.wallMs) * 1000), unit: 'req/s', note },
    { name: `${name} p50 latency`, value: Number(percentile(r.latencies, 50).toFixed(2)), unit: 'ms', note },
    { name: `${name} p99 latency`, value: Number(percentile(r.latencies, 99).toFixed(2)), unit: 'ms', note },
  ];
}

export async function run(): Promise<BenchResult[]> {
  const server = await createEmbeddedServer({ port: 0, seed: 'demo' });
  try {
    const tokenUrl = `${server.url}/api/oauth/token`;
    // Warm-up: creates the signing key and JIT-compiles the path.
    const warm = mintCode(server);
    await post(tokenUrl, { grant_type: 'authorization_code', code: warm.code, redirect_uri: REDIRECT, client_id: 'demo-desktop', code_verifier: warm.verifier, resource: server.url });

    const codes = Array.from({ length: REQUESTS }, () => mintCode(server));
    const exchange = await load(REQUESTS, (i) =>
      post(tokenUrl, { grant_type: 'authorization_code', code: codes[i]!.code, redirect_uri: REDIRECT, client_id: 'demo-desktop', code_verifier: codes[i]!.verifier, resource: server.url }),
    );

    // Refresh: the old refresh token may be retried until a new access token is presented (spec lifecycle),
    // and nothing presents one here, so one refresh token serves every request.
    const first = mintCode(server);
    const res = await fetch(tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: first.code, redirect_uri: REDIRECT, client_id: 'demo-desktop', code_verifier: first.verifier, resource: server.url }).toString(),
    });
    const { refresh_token } = (await res.json()) as { refresh_token: string };
    const refresh = await load(REQUESTS, () => post(tokenUrl, { grant_type: 'refresh_token', refresh_token, client_id: 'demo-desktop' }));

    // Floor for comparison: the cheapest JSON GET on the same server and client (HTTP + fetch overhead only).
    const floor = await load(REQUESTS, async () => {
      const started = performance.now();
      await (await fetch(`${server.url}/.well-known/oauth-protected-resource`)).text();
      return performance.now() - started;
    });

    return [
      ...summarize('token: code exchange + ES256 id_token', exchange),
      ...summarize('token: refresh', refresh),
      ...summarize('baseline: protected-resource metadata GET', floor),
    ];
  } finally {
    await server.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  run().then(
    (results) => {
      for (const r of results) process.stdout.write(`${r.name}: ${r.value} ${r.unit}${r.note ? ` (${r.note})` : ''}\n`);
    },
    (err: unknown) => {
      process.stderr.write(`${String(err)}\n`);
      process.exit(1);
    },
  );
}
