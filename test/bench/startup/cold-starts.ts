/**
 * The startup bench's cold starts (startup.bench.ts): the browser host spawned on the 1x and the 8x
 * folder in turns, to the first course card painted (the last session's first frame included) and
 * to the live app's own card; a new build's first start (no frame); the host's RSS at the live
 * card.
 */
import { existsSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { FIRST_SCREEN_FILE } from '../../../electron/core/desktop/first-screen';
import { percentile, type BenchResult } from '../types';
import { coldStart, type Host } from './host-window';

const MiB = 2 ** 20;
const median = (values: readonly number[]) => percentile(values, 50);
const load = () => `load ${loadavg()[0]!.toFixed(2)}`;

/**
 * Waits (up to 20 s) for the window to have kept its first frame in `dir`, as it does once Today
 * shows its data.
 */
async function frameKept(dir: string): Promise<void> {
  for (let i = 0; i < 200 && !existsSync(join(dir, FIRST_SCREEN_FILE)); i++)
    await new Promise((r) => setTimeout(r, 100));
  if (!existsSync(join(dir, FIRST_SCREEN_FILE)))
    throw new Error(`the window kept no first frame in ${dir}`);
}

export async function coldStartFigures(options: {
  readonly browser: Browser;
  readonly entry: string;
  /** The data folder of each scale (1 and `big`). */
  readonly dirs: ReadonlyMap<number, string>;
  /** The same run's floor of each scale (Node + database + library, then Chromium's empty page). */
  readonly floors: ReadonlyMap<number, number>;
  readonly runs: number;
  readonly big: number;
}): Promise<{ results: BenchResult[]; searchHost: { host: Host; page: Page } }> {
  const { browser, entry, dirs, floors, runs, big } = options;
  const results: BenchResult[] = [];
  // A start with no frame to show: the first one after installing or updating the app (another
  // build). First, so the host the search uses (the last one below) is the only one left running.
  const bare: number[] = [];
  for (let i = 0; i < runs + 1; i++) {
    rmSync(join(dirs.get(1)!, FIRST_SCREEN_FILE), { force: true });
    const started = await coldStart(browser, entry, dirs.get(1)!);
    // The first start warms the page cache: not counted.
    if (i > 0) bare.push(started.ms);
    await started.page.context().close();
    await started.host.close();
  }
  // Then 1x and 8x alternating; the last 8x host stays up for the search in the window. Every start
  // after the first finds the first frame the session before it kept (as after any session that
  // showed Today:
  // electron/core/desktop/first-screen.ts); the first round, not counted, leaves it.
  const starts = new Map<number, { ms: number; liveMs: number; rss: number }[]>([
    [1, []],
    [big, []],
  ]);
  let searchHost: { host: Host; page: Page } | null = null;
  for (let i = 0; i < runs + 1; i++) {
    for (const scale of [1, big]) {
      const started = await coldStart(browser, entry, dirs.get(scale)!);
      // The first round warms the page cache and builds what is missing: not counted.
      if (i > 0)
        starts.get(scale)!.push({ ms: started.ms, liveMs: started.liveMs, rss: started.rss });
      else await frameKept(dirs.get(scale)!);
      if (scale === big && i === runs) {
        searchHost = started;
      } else {
        await started.page.context().close();
        await started.host.close();
      }
    }
  }
  for (const scale of [1, big]) {
    const times = starts.get(scale)!.map((s) => s.ms);
    const live = starts.get(scale)!.map((s) => s.liveMs);
    const ms = median(times);
    const floor = floors.get(scale)!;
    results.push({
      name: `cold start: first course card (${scale}x)`,
      value: ms,
      unit: 'ms',
      note: `median of ${times.length}; range ${Math.min(...times).toFixed(0)}-${Math.max(...times).toFixed(0)}; the last session's first frame; ${load()}`,
    });
    results.push({
      name: `cold start: first course card / floor (${scale}x)`,
      value: ms / floor,
      unit: 'x',
      note: `floor ${floor.toFixed(0)} ms (Node + database + library, then Chromium's empty page); target <= 3`,
    });
    results.push({
      name: `  the live app's own first course card (${scale}x)`,
      value: median(live),
      unit: 'ms',
      note: `median of ${live.length}; range ${Math.min(...live).toFixed(0)}-${Math.max(...live).toFixed(0)}; ${(median(live) / floor).toFixed(2)}x the floor; the frame gone`,
    });
  }
  results.push({
    name: "  without a saved frame (a new build's first start) (1x)",
    value: median(bare),
    unit: 'ms',
    note: `median of ${bare.length}; ${(median(bare) / floors.get(1)!).toFixed(2)}x the floor`,
  });
  const rss1 = median(starts.get(1)!.map((s) => s.rss)) / MiB;
  const rss8 = median(starts.get(big)!.map((s) => s.rss)) / MiB;
  results.push({
    name: 'memory: host RSS at first course card',
    value: rss1,
    unit: 'MiB',
    note: `1x, at the live app's card (the core open); ${big}x (5 sites): ${rss8.toFixed(0)} MiB; target <= 100`,
  });
  return { results, searchHost: searchHost! };
}
