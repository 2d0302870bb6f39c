import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { OUT } from './built-app';
// @ts-expect-error: a plain .mjs script, typed by use.
import { binEntry } from '../../scripts/node-tools.mjs';

/**
 * electron-builder run here with build/electron-builder.yml, from a stand-in Electron distribution
 * (electron-builder's `electronDist`: a folder we make, so nothing is downloaded). The stand-in
 * executable carries Electron's fuse wire (@electron/fuses' sentinel, then the wire as Electron 39
 * ships it), so the fuses are flipped in it exactly as in a release. npmRebuild is off: rebuilding
 * better-sqlite3 needs Electron's headers from the network, and it would overwrite the build in
 * node_modules that the other tests load.
 *
 * A deb is made with a stand-in fpm (electron-builder's CUSTOM_FPM_PATH; the real one is downloaded
 * from GitHub): it writes, as the package, a JSON record of what it was asked (fpm's arguments, the
 * resources/package-type it found in the folder it packs), so everything electron-builder does
 * around fpm is real: app-update.yml, package-type, the package's SHA-512 and size,
 * latest-linux.yml.
 */
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
/** Electron's own fuse defaults, in FuseV1Options order ('1' on, '0' off). */
export const ELECTRON_DEFAULT_WIRE = '10110001';

function standInElectron(dir: string): void {
  mkdirSync(join(dir, 'resources'), { recursive: true });
  const wire = Buffer.concat([
    Buffer.from('#!/bin/sh\necho "stand-in Electron"\n'),
    Buffer.from(SENTINEL),
    Buffer.from([1, ELECTRON_DEFAULT_WIRE.length]),
    Buffer.from(ELECTRON_DEFAULT_WIRE),
  ]);
  writeFileSync(join(dir, 'electron'), wire);
  chmodSync(join(dir, 'electron'), 0o755);
  for (const f of ['chrome-sandbox', 'LICENSE', 'LICENSES.chromium.html'])
    writeFileSync(join(dir, f), '');
  writeFileSync(
    join(dir, 'version'),
    (
      JSON.parse(
        readFileSync(createRequire(import.meta.url).resolve('electron/package.json'), 'utf8'),
      ) as { version: string }
    ).version,
  );
}

/** What the stand-in fpm writes as the package. */
export interface StandInPackage {
  readonly args: string[];
  /** resources/package-type in the folder fpm packed, when fpm ran. */
  readonly packageType: string | null;
}

function standInFpm(path: string): void {
  writeFileSync(
    path,
    [
      `#!${process.execPath}`,
      `const { readFileSync, writeFileSync } = require('node:fs');`,
      `const args = process.argv.slice(2);`,
      `const out = args[args.indexOf('--package') + 1];`,
      // The app's folder is packed as '<folder>/=/opt/<product>'.
      `const folder = args.find((a) => a.includes('/=/opt/')).split('/=/opt/')[0];`,
      `let packageType = null; try { packageType = readFileSync(folder + '/resources/package-type', 'utf8'); } catch {}`,
      `writeFileSync(out, JSON.stringify({ args, packageType }));`,
    ].join('\n'),
  );
  chmodSync(path, 0o755);
}

/**
 * How electron-builder is run for `packageApp`: the project folder it runs in, and its command
 * line.
 */
function builderRun(work: string, name: string, args: string[]) {
  const dist = join(work, 'electron-dist');
  if (!existsSync(dist)) standInElectron(dist);
  const fpm = join(work, 'fpm');
  if (!existsSync(fpm)) standInFpm(fpm);
  let projectDir = process.cwd();
  if (lstatSync('node_modules').isSymbolicLink()) {
    projectDir = join(work, 'project');
    if (!existsSync(projectDir)) {
      mkdirSync(projectDir);
      cpSync(OUT, join(projectDir, 'out'), { recursive: true });
      cpSync('build', join(projectDir, 'build'), { recursive: true });
      const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as Record<string, unknown>;
      writeFileSync(
        join(projectDir, 'package.json'),
        JSON.stringify({ ...pkg, packageManager: 'traversal@1' }, null, 2),
      );
      symlinkSync(realpathSync('node_modules'), join(projectDir, 'node_modules'), 'junction');
    }
  }
  const releaseDir = join(work, name);
  const argv = [
    binEntry('electron-builder') as string,
    '--config',
    'build/electron-builder.yml',
    '--publish',
    'never',
    `-c.electronDist=${dist}`,
    '-c.npmRebuild=false',
    `-c.directories.output=${releaseDir}`,
    ...args,
  ];
  return { argv, releaseDir, cwd: projectDir, env: { ...process.env, CUSTOM_FPM_PATH: fpm } };
}

/**
 * What a packaging run left: electron-builder's exit status and output, and the folder it wrote.
 */
export interface Packaged {
  readonly status: number | null;
  readonly output: string;
  readonly releaseDir: string;
}

/**
 * Runs electron-builder over out/ (built beforehand) into `work`/`name`: `args` are its target and
 * `-c.` overrides. Where node_modules is a real folder (CI) electron-builder runs in the checkout
 * and chooses what ships with `npm ls`, as `npm run package` does. A worktree whose node_modules is
 * a link to a shared install confuses `npm ls` (every package reads as a link outside the project),
 * so there a staged copy of the project walks the node_modules folders instead (electron-builder's
 * traversal collector).
 */
export function packageApp(work: string, name: string, args: string[]): Packaged {
  const { argv, releaseDir, cwd, env } = builderRun(work, name, args);
  const run = spawnSync(process.execPath, argv, { cwd, encoding: 'utf8', timeout: 280_000, env });
  return { status: run.status, output: `${run.stdout}\n${run.stderr}`, releaseDir };
}

/**
 * `packageApp` for several packages at once, each its own electron-builder process (into its own
 * folder of `work`), so that one waiting on the disk leaves the processor to another. Resolves once
 * all have ended.
 */
export async function packageApps(
  work: string,
  runs: readonly { readonly name: string; readonly args: string[] }[],
): Promise<Packaged[]> {
  // The stand-ins and the staged project are made once, before any run starts.
  const commands = runs.map((r) => builderRun(work, r.name, r.args));
  return Promise.all(
    commands.map(
      ({ argv, releaseDir, cwd, env }) =>
        new Promise<Packaged>((resolve) => {
          const child = spawn(process.execPath, argv, { cwd, env, timeout: 280_000 });
          let output = '';
          child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
          child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
          child.on('error', (error) => (output += `\n${error.message}`));
          child.on('close', (status) => resolve({ status, output, releaseDir }));
        }),
    ),
  );
}
