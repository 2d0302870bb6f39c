/**
 * Load generator, run as its OWN process (test/bench/load/client.ts forks it): the servers under
 * test keep the parent's event loop to themselves, and the client's HTTP work (request building,
 * JSON parsing) is not counted against them. On 2 cores this means one core for the client and one
 * for the server.
 *
 * It receives one job over the IPC channel, runs it with keep-alive connections (node:http, no
 * fetch: undici's per-request cost is several times node:http's), checks EVERY answer (a bench that
 * times error pages measures nothing), and sends back the latencies. Numbers only: nothing here
 * passes or fails on a timing.
 *
 * A list job's answers are checked once the clock has stopped. Checked between requests, the
 * generator's own JSON.parse (about 1 ms for a 170 KiB courses page) sat between one answer and the
 * next request, so a run one request at a time measured the client's parsing as much as the server.
 */
import { Agent, request } from 'node:http';
import type { GeneratorJob, GeneratorReply, Expect, RequestSpec } from './protocol';

interface Answer {
  status: number;
  body: Buffer;
}

function send(agent: Agent, origin: URL, spec: RequestSpec): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: origin.hostname,
        port: origin.port,
        method: 'POST',
        path: spec.path,
        headers: { ...spec.headers, 'content-length': Buffer.byteLength(spec.body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(spec.body);
  });
}

/**
 * Throws unless the answer is what a successful request of this kind returns. Returns the parsed
 * body.
 */
function check(expect: Expect, answer: Answer): Record<string, unknown> {
  const a = { status: answer.status, body: answer.body.toString('utf8') };
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(a.body) as Record<string, unknown>;
  } catch {
    throw new Error(`answer ${a.status} is not JSON: ${a.body.slice(0, 200)}`);
  }
  if (a.status !== 200) throw new Error(`answer ${a.status}: ${a.body.slice(0, 300)}`);
  if (expect === 'graphql' && (body['errors'] !== undefined || body['data'] === undefined))
    throw new Error(`GraphQL errors: ${a.body.slice(0, 300)}`);
  if (expect === 'tokens' || expect === 'tokens+id_token') {
    if (typeof body['access_token'] !== 'string' || typeof body['refresh_token'] !== 'string')
      throw new Error(`no token pair: ${a.body.slice(0, 300)}`);
    if (expect === 'tokens+id_token' && typeof body['id_token'] !== 'string')
      throw new Error('no id_token in the answer');
  }
  return body;
}

async function timedAnswer(
  agent: Agent,
  origin: URL,
  spec: RequestSpec,
): Promise<[number, Answer]> {
  const t = performance.now();
  const answer = await send(agent, origin, spec);
  return [performance.now() - t, answer];
}

async function timed(
  agent: Agent,
  origin: URL,
  spec: RequestSpec,
  expect: Expect,
): Promise<[number, Record<string, unknown>]> {
  const [ms, answer] = await timedAnswer(agent, origin, spec);
  return [ms, check(expect, answer)];
}

async function runJob(job: GeneratorJob): Promise<GeneratorReply> {
  const origin = new URL(job.origin);
  const agent = new Agent({ keepAlive: true, maxSockets: job.concurrency });
  try {
    for (const spec of job.warmup ?? []) await timed(agent, origin, spec, job.expect);
    // The parent starts counting the server's CPU time here.
    await new Promise<void>((resolve) =>
      process.send!({ measuring: true } satisfies GeneratorReply, () => resolve()),
    );
    const latencies: number[] = [];
    const started = performance.now();
    if (job.kind === 'list') {
      let next = 0;
      const answers: Answer[] = [];
      await Promise.all(
        Array.from({ length: job.concurrency }, async () => {
          while (next < job.requests.length) {
            const [ms, answer] = await timedAnswer(agent, origin, job.requests[next++]!);
            latencies.push(ms);
            answers.push(answer);
          }
        }),
      );
      const wallMs = performance.now() - started;
      for (const answer of answers) check(job.expect, answer);
      return { ok: true, latencies, wallMs };
    } else {
      // Refresh chains: each worker refreshes with the refresh token of ITS previous answer
      // (rotation), the way a client does. A server that refuses reuse of a rotated token (reuse
      // detection) is measured fairly.
      let left = job.total;
      await Promise.all(
        job.chains.map(async (initial) => {
          let refreshToken = initial;
          while (left > 0) {
            left--;
            const form = new URLSearchParams({
              ...job.form,
              grant_type: 'refresh_token',
              refresh_token: refreshToken,
            });
            const spec: RequestSpec = {
              path: job.path,
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              body: form.toString(),
            };
            const [ms, body] = await timed(agent, origin, spec, job.expect);
            latencies.push(ms);
            refreshToken = body['refresh_token'] as string;
          }
        }),
      );
    }
    return { ok: true, latencies, wallMs: performance.now() - started };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  } finally {
    agent.destroy();
  }
}

process.on('message', (job: GeneratorJob) => {
  void runJob(job).then((reply) => {
    process.send!(reply, () => process.disconnect());
  });
});
