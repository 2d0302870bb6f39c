/**
 * `npm run soak [filter] [--scale=x]`: the reliability runs, outside `npm test`. Each is bounded in
 * count and in time and prints its figures as a table; the process exits 1 if any failure column is
 * not 0.
 *   a  1,000 bursts of 50 concurrent API calls needing one refresh
 *   b  200 kill -9 of a child at random moments of a refresh
 *   c  200 kill -9 of a child during a large-seed sync with a queued outbox change
 *   d  re-sign-in during a failing refresh (100 rounds), two processes on one data dir (80 rounds)
 *   e  hostile sites: a 200 MB page, a gzip bomb, endless paging, a slow drip; peak RSS and the message
 *   f  100 kill -9 of a child downloading product files: 0 corrupt or half files presented as complete
 * filter: any of a,b,c,d,e,f (e.g. `npm run soak -- b,d`); --scale=0.05 (or SOAK_SCALE) scales every count.
 */
import { cpus, hostname } from 'node:os';
import { refreshBursts } from './refresh-bursts';
import { refreshKills } from './refresh-kills';
import { syncKills } from './sync-kills';
import { resignInDuringRefresh, twoProcessesOneDataDir } from './contention';
import { hostileSites } from './hostile-sites';
import { downloadKills } from './download-kills';
import { bundleChildren, load, printTable, scaled, type SoakResult } from './common';

const args = process.argv.slice(2);
const scaleArg = args.find((a) => a.startsWith('--scale='));
const scale = Number(
  scaleArg ? scaleArg.slice('--scale='.length) : (process.env.SOAK_SCALE ?? '1'),
);
if (!Number.isFinite(scale) || scale <= 0) {
  console.error('--scale must be a positive number');
  process.exit(2);
}
const filter = args.find((a) => !a.startsWith('--'));
const wanted = new Set((filter ?? 'a,b,c,d,e,f').split(',').map((s) => s.trim()));
const MINUTE = 60_000;

console.log(
  `Soak ${[...wanted].join(',')} at scale ${scale}; ${new Date().toISOString()}; ${cpus().length} cores (${cpus()[0]?.model ?? '?'}); host ${hostname()}; load average ${load()}`,
);
const bundle = await bundleChildren();
const results: SoakResult[] = [];
const run = async (key: string, soak: () => Promise<SoakResult>): Promise<void> => {
  if (!wanted.has(key)) return;
  const before = load();
  const result = await soak();
  result.row['load before'] = before;
  result.row['load after'] = load();
  printTable(result.name, [result.row]);
  results.push(result);
};
try {
  await run('a', () => refreshBursts(scaled(1000, scale), 50, 20 * MINUTE));
  await run('b', () => refreshKills(scaled(200, scale), bundle.path('refresh-child'), 20 * MINUTE));
  await run('c', () => syncKills(scaled(200, scale), bundle.path('core-child'), 40 * MINUTE));
  if (wanted.has('d')) {
    await run('d', () => resignInDuringRefresh(scaled(100, scale), 10 * MINUTE));
    await run('d', () =>
      twoProcessesOneDataDir(scaled(80, scale), bundle.path('core-child'), 15 * MINUTE),
    );
  }
  await run('f', () =>
    downloadKills(scaled(100, scale), bundle.path('download-child'), 10 * MINUTE),
  );
  if (wanted.has('e')) {
    // The request deadline is the app's (120 s) at scale 1; smaller scales shorten the drip's wait
    // with it.
    const before = load();
    for (const result of await hostileSites(
      scaled(2, scale),
      Math.max(5_000, Math.round(120_000 * Math.min(1, scale))),
    )) {
      result.row['load before'] = before;
      result.row['load after'] = load();
      printTable(result.name, [result.row]);
      results.push(result);
    }
  }
} finally {
  bundle.dispose();
}

const failed = results.flatMap((r) =>
  r.failures.filter((f) => Number(r.row[f]) !== 0).map((f) => `${r.name}: ${f} = ${r.row[f]}`),
);
printTable(
  'Summary',
  results.map((r) => ({
    soak: r.name,
    'failure columns': r.failures.length,
    'non-zero': r.failures.filter((f) => Number(r.row[f]) !== 0).length,
  })),
);
if (failed.length > 0) {
  console.error(`\nFAILED:\n${failed.join('\n')}`);
  process.exitCode = 1;
} else {
  console.log('\nEvery failure column is 0.');
}
