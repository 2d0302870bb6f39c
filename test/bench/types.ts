import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** One measured number of a benchmark. Benchmarks report; they never assert timings. */
export interface BenchResult {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  readonly note?: string;
}

export type Bench = () => Promise<BenchResult[]>;

/** Percentile of a sample (nearest-rank). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

setFlagsFromString('--expose-gc');
/**
 * A full garbage collection, run before a measured pass so the garbage of what came before it
 * (seeding a large database, a warm-up pass keeping a whole parsed snapshot) is not collected, and
 * its pause charged, inside it.
 */
export const collectGarbage = runInNewContext('gc') as () => void;
