/**
 * Parent side of the load generator: forks test/bench/load/generator.ts as its own process, hands
 * it one job, and returns the latencies it measured. The servers stay in the calling process.
 */
import { fork } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { percentile, type BenchResult } from '../types';
import type { GeneratorJob, GeneratorReply } from './protocol';

const GENERATOR = fileURLToPath(new URL('./generator.ts', import.meta.url));

export interface LoadResult {
  readonly latencies: readonly number[];
  readonly wallMs: number;
  /**
   * CPU time (user + system) this process spent per measured request: the servers live here and the
   * client does not, so this is the server's cost of one request. Unlike req/s it hardly moves with
   * the load of a shared machine.
   */
  readonly cpuMsPerRequest: number;
  /**
   * os.loadavg() (1, 5, 15 min) when the run ended: the machine is shared, so every figure carries
   * it.
   */
  readonly load: readonly number[];
}

/**
 * Runs one job in a fresh generator process (inherits the tsx loader through execArgv) and waits
 * for it.
 */
export function runLoad(job: GeneratorJob): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    // No --cpu-prof and friends in the child: a profile of the server must not include the client.
    const execArgv = process.execArgv.filter(
      (a) => !a.startsWith('--cpu-prof') && !a.startsWith('--inspect'),
    );
    const child = fork(GENERATOR, [], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let reply: Exclude<GeneratorReply, { measuring: true }> | undefined;
    let cpuStart: NodeJS.CpuUsage | undefined;
    let cpu: NodeJS.CpuUsage | undefined;
    child.on('message', (m: GeneratorReply) => {
      if ('measuring' in m) cpuStart = process.cpuUsage();
      else {
        cpu = process.cpuUsage(cpuStart);
        reply = m;
      }
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (!reply)
        return reject(new Error(`load generator exited (${code ?? 'signal'}) without an answer`));
      if (!reply.ok) return reject(new Error(`load generator: ${reply.error}`));
      const cpuMs = cpu ? (cpu.user + cpu.system) / 1000 : Number.NaN;
      resolve({
        latencies: reply.latencies,
        wallMs: reply.wallMs,
        cpuMsPerRequest: cpuMs / reply.latencies.length,
        load: loadavg(),
      });
    });
    child.send(job);
  });
}

export const formatLoad = (load: readonly number[]): string =>
  `load ${load.map((l) => l.toFixed(2)).join(' ')}`;

/**
 * req/s, p50, p99 of one run; the note names the request count, concurrency and the load average.
 */
export function summarize(name: string, r: LoadResult, concurrency: number): BenchResult[] {
  const note = `${r.latencies.length} requests, concurrency ${concurrency}, ${formatLoad(r.load)}`;
  return [
    { name: `${name}, requests/s`, value: throughput(r), unit: 'req/s', note },
    { name: `${name}, p50`, value: percentile(r.latencies, 50), unit: 'ms' },
    { name: `${name}, p99`, value: percentile(r.latencies, 99), unit: 'ms' },
    {
      name: `${name}, server CPU per request`,
      value: r.cpuMsPerRequest,
      unit: 'ms',
      note: `one core's worth: ${(1000 / r.cpuMsPerRequest).toFixed(0)} req/s`,
    },
  ];
}

export const throughput = (r: LoadResult): number => (r.latencies.length / r.wallMs) * 1000;
