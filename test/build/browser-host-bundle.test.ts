import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BROWSER_HOST_DIR,
  BROWSER_HOST_ENTRY,
  buildBrowserHost,
} from '../../scripts/browser-host-build.mjs';

interface Metafile {
  outputs: Record<
    string,
    {
      inputs: Record<string, unknown>;
      imports: { path: string; kind: string; external?: boolean }[];
    }
  >;
}

/**
 * The browser host as `npm run demo` starts it (scripts/browser-host-build.mjs): one esbuild bundle
 * run by plain Node. Built here from the sources, then started for real: it serves its launch page,
 * and in demo mode the demo sites start from their own chunk (which finds the SQL migrations and
 * GraphQL schema beside it).
 */
describe('the browser host bundle', () => {
  let meta: Metafile;
  const children: ChildProcess[] = [];
  const dirs: string[] = [];
  beforeAll(async () => {
    meta = (await buildBrowserHost()) as Metafile;
  }, 120_000);
  afterAll(async () => {
    for (const child of children) {
      if (child.exitCode !== null) continue;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /** The output files loaded with `files`: they and what they import statically, transitively. */
  const closure = (files: readonly string[]): Set<string> => {
    const seen = new Set<string>();
    const walk = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const i of meta.outputs[file]!.imports)
        if (!i.external && i.kind === 'import-statement') walk(i.path);
    };
    for (const f of files) walk(f);
    return seen;
  };
  const inputsOf = (files: Iterable<string>) =>
    [...files].flatMap((f) => Object.keys(meta.outputs[f]!.inputs));
  const entry = () => Object.keys(meta.outputs).find((f) => f.endsWith('browser-host/cli.js'))!;
  /** The chunk the entry imports dynamically whose inputs hold `input`. */
  const dynamicChunkOf = (input: string) =>
    meta.outputs[entry()]!.imports.filter((i) => i.kind === 'dynamic-import' && !i.external).find(
      (i) => Object.keys(meta.outputs[i.path]!.inputs).includes(input),
    )?.path;
  /**
   * What loads before the first answer: the entry, then the core and the contract's checks once it
   * listens.
   */
  const startFiles = () =>
    closure([
      entry(),
      dynamicChunkOf('electron/core/app-core.ts')!,
      dynamicChunkOf('electron/core/ipc-dispatch.ts')!,
    ]);

  it('listens before the core loads: the entry holds neither the core nor zod, which load behind it', () => {
    const first = inputsOf(closure([entry()]));
    expect(
      first.filter(
        (i) => i.startsWith('electron/core/app-core') || i.includes('node_modules/zod/'),
      ),
    ).toEqual([]);
    expect(dynamicChunkOf('electron/core/app-core.ts')).toBeDefined();
    expect(dynamicChunkOf('electron/core/ipc-dispatch.ts')).toBeDefined();
  });

  it('loads the embedded server only when a demo site starts: nothing loaded at the start holds any of it', () => {
    const inputs = inputsOf(startFiles());
    expect(inputs.some((i) => i.startsWith('electron/core/app-core'))).toBe(true);
    // The fault switches' checks (one file, no imports) serve Settings > Demo before the sites
    // start.
    expect(
      inputs.filter(
        (i) => i.startsWith('embedded-server/') && i !== 'embedded-server/http/faults.ts',
      ),
    ).toEqual([]);
    // It is there, behind a dynamic import.
    const all = Object.keys(meta.outputs).filter((f) => f.endsWith('.js'));
    expect(
      all.some((f) => Object.keys(meta.outputs[f]!.inputs).includes('embedded-server/index.ts')),
    ).toBe(true);
  });

  it('loads graphql-js and graphql-request at the first sync, and one zod message language, not at the start', () => {
    const statics = startFiles();
    const inputs = inputsOf(statics);
    expect(inputs.some((i) => i.startsWith('electron/core/sync/service'))).toBe(true);
    expect(inputs.filter((i) => /node_modules\/(graphql|graphql-request)\//.test(i))).toEqual([]);
    expect(inputs.filter((i) => i.includes('electron/core/sync/transport.ts'))).toEqual([]);
    // (The module standing in for zod's list of languages is named after the one it keeps.)
    expect(
      new Set(
        inputs
          .filter((i) => /node_modules\/zod\/v4\/locales\//.test(i))
          .map((i) => i.replace(/.*\//, '')),
      ),
    ).toEqual(new Set(['en.js']));
    // The transport is there, behind a dynamic import.
    const all = Object.keys(meta.outputs).filter((f) => f.endsWith('.js'));
    expect(
      all.some(
        (f) =>
          !statics.has(f) &&
          Object.keys(meta.outputs[f]!.inputs).includes('electron/core/sync/transport.ts'),
      ),
    ).toBe(true);
  });

  it('starts with plain Node, prints its launch URL, and starts the demo sites from their chunk', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ld-bundle-'));
    dirs.push(dataDir);
    const child = spawn(
      process.execPath,
      [BROWSER_HOST_ENTRY as string, '--demo', '--no-open', '--data-dir', dataDir],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    children.push(child);
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    await expect
      .poll(() => /running at (http:\/\/127\.0\.0\.1:\d+\/\S+)/.exec(out)?.[1] ?? null, {
        timeout: 90_000,
      })
      .not.toBeNull();
    expect(out).not.toMatch(/could not be started/);
    // The printed link is a one-time launch page: it sets the session cookie and works once.
    const launchUrl = /running at (\S+)/.exec(out)![1]!;
    const launch = await fetch(launchUrl, { redirect: 'manual' });
    expect(launch.status).toBe(200);
    expect(launch.headers.get('set-cookie')).toMatch(/HttpOnly/i);
    expect((await fetch(launchUrl, { redirect: 'manual' })).status).toBe(403);
    // The demo sites' own databases, made by the embedded server's migrations read beside its chunk
    // (the URL is printed while the core opens: the demo sites start after it).
    await expect
      .poll(
        () =>
          existsSync(join(dataDir, 'demo-server'))
            ? readdirSync(join(dataDir, 'demo-server'))
                .filter((f) => f.endsWith('.db'))
                .sort()
            : [],
        { timeout: 60_000 },
      )
      .toEqual(['demo.db', 'demo2.db']);
    expect(existsSync(join(BROWSER_HOST_DIR as string, 'db-writer.js'))).toBe(true);
    expect(existsSync(join(BROWSER_HOST_DIR as string, 'file-transfer.js'))).toBe(true);
  }, 120_000);
});
