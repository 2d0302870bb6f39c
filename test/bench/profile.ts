/**
 * CPU profile of the embedded server under the bench's load, to find where the time goes.
 *
 *   npx tsx test/bench/profile.ts member [rounds]    # large seed, sync-shaped viewer queries
 *   npx tsx test/bench/profile.ts token [requests]   # code exchange (ES256 id_token), then refresh chains
 *   npx tsx test/bench/profile.ts doc <Name> [count] # one sync document alone (e.g. SyncProfile, SyncCourses)
 *
 * The server runs here; the load comes from the generator process (test/bench/load), so the profile
 * holds the server's work only. The V8 profiler (node:inspector) runs around the measured load
 * alone, not the seeding. Writes .bench/<mode>.cpuprofile (open it in Chrome DevTools >
 * Performance) and prints the functions with the most self time, and the project's own functions
 * with the most total time.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session, type Profiler } from 'node:inspector';
import { pathToFileURL } from 'node:url';
import { createEmbeddedServer } from '../../embedded-server/index';
import { mintToken } from '../embedded-server/member-api/tokens';
import { runLoad, throughput } from './load/client';
import { graphqlSpec, repeatJob, SYNC_ROUND, syncRoundsJob } from './member-api.bench';
import { codeExchangeJob, ourRefreshChains, refreshJob } from './token-endpoint.bench';

function post<T>(session: Session, method: string, params?: object): Promise<T> {
  return new Promise((resolve, reject) =>
    session.post(method, params ?? {}, (err, res) => (err ? reject(err) : resolve(res as T))),
  );
}

interface Row {
  name: string;
  self: number;
  total: number;
}

/** Self and total time per function (name + file + line), from the sampled call tree. */
export function topFunctions(profile: Profiler.Profile): { rows: Row[]; totalMs: number } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  const deltas = profile.timeDeltas ?? [];
  (profile.samples ?? []).forEach((id, i) =>
    selfUs.set(id, (selfUs.get(id) ?? 0) + (deltas[i] ?? 0)),
  );
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const key = (id: number): string => {
    const f = byId.get(id)!.callFrame;
    const file = f.url.replace(/^file:\/\//, '').replace(process.cwd() + '/', '');
    return `${f.functionName || '(anonymous)'} ${file ? `${file}:${f.lineNumber + 1}` : ''}`.trim();
  };
  const rows = new Map<string, Row>();
  const row = (k: string): Row =>
    rows.get(k) ?? rows.set(k, { name: k, self: 0, total: 0 }).get(k)!;
  let totalUs = 0;
  for (const [id, us] of selfUs) {
    totalUs += us;
    row(key(id)).self += us / 1000;
    // Total: each distinct function on the stack once (recursion must not count twice).
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const k = key(cur);
      if (seen.has(k)) continue;
      seen.add(k);
      row(k).total += us / 1000;
    }
  }
  return { rows: [...rows.values()], totalMs: totalUs / 1000 };
}

function print(label: string, profile: Profiler.Profile): void {
  const { rows, totalMs } = topFunctions(profile);
  const pct = (ms: number) => `${((ms / totalMs) * 100).toFixed(1).padStart(5)} %`;
  console.log(`\n${label}: ${totalMs.toFixed(0)} ms sampled`);
  console.log('  top self time:');
  for (const r of [...rows].sort((a, b) => b.self - a.self).slice(0, 25))
    console.log(`    ${pct(r.self)}  ${r.name}`);
  console.log('  project functions by total time:');
  const ours = rows.filter((r) => /^\S+ (embedded-server|test)\//.test(r.name));
  for (const r of ours.sort((a, b) => b.total - a.total).slice(0, 20))
    console.log(`    ${pct(r.total)}  ${r.name}`);
}

async function profiled<T>(name: string, work: () => Promise<T>): Promise<T> {
  const session = new Session();
  session.connect();
  await post(session, 'Profiler.enable');
  await post(session, 'Profiler.setSamplingInterval', { interval: 200 });
  await post(session, 'Profiler.start');
  const out = await work();
  const { profile } = await post<{ profile: Profiler.Profile }>(session, 'Profiler.stop');
  session.disconnect();
  mkdirSync('.bench', { recursive: true });
  writeFileSync(`.bench/${name}.cpuprofile`, JSON.stringify(profile));
  print(name, profile);
  return out;
}

const main =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
const mode = main ? process.argv[2] : undefined;
const count = Number(process.argv[3] ?? 0);
if (mode === 'member') {
  const server = await createEmbeddedServer({ seed: 'large' });
  const token = mintToken(server, { scopes: ['openid', 'account:read'] }).accessToken;
  const r = await profiled('member', () => runLoad(syncRoundsJob(server, token, count || 60, 1)));
  console.log(`\n${throughput(r).toFixed(0)} req/s while profiled`);
  await server.close();
} else if (mode === 'token') {
  const server = await createEmbeddedServer({ seed: 'demo' });
  const n = count || 1000;
  const exchange = codeExchangeJob(server, n);
  const chains = await ourRefreshChains(server, 8);
  await profiled('token', async () => {
    const a = await runLoad(exchange);
    const b = await runLoad(refreshJob(server, chains, n));
    console.log(
      `\ncode exchange ${throughput(a).toFixed(0)} req/s, refresh ${throughput(b).toFixed(0)} req/s while profiled`,
    );
  });
  await server.close();
} else if (mode === 'doc') {
  // One document alone: what a request costs beyond its own data (HTTP, bearer check, dispatch)
  // shows here.
  const name = process.argv[3] ?? 'SyncProfile';
  const entry = SYNC_ROUND.find(([q]) => new RegExp(`query ${name}\\b`).test(q));
  if (!entry) throw new Error(`no sync document named ${name}`);
  const server = await createEmbeddedServer({ seed: 'large' });
  const token = mintToken(server, { scopes: ['openid', 'account:read'] }).accessToken;
  const request = graphqlSpec(token, entry[0], entry[1]);
  const n = Number(process.argv[4] ?? 0) || 2000;
  const r = await profiled(`doc-${name}`, () => runLoad(repeatJob(server, request, 50, n)));
  console.log(`\n${throughput(r).toFixed(0)} req/s while profiled`);
  await server.close();
} else if (main) {
  console.log('usage: tsx test/bench/profile.ts member|token|doc [name] [count]');
  process.exitCode = 2;
}
