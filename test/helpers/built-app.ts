import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';

/**
 * The app as electron-vite builds it into out/ (main, the database worker, preload, renderer),
 * shared by every test of the built Electron host in one run: it is built once when missing or
 * older than its sources, under a lock so that vitest's parallel workers never build over each
 * other.
 */
export const OUT = resolve('out');
// Beside the build, not in out/ (which ships whole in app.asar).
const STAMP = resolve(
  'node_modules',
  '.cache',
  'learning-desktop',
  `out-built-${createHash('sha256').update(OUT).digest('hex').slice(0, 12)}`,
);
const LOCK = `${STAMP}.lock`;
const SOURCES = [
  'electron',
  'embedded-server',
  'renderer',
  'electron.vite.config.ts',
  'scripts/embedded-server-assets.ts',
  'package.json',
];

function newest(path: string): number {
  const full = resolve(path);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(full, { withFileTypes: true, recursive: true })) {
    if (entry.isFile())
      latest = Math.max(latest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return latest;
}

/**
 * Whether out/ holds a build (main, preload, renderer) made after the last change to its sources.
 */
export function builtAppIsFresh(): boolean {
  return (
    existsSync(STAMP) &&
    existsSync(join(OUT, 'main', 'index.js')) &&
    existsSync(join(OUT, 'renderer', 'index.html')) &&
    statSync(STAMP).mtimeMs >= Math.max(...SOURCES.map(newest))
  );
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * electron-vite's JS entry point, run by this Node (no npx: it is a .cmd on Windows and needs a
 * shell).
 */
export function electronViteBuild(): { status: number | null; output: string } {
  const cli = join(
    dirname(createRequire(import.meta.url).resolve('electron-vite/package.json')),
    'bin',
    'electron-vite.js',
  );
  const run = spawnSync(process.execPath, [cli, 'build'], { encoding: 'utf8', timeout: 300_000 });
  return { status: run.status, output: `${run.stdout}\n${run.stderr}` };
}

/**
 * Builds out/ unless it is fresh; returns null when it is ready, else why it could not be built
 * (the tests that need it then fail with that reason rather than skip).
 */
export function ensureBuiltApp(): string | null {
  if (builtAppIsFresh()) return null;
  mkdirSync(dirname(LOCK), { recursive: true });
  const deadline = Date.now() + 300_000;
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      // Another worker builds; a lock older than the longest build is left over from a killed run.
      if (existsSync(LOCK) && Date.now() - statSync(LOCK).mtimeMs > 300_000)
        rmSync(LOCK, { recursive: true, force: true });
      if (Date.now() > deadline) return 'timed out waiting for another build of out/';
      sleep(200);
    }
  }
  try {
    if (builtAppIsFresh()) return null;
    const started = Date.now();
    const build = electronViteBuild();
    if (build.status !== 0) return `electron-vite build failed:\n${build.output.slice(-3000)}`;
    // The stamp's time is the build's start: a source saved during the build makes the next run
    // build again.
    writeFileSync(STAMP, '');
    utimesSync(STAMP, new Date(started), new Date(started));
    return null;
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}
