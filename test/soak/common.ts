/**
 * Shared pieces of `npm run soak`: the scale factor, bundled child processes (a child started
 * through tsx takes seconds to load on a busy machine; a bundle starts in a fraction of that, so
 * hundreds of kill -9 stay within minutes), the demo sign-in, and the table printer.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { ScriptedBrowser } from '../helpers/scripted-browser';
import { createTestCore } from '../helpers/test-core';

/**
 * SOAK_SCALE (env) or --scale=x scales every count (default 1: the counts the reliability goals
 * name).
 */
export function scaled(count: number, scale: number): number {
  return Math.max(1, Math.round(count * scale));
}

export interface SoakResult {
  readonly name: string;
  /** Column -> value; failure columns are named in `failures`. */
  readonly row: Record<string, string | number>;
  readonly failures: readonly string[];
}

/**
 * A soak's result: its own columns, then whether it ran out of time before `wanted` trials (a
 * failure: the figure would be over fewer trials than asked) and how long it took.
 */
export function soakResult(
  name: string,
  row: Record<string, string | number>,
  failures: readonly string[],
  run: { readonly done: number; readonly wanted: number; readonly started: number },
): SoakResult {
  return {
    name,
    row: {
      ...row,
      'stopped by time limit': run.done < run.wanted ? 1 : 0,
      seconds: Math.round((Date.now() - run.started) / 1000),
    },
    failures: [...failures, 'stopped by time limit'],
  };
}

export function printTable(title: string, rows: readonly Record<string, string | number>[]): void {
  if (rows.length === 0) return;
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const width = (c: string) => Math.max(c.length, ...rows.map((r) => String(r[c] ?? '').length));
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  console.log(`\n${title}`);
  console.log(line(columns.map((c) => c.padEnd(width(c)))));
  console.log(line(columns.map((c) => '-'.repeat(width(c)))));
  for (const r of rows) console.log(line(columns.map((c) => String(r[c] ?? '').padEnd(width(c)))));
}

export function load(): string {
  return loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
}

const here = fileURLToPath(new URL('.', import.meta.url));
const requireHere = createRequire(import.meta.url);

/** Bundles the child entry points (and the database writer worker beside them) into a temp dir. */
export async function bundleChildren(): Promise<{
  dir: string;
  path(name: string): string;
  dispose(): void;
}> {
  const dir = mkdtempSync(join(tmpdir(), 'ld-soak-bundle-'));
  await build({
    entryPoints: {
      'refresh-child': join(here, 'children', 'refresh-child.ts'),
      'core-child': join(here, 'children', 'core-child.ts'),
      'download-child': join(here, 'children', 'download-child.ts'),
      // electron/core/worker/writer.ts looks for its worker as db-writer.js beside the bundle (as
      // in the app build).
      'db-writer': join(here, '..', '..', 'electron', 'core', 'worker', 'writer-worker.ts'),
      // electron/core/downloads/transfer-thread.ts looks for the download thread as
      // file-transfer.js.
      'file-transfer': join(
        here,
        '..',
        '..',
        'electron',
        'core',
        'downloads',
        'transfer-worker.ts',
      ),
    },
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['electron'],
    // The bundle lives in a temp dir: native better-sqlite3 stays outside it, imported by its
    // absolute path.
    plugins: [
      {
        name: 'native-by-path',
        setup(b) {
          b.onResolve({ filter: /^better-sqlite3$/ }, () => ({
            path: requireHere.resolve('better-sqlite3'),
            external: true,
          }));
        },
      },
    ],
    logLevel: 'warning',
    // better-sqlite3 is CommonJS and loaded by require.
    banner: {
      js: "import { createRequire as __soakRequire } from 'node:module'; const require = __soakRequire(import.meta.url);",
    },
  });
  // The workers are looked up as db-writer.js and file-transfer.js.
  const { renameSync } = await import('node:fs');
  renameSync(join(dir, 'db-writer.mjs'), join(dir, 'db-writer.js'));
  renameSync(join(dir, 'file-transfer.mjs'), join(dir, 'file-transfer.js'));
  return {
    dir,
    path: (name) => join(dir, `${name}.mjs`),
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface Child {
  readonly process: ChildProcess;
  readonly pid: number;
  /** Resolves with the next message of `type` (or rejects when the child exits first). */
  next<T = Record<string, unknown>>(type: string, timeoutMs?: number): Promise<T>;
  readonly exited: Promise<number | null>;
  kill9(): Promise<void>;
}

/**
 * Forks a bundled child (the Node process itself: killing child.pid kills the process that does the
 * work).
 */
export function startChild(
  script: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Child {
  const child = fork(script, [...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr = (stderr + c.toString('utf8')).slice(-2000)));
  const queue: Record<string, unknown>[] = [];
  const waiters: {
    type: string;
    resolve: (m: Record<string, unknown>) => void;
    reject: (e: Error) => void;
  }[] = [];
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  child.on('message', (m: Record<string, unknown>) => {
    const i = waiters.findIndex((w) => w.type === m.type);
    if (i >= 0) waiters.splice(i, 1)[0]!.resolve(m);
    else queue.push(m);
  });
  void exited.then((code) => {
    for (const w of waiters.splice(0))
      w.reject(
        new Error(
          `child exited (${code}) before "${w.type}": ${stderr.trim().split('\n').slice(-3).join(' / ')}`,
        ),
      );
  });
  return {
    process: child,
    pid: child.pid!,
    exited,
    next<T>(type: string, timeoutMs = 60_000): Promise<T> {
      const i = queue.findIndex((m) => m.type === type);
      if (i >= 0) return Promise.resolve(queue.splice(i, 1)[0] as T);
      if (child.exitCode !== null || child.signalCode !== null)
        return Promise.reject(new Error(`child already exited: ${stderr.slice(-300)}`));
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no "${type}" from the child in ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiters.push({
          type,
          resolve: (m) => (clearTimeout(timer), resolve(m as T)),
          reject: (e) => (clearTimeout(timer), reject(e)),
        });
      });
    },
    async kill9() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/**
 * Adds the site to a fresh data dir and signs in through the real core and a scripted browser;
 * closes the core.
 */
export async function signedInDataDir(
  baseUrl: string,
): Promise<{ dataDir: string; siteId: string; dispose(): void }> {
  const root = mkdtempSync(join(tmpdir(), 'ld-soak-'));
  const dataDir = join(root, 'data');
  const core = await createTestCore({
    dataDir,
    version: '0.0.0-soak',
    openExternal: async (url) => {
      const redirect = new URL(url).searchParams.get('redirect_uri')!;
      void new ScriptedBrowser()
        .authorize(url, { stopAt: redirect })
        .then((callback) => fetch(callback).then((r) => r.text()));
    },
  });
  try {
    const added = await core.handlers['sites:add']({ baseUrl, clientId: 'demo-desktop' });
    if (!added.ok) throw new Error(`add failed: ${added.error.message}`);
    const signedIn = await core.handlers['sites:sign-in']({ siteId: added.value.id });
    if (!signedIn.ok) throw new Error(`sign-in failed: ${signedIn.error.message}`);
    return {
      dataDir,
      siteId: added.value.id,
      dispose: () => rmSync(root, { recursive: true, force: true }),
    };
  } finally {
    await core.close();
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
