/**
 * `npm run bench [name-filter]`: runs every test/bench/*.bench.ts (each exports
 * `run(): Promise<BenchResult[]>`), prints one table, and writes .bench/results.json. Numbers and
 * ratios only; nothing here passes or fails on a timing.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Bench, BenchResult } from './types';

const here = dirname(fileURLToPath(import.meta.url));
const filter = process.argv[2] ?? '';
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts') && f.includes(filter))
  .sort();

const all: Record<string, BenchResult[]> = {};
// The machine may be shared: every figure is read beside the load average (1, 5, 15 min) of its
// run.
const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
console.log(
  `Benchmarks on ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, load ${load()}`,
);
for (const file of files) {
  const mod = (await import(pathToFileURL(join(here, file)).href)) as { run?: Bench };
  if (typeof mod.run !== 'function') {
    console.log(`\n${file}: no run() export, skipped`);
    continue;
  }
  console.log(`\n== ${file}`);
  const started = performance.now();
  try {
    const results = await mod.run();
    all[file] = results;
    for (const r of results)
      console.log(
        `  ${r.name.padEnd(58)} ${formatValue(r.value).padStart(12)} ${r.unit}${r.note ? `  (${r.note})` : ''}`,
      );
  } catch (error) {
    console.log(`  FAILED: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
  console.log(`  (${((performance.now() - started) / 1000).toFixed(1)} s, load ${load()})`);
}
mkdirSync('.bench', { recursive: true });
writeFileSync(
  '.bench/results.json',
  JSON.stringify(
    {
      at: new Date().toISOString(),
      node: process.version,
      cores: cpus().length,
      loadavg: loadavg(),
      results: all,
    },
    null,
    2,
  ),
);
console.log('\nWritten to .bench/results.json');

function formatValue(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  return Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(2);
}
