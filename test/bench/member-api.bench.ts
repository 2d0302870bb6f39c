/**
 * Member API throughput over loopback with the app's own sync documents
 * (electron/core/graphql/documents.ts, printed as the app's GraphQL client sends them): the first
 * page of every connection, then every page of the two big ones. The server runs in this process;
 * the requests come from a load generator in ANOTHER process (test/bench/load), so the client's
 * work is not counted against the server. Demo and large seeds, bounded counts. Reports numbers
 * only (test/bench/types.ts): nothing here asserts a timing. Goal: >= 1,000 req/s.
 */
import { print, type DocumentNode } from 'graphql';
import * as docs from '../../electron/core/graphql/documents';
import { createEmbeddedServer, type EmbeddedServer } from '../../embedded-server/index';
import { createMemberContext } from '../../embedded-server/member-api/context';
import { executeMemberRequest } from '../../embedded-server/member-api/execute';
import { memberSchema } from '../../embedded-server/member-api/schema';
import { mintToken } from '../embedded-server/member-api/tokens';
import { formatLoad, runLoad, summarize, throughput, type LoadResult } from './load/client';
import type { ListJob, RequestSpec } from './load/protocol';
import { collectGarbage, percentile, type BenchResult } from './types';

const text = (d: DocumentNode): string => print(d);
const COURSES = text(docs.CoursesQuery);
const PAYMENTS = text(docs.PaymentsQuery);

/** One sync round = the first page of every connection, with the app's page sizes. */
export const SYNC_ROUND: readonly [string, Record<string, unknown>][] = [
  [text(docs.ProfileQuery), {}],
  [COURSES, { first: docs.PAGE_SIZE.courses }],
  [text(docs.DigitalProductsQuery), { first: docs.PAGE_SIZE.digitalProducts }],
  [text(docs.ConsultingServicesQuery), { first: docs.PAGE_SIZE.consultingServices }],
  [text(docs.EventRegistrationsQuery), { first: docs.PAGE_SIZE.eventRegistrations }],
  [PAYMENTS, { first: docs.PAGE_SIZE.payments }],
  [text(docs.NotificationsQuery), { first: docs.PAGE_SIZE.notifications }],
  [text(docs.NotificationSubscriptionsQuery), {}],
];

export function graphqlSpec(
  token: string,
  query: string,
  variables: Record<string, unknown>,
): RequestSpec {
  return {
    path: '/member/graphql',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  };
}

/**
 * `rounds` sync rounds back to back, `concurrency` requests in flight (1 = the old sequential
 * sync), after `warmupRounds` unmeasured ones.
 */
export function syncRoundsJob(
  server: EmbeddedServer,
  token: string,
  rounds: number,
  concurrency: number,
  warmupRounds = 40,
): ListJob {
  const round = SYNC_ROUND.map(([q, v]) => graphqlSpec(token, q, v));
  return {
    kind: 'list',
    origin: server.url,
    expect: 'graphql',
    concurrency,
    // Steady state: V8 optimises the server's hot functions (and graphql-jit's compiled queries)
    // over the first few hundred requests; a long-running server (demo mode, the test suite) is
    // past that.
    warmup: Array.from({ length: warmupRounds }, () => round).flat(),
    requests: Array.from({ length: rounds }, () => round).flat(),
  };
}

/** One request repeated, one at a time, after `warmup` unmeasured ones: a document on its own. */
export function repeatJob(
  server: EmbeddedServer,
  request: RequestSpec,
  warmup: number,
  count: number,
): ListJob {
  return {
    kind: 'list',
    origin: server.url,
    expect: 'graphql',
    concurrency: 1,
    warmup: Array(warmup).fill(request),
    requests: Array(count).fill(request),
  };
}

function roundResults(label: string, r: LoadResult, concurrency: number): BenchResult[] {
  const out = summarize(
    `${label}: sync first pages (${SYNC_ROUND.length} documents), concurrency ${concurrency}`,
    r,
    concurrency,
  );
  if (concurrency === 1) {
    // Sequential: the latencies come back in request order, so every round's courses page is at
    // index 1.
    const courses = r.latencies.filter((_, i) => i % SYNC_ROUND.length === 1);
    out.push({
      name: `${label}: courses page (25 with sections + lectures), p99`,
      value: percentile(courses, 99),
      unit: 'ms',
    });
  }
  return out;
}

/**
 * Each sync document alone, sequentially: which of them the server answers at >= 1,000 req/s and
 * which one holds the mix back (the courses page carries 25 courses x 60 lectures, about 12,000
 * fields for the executor to complete).
 */
async function perDocument(server: EmbeddedServer, token: string): Promise<BenchResult[]> {
  const out: BenchResult[] = [];
  for (const [query, variables] of SYNC_ROUND) {
    const name = /query (\w+)/.exec(query)?.[1] ?? 'query';
    const request = graphqlSpec(token, query, variables);
    const r = await runLoad(repeatJob(server, request, 20, 150));
    out.push({
      name: `large: ${name} alone, requests/s`,
      value: throughput(r),
      unit: 'req/s',
      note: `p50 ${percentile(r.latencies, 50).toFixed(2)} ms, server CPU ${r.cpuMsPerRequest.toFixed(2)} ms a request, ${formatLoad(r.load)}`,
    });
  }
  return out;
}

/**
 * The `after` of every page of a connection, read in process once; the generator then replays the
 * walk over HTTP.
 */
async function pageCursors(
  server: EmbeddedServer,
  query: string,
  field: 'enrolledCourses' | 'payments',
  first: number,
): Promise<(string | null)[]> {
  const afters: (string | null)[] = [null];
  for (;;) {
    const ctx = createMemberContext(server.db, {
      schoolId: server.site.schoolId,
      userId: 'usr_student',
      scopes: ['account:read'],
      now: server.clock.now(),
      baseUrl: server.url,
    });
    const r = await executeMemberRequest(
      memberSchema(),
      { query, variables: { first, after: afters[afters.length - 1] } },
      ctx,
    );
    if (r.errors) throw new Error(JSON.stringify(r.errors));
    const info = (
      r.data!['viewer'] as Record<
        string,
        { pageInfo: { hasNextPage: boolean; endCursor: string | null } }
      >
    )[field]!.pageInfo;
    if (!info.hasNextPage) return afters;
    afters.push(info.endCursor);
  }
}

async function walk(
  server: EmbeddedServer,
  token: string,
  label: string,
  query: string,
  field: 'enrolledCourses' | 'payments',
  first: number,
): Promise<BenchResult> {
  const afters = await pageCursors(server, query, field, first);
  const r = await runLoad({
    kind: 'list',
    origin: server.url,
    expect: 'graphql',
    concurrency: 1,
    requests: afters.map((after) => graphqlSpec(token, query, { first, after })),
  });
  return {
    name: `large: page through every ${label} (${first} a page, sequential)`,
    value: r.wallMs,
    unit: 'ms',
    note: `${afters.length} pages, ${formatLoad(r.load)}`,
  };
}

/**
 * In process, no HTTP: execute one page (document cache, resolvers, SQLite) and JSON.stringify it,
 * as the route does. Median of `samples` runs after a warm-up: the server-side cost of one page on
 * its own.
 */
async function measureInProcess(
  server: EmbeddedServer,
  label: string,
  query: string,
  variables: Record<string, unknown>,
  samples: number,
): Promise<BenchResult[]> {
  const once = async (): Promise<[number, number]> => {
    const ctx = createMemberContext(server.db, {
      schoolId: server.site.schoolId,
      userId: 'usr_student',
      scopes: ['openid', 'account:read'],
      now: server.clock.now(),
      baseUrl: server.url,
    });
    const t0 = performance.now();
    const result = await executeMemberRequest(memberSchema(), { query, variables }, ctx);
    const t1 = performance.now();
    JSON.stringify(result);
    if (result.errors)
      throw new Error(`in-process ${label}: ${JSON.stringify(result.errors).slice(0, 300)}`);
    return [t1 - t0, performance.now() - t1];
  };
  for (let i = 0; i < 10; i++) await once();
  const exec: number[] = [];
  const json: number[] = [];
  for (let i = 0; i < samples; i++) {
    const [e, j] = await once();
    exec.push(e);
    json.push(j);
  }
  return [
    {
      name: `large, in process: ${label}, execute p50`,
      value: percentile(exec, 50),
      unit: 'ms',
      note: `best ${Math.min(...exec).toFixed(2)} ms, ${samples} runs`,
    },
    {
      name: `large, in process: ${label}, JSON.stringify p50`,
      value: percentile(json, 50),
      unit: 'ms',
    },
  ];
}

export async function run(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];

  const demo = await createEmbeddedServer({ seed: 'demo' });
  try {
    const token = mintToken(demo, { scopes: ['openid', 'account:read'] }).accessToken;
    results.push(...roundResults('demo', await runLoad(syncRoundsJob(demo, token, 100, 1)), 1));
  } finally {
    await demo.close();
  }

  collectGarbage();
  const seedStarted = performance.now();
  const large = await createEmbeddedServer({ seed: 'large' });
  const startMs = performance.now() - seedStarted;
  try {
    results.push({
      name: 'large: server start incl. seed (500 courses x 60 lectures, 5,000 payments, 2,000 notices)',
      value: startMs,
      unit: 'ms',
    });
    const token = mintToken(large, { scopes: ['openid', 'account:read'] }).accessToken;
    results.push(
      ...(await measureInProcess(large, 'courses page (25)', COURSES, { first: 25 }, 60)),
    );
    results.push(
      ...(await measureInProcess(large, 'payments page (50)', PAYMENTS, { first: 50 }, 100)),
    );
    // Measured after a full collection: seeding leaves ~100 MB of garbage that would otherwise be
    // collected, and charged, inside the first measured pass. That is the only forced collection: a
    // forced one costs the next few hundred requests ~25% more CPU each (blocks of 400 requests, 4
    // in flight: 1.09-1.15 ms a request with gc() before each block, 0.78-0.88 ms without), and a
    // server in use is never collected on demand.
    collectGarbage();
    results.push(...roundResults('large', await runLoad(syncRoundsJob(large, token, 100, 1)), 1));
    results.push(...roundResults('large', await runLoad(syncRoundsJob(large, token, 100, 4)), 4));
    // The same server once it has answered ~3,000 requests, as a demo session's server has after a
    // few syncs: its CPU a request goes on falling over the first few thousand (V8 optimising the
    // per-request code).
    results.push(
      ...roundResults(
        'large, steady state',
        await runLoad(syncRoundsJob(large, token, 100, 1, 160)),
        1,
      ),
    );
    results.push(
      ...roundResults(
        'large, steady state',
        await runLoad(syncRoundsJob(large, token, 100, 4, 40)),
        4,
      ),
    );
    results.push(...(await perDocument(large, token)));
    results.push(
      await walk(large, token, 'course', COURSES, 'enrolledCourses', docs.PAGE_SIZE.courses),
    );
    results.push(
      await walk(large, token, 'payment', PAYMENTS, 'payments', docs.PAGE_SIZE.payments),
    );
  } finally {
    await large.close();
  }
  return results;
}
