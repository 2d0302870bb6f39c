/**
 * Member API throughput over loopback, with the query shapes the app's sync sends (electron/core/sync/graphql/
 * documents.ts): the first page of every connection. Demo and large seeds, bounded request counts.
 * Reports numbers only (test/bench/types.ts): nothing here asserts a timing.
 */
import { createEmbeddedServer, type EmbeddedServer } from '../../embedded-server/index';
import { createMemberContext } from '../../embedded-server/member-api/context';
import { executeMemberRequest } from '../../embedded-server/member-api/execute';
import { memberSchema } from '../../embedded-server/member-api/schema';
import { mintToken } from '../embedded-server/member-api/tokens';
import { percentile, type BenchResult } from './types';

const PROFILE = '{ viewer { id name email avatar schools { id name subdomain roles } } }';
const COURSES = `query($first: Int!, $after: String) { viewer { enrolledCourses(first: $first, after: $after) { totalCount pageInfo { hasNextPage endCursor }
  nodes { id slug title description coverImageUrl instructorName enrolledAt expireDate hasLifetimeAccess
    detailProgress { totalLectures readLectures completedLectures percent completedAt } lastWatchedLecture { lectureId positionSeconds watchedAt }
    sections { id title position lectures { lectureId title position state isLocked unlockAt duration } } } } } }`;
const PRODUCTS = `query($first: Int!) { viewer { digitalProducts(first: $first) { totalCount pageInfo { hasNextPage endCursor } nodes { id title description format deliveredAt expireDate downloadUrl } } } }`;
const CONSULTING = `query($first: Int!) { viewer { consultingServices(first: $first) { totalCount pageInfo { hasNextPage endCursor }
  nodes { id title description durationMinutes consultantName courseId slots { weekday startTime endTime timeZone } meetings { id startsAt endsAt } } } } }`;
const EVENTS = `query($first: Int!) { viewer { eventRegistrations(first: $first) { totalCount pageInfo { hasNextPage endCursor } nodes { id eventId title startsAt endsAt location isOnline joinUrl ticketName registeredAt } } } }`;
const PAYMENTS = `query($first: Int!, $after: String) { viewer { payments(first: $first, after: $after) { totalCount pageInfo { hasNextPage endCursor }
  nodes { id tradeNo amount currency paymentType createdAt paidAt paymentState adjustments { kind code title amount } invoice { number kind title taxId issuedAt voidedAt }
    lineitems { id itemType title quantity originalAmount discountAmount finalAmount } installment { periods amountPerPeriod bankName }
    refundingState refundedAmount refundedAt refundRequestedAt bankCode bankName codeNo expiredAt } } } }`;
const NOTIFICATIONS = `query($first: Int!) { viewer { unreadNotificationCount notificationSubscriptions { topic channel enabled }
  notifications(first: $first) { totalCount pageInfo { hasNextPage endCursor } nodes { id kind title body url createdAt readAt } } } }`;

/** One sync round = the first page of every connection, as the app sends them (sequentially). */
const ROUND: [string, Record<string, unknown>][] = [
  [PROFILE, {}],
  [COURSES, { first: 25 }],
  [PRODUCTS, { first: 100 }],
  [CONSULTING, { first: 100 }],
  [EVENTS, { first: 100 }],
  [PAYMENTS, { first: 50 }],
  [NOTIFICATIONS, { first: 100 }],
];

async function post(server: EmbeddedServer, token: string, query: string, variables: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await fetch(`${server.url}/member/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data?: Record<string, unknown>; errors?: unknown[] };
  if (res.status !== 200 || body.errors) throw new Error(`member API answered ${res.status}: ${JSON.stringify(body.errors ?? body).slice(0, 300)}`);
  return body.data!;
}

async function measureRounds(label: string, server: EmbeddedServer, token: string, rounds: number): Promise<BenchResult[]> {
  for (let i = 0; i < 3; i++) for (const [q, v] of ROUND) await post(server, token, q, v); // warm-up
  const latencies: number[] = [];
  const courseLatencies: number[] = [];
  const started = performance.now();
  for (let i = 0; i < rounds; i++) {
    for (const [q, v] of ROUND) {
      const t = performance.now();
      await post(server, token, q, v);
      const ms = performance.now() - t;
      latencies.push(ms);
      if (q === COURSES) courseLatencies.push(ms);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  return [
    { name: `${label}: sync first pages, requests/s`, value: latencies.length / seconds, unit: 'req/s', note: `${rounds} rounds x ${ROUND.length} queries, sequential` },
    { name: `${label}: sync first pages, p50 latency`, value: percentile(latencies, 50), unit: 'ms' },
    { name: `${label}: sync first pages, p99 latency`, value: percentile(latencies, 99), unit: 'ms' },
    { name: `${label}: courses page (25 with sections+lectures), p99`, value: percentile(courseLatencies, 99), unit: 'ms' },
  ];
}

async function walk(server: EmbeddedServer, token: string, query: string, field: 'enrolledCourses' | 'payments', first: number): Promise<{ ms: number; pages: number; nodes: number }> {
  const t = performance.now();
  let after: string | null = null;
  let pages = 0;
  let nodes = 0;
  for (;;) {
    const data = await post(server, token, query, { first, after });
    const conn = (data['viewer'] as Record<string, { nodes: unknown[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } }>)[field]!;
    pages++;
    nodes += conn.nodes.length;
    if (!conn.pageInfo.hasNextPage) break;
    after = conn.pageInfo.endCursor;
  }
  return { ms: performance.now() - t, pages, nodes };
}

/**
 * In process, no HTTP: execute one page (parse/validate cache, resolvers, SQLite) and JSON.stringify it, as the
 * route does. Median and best of `samples` runs after a warm-up: the server-side cost of one page on its own.
 */
async function measureInProcess(server: EmbeddedServer, label: string, query: string, variables: Record<string, unknown>, samples: number): Promise<BenchResult[]> {
  const once = async (): Promise<[number, number]> => {
    const ctx = createMemberContext(server.db, { schoolId: server.site.schoolId, userId: 'usr_student', scopes: ['openid', 'account:read'], now: server.clock.now(), baseUrl: server.url });
    const t0 = performance.now();
    const result = await executeMemberRequest(memberSchema(), { query, variables }, ctx);
    const t1 = performance.now();
    JSON.stringify(result);
    if (result.errors) throw new Error(`in-process ${label}: ${JSON.stringify(result.errors).slice(0, 300)}`);
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
    { name: `large, in process: ${label}, execute p50`, value: percentile(exec, 50), unit: 'ms', note: `best ${Math.min(...exec).toFixed(2)} ms, ${samples} runs` },
    { name: `large, in process: ${label}, JSON.stringify p50`, value: percentile(json, 50), unit: 'ms' },
  ];
}

export async function run(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];

  const demo = await createEmbeddedServer({ seed: 'demo' });
  try {
    const token = mintToken(demo, { scopes: ['openid', 'account:read'] }).accessToken;
    results.push(...(await measureRounds('demo', demo, token, 60)));
  } finally {
    await demo.close();
  }

  const seedStarted = performance.now();
  const large = await createEmbeddedServer({ seed: 'large' });
  const startMs = performance.now() - seedStarted;
  try {
    results.push({ name: 'large: server start incl. seed (500 courses x 60 lectures, 5,000 payments, 2,000 notices)', value: startMs, unit: 'ms' });
    const token = mintToken(large, { scopes: ['openid', 'account:read'] }).accessToken;
    results.push(...(await measureInProcess(large, 'courses page (25)', COURSES, { first: 25 }, 60)));
    results.push(...(await measureInProcess(large, 'payments page (50)', PAYMENTS, { first: 50 }, 100)));
    results.push(...(await measureRounds('large', large, token, 20)));
    const courses = await walk(large, token, COURSES, 'enrolledCourses', 25);
    results.push({ name: 'large: page through every course (25 a page)', value: courses.ms, unit: 'ms', note: `${courses.pages} pages, ${courses.nodes} courses` });
    const payments = await walk(large, token, PAYMENTS, 'payments', 50);
    results.push({ name: 'large: page through every payment (50 a page)', value: payments.ms, unit: 'ms', note: `${payments.pages} pages, ${payments.nodes} payments` });
  } finally {
    await large.close();
  }
  return results;
}
